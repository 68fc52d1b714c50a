"""A puzzle with several solutions: ``explain``, ``hint`` and ``render --walkthroughs`` against
``solve`` (a script, not a test): python benchmarks/bench_several.py [--rounds N]

Each command runs as a whole process on the same file; the figures are its wall-clock
seconds and its peak resident memory, and the ratio of each to ``solve``'s, measured in the
same run (best of the rounds). The target: ``explain`` within 3x of ``solve`` in both.
Cases: MarcelGarus/kakuro ``huge.kakuro`` (101x31, two solutions; from the corpus) and the
bundled ``seed000-k.j`` k3 (40 solutions).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: tests.support lives beside the package
    sys.path.insert(0, str(ROOT))

from tests.support import corpus  # noqa: E402

PEAK = """
import resource, subprocess, sys, time
t = time.perf_counter()
proc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
wall = time.perf_counter() - t
print(proc.returncode, wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def measure(args: list[str]) -> tuple[int, float, float]:
    """(exit code, seconds, peak MiB) of ``python -m deducer ARGS`` as its own process."""
    out = subprocess.run([sys.executable, "-c", PEAK, sys.executable, "-m", "deducer", *args],
                         capture_output=True, text=True, cwd=ROOT, check=True)
    code, wall, kib = out.stdout.split()
    return int(code), float(wall), int(kib) / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2)
    opts = ap.parse_args()
    cases = [("seed000-k k3 (bundled, 40 solutions)", [str(ROOT / "puzzles" / "seed000-k.j"),
                                                        "--name", "k3"])]
    root = corpus.corpus_root()
    huge = None if root is None else root / "marcelgarus-kakuro" / "huge.kakuro"
    if huge is not None and huge.is_file():
        cases.insert(0, ("marcelgarus huge (101x31, 2 solutions)", [str(huge)]))
    else:
        print("corpus not found (set DEDUCER_CORPUS): the bundled case only")
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        print("| case | command | exit | seconds | peak MiB | time / solve | memory / solve |")
        print("|---|---|---|---|---|---|---|")
        for label, src in cases:
            commands = {
                "solve": ["solve", *src],
                "explain": ["explain", *src],
                "hint": ["hint", *src],
                "render --pdf --walkthroughs": ["render", *src, "--pdf",
                                                str(Path(tmp) / "b.pdf"), "--walkthroughs",
                                                "--force"],
            }
            best: dict[str, tuple[int, float, float]] = {}
            for _ in range(opts.rounds):  # the commands alternate within a round
                for name, args in commands.items():
                    got = measure(args)
                    old = best.get(name)
                    best[name] = got if old is None else (got[0], min(old[1], got[1]),
                                                          min(old[2], got[2]))
            _, s_time, s_mem = best["solve"]
            for name, (code, wall, mib) in best.items():
                rt, rm = wall / s_time, mib / s_mem
                if name == "explain":
                    worst = max(worst, rt, rm)
                print(f"| {label} | {name} | {code} | {wall:.2f} | {mib:.0f} | {rt:.2f} | "
                      f"{rm:.2f} |")
    print(f"\nexplain against solve, worst ratio: {worst:.2f} (target: at most 3)")
    return 0 if worst <= 3 else 1


if __name__ == "__main__":
    sys.exit(main())

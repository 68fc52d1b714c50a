"""What the ``notes`` figure costs `deducer rate` (a script, not a test):

    python benchmarks/bench_notes.py [--every N] [--rounds R] [--base TREE]

Rates the unique janko.at puzzles of the corpus (every Nth; default all 959) as a user
would, one whole ``deducer rate FOLDER --jobs 1`` command each time, and prints the CPU
seconds of each command (the process and its children) with the ratio against the
baseline measured in the same run, the commands interleaved round after round:

- **no notes**: the same code with a rule file that sets every ``notes`` coefficient to
  0 (the rater then skips the no-notes solver: the cost of the walk and the score alone);
- **base** (with ``--base TREE``): a checkout of the code before ``notes`` (e.g. ``git
  archive main | tar -x -C TREE``), run from that tree.

Target (issue 52): within 1.1x of the code before. The puzzles are written as files to a
temporary folder first (the corpus is read-only and never copied into the repository).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def cpu_of(cmd: list[str], cwd: Path) -> float:
    """CPU seconds (user + system) of a command and everything it started."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, cwd=cwd, check=False, stdout=subprocess.DEVNULL,
                   env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    from deducer.engine.registry import NOTES_FEATURES
    from deducer.puzzle.formats import dumps
    from tests.support import corpus

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--base", type=Path, help="a tree of the code before notes")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "janko"
        folder.mkdir()
        n = 0
        for k, cp in enumerate(p for p in corpus.janko() if p.expected == "unique"):
            if k % args.every == 0:
                (folder / f"janko-{cp.id}.json").write_text(dumps(cp.puzzle, "json"),
                                                           encoding="utf-8")
                n += 1
        zero = Path(tmp) / "no-notes.yaml"
        zero.write_text("rules: []\nrating:\n  notes:\n    coefficients: {"
                        + ", ".join(f"{k}: 0" for k in NOTES_FEATURES) + "}\n",
                        encoding="utf-8")
        rate = [sys.executable, "-m", "deducer", "rate", str(folder), "--jobs", "1"]
        runs = {"notes": (rate, ROOT), "no notes": (rate + ["--rules", str(zero)], ROOT)}
        if args.base:
            runs["base"] = (rate, args.base.resolve())
        cpu: dict[str, list[float]] = {k: [] for k in runs}
        for r in range(args.rounds):
            for name, (cmd, cwd) in runs.items():
                cpu[name].append(cpu_of(cmd, cwd))
                print(f"round {r + 1}: {name}: {cpu[name][-1]:.1f} s CPU", file=sys.stderr)
        base = "base" if args.base else "no notes"
        ref = min(cpu[base])
        print(f"{n} janko.at puzzles, deducer rate --jobs 1, CPU seconds (best of "
              f"{args.rounds}), ratio against {base}:")
        for name, v in cpu.items():
            print(f"  {name:9} {min(v):8.1f} s  {min(v) / ref:.3f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Start-up cost: the whole-process time of `deducer solve` on each bundled puzzle against
`python -c pass`, both measured in the same run, alternately (a loaded machine slows both).

    python benchmarks/bench_startup.py [--repeat N]

Prints per puzzle the median wall time of `python -m deducer solve PUZZLE` and its ratio to
the median of `python -c pass`, then the median ratio over the puzzles (the target:
at most 2.5). Also lists the deducer modules `deducer solve` imports (the explain engine
must not be among them).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = sorted(p for p in (ROOT / "deducer" / "data" / "puzzles").iterdir()
                 if p.suffix != ".json")


#: bytecode cached as in any installed package (pip writes it; PYTHONDONTWRITEBYTECODE, set
#: on some machines, would make every run compile every module), kept out of the tree
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENV["PYTHONPYCACHEPREFIX"] = os.path.join(tempfile.gettempdir(), "deducer-bench-pycache")


def _run(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False, env=ENV)
    return time.perf_counter() - start


def imported_modules(puzzle: Path) -> list[str]:
    """The deducer modules a `deducer solve` process has imported by the time it exits."""
    code = ("import sys, runpy; sys.argv = ['deducer', 'solve', sys.argv[1]]\n"
            "try:\n    runpy.run_module('deducer', run_name='__main__')\n"
            "except SystemExit:\n    pass\n"
            "print(' '.join(sorted(m for m in sys.modules if m.startswith('deducer'))),"
            " file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code, str(puzzle)], cwd=ROOT,
                         capture_output=True, text=True, check=False, env=ENV)
    return out.stderr.split()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    base: list[float] = []
    times: dict[Path, list[float]] = {p: [] for p in PUZZLES}
    for p in PUZZLES:  # warm up: bytecode written, files in the page cache
        _run([sys.executable, "-m", "deducer", "solve", str(p)])
    for _ in range(args.repeat):
        for p in PUZZLES:  # alternate, so load changes hit both sides alike
            base.append(_run([sys.executable, "-c", "pass"]))
            times[p].append(_run([sys.executable, "-m", "deducer", "solve", str(p)]))
    b = statistics.median(base)
    print(f"python -c pass: median {b * 1000:.1f} ms over {len(base)} runs")
    ratios = []
    for p, ts in times.items():
        t = statistics.median(ts)
        ratios.append(t / b)
        print(f"deducer solve {p.name:<24} {t * 1000:7.1f} ms  {t / b:4.2f}x")
    print(f"median ratio {statistics.median(ratios):.2f}x, worst {max(ratios):.2f}x "
          "(target: at most 2.5x)")
    mods = imported_modules(PUZZLES[0])
    print(f"deducer solve imports {len(mods)} deducer modules; explain engine among them: "
          f"{'deducer.explain.engine' in mods}")


if __name__ == "__main__":
    main()

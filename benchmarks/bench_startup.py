"""Start-up cost: the whole-process time of `deducer solve` on each bundled puzzle against
`python -c pass`, both measured in the same run, alternately (a loaded machine slows both).

    python benchmarks/bench_startup.py [--repeat N]

Prints per puzzle the best CPU time (user + system) of `deducer solve PUZZLE` over N runs
(the installed command beside this Python, else `python -m deducer`; default 15) and its
ratio to the best of `python -c pass`, with the medians and wall times beside them, then the
median and worst ratio over the puzzles. Target (issue 53, plain dataclasses and imports at
module level; 2.2x in issue 40): at most 2.5x in CPU, best of 15
(the best is what the work costs; a loaded machine only adds to it). Also lists the deducer
modules `deducer solve` imports (neither the explain engine nor another format's reader
may be among them).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
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


def _run(cmd: list[str]) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of one whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # output captured, not sent to os.devnull: a shared machine's /dev/null was seen
    # replaced by a plain file (a rename over it), which then fails or fills up
    subprocess.run(cmd, cwd=ROOT, capture_output=True, check=False, env=ENV)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


#: the installed ``deducer`` command (what a person runs), else ``python -m deducer``
SCRIPT = Path(sys.executable).with_name("deducer")
DEDUCER = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "deducer"]


def solve_command(puzzle: Path) -> list[str]:
    """``deducer solve PUZZLE``, with ``--name`` of its first puzzle when the file holds
    several (the command refuses to guess)."""
    cmd = [*DEDUCER, "solve", str(puzzle)]
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False, env=ENV)
    names = re.search(r"holds \d+ puzzles \(([^,)]+)", out.stderr)
    return cmd + ["--name", names[1]] if out.returncode == 2 and names else cmd


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
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    base: list[tuple[float, float]] = []
    times: dict[Path, list[tuple[float, float]]] = {p: [] for p in PUZZLES}
    cmds = {p: solve_command(p) for p in PUZZLES}  # also the warm-up: bytecode written
    for _ in range(args.repeat):
        for p in PUZZLES:  # alternate, so load changes hit both sides alike
            base.append(_run([sys.executable, "-c", "pass"]))
            times[p].append(_run(cmds[p]))
    med = statistics.median
    bw, bc = min(w for w, _ in base), min(c for _, c in base)
    bcm = med(c for _, c in base)
    print(f"python -c pass: best {bc * 1000:.1f} ms CPU (median {bcm * 1000:.1f}),"
          f" best {bw * 1000:.1f} ms wall, over {len(base)} runs; load average "
          f"{os.getloadavg()[0]:.1f}")
    cpu_ratios, med_ratios, wall_ratios = [], [], []
    for p, ts in times.items():
        c, cm, w = min(y for _, y in ts), med(y for _, y in ts), min(x for x, _ in ts)
        cpu_ratios.append(c / bc)
        med_ratios.append(cm / bcm)
        wall_ratios.append(w / bw)
        print(f"deducer solve {p.name:<24} best {c * 1000:6.1f} ms CPU {c / bc:4.2f}x   "
              f"median {cm * 1000:6.1f} ms {cm / bcm:4.2f}x   best wall {w * 1000:6.1f} ms "
              f"{w / bw:4.2f}x")
    print(f"CPU, best of {args.repeat}: median ratio {med(cpu_ratios):.2f}x, worst "
          f"{max(cpu_ratios):.2f}x (target: at most 2.5x)")
    print(f"CPU, medians: median ratio {med(med_ratios):.2f}x, worst {max(med_ratios):.2f}x; "
          f"wall, best: median ratio {med(wall_ratios):.2f}x, worst {max(wall_ratios):.2f}x")
    mods = imported_modules(PUZZLES[0])
    readers = [m for m in mods if m.startswith("deducer.puzzle.formats.")]
    print(f"deducer solve imports {len(mods)} deducer modules; explain engine among them: "
          f"{'deducer.engine.walk' in mods}; format readers: "
          f"{', '.join(m.rsplit('.', 1)[1] for m in readers) or 'none'}")


if __name__ == "__main__":
    main()

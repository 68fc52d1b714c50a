"""Solve-with-uniqueness timings on the hard and large corpus puzzles (a script, not a test).

    python benchmarks/bench_solve.py [--repeat 5] [--cmd-repeat 5]

For each puzzle: the in-process ``solve(p, max_solutions=2)`` time (run-filter cache cleared
before every run; first run and best of N) and the whole-command time of
``deducer solve PUZZLE --json`` in a fresh process (first and best of N). Baselines measured in
the same run (``python -c pass``, ``python -c 'import networkx'``) put the command times in
proportion to this machine's start-up cost. Targets: 0.1 s in-process, 0.35 s per command.
Always exits 0 (a missing corpus or a failing command is reported in the table).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from deducer.puzzle import formats  # noqa: E402
from deducer.solve import propagate  # noqa: E402
from deducer.solve.search import solve  # noqa: E402
from tests.support import corpus  # noqa: E402

TARGET_SOLVE = 0.1
TARGET_CMD = 0.35
PUZZLES = [("marcelgarus", "30x30"), ("marcelgarus", "book"), ("janko", "186"),
           ("janko", "240"), ("janko", "302"), ("janko", "960")]


def deducer_command() -> list[str]:
    """The installed console script (not a pyenv shim, which adds its own start-up)."""
    local = Path(sys.executable).parent / "deducer"
    if local.exists():
        return [str(local)]
    found = shutil.which("deducer")
    if found and "shims" not in found:
        return [found]
    return [sys.executable, "-m", "deducer"]


def time_cmd(argv: list[str], repeat: int) -> tuple[float, float, int, str]:
    """(first, best) wall time of a command, its last exit code and status field."""
    times, code, status = [], 0, ""
    for _ in range(repeat):
        t = time.perf_counter()
        proc = subprocess.run(argv, capture_output=True, text=True)
        times.append(time.perf_counter() - t)
        code = proc.returncode
        if '"status"' in proc.stdout:
            status = proc.stdout.split('"status":', 1)[1].split(",", 1)[0].strip().strip('"')
    return times[0], min(times), code, status


def time_solve(p, repeat: int) -> tuple[float, float, str, bool]:
    times, res = [], None
    for _ in range(repeat):
        propagate._CACHE.clear()
        t = time.perf_counter()
        res = solve(p, max_solutions=2)
        times.append(time.perf_counter() - t)
    return times[0], min(times), res.status, res.complete


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="in-process runs per puzzle")
    ap.add_argument("--cmd-repeat", type=int, default=5, help="command runs per puzzle")
    args = ap.parse_args(argv)

    py = sys.executable
    base_pass = time_cmd([py, "-c", "pass"], args.cmd_repeat)
    base_nx = time_cmd([py, "-c", "import networkx"], args.cmd_repeat)
    cmd = deducer_command()
    print(f"python {sys.version.split()[0]} on {os.cpu_count()} cpu(s); command: "
          f"{' '.join(cmd)} solve PUZZLE --json")
    print(f"baseline `python -c pass`:            first {base_pass[0]:.3f} s  best "
          f"{base_pass[1]:.3f} s")
    print(f"baseline `python -c 'import networkx'`: first {base_nx[0]:.3f} s  best "
          f"{base_nx[1]:.3f} s")
    print(f"targets: in-process solve <= {TARGET_SOLVE} s; command <= {TARGET_CMD} s\n")

    root = corpus.corpus_root()
    if root is None:
        print("corpus not found (set DEDUCER_CORPUS): nothing to time")
        return 0

    head = (f"{'puzzle':<18} {'size':>6} {'cells':>5} {'status':<8} {'solve 1st':>9} "
            f"{'best':>7} {'/tgt':>5} {'cmd 1st':>8} {'best':>7} {'/tgt':>5} "
            f"{'/py':>5} {'/nx':>5}")
    print(head)
    print("-" * len(head))
    worst_solve = worst_cmd = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for source, pid in PUZZLES:
            name = f"{source} {pid}"
            try:
                cp = corpus.get(source, pid)
            except Exception as e:  # noqa: BLE001 - report, keep going
                print(f"{name:<18} unavailable: {e}")
                continue
            p = cp.puzzle
            first, best, status, complete = time_solve(p, args.repeat)
            if not complete:
                status += "?"
            path = cp.meta.get("path")
            if source != "marcelgarus" or path is None:
                path = Path(tmp) / f"{source}-{pid}.json"
                path.write_text(formats.dumps(p, "json"))
            c_first, c_best, code, c_status = time_cmd(
                cmd + ["solve", str(path), "--json"], args.cmd_repeat)
            if code not in (0, 1) or c_status != status.rstrip("?"):
                c_note = f" (exit {code}, status {c_status or '?'})"
            else:
                c_note = ""
            worst_solve = max(worst_solve, best)
            worst_cmd = max(worst_cmd, c_best)
            print(f"{name:<18} {p.rows:>2}x{p.cols:<3} {len(p.whites):>5} {status:<8} "
                  f"{first:>9.3f} {best:>7.3f} {best / TARGET_SOLVE:>5.2f} "
                  f"{c_first:>8.3f} {c_best:>7.3f} {c_best / TARGET_CMD:>5.2f} "
                  f"{c_best / base_pass[1]:>5.1f} {c_best / base_nx[1]:>5.1f}{c_note}")
    print(f"\nworst best-of-{args.repeat} in-process: {worst_solve:.3f} s "
          f"({'within' if worst_solve <= TARGET_SOLVE else 'OVER'} target {TARGET_SOLVE} s); "
          f"worst command: {worst_cmd:.3f} s "
          f"({'within' if worst_cmd <= TARGET_CMD else 'OVER'} target {TARGET_CMD} s)")
    print("columns: /tgt = best / target; /py, /nx = command best / baseline best")
    return 0


if __name__ == "__main__":
    try:
        code = main()
    except Exception as e:  # noqa: BLE001 - the benchmark never fails the caller
        print(f"benchmark error: {type(e).__name__}: {e}")
        code = 0
    sys.exit(code)

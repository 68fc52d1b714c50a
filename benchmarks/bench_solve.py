"""deducer against OR-tools CP-SAT, both measured in this run (a script, not a test).

    python benchmarks/bench_solve.py [--repeat 3] [--cmd-repeat 2] [--only NAME]

Every case is solved up to two solutions (uniqueness) by both: in-process (deducer's
run-filter cache cleared first, so every run is cold; best of N) and as a whole process
(``deducer solve FILE --json`` against ``python benchmarks/cpsat_kakuro.py MODEL``: python
start-up, imports, model, search). Cases: the marcelgarus set (huge included), janko 186,
240, 302 and 960, dense 8x7 and 8x8 blocks of clued runs, generated 20x20 and 60x60 grids
with several solutions, and two 5x5 blocks joined by one bridge cell (independent halves once
the bridge is decided). The ratio column is deducer / CP-SAT (target: <= 1 everywhere);
``splits`` counts the nodes deducer searched part by part (re-splitting below the root).

``--first`` instead measures what a program pays for its first solve (issue 40): in a fresh
process each, the CPU time of importing deducer, loading the puzzle file and solving it
(``deducer.load`` + ``deducer.solve``, every import the first solve needs) against CP-SAT's
model build and ``Solve`` in a fresh process (ortools imported beforehand, not counted),
best of ``--first-repeat``; the median ratio over the cases (target at most 1.5) and the
worst (at most 3), and whether the first solve imported the SAT solver.
Needs ``pip install ortools`` (the ``bench`` extra); without it only deducer is timed.
The machine may be shared: trust the ratios (same run) more than the absolute times.
Always exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "benchmarks"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from deducer.clock import Limits  # noqa: E402
from deducer.puzzle import formats  # noqa: E402
from deducer.solver import propagate  # noqa: E402
from deducer.solver.search import solve  # noqa: E402
from tests.support import corpus, grids  # noqa: E402

LIMIT = 300.0  # seconds per solve, either solver


#: a fresh process's first solve: import, load, solve; CPU seconds (and was PySAT imported?)
FIRST_DEDUCER = """
import sys, time
t = time.process_time()
import deducer
p = deducer.load(sys.argv[1])
r = deducer.solve(p, max_solutions=2)
t = time.process_time() - t
print(t, r.status, 'pysat.solvers' in sys.modules)
"""
#: CP-SAT's model build and Solve in a fresh process, ortools imported first
FIRST_CPSAT = """
import json, sys, time
sys.path.insert(0, sys.argv[2])
import cpsat_kakuro
from ortools.sat.python import cp_model  # noqa: F401  (the import is not counted)
spec = json.load(open(sys.argv[1]))
t = time.process_time()
status, _ = cpsat_kakuro.count(spec, 2)
print(time.process_time() - t, status)
"""


def first_solves(cases_: list, repeat: int, tmp: Path) -> int:
    """Import + load + first solve against CP-SAT's build + Solve, fresh processes each."""
    import statistics

    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # bytecode cached, as installed

    def run(code: str, *argv: str) -> list[str]:
        out = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True,
                             text=True, env=env, timeout=LIMIT + 30)
        return out.stdout.split() or ["nan", f"exit-{out.returncode}", "?"]

    print(f"{'case':<22} {'cells':>5} {'status':<9} {'import+first solve':>18} "
          f"{'CP-SAT build+Solve':>18} {'ratio':>6}  SAT solver imported")
    ratios = []
    for name, p in cases_:
        path = tmp / (name.replace(" ", "-") + ".json")
        path.write_text(formats.dumps(p, "json"), encoding="utf-8")
        model = tmp / (name.replace(" ", "-") + ".model.json")
        model.write_text(json.dumps(cpsat_spec(p)), encoding="utf-8")
        ours, theirs, status, sat = [], [], "", ""
        for _ in range(repeat):  # alternate, so load changes hit both alike
            t, status, sat = run(FIRST_DEDUCER, str(path))
            ours.append(float(t))
            theirs.append(float(run(FIRST_CPSAT, str(model), str(ROOT / "benchmarks"))[0]))
        r = min(ours) / min(theirs)
        ratios.append(r)
        print(f"{name:<22} {len(p.whites):>5} {status:<9} {min(ours):>17.4f}s "
              f"{min(theirs):>17.4f}s {r:>6.2f}  {'yes' if sat == 'True' else 'no'}",
              flush=True)
    print(f"\nimport + first solve / CP-SAT build + Solve over {len(ratios)} cases: median "
          f"{statistics.median(ratios):.2f} (target <= 1.5), worst {max(ratios):.2f} "
          f"(target <= 3)")
    return 0


def cases():
    """(name, puzzle) pairs; corpus cases only when the corpus is there."""
    out = []
    root = corpus.corpus_root()
    if root is not None:
        for f in sorted((root / "marcelgarus-kakuro").glob("*.kakuro")):
            out.append((f"marcelgarus {f.stem}", formats.load(f)))
        for c in corpus.janko(ids=["186", "240", "302", "960"]):
            out.append((f"janko {c.id}", c.puzzle))
    out.append(("dense block 8x7", grids.dense_block(8, 7)))
    out.append(("dense block 8x8", grids.dense_block(8, 8)))
    out.append(("generated 20x20", grids.random_clued(20, 20, seed=1, black=0.3)))
    out.append(("generated 60x60", grids.random_clued(60, 60, seed=1, black=0.3)))
    out.append(("bridged blocks 5x5", grids.bridged_blocks(5, 5, seed=1)))
    # a Latin square of order 9 (unclued runs): small, and all search
    out.append(("latin square 9x9", grids.unclued([[r > 0 and c > 0 for c in range(10)]
                                                   for r in range(10)])))
    return out


def cpsat_spec(p) -> dict:
    return {"domains": p.initial_masks(with_entries=True),
            "runs": [[r.total, list(r.cells)] for r in p.runs]}


def time_cmd(argv: list[str], repeat: int) -> tuple[float, str]:
    """Best wall time of a command and the first word it printed (its status)."""
    best, word = float("inf"), ""
    for _ in range(repeat):
        t = time.perf_counter()
        try:
            proc = subprocess.run(argv, capture_output=True, text=True, timeout=LIMIT + 30)
        except subprocess.TimeoutExpired:
            return float("inf"), "timeout"
        best = min(best, time.perf_counter() - t)
        out = proc.stdout.strip()
        if out.startswith("{"):
            try:
                data = json.loads(out)
                word = data["status"] + ("" if data["complete"] or data["status"] != "none"
                                         else "?")
            except (ValueError, KeyError):
                word = f"exit {proc.returncode}"
        else:
            word = out.split()[0] if out else f"exit {proc.returncode}"
    return best, word


def best_of(fn, repeat: int) -> tuple[float, object]:
    best, res = float("inf"), None
    for _ in range(repeat):
        propagate._CACHE.clear()
        t = time.perf_counter()
        res = fn()
        best = min(best, time.perf_counter() - t)
    return best, res


def fmt(t: float) -> str:
    return "  >limit" if t == float("inf") else f"{t:8.3f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="in-process runs per case")
    ap.add_argument("--cmd-repeat", type=int, default=2, help="whole-process runs per case")
    ap.add_argument("--only", help="run only cases whose name contains this")
    ap.add_argument("--first", action="store_true",
                    help="time import + first solve against CP-SAT's build + Solve instead")
    ap.add_argument("--first-repeat", type=int, default=5,
                    help="fresh processes per case and side for --first (best is kept)")
    args = ap.parse_args(argv)
    if args.first:
        chosen = [(n, p) for n, p in cases() if not args.only or args.only in n]
        with tempfile.TemporaryDirectory() as tmp:
            return first_solves(chosen, args.first_repeat, Path(tmp))
    try:
        import cpsat_kakuro
        from ortools import __version__ as ortools_version
    except ImportError:
        cpsat_kakuro, ortools_version = None, None
    print(f"python {sys.version.split()[0]} on {os.cpu_count()} cpu(s); CP-SAT "
          f"{ortools_version or 'not installed (pip install ortools)'}, 1 worker, enumerating "
          f"to 2 solutions; deducer solve --max-solutions 2")
    head = (f"{'case':<22} {'cells':>5} {'status':<9} {'deducer':>8} {'cp-sat':>8} {'ratio':>6}"
            f" | {'cmd ded':>8} {'cmd cps':>8} {'ratio':>6} {'splits':>6}")
    print(head)
    print("-" * len(head))
    worst_in = worst_cmd = 0.0
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        for name, p in cases():
            if args.only and args.only not in name:
                continue
            t_d, res = best_of(lambda p=p: solve(p, max_solutions=2, limits=Limits.within(LIMIT)),
                               args.repeat)
            status = res.status + ("" if res.complete or res.status != "none" else "?")
            if res.timed_out:
                t_d = float("inf")
            path = Path(tmp) / (name.replace(" ", "-") + ".json")
            path.write_text(formats.dumps(p, "json"), encoding="utf-8")
            c_d, c_status = time_cmd([py, "-m", "deducer", "solve", str(path), "--json",
                                      "--timeout", str(LIMIT)], args.cmd_repeat)
            t_c = c_c = float("nan")
            note = ""
            if cpsat_kakuro is not None:
                spec = cpsat_spec(p)
                t_c, (c_stat, _) = best_of(lambda spec=spec: cpsat_kakuro.count(spec, 2),
                                          args.repeat)
                model = Path(tmp) / (name.replace(" ", "-") + ".model.json")
                model.write_text(json.dumps(spec), encoding="utf-8")
                c_c, _ = time_cmd([py, str(ROOT / "benchmarks" / "cpsat_kakuro.py"),
                                   str(model), "2"], args.cmd_repeat)
                if c_stat != res.status:
                    note = f"  (CP-SAT says {c_stat})"
            if c_status != status:
                note += f"  (command: {c_status})"
            r_in, r_cmd = t_d / t_c, c_d / c_c
            if r_in == r_in:
                worst_in = max(worst_in, r_in)
            if r_cmd == r_cmd:
                worst_cmd = max(worst_cmd, r_cmd)
            print(f"{name:<22} {len(p.whites):>5} {status:<9} {fmt(t_d)} {fmt(t_c)} "
                  f"{r_in:>6.2f} | {fmt(c_d)} {fmt(c_c)} {r_cmd:>6.2f} "
                  f"{res.stats.get('resplits', 0):>6}{note}", flush=True)
    print(f"\nworst ratio deducer / CP-SAT: in-process {worst_in:.2f}, whole process "
          f"{worst_cmd:.2f} (target <= 1)")
    return 0


if __name__ == "__main__":
    try:
        code = main()
    except Exception as e:  # noqa: BLE001 - the benchmark never fails the caller
        print(f"benchmark error: {type(e).__name__}: {e}")
        code = 0
    sys.exit(code)

"""OR-tools CP-SAT on a Kakuro, the baseline of bench_solve.py (run as its own process).

    python benchmarks/cpsat_kakuro.py MODEL.json [MAX_SOLUTIONS]

MODEL.json: {"domains": [mask per cell], "runs": [[total or null, [cells]], ...]}, written
by bench_solve.py so that this process imports nothing of deducer: its time is CP-SAT's own
(python start-up, ortools import, model, search). Prints "<status> <solutions found>".
"""

from __future__ import annotations

import json
import sys


def build(model: dict):
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    xs = []
    for k, mask in enumerate(model["domains"]):
        ds = [d for d in range(1, 10) if mask >> (d - 1) & 1]
        xs.append(m.NewIntVarFromDomain(cp_model.Domain.FromValues(ds), f"x{k}"))
    for total, cells in model["runs"]:
        vs = [xs[i] for i in cells]
        m.AddAllDifferent(vs)
        if total is not None:
            m.Add(sum(vs) == total)
    return m, xs


def count(model: dict, cap: int = 2, workers: int = 1) -> tuple[str, int]:
    """Enumerate up to ``cap`` solutions; ('unique'|'multiple'|'none', found)."""
    from ortools.sat.python import cp_model

    m, xs = build(model)

    class Stop(cp_model.CpSolverSolutionCallback):
        def __init__(self):
            super().__init__()
            self.n = 0

        def on_solution_callback(self):
            self.n += 1
            if self.n >= cap:
                self.StopSearch()

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = workers
    cb = Stop()
    solver.Solve(m, cb)
    status = "none" if cb.n == 0 else "unique" if cb.n == 1 else "multiple"
    return status, cb.n


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        spec = json.load(f)
    status, n = count(spec, int(sys.argv[2]) if len(sys.argv) > 2 else 2)
    print(status, n)

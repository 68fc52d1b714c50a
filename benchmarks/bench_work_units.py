"""How many seconds a unit of counted work takes here (a script, not a test):
python benchmarks/bench_work_units.py [--size 12] [--level Extreme] [--count 5]

The generator limits a draft's searches by counted work, not seconds, so that a seed gives
the same puzzles on any machine (level.WALK_WORK, level.UNIQUE_WORK, unique.REPAIR_WORK,
calibrated to the seconds limits they replaced). This generates puzzles and reports, for
the lean walks that spent much work (chains, trial), the units they spent per second, and
for the complete solver's uniqueness checks the units per second and the most any one
spent: the figures to re-calibrate the budgets by (budget = old seconds x units/s).
"""

from __future__ import annotations

import argparse
import time

from deducer.engine import walk as engine
from deducer.generator import level, unique
from deducer.generator.core import Request, generate_one
from deducer.solver import search


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=12)
    ap.add_argument("--level", default="Extreme")
    ap.add_argument("--count", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    walks: list[tuple[float, int, str]] = []
    solves: list[tuple[float, int]] = []
    run, solve = engine.Engine.run, search.solve

    def timed_run(self):
        t = time.perf_counter()
        status = run(self)
        if self.context.work is not None:
            walks.append((time.perf_counter() - t, self.context.spent, status))
        return status

    def timed_solve(*a, **k):
        t = time.perf_counter()
        res = solve(*a, **k)
        if k.get("work") is not None:
            solves.append((time.perf_counter() - t, res.work))
        return res

    engine.Engine.run, search.solve = timed_run, timed_solve
    try:
        req = Request(args.size, args.size, args.level, seed=args.seed)
        for k in range(args.count):
            res = generate_one(req, k)
            print(f"puzzle {k}: {res.seconds:.1f} s, {res.attempts} attempts, "
                  f"{res.stats.get('failed') or {}}", flush=True)
    finally:
        engine.Engine.run, search.solve = run, solve
    heavy = [w for w in walks if w[1] >= 2000]
    secs, units = sum(w[0] for w in heavy), sum(w[1] for w in heavy)
    print(f"lean walks: {len(walks)}, {len(heavy)} of them spent >= 2000 units: "
          f"{units / max(secs, 1e-9):,.0f} units/s; budget at {args.size}x{args.size}: "
          f"{level.walk_work(0):,} + {level.WALK_WORK_PER_CELL} a white cell; "
          f"stopped by it: {sum(1 for w in walks if w[2] == engine.TIMEOUT)}")
    secs, units = sum(s[0] for s in solves), sum(s[1] for s in solves)
    print(f"uniqueness checks: {len(solves)}, {units / max(secs, 1e-9):,.0f} units/s "
          f"(with each call's set-up), the most one spent: {max((s[1] for s in solves), default=0)}"
          f" (budgets {level.UNIQUE_WORK:,} and {unique.REPAIR_WORK:,})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

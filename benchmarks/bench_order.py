"""Explain's CPU time with the ladder's ``order:`` section (rounds) against the plain ladder
order, on the same corpus puzzles in the same run (issue 38: at most 1.2x slower).

    DEDUCER_CORPUS=../shared/corpus python benchmarks/bench_order.py [--every 6] [--big]

Every ``--every``-th puzzle of janko.at, KrazyDad and Nikoli (gecode), each explained once
with each order, which goes first alternating (a loaded machine slows both alike, and a
first walk warms caches the second reads); CPU seconds (process
time), the ratio of the totals, and the ten slowest puzzles' ratios. ``--big`` adds generated
no-trial grids of 900 and 2,500 white cells (linear in the grid: the ratio stays flat).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _ladders():
    from deducer.engine import registry

    core = registry.load()
    plain = core.part(list(core))
    plain.order = None
    return core, plain


def _puzzles(every: int, big: bool):
    from tests.support import corpus

    out = []
    for k, cp in enumerate(corpus.janko()):
        if k % every == 0:
            out.append((f"janko {cp.id}", cp.puzzle))
    for k, cp in enumerate(corpus.krazydad()):
        if k % (every * 4) == 0:
            out.append((f"krazydad {cp.id}", cp.puzzle))
    for k, cp in enumerate(corpus.gecode()):
        if k % every == 0:
            out.append((f"gecode {cp.id}", cp.puzzle))
    if big:
        from tests.support import grids

        for side in (30, 50):
            out.append((f"no-trial {side}x{side}", grids.no_trial(side, side, 1)))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--every", type=int, default=6)
    ap.add_argument("--big", action="store_true")
    args = ap.parse_args()
    from deducer.clock import Limits
    from deducer.engine.walk import explain

    rounds, plain = _ladders()
    rows = []
    for k, (name, pz) in enumerate(_puzzles(args.every, args.big)):
        times = {}
        pair = [("plain", plain), ("rounds", rounds)]
        # who goes first alternates: a first walk warms caches the second one reads
        for label, ladder in pair if k % 2 == 0 else pair[::-1]:
            t = time.process_time()
            exp = explain(pz, ladder, limits=Limits.within(300))
            times[label] = time.process_time() - t
            times[label + " status"] = exp.status
        rows.append((name, len(pz.whites), times))
    tp = sum(r[2]["plain"] for r in rows)
    tr = sum(r[2]["rounds"] for r in rows)
    print(f"{len(rows)} puzzles: plain ladder order {tp:.1f} CPU s, rounds {tr:.1f} CPU s, "
          f"ratio {tr / tp:.3f}")
    for name, cells, t in sorted(rows, key=lambda r: -r[2]["plain"])[:10]:
        print(f"  {name:28s} {cells:5d} cells  plain {t['plain']:6.2f} s  rounds "
              f"{t['rounds']:6.2f} s  x{t['rounds'] / max(t['plain'], 1e-9):.2f}  "
              f"{t['plain status']}/{t['rounds status']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

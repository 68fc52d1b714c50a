"""Proof checker timings (a script, not a test): python benchmarks/bench_proofcheck.py

The checker (deducer/proofcheck/checker.py) runs over every step of every walkthrough in
tests/test_proofs.py, so it must stay a small fraction of what explaining costs. The
baseline is the explain of the same puzzle, measured in the same run; the figures are the
checker's time (replay and every proof), the surplus check over every step (each fact and
run dropped in turn), and their ratios to the explain time.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: tests.support lives beside the package
    sys.path.insert(0, str(ROOT))

from deducer.engine.walk import explain  # noqa: E402
from deducer.proofcheck import check_walkthrough, surplus  # noqa: E402
from deducer.puzzle import formats  # noqa: E402
from tests.support import corpus  # noqa: E402


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def main() -> int:
    root = corpus.corpus_root()
    cases = [("seed000-k2 (bundled)", formats.load("puzzles/seed000-k2.j")),
             ("deducer-trial (bundled)", formats.load("puzzles/deducer-trial.txt"))]
    if root is None:
        print("corpus not found: bundled puzzles only")
    else:
        cases.append(("kakuros.com 30x30", formats.load(root / "marcelgarus-kakuro" /
                                                        "30x30.kakuro")))
        cases += [(f"janko {c.id}", c.puzzle) for c in corpus.janko(ids=["960", "186"])]
    print(f"{'puzzle':<24} {'steps':>6} {'proved':>6} {'explain':>8} {'check':>7} "
          f"{'ratio':>6} {'surplus':>8} {'ratio':>6} {'problems':>8}")
    for name, p in cases:
        exp, t_explain = timed(lambda p=p: explain(p))
        steps = [s.to_json() for s in exp.steps]
        problems, t_check = timed(lambda p=p, steps=steps: check_walkthrough(p, steps))
        _, t_surplus = timed(lambda p=p, steps=steps: surplus(p, steps))
        proved = sum(s.get("proof") is not None for s in steps)
        bad = sum(q.kind != "no-proof" for q in problems)
        print(f"{name:<24} {len(steps):>6} {proved:>6} {t_explain:>7.2f}s {t_check:>6.2f}s "
              f"{t_check / t_explain:>5.2f}x {t_surplus:>7.2f}s {t_surplus / t_explain:>5.2f}x "
              f"{bad:>8}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

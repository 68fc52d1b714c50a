"""`why` against `explain` (a script, not a test): python benchmarks/bench_why.py

Issue 40: no answer may cost more than an ``explain`` of the same puzzle, and on a 150x150
grid at most 2x. For each puzzle, in one process with the ladder loaded: the CPU of
``explain`` (the baseline, measured in the same run) and of ``why`` for a few questions
(the digit a step near 1/4, 1/2, 3/4 and the end of the walkthrough takes out of a cell,
plus the issue's named questions), each the best of ``--repeat`` interleaved runs; the
ratio why/explain per question, the worst per puzzle and over all.

Puzzles: the bundled ones (puzzles/), janko 960 (the issue's ``r14c28 4``) and marcizhu's
150x150 (``DEDUCER_CORPUS`` must point at the corpus for these two; absent, they are
skipped). ``--quick`` leaves the 150x150 out. ``--repeat N`` (default 2).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: tests.support lives beside the package
    sys.path.insert(0, str(ROOT))

#: the issue's named questions: (source, id) -> [(cell, digit)]
NAMED = {("janko", "960"): [((13, 27), 4)]}
BIG = ("marcizhu", "generated/150_150_easy_unique")


def _arg(name: str, default: str) -> str:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def puzzles():
    from deducer.api import load

    for path in sorted((ROOT / "puzzles").iterdir()):
        if path.suffix in (".json",):
            continue
        try:
            yield path.name, load(path), []
        except Exception:  # a bundled file that is not a puzzle (or has several)
            continue
    try:
        from tests.support.corpus import get
    except ImportError:
        return
    wanted = [("janko", "960")] + ([] if "--quick" in sys.argv else [BIG])
    for src, pid in wanted:
        try:
            cp = get(src, pid)
        except Exception as e:  # no corpus here
            print(f"{src} {pid}: skipped ({e})", file=sys.stderr)
            continue
        yield f"{src} {pid}", cp.puzzle, NAMED.get((src, pid), [])


def questions(exp, named):
    """The named questions, then a digit taken out by steps at 1/4, 1/2, 3/4 and the end."""
    out = list(named)
    steps = [s for s in exp.steps if s.eliminations]
    for frac in (0.25, 0.5, 0.75, 1.0):
        if not steps:
            break
        s = steps[min(len(steps) - 1, int(frac * len(steps)))]
        r, c, ds = s.eliminations[0]
        q = ((r, c), ds[0])
        if q not in out:
            out.append(q)
    return out


def cpu(fn):
    t = time.process_time()
    out = fn()
    return time.process_time() - t, out


def main() -> int:
    from deducer.assist.why import why
    from deducer.engine import registry
    from deducer.engine.walk import explain
    from deducer.puzzle.model import cell_name

    rules = registry.load()
    repeat = int(_arg("--repeat", "2"))
    worst_all = 0.0
    print("puzzle                         cells  explain s  question        why s  ratio  kind")
    for label, p, named in puzzles():
        texp, exp = cpu(lambda p=p: explain(p, rules))
        qs = questions(exp, named)
        best_exp = texp
        times = {q: float("inf") for q in qs}
        kinds = {}
        for _ in range(repeat):
            for q in qs:
                t, w = cpu(lambda q=q, p=p: why(p, q[0], q[1], rules=rules))
                times[q] = min(times[q], t)
                kinds[q] = w.kind
            if repeat > 1:
                best_exp = min(best_exp, cpu(lambda p=p: explain(p, rules))[0])
        for q in qs:
            ratio = times[q] / best_exp if best_exp > 0 else float("nan")
            worst_all = max(worst_all, ratio)
            print(f"{label:<30} {len(p.whites):>5}  {best_exp:9.3f}  "
                  f"{cell_name(q[0]) + ' ' + str(q[1]):<14} {times[q]:6.3f}  {ratio:5.2f}  "
                  f"{kinds[q]}", flush=True)
        if qs:
            print(f"{'':<30} worst {max(times.values()) / best_exp:.2f}x, median "
                  f"{statistics.median(times.values()) / best_exp:.2f}x of explain")
    print(f"\nworst why/explain over all: {worst_all:.2f} (target: at most 1, 150x150 at most 2)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

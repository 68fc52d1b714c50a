"""Explain and rate timings (a script, not a test): python benchmarks/bench_explain.py

``--scaling`` instead times explain on generated unique grids from about 30 to 2,500 white
cells (clued from a random fill, givens added until the solution is unique), fits
time ~ cells**k by least squares on the logs and prints k (issue 11: k near 1, and 2,500
cells under 5 s where no trial is needed; the table says which walks needed trial).

Targets (issues 3 and 12): explain of the kakuros.com 30x30 and janko 960 under 2 s each;
rate over all janko puzzles with --jobs 2 under 60 s (it was 5 minutes). The baseline is the
complete solver on the same puzzle, measured in the same run, so the ratio says what
explaining costs over solving.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: tests.support lives beside the package
    sys.path.insert(0, str(ROOT))

from deducer.explain.engine import explain  # noqa: E402
from deducer.puzzle import formats  # noqa: E402
from deducer.solve.propagate import _CACHE  # noqa: E402
from deducer.solve.search import solve  # noqa: E402
from tests.support import corpus  # noqa: E402


def best_of(fn, n=3):
    times = []
    for _ in range(n):
        _CACHE.clear()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times), times[0]


def unique_grid(rows: int, cols: int, seed: int):
    """A random clued grid made unique by givens where two solutions differ."""
    import random
    from dataclasses import replace

    from tests.support import grids

    rng = random.Random(seed)
    p = grids.random_clued(rows, cols, seed=seed, black=0.25)
    sol = solve(p, max_solutions=1).solutions[0]
    givens: dict = {}
    while True:
        q = replace(p, givens=dict(givens)).validate()
        res = solve(q, max_solutions=2, masks=None)
        if len(res.solutions) == 1:
            return q
        a, b = res.solutions
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        i = rng.choice(diff)
        givens[q.whites[i]] = sol[i]  # keeps sol, rules out a or b


def scaling() -> int:
    import math

    sizes = [(9, 9), (10, 10), (14, 14), (20, 20), (28, 28), (40, 40), (50, 50), (58, 58)]
    xs, ys = [], []
    print(f"{'grid':>7} {'cells':>5} {'explain':>8} {'steps':>5} trial?")
    for k, (r, c) in enumerate(sizes):
        p = unique_grid(r, c, seed=k + 1)
        t = time.perf_counter()
        exp = explain(p)
        dt = time.perf_counter() - t
        trial = any(s.rule.startswith(("trial", "backtrack")) for s in exp.steps)
        print(f"{r:>3}x{c:<3} {len(p.whites):>5} {dt:>7.2f}s {len(exp.steps):>5} "
              f"{'yes' if trial else 'no'}", flush=True)
        xs.append(math.log(len(p.whites)))
        ys.append(math.log(dt))
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    k = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs)
    print(f"fitted exponent: explain time ~ cells^{k:.2f} (1.0 = linear)")
    return 0


def main() -> int:
    if "--scaling" in sys.argv:
        return scaling()
    root = corpus.corpus_root()
    if root is None:
        print("corpus not found: nothing to measure")
        return 0
    cases = [("kakuros.com 30x30",
              formats.load(root / "marcelgarus-kakuro" / "30x30.kakuro"))]
    cases += [(f"janko {c.id}", c.puzzle) for c in corpus.janko(ids=["960", "186"])]
    print(f"{'puzzle':<20} {'cells':>5} {'explain best':>12} {'first':>7} {'/2s':>5} "
          f"{'solve best':>10} {'explain/solve':>13} steps level")
    for name, p in cases:
        e_best, e_first = best_of(lambda p=p: explain(p))
        s_best, _ = best_of(lambda p=p: solve(p))
        exp = explain(p)
        print(f"{name:<20} {len(p.whites):>5} {e_best:>11.3f}s {e_first:>6.3f}s "
              f"{e_best / 2:>5.2f} {s_best:>9.3f}s {e_best / s_best:>12.1f}x "
              f"{len(exp.steps):>5} {exp.rating.level}")
    # rate over every janko puzzle as a whole command, the way a publisher would run it
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for c in corpus.janko():
            f = Path(tmp) / f"janko-{c.id}.json"
            f.write_text(formats.dumps(c.puzzle, "json"), encoding="utf-8")
            files.append(str(f))
        for jobs in (1, 2) if os.environ.get("BENCH_BOTH") else (2,):
            t = time.perf_counter()
            proc = subprocess.run([sys.executable, "-m", "deducer", "rate", "--jobs", str(jobs),
                                   "--csv", *files], capture_output=True, text=True)
            dt = time.perf_counter() - t
            print(f"rate {len(files)} janko puzzles --jobs {jobs}: {dt:.1f} s "
                  f"(target 60 s, ratio {dt / 60:.2f}); exit {proc.returncode}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

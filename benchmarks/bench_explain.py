"""Explain and rate timings (a script, not a test): python benchmarks/bench_explain.py

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

from deducer.explain.engine import explain
from deducer.puzzle import formats
from deducer.solve.propagate import _CACHE
from deducer.solve.search import solve
from tests.support import corpus


def best_of(fn, n=3):
    times = []
    for _ in range(n):
        _CACHE.clear()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times), times[0]


def main() -> int:
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

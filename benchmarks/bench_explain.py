"""Explain and rate timings (a script, not a test): python benchmarks/bench_explain.py

``--scaling`` instead times explain on generated grids from about 30 to 2,500 white cells
that need no trial (``tests.support.grids.no_trial``: a random fill, clued, with givens
from the fill wherever the ladder below the region sums stalls; seeded, built in the run),
fits time ~ cells**k by least squares on the logs and prints k (issue 11: k near 1, and
2,500 cells under 5 s; the table says whether a walk used trial, chains or region sums).
``--below 180`` builds grids that need region sums and permutation checks (slow to build).
``--chains [1,2,3,4]`` times k x k copies of a puzzle that needs ten forcing chains.

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

from deducer.engine.walk import explain  # noqa: E402
from deducer.puzzle import formats  # noqa: E402
from deducer.solver.propagate import _CACHE  # noqa: E402
from deducer.solver.search import solve  # noqa: E402
from tests.support import corpus  # noqa: E402


def best_of(fn, n=3):
    times = []
    for _ in range(n):
        _CACHE.clear()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times), times[0]


#: square grid sides for --scaling: about 30, 100, 300, 600, 1,000, 1,600 and 2,500 white cells
SIDES = (7, 13, 21, 30, 38, 48, 60)
#: rules a no-trial walkthrough must not use
TRIAL = ("trial", "backtracking")
CHAINS = ("bivalue-chain", "forcing-chain")


def fit_exponent(cells: list[int], seconds: list[float]) -> float:
    """k of seconds ~ cells**k, least squares on the logs."""
    import math

    xs = [math.log(c) for c in cells]
    ys = [math.log(t) for t in seconds]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs)


def scaling(sides=SIDES, below: float = 150, repeat: int = 2) -> int:
    """Explain time against white cells on no-trial grids built here, seeded (nothing is
    cached on disk): best of ``repeat`` runs, with the rule ladder loaded once."""
    from deducer.engine import registry
    from tests.support import grids

    rules = registry.load()
    cells, secs = [], []
    print(f"{'grid':>7} {'cells':>5} {'givens':>6} {'build':>7} {'explain':>8} {'steps':>5} "
          f"{'us/cell':>7} trial? chains? regions", flush=True)
    for side in sides:
        t = time.perf_counter()
        p = grids.no_trial(side, side, seed=side, below=below)
        built = time.perf_counter() - t
        best = None
        for _ in range(repeat):
            t = time.perf_counter()
            exp = explain(p, rules)
            dt = time.perf_counter() - t
            best = dt if best is None else min(best, dt)
        used = {s.rule for s in exp.steps}
        n = len(p.whites)
        regions = sum(s.rule.startswith("region-sum") for s in exp.steps)
        print(f"{side:>3}x{side:<3} {n:>5} {len(p.givens):>6} {built:>6.1f}s {best:>7.2f}s "
              f"{len(exp.steps):>5} {best / n * 1e6:>7.0f} "
              f"{'yes' if used & set(TRIAL) else 'no':<6} "
              f"{'yes' if used & set(CHAINS) else 'no':<7} {regions}", flush=True)
        assert exp.status == "solved", exp.status
        cells.append(n)
        secs.append(best)
    k = fit_exponent(cells, secs)
    print(f"fitted exponent: explain time ~ cells^{k:.2f} (1.0 = linear); "
          f"{cells[-1]} cells in {secs[-1]:.2f} s (target under 5 s)")
    big = [(c, t) for c, t in zip(cells, secs, strict=True) if c >= 600]
    if 2 <= len(big) < len(cells):  # one-off costs (finding the regions) start near there
        print(f"from 600 cells: cells^{fit_exponent(*map(list, zip(*big, strict=True))):.2f}")
    return 0


def chain_scaling(tiles=(1, 2, 3, 4)) -> int:
    """Explain time on k x k copies of puzzles/deducer-trial.txt (ten forcing chains per
    copy, islands side by side): whether chain steps cost more as the grid grows."""
    from deducer.engine import registry
    from tests.support import grids

    rules = registry.load()
    base = formats.load(ROOT / "puzzles" / "deducer-trial.txt")
    cells, secs = [], []
    print(f"{'copies':>6} {'cells':>5} {'explain':>8} {'steps':>5} {'chains':>6} "
          f"{'ms/chain step':>13}", flush=True)
    for k in tiles:
        p = grids.tiled(base, k, k)
        t = time.perf_counter()
        exp = explain(p, rules)
        dt = time.perf_counter() - t
        chains = sum(s.rule in CHAINS for s in exp.steps)
        assert exp.status == "solved", exp.status
        print(f"{k * k:>6} {len(p.whites):>5} {dt:>7.2f}s {len(exp.steps):>5} {chains:>6} "
              f"{dt / chains * 1e3:>13.0f}", flush=True)
        cells.append(len(p.whites))
        secs.append(dt)
    print(f"fitted exponent: explain time ~ cells^{fit_exponent(cells, secs):.2f} "
          "(1.0 = linear)")
    return 0


def main() -> int:
    if "--chains" in sys.argv:
        args = sys.argv[sys.argv.index("--chains") + 1:]
        tiles = (tuple(int(x) for x in args[0].split(","))
                 if args and args[0][:1].isdigit() else (1, 2, 3, 4))
        return chain_scaling(tiles)
    if "--scaling" in sys.argv:
        args = sys.argv[sys.argv.index("--scaling") + 1:]
        # --scaling [--below P] [--sides 7,13,...]: P=180 builds grids needing region sums
        below = float(args[args.index("--below") + 1]) if "--below" in args else 150
        sides = (tuple(int(x) for x in args[args.index("--sides") + 1].split(","))
                 if "--sides" in args else SIDES)
        return scaling(sides, below)
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

"""Generation timings (a script, not a test): python benchmarks/bench_generate.py

Median, mean and worst seconds per puzzle by size and level, one process (one core),
with the complete solver's time on the same puzzles as the baseline measured in the same
run (the ratio says what making a puzzle costs over solving it). Targets (issue 13): 12x12 at any
level under 5 s median, 16x16 under 15 s, 30x30 under 2 minutes. The times are
heavy-tailed (a draft that misses the level is dropped and the puzzle starts over), so a
median needs about 20 puzzles: over 5, one slow start moves it by seconds.

Then an unconstrained run (no --level) and its level mix beside the published corpus's
mix (the publisher-labelled puzzles of reports/ratings.md).

Options: --sizes 8,12,16,22,30  --levels Easy,Medium,Hard,Expert,Extreme,any  --count 3
--timeout 300 (seconds per puzzle; a puzzle that hits it counts as a miss)  --mix 20.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from deducer.engine.rating import LEVELS
from deducer.generator.core import GenerateError, Request, check_request, generate_one
from deducer.solver.search import solve

ROOT = Path(__file__).resolve().parents[1]


def corpus_mix() -> Counter:
    """Level counts summed over the publisher-label table of reports/ratings.md."""
    mix: Counter = Counter()
    text = (ROOT / "reports" / "ratings.md").read_text(encoding="utf-8")
    table = text.split("## Level distribution per publisher label", 1)[1].split("\n## ")[0]
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 9 or not re.fullmatch(r"\d+", cells[2]):
            continue
        for name, cell in zip(LEVELS, cells[3:9], strict=True):
            if cell:
                mix[name] += int(cell)
    return mix


def run_cell(size: int, level: str | None, count: int, timeout: float, seed: int):
    times, cpu, solve_times, got, misses = [], [], [], Counter(), 0
    req = Request(size, size, level, seed=seed, timeout=timeout)
    for k in range(count):
        c = time.process_time()
        res = generate_one(req, k)
        cpu.append(time.process_time() - c)
        times.append(res.seconds)
        if res.puzzle is None:
            misses += 1
            continue
        t = time.perf_counter()
        solve(res.puzzle, max_solutions=2)
        solve_times.append(time.perf_counter() - t)
        got[res.rating.level] += 1
    return times, cpu, solve_times, got, misses


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="8,12,16,22,30")
    ap.add_argument("--levels", default="Easy,Medium,Hard,Expert,Extreme")
    ap.add_argument("--count", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=300.0)
    ap.add_argument("--mix", type=int, default=20, help="puzzles in the unconstrained run")
    ap.add_argument("--mix-size", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    # CPU seconds beside wall ones: on a shared machine the wall figures mostly say the load
    print("size   level      n  median s  mean s  worst s  median CPU s  solver s (median)  "
          "ratio  misses")
    for size in [int(s) for s in args.sizes.split(",") if s]:
        for name in args.levels.split(","):
            level = None if name == "any" else name
            try:
                check_request(Request(size, size, level))
            except GenerateError:
                print(f"{size:>2}x{size:<3} {name:<9}  (unreachable at this size: refused)")
                continue
            times, cpu, stimes, _, misses = run_cell(size, level, args.count, args.timeout,
                                                args.seed)
            med = statistics.median(times)
            smed = statistics.median(stimes) if stimes else float("nan")
            ratio = statistics.median(cpu) / smed if stimes and smed > 0 else float("nan")
            print(f"{size:>2}x{size:<3} {name:<9} {len(times):>2}  {med:8.2f}  "
                  f"{statistics.fmean(times):6.2f}  {max(times):7.2f}  "
                  f"{statistics.median(cpu):12.2f}  {smed:17.3f}  "
                  f"{ratio:5.0f}  {misses}", flush=True)
    if args.mix:
        _, _, _, got, misses = run_cell(args.mix_size, None, args.mix, args.timeout, args.seed)
        ours = sum(got.values()) or 1
        ref = corpus_mix()
        total = sum(ref.values()) or 1
        print(f"\nlevel mix, {args.mix} unconstrained {args.mix_size}x{args.mix_size} puzzles "
              f"({misses} missed) vs the {total} publisher-labelled corpus puzzles:")
        print("level         generated  corpus")
        for name in LEVELS:
            print(f"{name:<12} {100 * got[name] / ours:8.0f}%  {100 * ref[name] / total:5.0f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Readers against hostile text: every fragment of tests/support/hostile.py repeated to 64 KB
and to 4 MiB (the size limit), read by format detection and by each format.

    python benchmarks/bench_readers.py [--sizes 64K,4M] [--limit-64k 2] [--limit-4m 5]

Prints, per size, the slowest cases in CPU seconds (a loaded machine stretches wall time,
not CPU time) and exits 1 if a case took longer than its limit (2 s at 64 KB, 5 s at 4 MiB:
a reader that rescans the text from every token or line start takes minutes to hours
there). A case over 60 s of CPU time is stopped and counted as over.
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: tests.support lives beside the package
    sys.path.insert(0, str(ROOT))

from deducer.puzzle import formats  # noqa: E402
from tests.support import hostile  # noqa: E402

SIZES = {"64K": hostile.KB64, "4M": hostile.MIB4}
STOP = 60.0


class Over(Exception):
    pass


def _over(signum, frame):
    raise Over


def run(size: int, limit: float, show: int) -> int:
    """Every case at ``size``; prints the slowest ``show``; returns how many were over."""
    results = []
    signal.signal(signal.SIGPROF, _over)
    for label, head, fragment, tail in hostile.FRAGMENTS:
        text = hostile.text_of(head, fragment, tail, size)
        for fmt in (None, *formats.names()):
            signal.setitimer(signal.ITIMER_PROF, STOP)
            try:
                took, answer = hostile.timed(text, fmt)
            except Over:
                took, answer = STOP, f"stopped after {STOP:g} s"
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
            results.append((took, label, fmt or "detect", answer))
    results.sort(reverse=True)
    over = [r for r in results if r[0] > limit]
    print(f"{size} bytes: {len(results)} cases, {len(over)} over {limit:g} s; slowest:")
    for took, label, fmt, answer in results[:show]:
        print(f"  {took:7.3f} s  {label:34} {fmt:10} {answer[:70]}")
    return len(over)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="64K,4M")
    ap.add_argument("--limit-64k", type=float, default=2.0)
    ap.add_argument("--limit-4m", type=float, default=5.0)
    ap.add_argument("--show", type=int, default=8)
    args = ap.parse_args()
    limits = {"64K": args.limit_64k, "4M": args.limit_4m}
    over = 0
    for name in args.sizes.split(","):
        over += run(SIZES[name], limits[name], args.show)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())

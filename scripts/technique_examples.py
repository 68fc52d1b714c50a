"""Rewrite deducer/data/examples.yaml: a worked example of each core technique for
``deducer rules --pages`` (so that making the pages needs no generator run).

    python scripts/technique_examples.py [--seconds S] [--check]

For each rule of the core ladder but trial and backtracking: the bundled puzzle whose
walkthrough uses the rule soonest, else a generated one (``generate --size 8x8 --needs RULE
--seed 1``, then 10x10; seeded, so the command in the file makes the puzzle again). Every
example's steps pass the proof checker. Deterministic, unless the time (``--seconds`` per
generated rule, 600 by default) runs out before the generator finds a puzzle: then the
file's old generated example is kept (marked ``kept: true``) if it still holds, else the rule
is left out; the script says which. ``--check`` only says whether the file is up to date.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: this checkout's deducer
    sys.path.insert(0, str(ROOT))

from deducer import api  # noqa: E402 (after the path is set)
from deducer.generator import examples  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=600.0,
                    help="the generator's time for one rule (default 600)")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 if the file differs from what this script would write")
    args = ap.parse_args(argv)
    found = examples.find(api.ladder(), cache=None, seconds=args.seconds,
                          progress=lambda msg: print(msg, file=sys.stderr, flush=True))
    # a generated example the generator no longer finds (a chain rung seldom the shortest)
    # stays while it still holds: the pages need one, and it is still true and proved
    lost = list(found.missing)
    if lost and examples.CACHE.is_file():
        old = examples.find(api.ladder(), lost, use_bundled=False, generate=False)
        for rid, ex in old.examples.items():
            if not ex.source.startswith("puzzles/"):
                ex.kept = True
                found.examples[rid] = ex
                del found.missing[rid]
                print(f"kept the cached example for {rid} ({ex.source}): the generator "
                      "found none", file=sys.stderr)
    order = [r.id for r in api.ladder()]  # the file lists the rules as the ladder does
    found.examples = dict(sorted(found.examples.items(), key=lambda kv: order.index(kv[0])))
    for rid, why in found.missing.items():
        print(f"no example for {rid}: {why}", file=sys.stderr)
    text = examples.cache_text(found)
    if args.check:
        same = examples.CACHE.is_file() and examples.CACHE.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{examples.CACHE} is out of date", file=sys.stderr)
        return 0 if same else 1
    examples.CACHE.write_text(text, encoding="utf-8")
    print(f"wrote {examples.CACHE.relative_to(ROOT)}: {len(found.examples)} examples",
          file=sys.stderr)
    return 1 if found.missing else 0


if __name__ == "__main__":
    sys.exit(main())

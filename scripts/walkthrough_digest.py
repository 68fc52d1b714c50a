"""One sha256 per corpus walkthrough, to tell whether a change moved any step.

    python scripts/walkthrough_digest.py [--sample N] [--jobs J] [--source NAME ...]
                                         [--steps] [--bundled]

Explains every puzzle the corpus loaders (tests/support/corpus.py) find, or a sample of
them, with the built-in ladder and no time limit, and prints for each ``<sha256>  <key>``
of the text ``deducer explain --json`` prints for it, then ``<sha256>  total`` of all those
lines. Run it on two checkouts and ``diff`` the outputs: a line that differs names a
walkthrough that changed. Timings and progress go to stderr, never into the digests.

The code measured is whichever ``deducer`` Python imports first, so
``PYTHONPATH=/path/to/other/checkout python scripts/walkthrough_digest.py`` digests that
checkout with this script (this checkout is only the fallback when nothing else is found).

``--sample N``: about N puzzles instead of all, chosen the same way on every run: the puzzles whose
walkthroughs need a chain (:data:`CHAINED`) first, then from every source a share of N in
proportion to its size (at least :data:`AT_LEAST` each), evenly spaced in the loader's
order.

``--steps``: digest what each step does, not what it says: its rule, effect (placements,
eliminations, combinations removed, cells and runs) and proof, every ``text`` (a chain
link's sentence) left out, so a change of wording alone digests the same (issue 51: the
sentences shortened with every step kept). ``--bundled``: the bundled puzzles (puzzles/,
every puzzle of a file with several) as well, first.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# appended, not put first: a checkout on PYTHONPATH is the one digested
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))

#: puzzles whose walkthroughs need a chain (benchmarks/bench_chains.py and the zwvista
#: levels that need one): always in a sample
CHAINED = ("janko-at-tkoz0/226", "marcelgarus-kakuro/30x30",
           "minizinc-benchmarks/kakuro_6_6_super", "marcizhu-kakuroapp/unsolved/cpu_burner",
           *(f"zwvista-logicpuzzles-kakuro/{n}" for n in (27, 38, 48, 51, 53, 58, 62, 64, 66, 80,
                                                         83, 84, 117, 131)))
#: the fewest puzzles a sample takes from a source (all of a smaller one)
AT_LEAST = 3


def _keys(sources: list[str] | None) -> list[tuple[str, str]]:
    """(source, id) of every puzzle, in the loaders' order."""
    from tests.support import corpus

    names = sources if sources else corpus.sources()
    return [(cp.source, cp.id) for name in names for cp in corpus.load_source(name)]


def sample(keys: list[tuple[str, str]], n: int) -> list[tuple[str, str]]:
    """``n`` of ``keys``: the chained puzzles, then evenly spaced shares of every source."""
    by_source: dict[str, list[tuple[str, str]]] = {}
    for k in keys:
        by_source.setdefault(k[0], []).append(k)
    chosen = [k for k in keys if f"{k[0]}/{k[1]}" in CHAINED]
    left = max(0, n - len(chosen))
    total = len(keys) - len(chosen)
    for ks in by_source.values():
        rest = [k for k in ks if k not in chosen]
        want = min(len(rest), max(AT_LEAST, round(left * len(rest) / max(1, total))))
        if want:
            step = len(rest) / want
            chosen += [rest[int(j * step)] for j in range(want)]
    order = {k: j for j, k in enumerate(keys)}
    return sorted(set(chosen), key=order.__getitem__)


_PUZZLES: dict[tuple[str, str], object] = {}


def _puzzle(key: tuple[str, str]):
    from tests.support import corpus

    if not _PUZZLES or key not in _PUZZLES:
        for cp in corpus.load_source(key[0]):
            _PUZZLES[(cp.source, cp.id)] = cp.puzzle
    return _PUZZLES[key]


#: the parts of a step's JSON that say what it does (``--steps``)
DOES = ("rule", "placements", "eliminations", "combos_removed", "cells", "runs", "proof")


def _wordless(x):
    """``x`` without any ``text`` (a chain link's sentence) at any depth."""
    if isinstance(x, dict):
        return {k: _wordless(v) for k, v in x.items() if k != "text"}
    if isinstance(x, list):
        return [_wordless(v) for v in x]
    return x


def _bundled_keys() -> list[tuple[str, str]]:
    """("bundled", file or file:name) of every bundled puzzle."""
    from deducer.puzzle.formats import load_all

    out = []
    for f in sorted((ROOT / "puzzles").iterdir()):
        if f.is_file() and f.name != "expected.json":  # the bundled puzzles' answers
            ps = load_all(f)
            out += [("bundled", f.name if len(ps) == 1 else f"{f.name}:{p.name}")
                    for p in ps]
    return out


def digest(key: tuple[str, str], steps: bool = False) -> tuple[str, str, float]:
    """(key, sha256 of the walkthrough's JSON text, or with ``steps`` of what its steps
    do, CPU seconds)."""
    import json

    from deducer.api import explain
    from deducer.render import get

    if key[0] == "bundled":
        from deducer.puzzle.formats import load

        f, _, name = key[1].partition(":")
        puzzle = load(ROOT / "puzzles" / f, name=name or None)
    else:
        puzzle = _puzzle(key)
    t = time.process_time()
    e = explain(puzzle)
    if steps:
        text = json.dumps([_wordless({k: s.to_json().get(k) for k in DOES})
                           for s in e.steps], sort_keys=True)
    else:
        text = get("json").walkthrough(puzzle, e)
    return f"{key[0]}/{key[1]}", hashlib.sha256(text.encode()).hexdigest(), \
        time.process_time() - t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sample", type=int, metavar="N", help="N puzzles instead of all")
    ap.add_argument("--jobs", type=int, default=1, metavar="J", help="processes (default 1)")
    ap.add_argument("--source", action="append", metavar="NAME",
                    help="only this corpus source (folder name or alias; repeatable)")
    ap.add_argument("--steps", action="store_true",
                    help="digest each step's rule, effect and proof, not its words")
    ap.add_argument("--bundled", action="store_true", help="the bundled puzzles as well")
    args = ap.parse_args(argv)
    from tests.support import corpus

    if corpus.corpus_root() is None:
        print("walkthrough_digest: the corpus was not found (set DEDUCER_CORPUS)",
              file=sys.stderr)
        return 2
    import deducer

    keys = _keys(args.source)
    if args.sample is not None:
        keys = sample(keys, args.sample)
    if args.bundled:
        keys = _bundled_keys() + keys
    print(f"digesting {len(keys)} walkthroughs with {Path(deducer.__file__).parent}",
          file=sys.stderr)
    total = hashlib.sha256()
    cpu = 0.0
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        for name, sha, secs in pool.map(functools.partial(digest, steps=args.steps), keys,
                                        chunksize=1):
            line = f"{sha}  {name}"
            print(line, flush=True)
            total.update(line.encode() + b"\n")
            cpu += secs
            print(f"  {secs:7.1f}s  {name}", file=sys.stderr, flush=True)
    print(f"{total.hexdigest()}  total")
    print(f"{len(keys)} walkthroughs, {cpu:.0f} s of CPU in the walks", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

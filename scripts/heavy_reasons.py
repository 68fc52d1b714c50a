"""Whether the heavy steps give their deciding fact (issue 51, items 2 and 4), on puzzles
nothing was tuned on:

    python scripts/heavy_reasons.py [--janko N] [--generated N] [--no-chains] [--show K]

Explains the held-out odd-numbered janko.at puzzles (every ``--janko``-th odd number from
1, default 4: 1, 9, 17, ...), ``--generated`` puzzles made as ``deducer generate`` makes
them (10x10 Expert, seeds 101 on; default 4) and the 17 published puzzles whose walkthroughs
need a chain (scripts/chain_sentence_stats.py's, bar marcizhu cpu_burner, which takes minutes),
and counts:

- heavy steps (weight 2.4 or more, chains aside) and chain links (each link of a chain
  step's sentence) that give the conclusion as their reason: "no arrangement puts", "can be
  filled only one way", or a region sum's "differ, so" with no bound or ways said;
- sentences listing sums that cannot be ("2 + 3 and 3 + 3 are not 9") or saying one digit
  list twice ("1, 2 and 3 appear in none of them, so 1, 2 and 3 leave");
- region sums that name "written in" digits without a cell;
- the median and longest sentence per rule, and the proof checker's problems over every step.

Prints the figures; ``--show K`` prints K offending sentences of each kind. Reads the corpus
from $DEDUCER_CORPUS (or ../shared/corpus); without it, generated puzzles only.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: tests.support (the corpus loaders) lives here
    sys.path.append(str(ROOT))

HEAVY = 2.4
CHAIN_KINDS = ("bivalue-chain", "forcing-chain", "forcing-braid", "trial")
CHAINS = (("janko", "226"), ("marcelgarus", "30x30"), ("minizinc", "kakuro_6_6_super"),
          *(("zwvista", str(n)) for n in (27, 38, 48, 51, 53, 58, 62, 64, 66, 80, 83, 84,
                                         117, 131)))
CONCLUSION = re.compile(r"no arrangement puts|can be filled only one way")
#: a region sum's "differ, so" with nothing after the equation but which cells differ
REGION_BARE = re.compile(r"differ(?: \([^)]*\))?, so ")
IMPOSSIBLE = re.compile(r"\d \+ \d(?:, \d \+ \d)*,? (?:and|or) \d \+ \d (?:is|are) not \d")
#: a list of two or more digits said, then the same list again after "so"
LIST = r"\d(?:, \d)*,? (?:and|or) \d"
TWICE = re.compile(rf"({LIST})\b[^.;]*?, so ({LIST})\b")
WRITTEN = re.compile(r"\d+ written in\)")


def _puzzles(janko_every: int, generated: int, chains: bool):
    from tests.support import corpus

    if corpus.corpus_root() is not None:
        odd = [cp for cp in corpus.janko() if cp.id.isdigit() and int(cp.id) % 2 == 1]
        for cp in odd[::janko_every]:
            yield f"janko/{cp.id}", cp.puzzle
        if chains:
            for source, pid in CHAINS:
                yield f"{source}/{pid}", corpus.get(source, pid).puzzle
    if generated:
        from deducer import api

        for seed in range(101, 101 + generated):
            r = api.generate(size="10x10", level="Expert", seed=seed)
            yield f"generated/10x10-expert-{seed}", r[0].puzzle


def _links(text: str) -> list[str]:
    """A chain step's links: the parts its "(1) ... (2, from 1) ..." numbering marks."""
    parts = re.split(r"\(\d+(?:, from [^)]*)?\) ", text)
    return [p for p in parts[1:]]


def _twice(text: str) -> bool:
    m = TWICE.search(text)
    return bool(m) and m.group(1) == m.group(2)


def main(argv: list[str] | None = None) -> int:
    from deducer import api
    from deducer.proofcheck import check_walkthrough

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--janko", type=int, default=4)
    ap.add_argument("--generated", type=int, default=4)
    ap.add_argument("--no-chains", action="store_true")
    ap.add_argument("--show", type=int, default=0)
    args = ap.parse_args(argv)

    lengths: dict[str, list[int]] = defaultdict(list)
    heavy = links = 0
    bad: dict[str, list[str]] = defaultdict(list)
    problems = steps = puzzles = 0
    for where, p in _puzzles(args.janko, args.generated, not args.no_chains):
        e = api.explain(p)
        puzzles += 1
        steps += len(e.steps)
        problems += len(check_walkthrough(p, [s.to_json() for s in e.steps]))
        for s in e.steps:
            lengths[s.rule].append(len(s.text))
            label = f"{where} step {s.n} {s.rule}: {s.text}"
            if s.rule in CHAIN_KINDS:
                for link in _links(s.text):
                    links += 1
                    if CONCLUSION.search(link):
                        bad["conclusion"].append(f"{where} step {s.n} link: {link}")
            elif s.weight >= HEAVY:
                heavy += 1
                if CONCLUSION.search(s.text) or (s.rule.startswith("region-sum")
                                                 and REGION_BARE.search(s.text)):
                    bad["conclusion"].append(label)
            if IMPOSSIBLE.search(s.text):
                bad["impossible sums"].append(label)
            if _twice(s.text):
                bad["list twice"].append(label)
            if s.rule.startswith("region-sum") and WRITTEN.search(s.text):
                bad["written in, no cell"].append(label)
    print(f"{puzzles} puzzles, {steps} steps; proof checker problems: {problems}")
    share = len(bad["conclusion"]) / max(1, heavy + links)
    print(f"heavy steps (weight >= {HEAVY}, chains aside) {heavy}, chain links {links}: "
          f"conclusion as reason {len(bad['conclusion'])} ({share:.1%})")
    for kind in ("impossible sums", "list twice", "written in, no cell"):
        print(f"{kind}: {len(bad[kind])}")
    print("\nrule | steps | median | longest")
    for rule, ls in sorted(lengths.items()):
        print(f"{rule} | {len(ls)} | {statistics.median(ls):.0f} | {max(ls)}")
    if args.show:
        for kind, texts in bad.items():
            for t in texts[:args.show]:
                print(f"\n[{kind}] {t}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

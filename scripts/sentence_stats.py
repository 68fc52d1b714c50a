"""How long the walkthroughs' sentences are, per rule, over a corpus sample and generated puzzles.

    python scripts/sentence_stats.py [--save FILE.json] [--before FILE.json] [--quick]

Explains a documented sample of the corpus (every K-th puzzle with a unique solution of
each source, K in :data:`EVERY`) and puzzles made as ``deducer generate`` makes them
(:data:`GENERATED`), then counts per rule the characters of each step's sentence (``text``;
a chain step counts its links' sentences too, as a reader reads them): median and longest.
It also counts sentences (or details) holding a negative number or a piece of arithmetic
with more than one minus sign (clauses apart), and naked singles whose sentence names a
reason (a run or another cell). ``--save`` keeps the figures
as JSON; ``--before`` adds the saved figures of an earlier commit beside them, and the
Markdown table docs/walkthroughs.md shows is printed on standard output.

One process, a few CPU-minutes (``--quick``: a tenth of the sample, for a first look;
``--cache FILE`` lets a stopped run go on where it was).
Reads the corpus from ../shared/corpus or $DEDUCER_CORPUS; without it, generated puzzles only.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: tests.support (the corpus loaders) lives here
    sys.path.append(str(ROOT))

#: every K-th unique puzzle of a source (in the loader's order); 1 = all of them
EVERY = {"janko-at-tkoz0": 8, "billstclair-kakuro-dojo-krazydad": 4,
         "paucuesta9-prop-kakuro": 4, "zwvista-logicpuzzles-kakuro": 4,
         "ifilot-cx16-kakuro": 4, "marcizhu-kakuroapp": 2}
#: generated puzzles: (size, level or None for the published mix, how many), seed 37
GENERATED = (("10x10", None, 20), ("12x12", "Hard", 15), ("12x12", "Expert", 15))
SEED = 37
CHAIN_KINDS = ("chain", "trial")
#: a negative number: a minus sign right before a digit, not between two numbers
NEGATIVE = re.compile(r"(?<![\w)\]])\s?[-−]\d|(?:^|[=(:,]\s*|need |needs |be )[-−]\s?\d")
MINUS = re.compile(r"\s[-−]\s")
#: where one piece of arithmetic ends: a sentence's clauses are counted apart
CLAUSE = re.compile(r"[;,:]\s")
CELL = re.compile(r"r\d+c\d+")
#: a chain sentence's own label, which a walkthrough's heading gives instead (sentences
#: since issue 37's last round have none; an older checkout measured with this script does)
CHAIN_LABEL = re.compile(r"^[^:]{0,60}?\bof \d+ links?(?: \([^)]*\))?: ")


def _puzzles(every_scale: int):
    """(where, make) pairs, ``make()`` giving the puzzle: the corpus sample, then the
    generated puzzles (made only when asked for: a resumed run skips those it has)."""
    from tests.support import corpus

    for source in corpus.sources():
        k = EVERY.get(source, 1) * every_scale
        entries = [cp for cp in corpus.load_source(source) if cp.expected == "unique"]
        for n, cp in enumerate(entries):
            if n % k == 0:
                yield cp.key, (lambda cp=cp: cp.puzzle)
    from deducer.generator.core import generate_one
    from deducer.generator.request import make_request

    for size, level, count in GENERATED:
        req = make_request(size, level, seed=SEED)
        for index in range(0, count, every_scale):
            yield (f"generated {size} {level or 'mix'} #{index}",
                   lambda req=req, index=index: generate_one(req, index).puzzle)


def _reads(step: dict) -> str:
    """What a reader reads for the step: its sentence (a chain's holds every link, and the
    walkthroughs print it link by link under the heading that gives the chain's length,
    so the label ``A whip of 3 links:`` is left out), and the links of a proof by cases
    that the sentence does not give."""
    text = CHAIN_LABEL.sub("", step["text"], count=1)
    proof = step.get("proof") or {}
    parts = [text]
    for case in proof.get("cases") or ([proof] if "assume" in proof else []):
        parts += [link.get("text", "") for link in case.get("links", ())
                  if link.get("text", "") not in text]
    return " ".join(parts)


def _named_reason(step: dict) -> bool:
    """Does a naked single's sentence name what took the cell's other digits: a run, or a
    cell other than its own?"""
    text = step["text"]
    own = {f"r{r + 1}c{c + 1}" for r, c, _d in step["placements"]}
    return "→" in text or "↓" in text or bool(set(CELL.findall(text)) - own)


def _rows(puzzle, kinds) -> list[list]:
    """Per step: [n, rule, characters, weight, negative number?, two minus signs?, a naked
    single naming its reason?, the sentence's first 160 characters]."""
    from deducer.clock import Limits
    from deducer.engine.walk import explain

    rows = []
    for step in (s.to_json() for s in explain(puzzle, limits=Limits.within(120)).steps):
        rule = step["rule"]
        text = _reads(step) if kinds.get(rule) in CHAIN_KINDS else step["text"]
        every_text = [text, step.get("detail") or ""]
        rows.append([step["n"], rule, len(text), step["weight"],
                     any(NEGATIVE.search(t) for t in every_text),
                     any(len(MINUS.findall(c)) > 1 for t in every_text for c in CLAUSE.split(t)),
                     rule == "naked-single" and _named_reason(step), step["text"][:160]])
    return rows


def measure(every_scale: int = 1, cache: Path | None = None) -> dict:
    """The figures (see the module docstring) as a JSON-able dict. With ``cache``, each
    puzzle's rows are kept there as they are made (a JSON line each), and a run that was
    stopped goes on from where it was."""
    from deducer.engine import registry

    kinds = {r.id: r.kind for r in registry.all_rules()}
    done: dict[str, list] = {}
    if cache is not None and cache.exists():
        for line in cache.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rec = json.loads(line)
                done[rec["where"]] = rec["rows"]
    lengths: dict[str, list[int]] = defaultdict(list)
    weights: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    longest: dict[str, tuple[int, str]] = {}
    negative, minus2, singles, reasoned, puzzles = [], [], 0, 0, 0
    started = time.process_time()
    for where, make in _puzzles(every_scale):
        if where not in done:
            puzzle = make()
            done[where] = [] if puzzle is None else _rows(puzzle, kinds)
            if cache is not None:
                with cache.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps({"where": where, "rows": done[where]}) + "\n")
        puzzles += 1
        for n, rule, chars, weight, neg, two, named, text in done[where]:
            lengths[rule].append(chars)
            weights[rule][f"{weight:g}"] += 1
            if chars > longest.get(rule, (-1, ""))[0]:
                longest[rule] = (chars, f"{where} step {n}")
            if neg:
                negative.append(f"{where} step {n}: {text}")
            minus2 += [f"{where} step {n}"] if two else []
            if rule == "naked-single":
                singles += 1
                reasoned += named
    rules = {}
    for rule, ls in sorted(lengths.items()):
        rules[rule] = {"steps": len(ls), "median": statistics.median(ls), "longest": max(ls),
                       "where": longest[rule][1], "chain": kinds.get(rule) in CHAIN_KINDS,
                       "weights": dict(sorted(weights[rule].items()))}
    # every chain step together, whichever chain rule made it (issue 37: median <= 450)
    chained = [n for rule, ls in lengths.items() if kinds.get(rule) in CHAIN_KINDS
               for n in ls]
    chains = ({"steps": len(chained), "median": statistics.median(chained),
               "longest": max(chained)} if chained else None)
    return {"puzzles": puzzles, "every_scale": every_scale, "rules": rules, "chains": chains,
            "negative": len(negative), "negative_examples": negative[:10],
            "minus_signs_over_one": len(minus2), "naked_singles": singles,
            "naked_singles_with_reason": reasoned,
            "cpu_seconds": round(time.process_time() - started)}


def _fmt(x) -> str:
    if x is None:
        return ""
    return f"{x:g}" if isinstance(x, float) else str(x)


def table(after: dict, before: dict | None) -> str:
    """The Markdown table of docs/walkthroughs.md (and the counts under it)."""
    from deducer.engine import registry

    order = {r.id: k for k, r in enumerate(registry.all_rules())}
    b = (before or {}).get("rules", {})
    ids = sorted(set(after["rules"]) | set(b), key=lambda r: (order.get(r, 999), r))
    out = ["| rule | steps | median before | median after | longest before | longest after |",
           "|---|---|---|---|---|---|"]
    for rid in ids:
        a, p = after["rules"].get(rid, {}), b.get(rid, {})
        name = f"{rid} (chain, with its links)" if a.get("chain", p.get("chain")) else rid
        out.append(f"| {name} | {a.get('steps', p.get('steps', ''))} | "
                   f"{_fmt(p.get('median'))} | {_fmt(a.get('median'))} | "
                   f"{_fmt(p.get('longest'))} | {_fmt(a.get('longest'))} |")

    ca, cb = after.get("chains"), (before or {}).get("chains")
    if ca or cb:
        ca, cb = ca or {}, cb or {}
        out.append(f"| every chain step | {ca.get('steps', '')} | {_fmt(cb.get('median'))} | "
                   f"{_fmt(ca.get('median'))} | {_fmt(cb.get('longest'))} | "
                   f"{_fmt(ca.get('longest'))} |")

    def count(d, key):
        return "" if d is None else d[key]

    def share(d):
        if d is None or not d["naked_singles"]:
            return ""
        return f"{d['naked_singles_with_reason']} of {d['naked_singles']} " \
               f"({100 * d['naked_singles_with_reason'] / d['naked_singles']:.0f}%)"

    out += ["", "| count | before | after |", "|---|---|---|",
            f"| sentences with a negative number | {count(before, 'negative')} | "
            f"{after['negative']} |",
            f"| sentences with arithmetic of more than one minus sign | "
            f"{count(before, 'minus_signs_over_one')} | {after['minus_signs_over_one']} |",
            f"| naked singles that name their reason | {share(before)} | {share(after)} |"]
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--save", type=Path, help="write the figures to this JSON file")
    ap.add_argument("--before", type=Path, help="saved figures of an earlier commit")
    ap.add_argument("--load", type=Path, help="print the table of saved figures (no run)")
    ap.add_argument("--quick", action="store_true", help="a tenth of the sample")
    ap.add_argument("--cache", type=Path, help="keep each puzzle's figures in this JSON-lines "
                    "file as they are made; a run stopped half-way goes on from there")
    args = ap.parse_args()
    if args.load:
        after = json.loads(args.load.read_text(encoding="utf-8"))
    else:
        after = measure(10 if args.quick else 1, args.cache)
    if args.save:
        args.save.write_text(json.dumps(after, indent=1) + "\n", encoding="utf-8")
    before = json.loads(args.before.read_text(encoding="utf-8")) if args.before else None
    print(f"{after['puzzles']} puzzles, {after['cpu_seconds']} CPU seconds", file=sys.stderr)
    if after["negative_examples"]:
        print("negative numbers, e.g.:\n  " + "\n  ".join(after["negative_examples"]),
              file=sys.stderr)
    sys.stdout.write(table(after, before))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

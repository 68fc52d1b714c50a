"""The figures of issue 51's "Done when" list, measured on what the walkthroughs' steps do.

    python scripts/argument_stats.py [--janko N] [--generated N] [--no-chains]
                                     [--cache FILE.jsonl] [--save FILE.json] [--examples K]

Walks puzzles the rules were not tuned on: ``N`` generated puzzles (10x10 Expert, seed
:data:`SEED`, and 12x12 Hard, seed :data:`SEED`, half each), the 18 published puzzles whose
walkthroughs need a chain (scripts/chain_sentence_stats.py's list) and the first ``N``
odd-numbered (held-out) janko.at puzzles, and replays each walkthrough on the proof
checker's own board (deducer/proofcheck: candidates, written digits), which is all the
checks below read. The different-digit sum bound is worked out here from that board, not
by the rules' code:

- a run's open cell is at least what the run still needs less the most *different* digits
  the other open cells can make, one from each cell's candidates (written digits out),
  and at most the need less the least; the digits outside leave it;
- ``sum-bound steps leaving a digit``: sum-bounds steps after which the cell they take
  digits from still holds a digit that bound (on the step's run) excludes;
- ``heavy steps a sum bound makes``: steps of weight >= 2.4 (chains and trial aside:
  their links are steps of their own rules) each of whose eliminations (a placement counts
  as the cell's other digits leaving) the bound on one run excludes on the board before
  the step;
- ``single after its step``: naked singles whose cell the step right before left with
  one digit by taking digits from it (told twice); counted apart, those whose cell lost its
  digits to a digit the step before wrote in a run of the cell;
- ``reasons by step number``: non-chain steps whose sentence sends the reader to a step
  by its number (``step 91``), as a share of non-chain steps;
- ``conclusion as reason``: sentences of heavy steps (weight >= 2.4, non-chain) and chain
  links that say ``no arrangement puts``, ``can be filled only one way`` or a region's
  ``differ, so`` without a stated case or bound (``If``, ``at least``, ``at most``, a sum
  ``a + b``), as a share of heavy steps and chain links;
- ``impossible sums listed`` (``2 + 2 and 3 + 3 are not 9``) and ``digit list said twice``
  (one list of two or more digits, ``1, 2 and 3``, twice in one sentence);
- the proof checker's problems (every step must pass), and each rule's sentence length,
  median and longest (a chain step counts its links, as scripts/sentence_stats.py does).

One process; the full default set takes CPU-minutes (``--cache`` keeps each puzzle's
figures so a stopped run goes on). Needs the corpus (``DEDUCER_CORPUS``) for the
published puzzles; without it, generated ones only.
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: tests.support (the corpus loaders) lives here
    sys.path.append(str(ROOT))

SEED = 51
HEAVY = 2.4
CHAIN_KINDS = ("chain", "trial")
#: the published puzzles whose walkthroughs need a chain (scripts/chain_sentence_stats.py)
CHAINED = (("janko", "226"), ("marcelgarus", "30x30"), ("minizinc", "kakuro_6_6_super"),
           ("marcizhu", "unsolved/cpu_burner"),
           *(("zwvista", str(n)) for n in (27, 38, 48, 51, 53, 58, 62, 64, 66, 80, 83, 84,
                                          117, 131)))
STEP_NUMBER = re.compile(r"\bsteps? \d+")
CONCLUSION = ("no arrangement puts", "can be filled only one way", "differ, so")
STATED = re.compile(r"\bIf\b|at least|at most|\d \+ \d")
#: a list of sums said not to make a number: "2 + 2, 2 + 3 and 3 + 3 are not 9"
IMPOSSIBLE = re.compile(r"\d+ \+ \d+(?: \+ \d+)*(?:,? (?:and |or )?\d+ \+ \d+(?: \+ \d+)*)*"
                        r" (?:is|are) not \d+")
DIGIT_LIST = re.compile(r"(?<![\w.+(-])\d(?:, \d)* and \d(?![\w+])")
CHAIN_LABEL = re.compile(r"^[^:]{0,60}?\bof \d+ links?(?: \([^)]*\))?: ")


# ------------------------------------------------------------------ the bound, from the board
@functools.lru_cache(maxsize=1 << 16)
def _sums(masks: tuple[int, ...]) -> tuple[int, int] | None:
    """Least and most sum of different digits, one from each mask (None: no such digits)."""
    reach = {0}
    for m in masks:  # digit d is bit d - 1, as on the checker's board
        reach = {u | (1 << (d - 1)) for u in reach for d in range(1, 10)
                 if m >> (d - 1) & 1 and not u >> (d - 1) & 1}
        if not reach:
            return None
    totals = [sum(d for d in range(1, 10) if u >> (d - 1) & 1) for u in reach]
    return min(totals), max(totals)


def excluded(rp, board, rid: int) -> dict[int, int]:
    """Per open cell of run ``rid``: the digits (bits 1-9) the different-digit sum bound
    takes from it on ``board``."""
    run = rp.runs[rid]
    if run.total is None:
        return {}
    placed = 0
    written = 0
    for i in run.cells:
        if board.written[i]:
            d = board.masks[i].bit_length()
            placed |= 1 << (d - 1)
            written += d
    open_ = [i for i in run.cells if not board.written[i]]
    need = run.total - written
    out: dict[int, int] = {}
    for i in open_:
        others = tuple(sorted(board.masks[j] & ~placed for j in open_ if j != i))
        if not others:
            lo = hi = need
        else:
            got = _sums(others)
            if got is None:
                continue
            lo, hi = need - got[1], need - got[0]
        gone = sum(1 << (d - 1) for d in range(1, 10)
                   if board.masks[i] >> (d - 1) & 1 and not lo <= d <= hi)
        if gone:
            out[i] = gone
    return out


# ------------------------------------------------------------------ per puzzle
def _reads(step: dict) -> str:
    """The sentence and the links a proof by cases gives beyond it (as sentence_stats)."""
    text = CHAIN_LABEL.sub("", step["text"], count=1)
    proof = step.get("proof") or {}
    parts = [text]
    for case in proof.get("cases") or ([proof] if "assume" in proof else []):
        parts += [link.get("text", "") for link in case.get("links", ())
                  if link.get("text", "") not in text]
    return " ".join(parts)


def _links(step: dict) -> list[str]:
    proof = step.get("proof") or {}
    return [link.get("text", "") for case in proof.get("cases") or
            ([proof] if "assume" in proof else []) for link in case.get("links", ())
            if link.get("rule")]


def _conclusion(text: str) -> bool:
    """A sentence giving its conclusion as its reason (see the module docstring)."""
    for clause in re.split(r"(?<=[.;])\s", text):
        if any(p in clause for p in CONCLUSION) and not STATED.search(clause):
            return True
    return False


def _twice(text: str) -> bool:
    seen = Counter(m.group(0) for m in DIGIT_LIST.finditer(text))
    return any(n > 1 for n in seen.values())


def record(puzzle, kinds: dict[str, str]) -> dict:
    """One puzzle's figures (JSON-able)."""
    from deducer.clock import Limits
    from deducer.engine.walk import explain
    from deducer.proofcheck import checker, grid

    steps = [s.to_json() for s in explain(puzzle, limits=Limits.within(300)).steps]
    problems = [str(p) for p in checker.check_walkthrough(puzzle, steps)]
    rec: dict = {"steps": len(steps), "problems": problems, "lengths": [],
                 "bound_left": [], "heavy_by_bound": [], "single_after": [],
                 "single_after_write": [],
                 "step_numbers": [], "nonchain": 0, "conclusion": [], "heavy_and_links": 0,
                 "impossible": [], "twice": []}
    prev_before = None  # the board before the step before
    prev_cut: dict[int, int] = {}  # the digits the step before took itself
    for rp, board, js in checker.states(puzzle, steps):
        n, rule, text = js["n"], js["rule"], js["text"]
        chain = kinds.get(rule) in CHAIN_KINDS
        rec["lengths"].append([rule, len(_reads(js) if chain else text)])
        eff = grid.effects_of(rp, js)
        cut = dict(eff.elims)
        for i, d in eff.places.items():
            cut[i] = cut.get(i, 0) | (board.masks[i] & ~(1 << (d - 1)))
        peer = grid.peer_elims(rp, eff.places)  # what a written digit takes
        if rule == "sum-bounds":
            after = board.copy()
            rp.apply(after, eff)
            runs = [grid.run_id(rp, r) for r in (js.get("proof") or {}).get("runs", ())]
            # the cells the bound is about: those the step took digits from itself (a digit
            # it wrote in takes from the cells of its runs without a bound)
            own = [i for i, m in eff.elims.items() if m & ~peer.get(i, 0)] + list(eff.places)
            for rid in runs[:1]:
                ex = excluded(rp, board, rid)
                for i in own:
                    if ex.get(i, 0) & after.masks[i]:
                        rec["bound_left"].append(f"step {n}: {text[:200]}")
        if not chain and js["weight"] >= HEAVY and cut:
            for rid in range(len(rp.runs)):
                ex = excluded(rp, board, rid)
                if all(ex.get(i, 0) & m == m for i, m in cut.items() if m):
                    rec["heavy_by_bound"].append(f"step {n} [{rule}]: {text[:200]}")
                    break
        if rule == "naked-single" and prev_before is not None:
            (i, _d), = eff.places.items() if len(eff.places) == 1 else ((None, 0),)
            if i is not None and bin(prev_before.masks[i]).count("1") > 1 \
                    and not prev_before.written[i] and bin(board.masks[i]).count("1") == 1:
                # told twice when the step before took the cell's digits itself; else a
                # digit it wrote took them (what the cell's runs then need: a new look)
                key = "single_after" if i in prev_cut else "single_after_write"
                rec[key].append(f"step {n}: {text[:200]}")
        if not chain:
            rec["nonchain"] += 1
            if STEP_NUMBER.search(text):
                rec["step_numbers"].append(f"step {n} [{rule}]: {text[:200]}")
        sentences = ([text] if not chain and js["weight"] >= HEAVY else []) + _links(js)
        rec["heavy_and_links"] += len(sentences)
        for t in sentences:
            if _conclusion(t):
                rec["conclusion"].append(f"step {n} [{rule}]: {t[:200]}")
        for t in [text, *_links(js)]:
            if IMPOSSIBLE.search(t):
                rec["impossible"].append(f"step {n} [{rule}]: {t[:200]}")
            if _twice(t):
                rec["twice"].append(f"step {n} [{rule}]: {t[:200]}")
        prev_before = board
        prev_cut = {i: m & ~peer.get(i, 0) for i, m in eff.elims.items() if m & ~peer.get(i, 0)}
    return rec


def _puzzles(janko: int, generated: int, chains: bool):
    from tests.support import corpus

    if generated:
        from deducer.generator.core import generate_one
        from deducer.generator.request import make_request

        for size, level, count in (("10x10", "Expert", (generated + 1) // 2),
                                   ("12x12", "Hard", generated // 2)):
            req = make_request(size, level, seed=SEED)
            for index in range(count):
                yield (f"generated {size} {level} seed {SEED} #{index}",
                       lambda req=req, index=index: generate_one(req, index).puzzle)
    if corpus.corpus_root() is None:
        return
    if chains:
        for source, pid in CHAINED:
            yield f"{source}/{pid}", (lambda s=source, p=pid: corpus.get(s, p).puzzle)
    if janko:
        odd = [cp for cp in corpus.janko() if int(cp.id) % 2 == 1 and cp.expected == "unique"]
        for cp in odd[:janko]:
            yield f"janko/{cp.id}", (lambda cp=cp: cp.puzzle)


def measure(janko: int, generated: int, chains: bool, cache: Path | None) -> dict:
    from deducer.engine import registry

    kinds = {r.id: r.kind for r in registry.all_rules()}
    done: dict[str, dict] = {}
    if cache is not None and cache.exists():
        for line in cache.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rec = json.loads(line)
                done[rec["where"]] = rec["rec"]
    started = time.process_time()
    recs = {}
    for where, make in _puzzles(janko, generated, chains):
        if where not in done:
            puzzle = make()
            if puzzle is None:
                continue
            done[where] = record(puzzle, kinds)
            if cache is not None:
                with cache.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps({"where": where, "rec": done[where]}) + "\n")
            print(f"{where}: {done[where]['steps']} steps", file=sys.stderr)
        recs[where] = done[where]
    return summarize(recs, round(time.process_time() - started))


def summarize(recs: dict[str, dict], cpu: int) -> dict:
    def listed(key):
        return [f"{w} {x}" for w, r in recs.items() for x in r[key]]

    steps = sum(r["steps"] for r in recs.values())
    nonchain = sum(r["nonchain"] for r in recs.values())
    heavy = sum(r["heavy_and_links"] for r in recs.values())
    lengths: dict[str, list[int]] = defaultdict(list)
    for r in recs.values():
        for rule, n in r["lengths"]:
            lengths[rule].append(n)
    out = {"puzzles": len(recs), "steps": steps, "cpu_seconds": cpu}
    for key in ("problems", "bound_left", "heavy_by_bound", "single_after",
                "single_after_write", "step_numbers",
                "conclusion", "impossible", "twice"):
        out[key] = listed(key)
    out["nonchain_steps"] = nonchain
    out["heavy_steps_and_links"] = heavy
    out["rules"] = {rule: {"steps": len(ls), "median": statistics.median(ls),
                           "longest": max(ls)} for rule, ls in sorted(lengths.items())}
    return out


def report(fig: dict, examples: int) -> str:
    def pct(n, of):
        return f"{n} of {of} ({100 * n / of:.1f}%)" if of else f"{n} of 0"

    lines = [f"{fig['puzzles']} puzzles, {fig['steps']} steps, {fig['cpu_seconds']} CPU s", ""]
    rows = [("proof-check problems (0)", len(fig["problems"]), "problems"),
            ("sum-bound steps leaving a digit their different-digit bound excludes (0)",
             len(fig["bound_left"]), "bound_left"),
            ("steps of weight >= 2.4 a one-run different-digit sum bound makes (0)",
             len(fig["heavy_by_bound"]), "heavy_by_bound"),
            ("naked single right after the step whose eliminations left its cell one digit (0)",
             len(fig["single_after"]), "single_after"),
            ("naked single right after a step whose written digit left its cell one digit",
             len(fig.get("single_after_write", ())), "single_after_write"),
            ("reasons by step number, of non-chain steps (<= 3%)",
             pct(len(fig["step_numbers"]), fig["nonchain_steps"]), "step_numbers"),
            ("conclusion as reason, of heavy steps and chain links (<= 3%)",
             pct(len(fig["conclusion"]), fig["heavy_steps_and_links"]), "conclusion"),
            ("impossible sums listed (0)", len(fig["impossible"]), "impossible"),
            ("a digit list said twice (0)", len(fig["twice"]), "twice")]
    for label, value, key in rows:
        lines.append(f"- {label}: {value}")
        lines += [f"    {x}" for x in fig[key][:examples]]
    lines += ["", "| rule | steps | median | longest |", "|---|---|---|---|"]
    for rule, r in fig["rules"].items():
        lines.append(f"| {rule} | {r['steps']} | {r['median']:g} | {r['longest']} |")
    over = [rule for rule, r in fig["rules"].items() if r["median"] > 160 or r["longest"] > 320]
    lines.append(f"\nrules over 160 median or 320 longest: {', '.join(over) or 'none'}")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--janko", type=int, default=21, help="odd-numbered janko.at puzzles")
    ap.add_argument("--generated", type=int, default=4, help="generated puzzles")
    ap.add_argument("--no-chains", action="store_true", help="leave out the chain puzzles")
    ap.add_argument("--cache", type=Path, help="JSON-lines file of each puzzle's figures")
    ap.add_argument("--save", type=Path, help="write the summary to this JSON file")
    ap.add_argument("--load", type=Path, help="print the report of a cache file (no run)")
    ap.add_argument("--examples", type=int, default=3, help="examples printed per count")
    args = ap.parse_args()
    if args.load:
        recs = {}
        for line in args.load.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rec = json.loads(line)
                recs[rec["where"]] = rec["rec"]
        fig = summarize(recs, 0)
    else:
        fig = measure(args.janko, args.generated, not args.no_chains, args.cache)
    if args.save:
        args.save.write_text(json.dumps(fig, indent=1) + "\n", encoding="utf-8")
    sys.stdout.write(report(fig, args.examples))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

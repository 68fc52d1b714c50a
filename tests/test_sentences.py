"""Every rule's sentence read back against its step's proof, the way a person reads it.

Over the bundled puzzles and a corpus sample, for every step with a simple proof (facts
and runs; chain links are read by the chain tests):

* a list of digits written beside a cell, ``r5c3 (6, 7 or 8)``, is exactly that cell's
  fact in the proof; and no such list follows a cell named after another cell that has
  none (``r3c3, r5c3 (6, 7 or 8)`` reads as if the list were both cells');
* a clause ``r2c2 and r2c4 can only hold 2 or 3`` (or ``..., r2c5 only 1 or 4``) in the
  reasoning, before the effect, is the fact of each cell it names;
* a bound that says "different digits" sums different digits;
* a combination filter and a unique intersection name only combinations the run's cells
  can still hold, and
  "every way to make RUN (...)" only those its cells can hold given what the step states.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from deducer import proofcheck
from deducer.engine import registry
from deducer.engine.walk import Engine
from deducer.proofcheck import grid
from deducer.puzzle.formats import load
from deducer.puzzle.model import cell_name

ROOT = Path(__file__).resolve().parents[1]
#: (file, name in the file) of the bundled puzzles
BUNDLED = [("seed000-k2.j", None), ("deducer-trial.txt", None), ("seed001-small.kakuro", None),
           ("seed002-four.txt", None), ("seed003-example.txt", None)] + [
    ("seed000-k.j", f"k{n}") for n in range(8)]
#: every CORPUS_EVERY-th janko puzzle of at most CORPUS_CELLS cells, up to CORPUS_COUNT
CORPUS_EVERY, CORPUS_CELLS, CORPUS_COUNT = 9, 220, 24

CELL = r"r\d+c\d+"
#: a digit list as the sentences say it: ``1, 2 or 4``; three or more in a row as a range,
#: ``1 to 6 or 8``
DIGITS = r"\d(?: to \d)?(?:(?:, | or )\d(?: to \d)?)*"
BESIDE = re.compile(rf"({CELL}) \(({DIGITS})\)")
GROUPED = re.compile(rf"({CELL})(?:, | and )({CELL}) \(\d")
HOLDS = re.compile(rf"((?:{CELL})(?:(?:, | and ){CELL})*) (?:can only hold|only) ({DIGITS})"
                   rf"(?![\d+])")
DIFFERENT = re.compile(r"as different digits, they make at (?:least|most) ([\d+]+) = ")
WAYS = r"((?:\d(?:\+\d)+)(?:(?:, | or )\d(?:\+\d)+)*)"
EVERY_WAY = re.compile(rf"Every way to make (\S+ \S+) \({WAYS}\)")
RUN_CLAUSE = re.compile(rf"(r\d+c\d+\S \d+/\d+) \((?:only )?{WAYS}[,:]")
COMBOS = re.compile(rf"can only be {WAYS}")


def _digits(text: str) -> list[int]:
    """The digits of a list as said, ranges (``4 to 6``) spelt out."""
    out: set[int] = set()
    for a, b in re.findall(r"(\d)(?: to (\d))?", text):
        out.update(range(int(a), int(b or a) + 1))
    return sorted(out)


def _reasoning(text: str) -> str:
    """The sentence before its effect (every template ends "so {effect}")."""
    return text.rsplit(" so ", 1)[0] if " so " in text else text


def misreadings(puzzle, steps) -> list[str]:
    """What a reader would take wrongly from the steps' sentences."""
    out = []
    for rp, board, js in proofcheck.states(puzzle, steps):
        proof = js.get("proof") or {}
        if "facts" not in proof:
            continue
        text = js["text"]
        where = f"step {js['n']} [{js['rule']}]: {text}"
        facts = {cell_name(tuple(f["cell"])): sorted(f["candidates"])
                 for f in proof["facts"] if "cell" in f}
        for m in BESIDE.finditer(text):
            if facts.get(m.group(1)) != _digits(m.group(2)):
                out.append(f"{where}\n  {m.group(0)}: the proof's fact is "
                           f"{facts.get(m.group(1))}")
        for m in GROUPED.finditer(text):
            out.append(f"{where}\n  {m.group(0)}: the list can be read as {m.group(1)}'s too")
        for m in HOLDS.finditer(_reasoning(text)):
            for name in re.findall(CELL, m.group(1)):
                if facts.get(name) != _digits(m.group(2)):
                    out.append(f"{where}\n  {name} {m.group(2)}: the proof's fact is "
                               f"{facts.get(name)}")
        for m in DIFFERENT.finditer(text):
            ds = m.group(1).split("+")
            if len(set(ds)) != len(ds):
                out.append(f"{where}\n  {m.group(0)}: the digits are not all different")
        if js["rule"] == "combination-filter":
            rid = rp.by_name[js["runs"][0]]
            alive = {"+".join(map(str, grid.digits_of(c)))
                     for c in rp.possible_combos(board, rid)}
            for m in COMBOS.finditer(text):
                dead = [c for c in re.split(", | or ", m.group(1)) if c not in alive]
                if dead:
                    out.append(f"{where}\n  {', '.join(dead)}: the cells can no longer hold it")
        if js["rule"] == "unique-intersection":
            for m in RUN_CLAUSE.finditer(text):
                rid = rp.by_name[m.group(1)]
                alive = {"+".join(map(str, grid.digits_of(c)))
                         for c in rp.possible_combos(board, rid)}
                dead = [c for c in re.split(", | or ", m.group(2)) if c not in alive]
                if dead:
                    out.append(f"{where}\n  {', '.join(dead)}: the cells can no longer hold it")
        for m in EVERY_WAY.finditer(text):
            rid = rp.by_name[m.group(1)]
            dead = [c for c in re.split(", | or ", m.group(2))
                    if not _stated(rp, board, rid, proof, _mask(c))]
            if dead:
                out.append(f"{where}\n  {', '.join(dead)}: what the step states rules it out")
    return out


def _mask(combo: str) -> int:
    return sum(1 << (int(d) - 1) for d in combo.split("+"))


def _stated(rp, board, rid: int, proof: dict, combo: int) -> bool:
    """Can the run's cells hold ``combo`` given the written digits and the proof's facts
    (a cell without a fact: any digit not written in the run)?"""
    cells = rp.runs[rid].cells
    written = 0
    for i in cells:
        if board.written[i]:
            written |= board.masks[i]
    facts = {rp.index[tuple(f["cell"])]: _mask("+".join(map(str, f["candidates"])))
             for f in proof["facts"] if "cell" in f}
    masks = [board.masks[i] if board.written[i] else facts.get(i, 0x1FF & ~written)
             for i in cells]
    return grid.arranges(combo, masks)


@cache
def _walk(source: str, which: str | None):
    if source.startswith("corpus:"):
        from tests.support import corpus

        (cp,) = corpus.janko(ids=[source.split(":", 1)[1]])
        puzzle = cp.puzzle
    else:
        puzzle = load(ROOT / "puzzles" / source, name=which)
    # the engine itself, not explain(): explain stops at once on a puzzle with several
    # solutions, whose steps up to the stall are still sentences to read
    eng = Engine(puzzle, registry.load())
    eng.run()
    return puzzle, eng.steps


@pytest.mark.parametrize("source, which", BUNDLED)
def test_bundled_sentences_read_true(source, which):
    puzzle, steps = _walk(source, which)
    assert steps
    assert misreadings(puzzle, steps) == []


def _corpus_ids() -> list[str]:
    from tests.support import corpus

    ids = []
    for n, cp in enumerate(corpus.janko()):
        if n % CORPUS_EVERY == 0 and len(cp.puzzle.whites) <= CORPUS_CELLS:
            ids.append(cp.id)
            if len(ids) == CORPUS_COUNT:
                break
    return ids


def test_corpus_sentences_read_true(corpus_dir):
    found: list[str] = []
    rules: set[str] = set()
    for pid in _corpus_ids():
        puzzle, steps = _walk(f"corpus:{pid}", None)
        rules |= {s.rule for s in steps}
        found += [f"janko {pid}: {m}" for m in misreadings(puzzle, steps)]
    assert not found, "\n".join(found[:10])
    # the sample reaches the rules whose sentences carry lists
    assert {"sum-bounds", "combination-filter", "hidden-single"} <= rules


def test_the_reader_catches_what_the_issue_found():
    """The checks fail on the sentences this project used to write."""
    p, steps = _walk("seed000-k2.j", None)
    js = next(s for s in steps if s.proof and s.proof.get("facts"))
    fact = js.proof["facts"][0]
    name = cell_name(tuple(fact["cell"]))
    wrong = [d for d in range(1, 10) if d not in fact["candidates"]][:2]
    bad = replace(js, text=f"{name} ({wrong[0]} or {wrong[1]}) fits, so x.")
    assert misreadings(p, [*steps[:steps.index(js)], bad])
    grouped = replace(js, text=f"r1c1, {name} ({fact['candidates'][0]}) fit")
    assert any("read as" in m for m in misreadings(p, [*steps[:steps.index(js)], grouped]))


def test_a_sum_bounds_step_takes_every_digit_its_stated_bound_excludes():
    """"r9c8 is at most 14 - 9 = 5; so 6 leaves r9c8" with 8 still in r9c8 misled a
    reader: a sum-bounds step leaves no candidate of its cell outside the bounds it states
    (on generated 9x9 Hard puzzles where it once did)."""
    from deducer import api
    from deducer.engine.walk import explain
    from deducer.puzzle.combos import BIT, DIGITS

    for seed in (2, 3):
        p = api.generate(size="9x9", level="Hard", seed=seed)[0].puzzle
        masks, index, seen = p.initial_masks(with_entries=True), p.index, 0
        for s in explain(p).steps:
            for r, c, d in s.placements:
                masks[index[(r, c)]] = BIT[d]
            for r, c, ds in s.eliminations:
                for d in ds:
                    masks[index[(r, c)]] &= ~BIT[d]
            if s.rule != "sum-bounds":
                continue
            seen += 1
            most = re.search(r"is at most [^=;]*= (\d+)", s.text)
            least = re.search(r"is at least [^=;]*= (\d+)", s.text)
            hi, lo = int(most.group(1)) if most else 9, int(least.group(1)) if least else 1
            # the cell the bound is about (written in when the bound leaves it one digit)
            r, c = map(int, re.search(r"so r(\d+)c(\d+) (?:is|would)", s.text).groups())
            left = DIGITS[masks[index[(r - 1, c - 1)]]]
            assert all(lo <= d <= hi for d in left), (seed, s.n, s.text, left)
        assert seen, seed

"""The first rungs: isolated cells, unique combinations, cross reference, singles, filters.

Each deduction carries its proof (docs/json-contract.md, "Proofs"): the runs it applies and
the facts it rests on, the fewest that carry it; the sentence names every one of them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Iterable, Iterator
from typing import Any

from ..engine.state import Deduction, Proof
from ..puzzle.combos import ALL, BIT, DIGITS, POP, SINGLE, combos
from ..solver.propagate import run_filter
from . import rule
from .api import View
from .facts import (
    alts,
    both,
    cell_facts,
    cells_and,
    clue_combos,
    combos_fitting,
    digits_and,
    free_mask,
    holds,
    matchable,
    minus,
    proof,
    run_fact,
    span,
)

#: a list (of combinations, of cells' candidates) longer than this many characters is left
#: to a step's detail: the sentence names what it rests on without it
SHORT_LIST = 40


def _a(d: int) -> str:
    """``a 1``, ``an 8``: a digit with its article, as said aloud."""
    return f"{'an' if d == 8 else 'a'} {d}"


def _union(cs: Iterable[int]) -> int:
    u = 0
    for c in cs:
        u |= c
    return u


def _common(cs: Collection[int]) -> int:
    m = 0x1FF
    for c in cs:
        m &= c
    return m if cs else 0


@rule(values=("arithmetic", "digit", "placed"))
def lone_cell(view: View, rid: int) -> Iterator[Deduction]:
    """One empty cell left in a clued run: it holds what the sum still needs."""
    need = view.remaining(rid)
    if need is None:
        return
    open_ = view.open_cells(rid)
    if len(open_) != 1:
        return
    i = open_[0]
    cells = view.layout.run_cells[rid]
    placed = view.placed_mask(rid)
    total = view.run(rid).total
    assert total is not None  # remaining() is None only for an unclued run
    arithmetic = minus(total, placed)
    values: dict[str, Any] = {"cell": view.cell_name(i), "digit": need,
                              "placed": view.digits(placed, "+"), "arithmetic": arithmetic}
    if 1 <= need <= 9 and view.mask(i) & BIT[need]:
        yield Deduction(placements={i: need}, cells=tuple(cells), runs=(rid,), values=values,
                        proof=proof(view, (rid,)))
    else:  # the sum cannot be met: the puzzle (as entered) has no solution
        facts = {} if not 1 <= need <= 9 else {i: view.mask(i)}
        if facts:
            values["arithmetic"] += f", which {view.cell_name(i)} cannot hold " \
                                    f"(it can only hold {alts(view.mask(i))})"
        else:
            values["arithmetic"] += ", which no digit is"
        # the run alone proves it (its cell must take ``need``): the cell's candidates,
        # named in the sentence, are no fact the proof needs
        yield Deduction(eliminations={i: view.mask(i)}, cells=tuple(cells), runs=(rid,),
                        values=values, proof=proof(view, (rid,)))


@rule(values=("combo",))
def unique_combination(view: View, rid: int) -> Iterator[Deduction]:
    """The clue has exactly one combination: its cells hold only those digits."""
    run = view.run(rid)
    cs = combos(run.total, run.length)
    if run.total is None or len(cs) != 1:
        return
    only = cs[0]
    elim = {i: view.mask(i) & ~only for i in view.open_cells(rid) if view.mask(i) & ~only}
    if elim:
        yield Deduction(eliminations=elim, cells=tuple(run.cells), runs=(rid,),
                        values={"combo": view.combo(only)}, proof=proof(view, (rid,)))


def _takes(view: View, rid: int, narrowed: bool) -> int:
    """Digits an open cell of the run may take: those of its combinations (the live ones
    when ``narrowed``, else those its clue allows) not written in it yet."""
    cs = view.live(rid) if narrowed else clue_combos(view, rid)
    return _union(cs) & ~view.placed_mask(rid)


def _run_clause(view: View, rid: int, narrowed: bool, cell: int) -> str:
    cs = view.live(rid) if narrowed else clue_combos(view, rid)
    placed = view.placed_mask(rid)
    masks = [view.mask(j) for j in view.open_cells(rid)]
    dead = any(not matchable(c & ~placed, masks) for c in cs)
    if dead and not narrowed:
        # the clue's combinations, some of which the board has ruled out: the clue in
        # words, so the sentence names no combination the reader knows is gone
        run = view.run(rid)
        ways = f"{run.length} different digits summing to {run.total}"
    elif len(cs) <= 4:
        ways = " or ".join(view.combo(c) for c in cs)
        ways = f"only {ways}" if narrowed else ways
    else:
        missing = 0x1FF & ~_union(cs)
        ways = f"{'only ' if narrowed else ''}{len(cs)} combinations" + (
            f", none with {digits_and(missing)}" if missing else "")
    written = f", {digits_and(placed)} written in" if placed else ""
    return (f"{view.run_name(rid)} ({ways}{written}: {view.cell_name(cell)} can take "
            f"{alts(_takes(view, rid, narrowed))})")


@rule(values=("brief", "digit", "fits", "mine", "other", "theirs", "why"))
def unique_intersection(view: View, rid: int) -> Iterator[Deduction]:
    """Cross reference: what the cell's runs let it take, and its own
    candidates when they matter, meet in one digit. The fewest of these reasons that
    decide the cell make the proof; a cell decided by its candidates alone is a naked
    single, not this."""
    mine = view.live_union(rid)
    for i in view.open_cells(rid):
        m = view.mask(i)
        if POP[m] <= 1:
            continue  # naked single's business (or a broken cell other rules report)
        other = view.crossing(rid, i)
        # the cell's candidates exclude the digits written in its runs already
        full = m & mine & (view.live_union(other) if other is not None else 0x1FF)
        if POP[full] != 1:
            continue
        runs = (rid,) if other is None else (rid, other)
        yield Deduction(placements={i: SINGLE[full]}, cells=(i,), runs=runs,
                        values={"digit": SINGLE[full]},
                        proof=lambda i=i, m=m, runs=runs, full=full: _intersection(
                            view, rid, i, m, runs, full))


def _intersection(view: View, rid: int, i: int, m: int, runs: tuple[int, ...],
                  full: int) -> Proof:
    """The proof of a unique intersection (the fewest reasons that decide the cell), and
    the sentence's values with it. Built only for the deduction the engine takes."""
    digit = SINGLE[full]
    live_take = {r: _takes(view, r, True) for r in runs}
    found = None
    for use in _options(runs):
        both_ = m if "cell" in use else 0x1FF
        for r in runs:
            if r in use:
                both_ &= live_take[r]
        if both_ == full:
            found = use
            break
    assert found is not None
    used = tuple(r for r in runs if r in found)
    # a run's narrowed combinations are a fact only when the clue alone would not do
    narrowed = {r: True for r in used}
    for r in used:
        trial = m if "cell" in found else 0x1FF
        for q in used:
            trial &= _takes(view, q, narrowed[q] and q != r)
        if trial == full:
            narrowed[r] = False
    facts = {i: m} if "cell" in found else {}
    run_facts = {r: view.live(r) for r in used if narrowed[r]}
    count = len(used) + ("cell" in found)
    other = runs[1] if len(runs) > 1 else None
    values = {"digit": digit, "fits": {1: "", 2: " both", 3: " all three"}[count],
              "why": _why(view, used, narrowed, i, "cell" in found, m)(),
              "brief": _brief(view, used, narrowed, i, "cell" in found, m, digit),
              "mine": view.digits(live_take[rid]),
              "theirs": view.digits(live_take[other]) if other is not None else "",
              "other": "" if other is None else view.run_name(other)}
    return proof(view, used, facts, run_facts, values=values)


def _why(view: View, used: tuple[int, ...], narrowed: dict[int, bool], i: int, own: bool,
         m: int) -> Callable[[], str]:
    """The reason of a unique intersection, worded when the step is taken."""
    def text() -> str:
        clauses = [_run_clause(view, r, narrowed[r], i) for r in used]
        why = both(clauses)
        if own:
            why += f"{',' if len(clauses) > 1 else ''} and can only hold {alts(m)} itself"
        return why

    return text


def _brief(view: View, used: tuple[int, ...], narrowed: dict[int, bool], i: int,
           own: bool, m: int, digit: int) -> str:
    """The deciding fact of a unique intersection: ``only 7 fits both r2c1→ 16/2 (7 or 9)
    and r1c2↓ 13/4 (1 to 7)``; one reason alone: ``r2c1→ 16/2 can only put 7 there``;
    with the cell's own candidates: ``of r2c7's 5 or 7, only 7 fits r2c5→ 16/3 (6 to
    9)`` (not "both the run and r2c7 itself", as if the cell were a second run)."""
    said = [f"{view.run_name(r)} ({span(_takes(view, r, narrowed[r]))})" for r in used]
    if own:
        fits = " both" if len(said) == 2 else ""
        return f"of {view.cell_name(i)}'s {alts(m)}, only {digit} fits{fits} {both(said)}"
    if len(said) == 1:  # one run decides: say what it is made of
        (r,) = used
        cs = view.live(r) if narrowed[r] else clue_combos(view, r)
        placed = view.placed_mask(r)
        ways = view.combos_text(cs) if len(cs) <= 2 else f"{len(cs)} combinations"
        written = f", {digits_and(placed)} written in" if placed else ""
        return (f"{view.run_name(r)} ({ways}{written}) can only put {digit} in "
                f"{view.cell_name(i)}")
    fits = {2: " both", 3: " all three"}[len(said)]
    return f"only {digit} fits{fits} {both(said)}"


def _options(runs: tuple[int, ...]) -> list[tuple[int | str, ...]]:
    """Sets of reasons to try, fewest first: each run's combinations, the cell's own
    candidates ("cell"); the runs' reasons before the cell's at equal size."""
    singles = [(r,) for r in runs]
    pairs = [tuple(runs)] if len(runs) == 2 else []
    with_cell = [(r, "cell") for r in runs]
    return [*singles, *pairs, *with_cell, (*runs, "cell")]


@rule(values=("digit", "reason"))
def naked_single(view: View, rid: int) -> Iterator[Deduction]:
    """A cell down to one candidate gets that digit written in. The sentence says what
    took the cell's other digits (worded only for the step taken, on the board before it)."""
    for i in view.open_cells(rid):
        d = SINGLE[view.mask(i)]
        if d:
            yield Deduction(placements={i: d}, cells=(i,), runs=(), values={"digit": d},
                            proof=lambda i=i, d=d: proof(
                                view, (), {i: view.mask(i)},
                                values={"reason": single_reason(view, i, d)}))


def single_reason(view: View, i: int, d: int) -> str:
    """What took every digit but ``d`` from cell ``i``: what its runs still need (their
    combinations less the digits written in them), digits written in a run it does not
    need to name, the cell's parity, and for the rest the logged steps that took them
    (``Context.taken``): ``r4c6↓ 4/2 still needs 1 and r6c6…``."""

    others = ALL & ~BIT[d]
    runs = view.runs_of(i)
    # what each run can still put in an empty cell: its combinations less its written digits
    takes = {r: _union(view.live(r)) & ~view.placed_mask(r) for r in runs}
    best: tuple[int, ...] = ()
    got = 0
    for use in [(r,) for r in runs] + ([tuple(runs)] if len(runs) == 2 else []):
        cover = 0
        for r in use:
            cover |= ALL & ~takes[r]
        if POP[cover & others] > POP[got & others]:
            best, got = use, cover
    parts = [_run_reason(view, r, takes[r]) for r in best]
    first = list(parts)
    left = others & ~got
    # digits written in the cell's other run
    for r in runs:
        if r in best:
            continue
        held = [(view.value(j), j) for j in view.layout.run_cells[r]
                if j != i and view.is_placed(j) and left & BIT[view.value(j)]]
        if len(held) <= 2:
            parts += [f"{view.cell_name(j)} is {w}" for w, j in sorted(held)]
        else:
            parts.append(f"{view.run_name(r)} holds {digits_and(sum(BIT[w] for w, _ in held))}")
        for w, _ in held:
            left &= ~BIT[w]
    parity = ALL & ~view.puzzle.initial_mask(i)
    if left & parity:
        parts.append(f"{view.cell_name(i)} is {'even' if d % 2 == 0 else 'odd'}")
        left &= ~parity
    taken = view.context.taken
    if left and taken is not None:
        # what took the rest: the run a step worked in, else its rule on the runs it
        # read (a reader finds a run on the board; a step's number sends them back
        # through the walkthrough)
        by: dict[str, tuple[int | None, dict[str, int]]] = {}
        for gone, _n, name, truns in taken.get(i, ()):
            took = gone & left
            if took:
                rule_name = name[0].lower() + name[1:]
                if len(truns) == 1:
                    who = view.run_name(truns[0])
                elif len(truns) == 2:
                    who = f"the {rule_name} on {both([view.run_name(r) for r in truns])}"
                else:  # a chain or a region: its rule ("the forcing chain took 5")
                    who = f"the {rule_name}"
                rid, rules = by.setdefault(who, (truns[0] if len(truns) == 1 else None, {}))
                # each rule keeps the digits it took: one run's steps may be of several
                # rules, and "its sum bounds took 5 and 9" must not claim the 5 its pair
                # complement took
                rules[rule_name] = rules.get(rule_name, 0) | took
                left &= ~took
        for who, (rid, rules) in by.items():
            if rid in best:  # the run is named already: "r6c1→ 19/5 allows only 3 to 9
                # and its sum bounds took 4 to 9", not the run's name twice; said as a
                # second fact, not in brackets ("allows only 3 to 9 (its sum bounds took
                # 4 to 9)" read as the run allowing what it took, issue 51)
                at = best.index(rid)
                said = [f"its {name} took {_listed(m)}" if k == 0 else
                        f"its {name} {_listed(m)}" for k, (name, m) in enumerate(rules.items())]
                parts[at] = f"{parts[at]} and {', '.join(said)}"
            else:
                parts.append(f"{who} took {_listed(_union(rules.values()))}")
    _say_written(view, i, best, takes, others, parts, first)
    if left:  # taken on a hypothesis (a chain's links) or before the log began
        parts.append(f"{_listed(left)} {'is' if POP[left] == 1 else 'are'} gone from "
                     f"{view.cell_name(i)}")
    if not parts:
        return f"{view.cell_name(i)} has only {d} left"
    # a comma before the last "and": the parts have lists joined by "and" of their own
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + ", and " + parts[-1]


def _say_written(view: View, i: int, best: tuple[int, ...], takes: dict[int, int],
                 others: int, parts: list[str], first: list[str]) -> None:
    """A run of ``best`` of several combinations that takes from cell ``i`` only digits
    written in it says where they are written ("r8c4 is 6", not "r8c1→ 33/6 allows only 1
    to 5 or 7 to 9": a learner read that as hiding a digit already in the run), unless its
    own steps' digits are said with it (``parts[at]`` no longer ``first[at]``)."""
    for at, r in enumerate(best):
        cover = 0  # what the other runs named keep from the cell
        for o in best:
            if o != r:
                cover |= ALL & ~takes[o]
        plain = _written_instead(view, i, r, others & ~takes[r] & ~cover)
        if plain and parts[at] == first[at]:
            parts[at] = plain


def _written_instead(view: View, i: int, rid: int, needed: int) -> str:
    """Where run ``rid`` of several combinations takes from cell ``i`` only the digits
    ``needed`` of it, each written in one of its cells: those cells and digits (``r8c4 is
    6``; ``r8c1→ 33/6 holds 2, 6 and 7`` for three or more); else ""."""
    if len(view.live(rid)) == 1 or not needed or needed & ~view.placed_mask(rid):
        return ""
    held = sorted((view.value(j), j) for j in view.layout.run_cells[rid]
                  if j != i and view.is_placed(j) and needed & BIT[view.value(j)])
    if len(held) <= 2:
        return " and ".join(f"{view.cell_name(j)} is {w}" for w, j in held)
    return f"{view.run_name(rid)} holds {digits_and(sum(BIT[w] for w, _ in held))}"


def _listed(mask: int) -> str:
    """Digits that all went, briefly: ``9``; ``1 and 2``; ``4 to 9``; ``1, 2 and 6``."""
    return span(mask).replace(" or ", " and ")


def _run_reason(view: View, rid: int, takes: int) -> str:
    """``r4c6↓ 4/2 is 1+3``; ``r3c1→ 7/3 still needs 1 and 2`` (one combination, some of
    it written in); ``r1c2↓ 13/4 allows only 1 to 6`` (several)."""
    live = view.live(rid)
    name = view.run_name(rid)
    if len(live) == 1:
        if not view.placed_mask(rid):
            return f"{name} is {view.combo(live[0])}"
        return f"{name} still needs {span(takes).replace(' or ', ' and ')}"
    return f"{name} allows only {span(takes)}"


@rule(values=("absent", "combos", "digits"))
def combination_filter(view: View, rid: int) -> Iterator[Deduction]:
    """A digit that is in no live combination of the run leaves its cells."""
    live = view.live(rid)
    union = _union(live)
    elim = {i: view.mask(i) & ~union for i in view.open_cells(rid) if view.mask(i) & ~union}
    if not elim:
        return
    gone = _union(elim.values())
    fact = run_fact(view, rid)
    open_ = view.open_cells(rid)
    placed = view.placed_mask(rid)
    masks = [view.mask(i) for i in open_]
    # the combinations a reader of the board still sees: those its open cells can hold
    alive = tuple(c for c in live
                  if c & placed == placed and matchable(c & ~placed, masks))
    if fact is not None and not gone & _union(clue_combos(view, rid)):
        fact = None  # the clue alone rules them out
    if fact is not None:
        # a narrower fact, still true, that names no dead combination (on a broken board,
        # where none is alive, the run's own live list: other rules report the break)
        fact = alive or live
        if fact:
            ways = f"can only be {view.combos_text(fact)}"
            absent = ""  # the effect names the digits none of them has (issue 51: no
            # "6 and 7 are not in it, so 6 and 7 leave")
        else:  # every combination already gone (inside a chain): nothing to list
            ways = "has no combination left"
            absent = ""
    else:
        ways, absent = _clue_ways(view, rid, alive, gone)
    yield Deduction(eliminations=elim, cells=tuple(view.layout.run_cells[rid]), runs=(rid,),
                    values={"combos": ways, "digits": view.digits(gone), "absent": absent},
                    proof=proof(view, (rid,), {}, {} if fact is None else {rid: fact}))


def _clue_ways(view: View, rid: int, alive: tuple[int, ...], gone: int) -> tuple[str, str]:
    """The run's combinations by its clue, when every one is still possible; else the clue
    in words (a list would name a combination its cells can no longer hold)."""
    clue = clue_combos(view, rid)
    if set(clue) == set(alive):
        return f"can only be {view.combos_text(clue)}", ""
    run = view.run(rid)
    placed = view.placed_mask(rid)
    what = f"{run.length} different digits summing to {run.total}"
    if placed:
        what += f" with {digits_and(placed)} written in"
    return f"is {what}", f"; no such set of digits has {alts(gone)}"


def _forced_without_combos(view: View, rid: int, facts: dict[int, int], home: int,
                           d: int) -> bool:
    """Would the run (its sum, the written digits and the cells' ``facts``) put ``d`` in
    ``home`` without knowing which combinations earlier steps ruled out?"""
    masks = []
    for j in view.layout.run_cells[rid]:
        if view.is_placed(j):
            masks.append(view.mask(j))
        else:
            masks.append(facts.get(j, free_mask(view, j, (rid,))))
    fit = run_filter(view.layout.run_total[rid], tuple(masks))
    return fit is None or fit[view.layout.run_cells[rid].index(home)] == BIT[d]


def _hidden_words(view: View, rid: int, home: int, d: int, facts: dict[int, int],
                  shown: Callable[[], tuple[int, ...]]) -> Callable[[], tuple[str, str, str]]:
    """A hidden single's words (the combinations, the other cells, the brief), worked out
    when first asked: only for a step taken or a chain's link kept, not for each
    deduction a chain search measures and drops (``shown``: the combinations named)."""

    @functools.cache
    def words() -> tuple[str, str, str]:
        others = holds(view, facts) if facts else f"{view.cell_name(home)} is its only " \
                                                  "empty cell"
        combos_text = view.combos_text(shown())
        needs = (f"{view.run_name(rid)} ({combos_text}) needs {_a(d)}"
                 if combos_text and len(combos_text) <= SHORT_LIST // 2 else
                 f"every way to make {view.run_name(rid)} has {_a(d)}")
        if facts and len(others) > SHORT_LIST:
            # the cells' lists are in the detail: here, that none of them has the digit
            others = f"{cells_and(view, list(facts))} cannot hold it"
        return combos_text, others, f"{needs}, and {others}"

    return words


@rule(values=("brief", "combos", "digit", "others"))
def hidden_single(view: View, rid: int) -> Iterator[Deduction]:
    """A digit every live combination needs fits only one cell of the run."""
    live = view.live(rid)
    placed = view.placed_mask(rid)
    need = _common(live) & ~placed
    open_ = view.open_cells(rid)
    clue_need = None
    for d in DIGITS[need]:
        homes = [i for i in open_ if view.mask(i) & BIT[d]]
        if len(homes) != 1:
            continue
        home = homes[0]
        if clue_need is None:  # only for a hidden single found: most calls find none
            clue_need = _common(clue_combos(view, rid))
        narrowed = not clue_need & BIT[d]
        facts = cell_facts(view, [j for j in open_ if j != home], (rid,))
        base = live if narrowed else clue_combos(view, rid)
        if narrowed and _forced_without_combos(view, rid, facts, home, d):
            continue  # the run's sum forces it, not its combinations: not this rule's step

        # the combinations the facts stated leave (stated_combos, from what is read now),
        # worked out for the words; on a board an assumption has already broken none may
        # fit: then the run's own (each holds the digit), never an empty list
        def shown(base: tuple[int, ...] = base, facts: dict[int, int] = facts
                  ) -> tuple[int, ...]:
            return combos_fitting(placed, open_, base, facts) or base

        words = _hidden_words(view, rid, home, d, facts, shown)
        yield Deduction(placements={home: d}, cells=tuple(open_), runs=(rid,),
                        values={"digit": d, "combos": lambda words=words: words()[0],
                                "cell": view.cell_name(home),
                                "others": lambda words=words: words()[1],
                                "brief": lambda words=words: words()[2]},
                        proof=proof(view, (rid,), facts,
                                    {rid: live} if narrowed else {}))

"""Naked and hidden subsets inside one run (pairs, triples, quads)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from ..engine.state import Deduction
from ..puzzle.combos import DIGITS, POP
from . import rule
from .api import View
from .facts import (
    alts,
    both,
    cell_facts,
    cells_and,
    clue_combos,
    digits_and,
    facts_brief,
    holds,
    proof,
    puts,
    run_follows,
    run_trim,
    stated_combos,
)
from .permutation import _brief, _reasons

_NAMES = {2: "pair", 3: "triple", 4: "quad"}

#: the longest a hidden subset's failing cases run (longer: what no arrangement puts)
FAILING_MAX = 240


def _failing(view: View, rid: int, open_: list[int], placed: int, elims: dict[int, int],
             facts: dict[int, int], needs: str) -> str | None:
    """Where the stated lists leave the homes' other digits to the run's arrangements,
    the case that fails for each digit, as the permutation check says it (``r10c1→ 37/7
    needs 4 and 5, with r10c3 (6 or 7): if r10c6 were 6, the rest would make 25: ..., and
    ... has none of them``), from the stated lists alone (every other open cell may hold
    any digit not written in the run): no fact beyond the proof's. None where a case is
    not found so, or runs long."""

    by_digit: dict[int, list[int]] = {}
    for i, m in elims.items():
        for d in DIGITS[m]:
            by_digit.setdefault(d, []).append(i)
    chosen = []
    for d, at in sorted(by_digit.items()):
        r = _reasons(view, rid, open_, placed, d, at, facts)
        if r is None or not r[2][1]:  # no case found, or no combination has d
            return None
        chosen.append(([(d, at)], r))
    said = _brief(view, rid, facts, chosen)
    run = view.run_name(rid)
    if not said.startswith(run):
        return None
    out = f"{needs}; {said[len(run) + 2:]}"  # the run named once: "RUN, with ...: " or "RUN: "
    return out if len(out) <= FAILING_MAX else None


def _holding(view: View, facts: dict[int, int], union: int) -> str:
    """The subset as the sentence says it: cells whose lists are all the subset's digits
    say the list once ("r8c5 and r8c9 can only hold 7 or 9, one each"), so that the digits are not
    said again before the effect names them; otherwise each cell with its own list and
    the digits they hold between them."""
    if all(m == union for m in facts.values()):
        return f"{both([view.cell_name(i) for i in facts])} can only hold {alts(union)}, one each"
    return f"{facts_brief(view, facts)} hold only {digits_and(union)} between them"


@rule(values=("digits", "group", "holding", "kind", "size"))
def naked_subset(view: View, rid: int, size: int = 2) -> Iterator[Deduction]:
    """``size`` empty cells of the run whose candidates together are exactly ``size``
    digits: those digits go in those cells, so they leave the run's other empty cells."""
    open_ = view.open_cells(rid)
    if len(open_) <= size:
        return
    placed = view.placed_mask(rid)
    masks = {i: view.mask(i) & ~placed for i in open_}
    pool = [i for i in open_ if 1 <= POP[masks[i]] <= size]
    if len(pool) < size:
        return
    for group in combinations(pool, size):
        union = 0
        for i in group:
            union |= masks[i]
        if POP[union] != size:
            continue
        elim = {j: masks[j] & union for j in open_ if j not in group and masks[j] & union}
        if not elim:
            continue
        facts = {i: view.mask(i) for i in group}
        yield Deduction(eliminations=elim, cells=group, runs=(rid,),
                        values={"cells": both([f"{view.cell_name(i)} ({alts(m)})"
                                               for i, m in facts.items()]),
                                "group": facts_brief(view, facts),
                                "holding": _holding(view, facts, union),
                                "digits": digits_and(union),
                                "size": size, "kind": _NAMES.get(size, f"{size}-set")},
                        proof=proof(view, (rid,), facts))


@rule(values=("brief", "combos", "digits", "kind", "others", "size", "why"))
def hidden_subset(view: View, rid: int, size: int = 2) -> Iterator[Deduction]:
    """``size`` digits that every live combination of the run needs, with only ``size``
    empty cells able to hold any of them: those cells hold exactly these digits. The
    proof states the other cells' lists the run's arrangements need (``facts.run_trim``);
    where that is fewer than all, the step says what no arrangement puts in the cells."""
    live = view.live(rid)
    placed = view.placed_mask(rid)
    common = 0x1FF
    for c in live:
        common &= c
    need = common & ~placed if live else 0
    if POP[need] < size:
        return
    clue_common = None
    open_ = view.open_cells(rid)
    masks = {i: view.mask(i) & ~placed for i in open_}
    for ds in combinations(DIGITS[need], size):
        want = 0
        for d in ds:
            want |= 1 << (d - 1)
        homes = [i for i in open_ if masks[i] & want]
        if len(homes) != size:
            continue
        cover = 0
        for i in homes:
            cover |= masks[i]
        if cover & want != want:
            continue  # a needed digit with no home: a contradiction other rules report
        elim = {i: masks[i] & ~want for i in homes if masks[i] & ~want}
        if not elim:
            continue
        if clue_common is None:  # only for a subset found
            clue_common = 0x1FF
            for c in clue_combos(view, rid):
                clue_common &= c
        narrowed = clue_common & want != want
        facts = cell_facts(view, [j for j in open_ if j not in homes], (rid,))
        # the run's arrangements may rule out the homes' other digits with fewer of the
        # other cells' candidates (those take digits the sum leaves them): then the step
        # says that, not "only these cells can take them", which the kept facts no
        # longer show
        kept = run_trim(view, rid, facts, live if narrowed else None, elims=elim)
        trimmed = kept != facts
        facts = kept
        # the run's narrowed combinations go too when every way of its clue the kept
        # lists allow needs the digits, and the step follows without them
        if narrowed and all(c & want == want for c in
                            stated_combos(view, rid, clue_combos(view, rid), facts)) \
                and run_follows(view, rid, facts, None, elims=elim):
            narrowed = False
        shown = stated_combos(view, rid, live if narrowed else clue_combos(view, rid), facts)
        others = (holds(view, facts) + ", so") if facts else "and"
        cells = both([view.cell_name(i) for i in homes])
        needs = f"{view.run_name(rid)} needs {digits_and(want)}"
        if trimmed:
            brief = (_failing(view, rid, open_, placed, elim, facts, needs) or
                     f"{needs}, and {'with ' + facts_brief(view, facts) + ', ' if facts else ''}"
                     f"no arrangement puts {puts(view, elim)}")
            why = (f"{holds(view, facts) + ', so ' if facts else ''}no arrangement puts "
                   f"{puts(view, elim)}")
        else:
            brief = f"{needs}, and only {cells} can take them"
            if facts:
                brief += f" ({cells_and(view, list(facts))} cannot)"
            why = f"{others} only {cells} can hold them; so those cells hold nothing else"
        yield Deduction(eliminations=elim, cells=tuple(homes), runs=(rid,),
                        values={"cells": cells, "brief": brief,
                                "digits": digits_and(want),
                                "combos": view.combos_text(shown), "size": size,
                                "others": others, "why": why,
                                "kind": _NAMES.get(size, f"{size}-set")},
                        proof=proof(view, (rid,), facts, {rid: live} if narrowed else {}))

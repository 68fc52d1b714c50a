"""Pair complement: two empty cells that must add up to a known amount."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..engine.state import Deduction
from ..puzzle.combos import BIT, DIGITS, alts_of
from . import rule
from .api import View
from .facts import both, cell_facts, minus, pairs_said, proof, span


def _either(digits: Iterable[int]) -> str:
    """``8``; ``8 or 9``; ``4, 6 or 7``, in the order given (pairs stay aligned)."""
    return alts_of([str(d) for d in digits])


#: the most pairs a sentence lists as the ways that fit before it tries the reason itself
#: (when that is short); more pairs are listed where the reason is long
MAX_PAIRS = 2
#: the most sums a sentence lists as not making the run's need when no pair fits (more:
#: the partners one cell's digits would need, which the other cannot hold)
#: the longest reason (why the digits that go have no partner) a sentence gives in full
MAX_WHY = 90


def _with(view: View, facts: dict[int, int]) -> str:
    """``r10c12 only 5 or 7``: the partner lists a removal rests on."""
    return both([f"{view.cell_name(i)} only {span(m)}" for i, m in facts.items()])


def _unpaired(view: View, need: int, placed: int, x: int, y: int
              ) -> tuple[dict[int, int], list[str], list[int]]:
    """(the digits each cell loses, why, the partners whose candidates a removal rests
    on): a digit goes when its partner ``need - a`` is no digit, is itself, is written
    in already, or is not among the other cell's candidates."""
    elim: dict[int, int] = {}
    why: list[str] = []
    leaned: list[int] = []
    for me, other in ((x, y), (y, x)):
        theirs = view.mask(other) & ~placed
        plain, absent = [], []
        for a in DIGITS[view.mask(me) & ~placed]:
            b = need - a
            if not 1 <= b <= 9 or b == a or placed & BIT[b]:
                plain.append((a, b))
            elif not theirs & BIT[b]:
                absent.append((a, b))
        if not (plain or absent):
            continue
        gone = 0
        for a, _ in plain + absent:
            gone |= BIT[a]
        elim[me] = gone
        me_name, other_name = view.cell_name(me), view.cell_name(other)
        for a, b in plain:
            if b == a:
                why.append(f"{me_name} cannot be {a}, as {other_name} would need another {a}")
            elif 1 <= b <= 9:
                why.append(f"{me_name} cannot be {a}, as {other_name} would need the {b} "
                           "already written in")
            else:
                why.append(f"{me_name} cannot be {a}, as {other_name} would need {b}")
        if absent:
            leaned.append(other)
            # the case that fails, as a person checks it: the digit, the partner it needs,
            # the list that lacks it (not "r5c5 cannot be 5 (it would need 1)": the
            # conclusion first, and the digit said again in the effect)
            why.append(f"{me_name}'s {_either(a for a, _ in absent)} would need "
                       f"{_either(b for _, b in absent)}, which {other_name} "
                       f"({span(theirs)}) cannot hold")
    return elim, why, leaned


def _brief(view: View, rid: int, need: int, need_text: str, placed: int, x: int, y: int,
           elim: dict[int, int], why: list[str], facts: dict[int, int]) -> str:
    """The deciding fact: the pairs still possible (what is left after the step), or, when
    they are many, why the digits that go have no partner."""
    pairs = [(a, need - a) for a in DIGITS[view.mask(x) & ~placed & ~elim.get(x, 0)]
             if 1 <= need - a <= 9 and need - a != a and not placed & BIT[need - a]
             and view.mask(y) & ~elim.get(y, 0) & BIT[need - a]]
    xy = f"{view.cell_name(x)} + {view.cell_name(y)} = {need_text}"
    # where no pair fits (a chain's contradiction), the sums a reader adds: "3 + 7 is not 8"
    sums = [(a, b) for a in DIGITS[view.mask(x) & ~placed]
            for b in DIGITS[view.mask(y) & ~placed]]
    # what a removal rests on, the cells in the order the sums below add them
    ordered = {i: facts[i] for i in (x, y) if i in facts}
    given = f"; with {_with(view, ordered)}, " if facts else "; "
    long_why = len("; ".join(why)) > MAX_WHY
    said = "; ".join(why).replace(", so ", ": ")  # one "so": the effect's
    if pairs:
        ways, count = pairs_said(pairs)
        fits = f"only {ways} {'fits' if count == 1 and ' and ' not in ways else 'fit'}"
        # the pairs left, however many, rather than "digits with no partner go": a reader
        # checks each digit against them; and where listing them is no longer than the
        # reason, which says the digits that go once as "cannot be" and again in the
        # effect ("r8c8 cannot be 4, 5 or 6 (...), so 4, 5 and 6 leave r8c8"); a pair that
        # fits either way round mixed in ("only 1 + 5, or 2 and 4 fit") reads worse
        shorter = " and " not in ways and len(given) + len(fits) <= len(said) + 2
        if len(pairs) <= MAX_PAIRS or long_why or shorter:
            return f"in {view.run_name(rid)}, {xy}{given}{fits}"
    if (not pairs and long_why and len(ordered) == 2 and sums
            and (max(a + b for a, b in sums) < need or min(a + b for a, b in sums) > need)):
        # both lists said: the most (or least) they make, not each sum that cannot be
        # (issue 51: "2 + 2, 2 + 3, 3 + 2 and 3 + 3 are not 9")
        top, low = max(a + b for a, b in sums), min(a + b for a, b in sums)
        bound = (f"{sums[0][0]} + {sums[0][1]} = {top}, not {need}" if len(sums) == 1 else
                 f"they make at most {top}" if top < need else f"they make at least {low}")
        return f"in {view.run_name(rid)}, {xy}{given}{bound}"
    if not pairs and long_why and y in facts and all(
            1 <= need - a <= 9 and need - a != a and not placed & BIT[need - a]
            for a in DIGITS[view.mask(x) & ~placed]):
        # no digit of x has its partner in y: then no digit of y has one in x either
        mine = DIGITS[view.mask(x) & ~placed]
        return (f"in {view.run_name(rid)}, {xy}{given}{view.cell_name(x)}'s "
                f"{_either(mine)} would need {_either(need - a for a in mine)}, which "
                f"{view.cell_name(y)} cannot hold")
    # the reason itself, when short (or when nothing shorter says it)
    return f"in {view.run_name(rid)}, {xy}; {said}"


@rule(values=("brief", "need", "need_text", "pair", "why"))
def pair_complement(view: View, rid: int) -> Iterator[Deduction]:
    """A clued run with two empty cells: digit ``a`` stays in one of them only if the
    other can hold ``need - a`` and that is not ``a`` again (distinct digits).

    This covers the 2-cell runs of the ladder and, equally, any run down to its last
    two empty cells (their sum is the clue minus the digits written in). The proof names
    the candidates of a partner cell only when a removal rests on them.
    """
    need = view.remaining(rid)
    if need is None:
        return
    open_ = view.open_cells(rid)
    if len(open_) != 2:
        return
    placed = view.placed_mask(rid)
    x, y = open_
    elim, why, leaned = _unpaired(view, need, placed, x, y)
    if not elim:
        return
    run = view.run(rid)
    assert run.total is not None  # remaining() is None only for an unclued run
    pair = "its two cells" if run.length == 2 else "its two empty cells"
    facts = cell_facts(view, leaned, (rid,))
    need_text = minus(run.total, placed)
    yield Deduction(eliminations=elim, cells=(x, y), runs=(rid,),
                    values={"pair": pair, "cells": view.cells_name((x, y)), "need": need,
                            "need_text": need_text, "why": "; ".join(why),
                            "brief": _brief(view, rid, need, need_text, placed, x, y, elim,
                                            why, facts)},
                    proof=proof(view, (rid,), facts))

"""Crossing-run interaction: a run's combinations checked against what its crossing runs
can really put in the shared cells.

The lemma ("r14c7↓ 17/5 can only put 1,2,3 in r16c7") is part of the proof: the crossing
run is listed with the candidates of its cells, its digits that fit no arrangement leave
the shared cell in the same step, and the step weighs at least what trying that run's
arrangements weighs (see :func:`deducer.engine.rating.search_floor`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

from ..engine.state import Deduction
from ..puzzle.combos import alts_of
from ..solver.propagate import run_filter
from . import rule
from .api import View
from .bounds import sum_limits
from .facts import (
    alts,
    both,
    cell_facts,
    cells_and,
    clue_combos,
    digits_and,
    facts_brief,
    free_mask,
    holds,
    matchable,
    proof,
    run_fact,
    span,
)


def _fits(view: View, other: int, masks: dict[int, int]) -> dict[int, int] | None:
    """The digits each cell of run ``other`` can take in some arrangement of it."""
    cells = view.layout.run_cells[other]
    fit = run_filter(view.layout.run_total[other], tuple(masks[j] for j in cells))
    if fit is None:
        return None
    return dict(zip(cells, fit, strict=True))


def _analyse(view: View, rid: int, open_: list[int], live: tuple[int, ...], placed: int,
             masks: dict[int, int], crossing: dict[int, int | None]
             ) -> tuple[list[int], list[int], dict[int, int], tuple[int, ...]] | None:
    """(limited masks of the run's open cells, dropped combos, lemma removals per cell,
    crossing runs blamed) for cell candidates ``masks``."""
    limited = []
    lemma: dict[int, int] = {}
    fits = {}
    for i in open_:
        other = crossing[i]
        m = masks[i] & ~placed
        if other is None:
            limited.append(m)
            continue
        if other not in fits:
            fits[other] = _fits(view, other, masks)
        fit = fits[other]
        if fit is None:
            return None
        limited.append(m & fit[i])
        if m & ~fit[i]:
            lemma[i] = m & ~fit[i]
    dropped = []
    blamed: dict[int, None] = {}
    base = [masks[i] & ~placed for i in open_]
    for c in live:
        if c & placed != placed:
            continue  # combination elimination's business, not this rule's
        rest = c & ~placed
        if matchable(rest, base) and not matchable(rest, limited):
            dropped.append(c)
            # a lemma's cell has a crossing run: the lemma is what that run allows there
            blamed.update((cast(int, crossing[i]), None) for i in lemma if lemma[i] & rest)
    return limited, dropped, lemma, tuple(blamed)


def _lemma_reason(view: View, other: int, i: int, final: dict[int, int], can: int) -> str:
    """Why run ``other`` can only put ``can`` in cell ``i``: the one-line sum bound when it
    says as much, else the outcome of trying its combinations, each with what it puts there."""
    js = [j for j in view.open_cells(other) if j != i]
    need = view.remaining(other)
    own = final[i]
    if need is not None and js:
        masks = [final[j] for j in js]
        lo, hi = sum_limits(masks)
        fit = 0
        for d in range(max(1, need - hi), min(9, need - lo) + 1):
            fit |= 1 << (d - 1)
        if own & fit == can:
            names = both([view.cell_name(j) for j in js])
            verb = "makes" if len(js) == 1 else "make"
            one = f"its other empty cell{'s' if len(js) > 1 else ''}, {names},"
            name = view.cell_name(i)
            if need - hi > 1 and need - lo < 9:
                return (f"{one} {verb} {lo} to {hi} of the {need} it still needs, so {name} "
                        f"is {need} - {hi} = {need - hi} to {need} - {lo} = {need - lo}")
            if need - hi > 1:
                return (f"{one} {verb} at most {hi} of the {need} it still needs, so {name} "
                        f"is at least {need} - {hi} = {need - hi}")
            return (f"{one} {verb} at least {lo} of the {need} it still needs, so {name} is "
                    f"at most {need} - {lo} = {need - lo}")
    cells = view.layout.run_cells[other]
    placed = view.placed_mask(other)
    parts = []
    for c in clue_combos(view, other):
        tried = tuple(final.get(j, view.mask(j)) & c if not view.is_placed(j) else view.mask(j)
                      for j in cells)
        arranged = run_filter(view.layout.run_total[other], tried)
        if arranged is None:
            continue
        at = arranged[cells.index(i)] & ~placed
        parts.append(f"{view.combo(c)} puts {alts(at)} there")
    if not parts:
        return "none of its combinations fits its cells"
    return "trying its combinations that fit its cells: " + ", ".join(parts)


#: a deciding fact longer than this names the cells it rests on without their lists (with
#: the effect after it, a sentence stays near the 160 characters aimed at, issue 37)
BRIEF_MAX = 115
#: the longest sentence (about: its effect estimated) that gives the crossing runs' cells
#: their lists, digits a reader can check, under the 320 characters a sentence may run to
LISTED_MAX = 305
#: from this many cells a deciding fact that names cells without lists gives the crossing
#: runs' cells their lists (issue 37: "nine cells, no digits")
MANY = 6


def _cells_masks(view: View, open_: list[int], crossing: dict[int, int | None]
                 ) -> dict[int, int]:
    """The candidates of the run's open cells and of every cell of their crossing runs."""
    masks = {}
    for i in open_:
        other = crossing[i]
        if other is not None:
            for j in view.layout.run_cells[other]:
                masks[j] = view.mask(j)
        masks[i] = view.mask(i)
    return masks


def _fewest_facts(view: View, rid: int, open_: list[int], live: tuple[int, ...], placed: int,
                  masks: dict[int, int], found: tuple[list[int], dict[int, int],
                                                      tuple[int, ...]],
                  listed: dict[int, int | None]) -> tuple[dict[int, int], list[int]]:
    """(the fewest cell facts that still give the same drops and lemma, the cells they
    are chosen from): each list is left out in turn when the step follows without it
    (``found``: the dropped combinations, lemma removals and crossing runs blamed)."""
    dropped, lemma, blamed = found
    runs = (rid, *blamed)
    cells = [j for j in masks if not view.is_placed(j)
             and (j in open_ or any(j in view.layout.run_cells[o] for o in blamed))]
    facts = cell_facts(view, cells, runs)
    for j in list(facts):
        trial = dict(masks)
        for k in cells:
            if k not in facts or k == j:
                trial[k] = free_mask(view, k, runs)
        again = _analyse(view, rid, open_, live, placed, trial, listed)
        if again is None:
            continue
        _, t_dropped, t_lemma, _ = again
        if set(dropped) <= set(t_dropped) and all(t_lemma.get(i, 0) & m == m
                                                  for i, m in lemma.items()):
            del facts[j]
    return facts, cells


def _reasons(view: View, placed: int, dropped: list[int], lemma: dict[int, int],
             crossing: dict[int, int | None], can: dict[int, int],
             final: dict[int, int]) -> list[str]:
    """Each dropped combination's reason: the lemmas it runs into, a lemma's own reason
    given the first time only."""
    reasons = []
    said: set[int] = set()  # lemmas whose reason is given already: once is enough
    for c in dropped:
        rest = c & ~placed
        lemmas = []
        for i in lemma:
            if not lemma[i] & rest:
                continue
            other = cast(int, crossing[i])  # a lemma's cell has a crossing run
            text = f"{view.run_name(other)} can only put {alts(can[i])} in " \
                   f"{view.cell_name(i)}"
            if i not in said:
                said.add(i)
                text += f" ({_lemma_reason(view, other, i, final, can[i])})"
            lemmas.append(text)
        by = both(lemmas)
        reasons.append(f"{view.combo(c)} cannot be placed, as {by}")
    return reasons


def _brief(view: View, rid: int, dropped: list[int], puts: list[str], blamed: tuple[int, ...],
           facts: dict[int, int], elim: dict[int, int]) -> str:
    """The deciding fact: what the crossing runs can put in the shared cells (``puts``),
    so the run cannot be the ``dropped`` combinations, with the cells' lists as far as a
    sentence holds them."""
    # "cannot be 1+3+7+9, 1+4+7+8 or 2+3+7+8": one "or" reads as the list it is
    ruled_out = alts_of([view.combo(c) for c in dropped])
    brief = f"{both(puts)}, so {view.run_name(rid)} cannot be {ruled_out}"
    if not facts:
        return brief
    rich = f"with {facts_brief(view, facts)}, {brief}"
    # too long with every list: a few cells are named alone (their lists are the
    # detail's); many bare names lose a reader, so there the crossing runs' cells keep
    # their lists (they decide what those runs can put in the shared cells) and the
    # run's own cells are named with their lists left to the board
    ours = [j for j in facts if not any(j in view.layout.run_cells[o] for o in blamed)]
    theirs = {j: m for j, m in facts.items() if j not in ours}
    lists = ("" if not ours else f", with {view.cell_name(ours[0])}'s list," if
             len(ours) == 1 else f", with the lists of {cells_and(view, ours)},")
    mid = (f"with {facts_brief(view, theirs)}, {both(puts)}, so {view.run_name(rid)}"
           f"{lists} cannot be {ruled_out}")
    # about what the effect after it takes ("; so 5 and 6 leave r6c12; and ...")
    effect = sum(len(digits_and(m)) + len(view.cell_name(i)) + 12 for i, m in elim.items())
    return (rich if len(rich) <= BRIEF_MAX else
            mid if theirs and len(facts) >= MANY and len(mid) + effect <= LISTED_MAX else
            f"given {cells_and(view, list(facts))}, {brief}")  # lists: the detail's


@rule(values=("brief", "combos", "crossing", "facts", "gone", "limits", "why"), searches=True)
def crossing_run_interaction(view: View, rid: int) -> Iterator[Deduction]:
    """Drop a live combination of the run that cannot be arranged in its empty cells once
    each cell is limited to the digits its crossing run can really put there."""
    live = view.live(rid)
    open_ = view.open_cells(rid)
    if len(live) < 2 or not open_:
        return
    placed = view.placed_mask(rid)
    crossing = {i: view.crossing(rid, i) for i in open_}
    masks = _cells_masks(view, open_, crossing)
    found = _analyse(view, rid, open_, live, placed, masks, crossing)
    if found is None:
        return  # a crossing run is already impossible: other rules report it
    limited, dropped, lemma, blamed = found
    if not dropped or len(dropped) == len(live):
        return
    lemma = {i: m for i, m in lemma.items() if crossing[i] in blamed}
    union = 0
    for c in live:
        if c not in dropped:
            union |= c
    elim = dict(lemma)
    for i in open_:
        if view.mask(i) & ~union:
            elim[i] = elim.get(i, 0) | (view.mask(i) & ~union)
    runs = (rid, *blamed)
    listed = {i: (o if o in blamed else None) for i, o in crossing.items()}
    facts, cells = _fewest_facts(view, rid, open_, live, placed, masks,
                                 (dropped, lemma, blamed), listed)
    final = {j: (facts[j] if j in facts else free_mask(view, j, runs)) for j in cells}
    said_limits = _analyse(view, rid, open_, live, placed, {**masks, **final}, listed)
    assert said_limits is not None  # fewer facts only widen the cells: the runs still fit
    can = dict(zip(open_, said_limits[0], strict=True))
    gone = 0
    for i in open_:
        gone |= view.mask(i) & ~union
    fact = run_fact(view, rid)
    if fact is not None and not any(c & gone for c in clue_combos(view, rid)
                                     if c not in live):
        fact = None
    shown = live if fact is not None else tuple(
        c for c in clue_combos(view, rid) if c in live or c not in dropped)
    # the deciding fact: what the crossing runs can put in the shared cells
    puts = [f"{view.run_name(cast(int, crossing[i]))} can only put {span(can[i])} in "
            f"{view.cell_name(i)}" for i in lemma]
    yield Deduction(drop_combos={rid: tuple(dropped)}, eliminations=elim,
                    cells=tuple(open_), runs=runs,
                    values={"combos": view.combos_text(shown),
                            "why": "; ".join(_reasons(view, placed, dropped, lemma, crossing,
                                                      can, final)),
                            "brief": _brief(view, rid, dropped, puts, blamed, facts, elim),
                            "limits": ", ".join(f"{view.cell_name(i)} ({view.digits(can[i])})"
                                                for i in open_),
                            "facts": holds(view, facts) + "; " if facts else "",
                            "gone": digits_and(gone) if gone else "",
                            "crossing": ", ".join(view.run_name(r) for r in runs[1:])},
                    proof=proof(view, runs, facts, {} if fact is None else {rid: fact},
                                search=blamed))

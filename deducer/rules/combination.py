"""Combo reference: rule out combinations the cells cannot hold, and
show what that changes on the board."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations

from ..engine.state import Deduction
from ..puzzle.combos import BIT, DIGITS, POP
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
    free_mask,
    holds,
    matchable,
    proof,
    run_fact,
    run_follows,
    run_trim,
    span,
)


def hall_witness(digits: int, cells: Iterable[int], masks: Sequence[int]
                 ) -> tuple[tuple[int, ...], int] | None:
    """The smallest group of cells that can only hold fewer of ``digits`` than it has
    cells (Hall's condition), as (cells, the digits they can hold); None if every group
    has room."""
    cells = list(cells)
    for k in range(1, len(cells) + 1):
        for group in combinations(range(len(cells)), k):
            u = 0
            for g in group:
                u |= masks[g] & digits
            if POP[u] < k:
                return tuple(cells[g] for g in group), u
    return None


def why_not(view: View, combo: int, placed: int, open_: list[int], masks: list[int],
            leaned: set[int] | None = None) -> str | None:
    """Why the open cells (with candidate ``masks``) cannot hold ``combo``; None if they
    can. The cells whose candidates the reason rests on are added to ``leaned``."""
    leaned = set() if leaned is None else leaned
    if combo & placed != placed:
        missing = placed & ~combo
        return (f"{view.combo(combo)} has no {alts(missing)}, which "
                f"{'is' if POP[missing] == 1 else 'are'} already written in")
    rest = combo & ~placed
    if POP[rest] != len(open_):
        return f"{view.combo(combo)} does not fit the cells written in"
    if matchable(rest, masks):
        return None
    # the smallest group of cells short of digits: the fewest candidates to name
    found = hall_witness(rest, open_, masks)
    if found is None:  # cannot happen (Hall's theorem); say it plainly all the same
        leaned.update(open_)
        return f"{view.combo(combo)} cannot be arranged in the empty cells"
    group, u = found
    leaned.update(group)
    if not u:
        return f"{view.combo(combo)} has nothing for {view.cells_name(group)}"
    if len(group) == len(open_):
        homeless = rest & ~u
        return (f"{view.combo(combo)} needs {digits_and(homeless)}, which no empty cell "
                f"can hold")
    return (f"{view.combo(combo)} would need {len(group)} different digits in "
            f"{view.cells_name(group)}, but between them those cells can only take "
            f"{alts(u)}")


#: what :func:`_analyse` finds: (dropped, reasons, cells leaned on, combinations left,
#: removals, placements)
_Analysis = tuple[list[int], list[str], set[int], tuple[int, ...], dict[int, int],
                  dict[int, int]]

_PLURAL = {"has": "have", "needs": "need", "does": "do", "leaves": "leave"}


def _grouped(view: View, dropped: Sequence[int], reasons: Sequence[str]) -> str:
    """Reasons that say the same of several combinations, said once:
    ``1+3+6+7 and 2+4+5+6 have nothing for r5c7``."""
    tails: dict[str, list[int]] = {}
    for c, why in zip(dropped, reasons, strict=True):
        tails.setdefault(why[len(view.combo(c)) + 1:], []).append(c)
    out = []
    for tail, cs in tails.items():
        if len(cs) > 1:
            verb, _, rest = tail.partition(" ")
            tail = f"{_PLURAL.get(verb, verb)} {rest}"
        out.append(f"{both([view.combo(c) for c in cs])} {tail}")
    return "; ".join(out)


def _cannot_be(view: View, run: str, dropped: Sequence[int], reasons: Sequence[str],
               facts: dict[int, int]) -> tuple[str, set[int]]:
    """``r1c3↓ 33/6 cannot be 1+3+5+7+8+9: it has none of r5c3's 2, 4 or 6``: each
    combination named once, with its reason (never "cannot be A (A has nothing for
    r5c3)"); and the cells whose lists the reasons give (the sentence need not give them
    again)."""
    by_name = {view.cell_name(i): i for i in facts}
    told: set[int] = set()
    tails: dict[str, list[int]] = {}
    for c, why in zip(dropped, reasons, strict=True):
        tail = why[len(view.combo(c)) + 1:]
        cell = tail.removeprefix("has nothing for ")
        if cell != tail and cell in by_name:  # the cell's list says what "nothing" is
            tail = f"has none of {cell}'s {span(facts[by_name[cell]])}"
            told.add(by_name[cell])
        tails.setdefault(tail, []).append(c)

    def said(tail: str, cs: list[int]) -> str:
        if len(cs) == 1:
            return f"it {tail}"
        if tail.startswith("has none of "):
            who = "neither" if len(cs) == 2 else "none of them"
            return f"{who} has any of {tail.removeprefix('has none of ')}"
        verb, _, rest = tail.partition(" ")
        return (f"both {_PLURAL.get(verb, verb)} {rest}" if len(cs) == 2 else
                f"each {tail}")

    if len(tails) == 1:
        (tail, cs), = tails.items()
        return f"{run} cannot be {view.combos_text(cs)}: {said(tail, cs)}", told
    parts = [f"{view.combos_text(cs)} ({said(tail, cs)})" for tail, cs in tails.items()]
    return f"{run} cannot be {', '.join(parts[:-1])} or {parts[-1]}", told


def _analyse(view: View, rid: int, open_: list[int], placed: int, live: tuple[int, ...],
             masks: list[int]) -> _Analysis:
    """What dropping the combinations the cells (``masks``) cannot hold gives:
    (dropped, reasons, cells leaned on, combinations left, removals, placements)."""
    dropped, reasons = [], []
    leaned: set[int] = set()
    for c in live:
        why = why_not(view, c, placed, open_, masks, leaned)
        if why is not None:
            dropped.append(c)
            reasons.append(why)
    left = tuple(c for c in live if c not in dropped)
    union, common = 0, 0x1FF
    for c in left:
        union |= c
        common &= c
    elim = {i: view.mask(i) & ~union for i in open_ if view.mask(i) & ~union}
    # a digit every combination left needs, with one empty cell to hold it, is written in
    # (a cell written in this way no longer offers its other digits)
    place: dict[int, int] = {}
    todo = list(DIGITS[common & ~placed]) if left else []
    progress = True
    while todo and progress:
        progress = False
        for d in todo:
            homes = [i for i, m in zip(open_, masks, strict=True)
                     if m & BIT[d] and i not in place]
            if len(homes) == 1 and homes[0] not in elim:
                place[homes[0]] = d
                leaned.update(j for j in open_ if j != homes[0] and j not in place)
                todo.remove(d)
                progress = True
                break
    return dropped, reasons, leaned, left, elim, place


#: the longest deciding fact a sentence gives before its effect: longer reasons (the
#: cells' lists, each combination's reason) are left to the step's detail
BRIEF_MAX = 170
#: the longest list of each combination's reasons the sentence gives (else a summary)
BRIEF_REASON = 60


def combos_brief(view: View, run: str, left: Sequence[int], dropped: Sequence[int],
                 name_left: bool = False) -> str:
    """``r3c1→ 23/6 must be 1+2+3+4+6+7``, or what it cannot be when that is shorter
    (unless ``name_left``: what follows speaks of the combinations left)."""
    if len(left) == 1:
        return f"{run} must be {view.combo(left[0])}"
    can = f"{run} can only be {view.combos_text(left)}"
    cannot = f"{run} cannot be {view.combos_text(dropped)}"
    return can if name_left or len(can) <= len(cannot) else cannot


def _union(cs: Iterable[int]) -> int:
    u = 0
    for c in cs:
        u |= c
    return u


def _fewer_lists(view: View, rid: int, open_: list[int], placed: int, live: tuple[int, ...],
                 masks: list[int], found: _Analysis) -> _Analysis:
    """``found`` again with a cell's candidates dropped from the reasoning, each in turn,
    when the same step follows without them (any digit not yet written in the run)."""
    dropped, reasons, leaned, left, elim, place = found
    for k, i in enumerate(open_):
        if i not in leaned or masks[k] == free_mask(view, i, (rid,)) & ~placed:
            continue
        trial = masks.copy()
        trial[k] = free_mask(view, i, (rid,)) & ~placed
        t = _analyse(view, rid, open_, placed, live, trial)
        t_union = _union(t[3])
        if (set(t[0]) == set(dropped) and t[5] == place
                and all(not t_union & m for m in elim.values())):
            masks = trial
            dropped, reasons, leaned, left, _, _ = t
    return dropped, reasons, leaned, left, elim, place


def _narrowed(view: View, rid: int, live: tuple[int, ...], dropped: Sequence[int],
              left: tuple[int, ...], gone: int, needed: int
              ) -> tuple[tuple[int, ...] | None, tuple[int, ...], tuple[int, ...]]:
    """(the run's narrowed combinations as a fact, the combinations the sentence lists,
    those left). The fact is needed only when its clue has more that would keep a removed
    digit or lack a placed one; without it the sentence lists what the clue allows."""
    fact = run_fact(view, rid)
    shown = live
    if fact is not None:
        clue = clue_combos(view, rid)
        if not any(c & gone or c & needed != needed for c in clue if c not in live):
            fact, shown = None, clue
            left = tuple(c for c in clue if c not in dropped)
    return fact, shown, left


def _by_arrangements(view: View, rid: int, open_: list[int], placed: int,
                     live: tuple[int, ...], facts: dict[int, int],
                     fact: tuple[int, ...] | None, found: _Analysis
                     ) -> tuple[dict[int, int], list[str], dict[int, int]]:
    """(facts, reasons, placements each by its cell alone): the run's arrangements may
    need fewer facts than this argument does (a placement forced by the digits the other
    cells must take, not by its cell alone holding the digit); the proof keeps only those,
    and the reasons are said again from them."""
    dropped, reasons, _, _, elim, place = found
    kept = run_trim(view, rid, facts, fact, elims=elim, places=place, drops=dropped)
    if kept != facts:
        t = _analyse(view, rid, open_, placed, live,
                     [kept.get(i, free_mask(view, i, (rid,))) & ~placed for i in open_])
        if set(t[0]) == set(dropped):  # always (fewer facts only let more combinations in)
            return kept, [t[1][t[0].index(c)] for c in dropped], t[5]
    return facts, reasons, place


def _by_clue(view: View, rid: int, open_: list[int], placed: int, facts: dict[int, int],
             found: _Analysis) -> _Analysis | None:
    """What the kept facts alone rule out of the clue's combinations, when that is every
    one beyond those left and no combination left would hold a removed digit ("where 6
    appears nowhere" must stay true): the run's narrowed combinations are then no fact
    (each is said with its reason); else None."""
    dropped, _, _, _, elim, place = found
    if not run_follows(view, rid, facts, None, elims=elim, places=place, drops=dropped):
        return None
    t = _analyse(view, rid, open_, placed, clue_combos(view, rid),
                 [facts.get(i, free_mask(view, i, (rid,))) & ~placed for i in open_])
    t_union = _union(t[3])
    if t[3] and not any(t_union & m for m in elim.values()):
        return t
    return None


def _effects(view: View, placed: int, left: Sequence[int], gone: int,
             place: dict[int, int], by_holder: dict[int, int], needed: int
             ) -> tuple[list[str], str, str]:
    """(the detail's clauses after the reasons, the digits no combination left has, the
    sentence's clause for the digits written in)."""
    then = []
    # every digit the combinations left lack, not only those some cell loses now: a
    # reader checks "where 8 appears nowhere" against the combinations and finds 9 missing too
    nowhere = 0x1FF & ~placed
    for c in left:
        nowhere &= ~c
    absent = f"{digits_and(nowhere)} {'appears' if POP[nowhere] == 1 else 'appear'}"
    if gone:
        then.append(f"where {absent} nowhere")
    placing = ""
    if place:
        every = {1: "which needs", 2: "both need"}.get(len(left), "all of which need")
        # a digit only one cell's stated candidates hold, or one every arrangement of the
        # stated cells puts there (the other cells' digits decided by the sum)
        holders = both([f"only {view.cell_name(i)} can hold {d}" if by_holder.get(i) == d
                        else f"every arrangement puts {d} in {view.cell_name(i)}"
                        for i, d in place.items()])
        then.append(f"{every} {digits_and(needed)}, and {holders}")
        # briefly: ``both need 7, which only r3c2 can hold``
        cells = both([view.cell_name(i) for i in place])
        if by_holder != place:
            where = both([f"{d} in {view.cell_name(i)}" for i, d in place.items()])
            placing = (f"and every arrangement puts its {where}" if len(left) == 1
                       else f"{'both' if len(left) == 2 else 'all'} need "
                            f"{digits_and(needed)}, and every arrangement puts {where}")
        elif len(left) == 1:
            placing = f"and only {cells} can hold its {digits_and(needed)}"
        else:
            placing = (f"{'both' if len(left) == 2 else 'all'} need {digits_and(needed)}, "
                       f"which only {cells} can hold")
    return then, absent, placing


def _brief(view: View, rid: int, left: Sequence[int], said: Sequence[int],
           reasons: Sequence[str], why: str, facts: dict[int, int], placing: str) -> str:
    """The deciding fact, as much of it as fits: the cells' lists and each combination's
    reason, then a summary of the reasons, then the cells by name (the rest is the
    detail)."""
    # (a placement said: what follows speaks of the combinations left)
    must = combos_brief(view, view.run_name(rid), left, said, bool(placing))
    # "r1c6↓ 27/5 is 2+3+5+8+9", as a naked single says "r4c6↓ 4/2 is 1+3": the lists
    # before it are the reason ("must be" and "can only be" said it twice)
    must = must.replace(" must be ", " is ").replace(" can only be ", " is ")
    # with the cells' lists given, "must be 4+7+9" says that no other way fits them (the
    # words "(no other way fits them)" made a median sentence 25 characters longer)
    summary = "" if facts else (" (none of these fits its cells)" if " cannot be " in must
                                else " (no other way fits its cells)")
    tail = f", {placing}" if placing else ""
    given = [f"with {facts_brief(view, facts)}, ",
             f"with the candidates of {cells_and(view, list(facts))}, "] if facts else [""]
    tries = [f"{given[0]}{must}{summary}{tail}", f"{given[-1]}{must}{summary}{tail}"]
    if len(why) <= BRIEF_REASON:  # each combination's reason, when it is short
        if " cannot be " in must:  # the combinations once, each with its reason
            each, told = _cannot_be(view, view.run_name(rid), said, reasons, facts)
            rest = {i: m for i, m in facts.items() if i not in told}
            tries.insert(0, f"with {facts_brief(view, rest)}, {each}" if rest else each)
        else:
            tries.insert(0, f"{given[0]}{must} ({why}){tail}")
    for brief in tries:
        if len(brief) <= BRIEF_MAX:
            break
    return brief


@rule(values=("absent", "brief", "combos", "facts", "left", "then", "why"))
def combination_elimination(view: View, rid: int) -> Iterator[Deduction]:
    """Drop every live combination of the run that its cells cannot hold: one missing a
    digit written in, one with a digit no empty cell takes, one that leaves an empty cell
    without a digit, one whose digits cannot all be given their own cell.

    A step must change the board: it is taken only when the combinations left lose a
    digit some empty cell still has (those digits leave the cells in the same step) or
    need a digit only one empty cell can hold (written in). The proof keeps the fewest
    cells' candidates that still give the same step, first by this argument, then by the
    run's arrangements (``facts.run_trim``: "every arrangement puts its 4 in r7c5" where
    the other cells' lists are not all stated), and the run's narrowed combinations only
    when the kept lists do not rule out the clue's other ways.
    """
    open_, placed, live = view.open_cells(rid), view.placed_mask(rid), view.live(rid)
    if not live:
        return
    masks = [view.mask(i) & ~placed for i in open_]
    found = _analyse(view, rid, open_, placed, live, masks)
    dropped, _, _, _, elim, place = found
    if not dropped or len(dropped) == len(live) or not (elim or place):
        return  # nothing to drop, a contradiction other rules report, or no change
    found = _fewer_lists(view, rid, open_, placed, live, masks, found)
    dropped, reasons, leaned, left, _, _ = found
    gone = _union(elim.values())
    needed = _union(BIT[d] for d in place.values())
    fact, shown, left = _narrowed(view, rid, live, dropped, left, gone, needed)
    facts = cell_facts(view, [i for i in open_ if i in leaned], (rid,))
    facts, reasons, by_holder = _by_arrangements(view, rid, open_, placed, live, facts, fact,
                                                 found)
    said: Sequence[int] = dropped
    t = None if fact is None else _by_clue(view, rid, open_, placed, facts, found)
    if t is not None:  # each combination of the clue is said with its reason
        fact, shown, left = None, clue_combos(view, rid), t[3]
        said, reasons, by_holder = t[0], t[1], t[5]
    then, absent, placing = _effects(view, placed, left, gone, place, by_holder, needed)
    why = _grouped(view, said, reasons)
    yield Deduction(drop_combos={rid: tuple(dropped)}, eliminations=elim, placements=place,
                    cells=tuple(view.layout.run_cells[rid]), runs=(rid,),
                    values={"combos": view.combos_text(shown),
                            "brief": _brief(view, rid, left, said, reasons, why, facts,
                                            placing),
                            "why": why,
                            "facts": holds(view, facts) + "; " if facts else "",
                            "left": view.combos_text(left) or "nothing",
                            "then": ", " + "; ".join(then), "absent": absent},
                    proof=proof(view, (rid,), facts, {} if fact is None else {rid: fact}))

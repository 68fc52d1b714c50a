"""The full-strength per-run check: a digit stays only if some arrangement puts it there.

Shares ``run_filter`` with the solver's bulk propagation, so explain and solve agree. A
person cannot try every arrangement of a long run, so the step gives the short reason
instead: for each combination with the digit, the group of other cells that could not
take what is left of it (Hall's condition), with those cells' candidates as its facts
(only those the run's arrangements need: where fewer rule the digits out, the reasons are
found again from them, see ``facts.run_trim``). When a run loses many digits at once, a
step takes those with the shortest reasons and leaves the rest to the next steps.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..engine.state import Deduction
from ..puzzle.combos import BIT, DIGITS
from ..solver.propagate import run_filter
from . import rule
from .api import View
from .combination import hall_witness
from .facts import (
    alts,
    both,
    cell_facts,
    cells_and,
    clue_combos,
    facts_brief,
    free_mask,
    holds,
    proof,
    run_trim,
)


def _reasons(view: View, rid: int, open_: list[int], placed: int, d: int,
             cells: Iterable[int], facts: dict[int, int] | None = None
             ) -> tuple[list[str], set[int], list[str]] | None:
    """The clauses that rule ``d`` out of ``cells``, the cells they lean on, and each
    clause said briefly for the one way with ``d`` (``4 in r12c12 makes it 3+4+6+7+8+9, and
    r10c12 can hold none of 3, 6, 7, 8 or 9``). With ``facts``, only those cells' candidates are
    known (any other open cell may hold any digit not written in the run)."""
    masks = ({j: view.mask(j) for j in open_} if facts is None else
             {j: facts.get(j, free_mask(view, j, (rid,))) for j in open_})
    with_d = [c for c in clue_combos(view, rid) if c & BIT[d]]
    clauses: list[str] = []
    briefs: list[str] = []
    leaned: set[int] = set()
    for c in with_d:
        rest = c & ~placed & ~BIT[d]
        groups: dict[tuple, list[int]] = {}
        for i in cells:
            others = [j for j in open_ if j != i]
            found = hall_witness(rest, others, [masks[j] for j in others])
            if found is None:  # cannot happen after run_filter; never claim it
                return None
            groups.setdefault(found, []).append(i)
        for (group, u), at in groups.items():
            leaned.update(group)
            where = " or ".join(view.cell_name(i) for i in at)
            names = both([view.cell_name(j) for j in group])
            if not u:
                short = f"{names} {'has' if len(group) == 1 else 'have'} nothing of it"
            else:
                short = f"{names} can only take {alts(u)} of it"
            left = view.combo(rest) if rest else "nothing"
            clauses.append(f"{view.combo(c)} with {d} in {where} leaves {left} to the other "
                           f"cells, and {short}")
            at_ = [view.cell_name(i) for i in at]
            where_ = at_[0] if len(at_) == 1 else ", ".join(at_[:-1]) + " or " + at_[-1]
            # the digits left to the other cells by name: "has nothing of the rest" left
            # the reader to work out which digits "the rest" are
            brief = (f"{names} can hold none of {alts(rest)}" if not u else
                     f"{names} can only take {alts(u)} of {alts(rest).replace(' or ', ' and ')}")
            briefs.append(f"{d} in {where_} makes it {view.combo(c)}, and {brief}")
    return clauses, leaned, briefs


def alts_of(items: list[str]) -> str:
    """``a``; ``a or b``; ``a, b or c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


#: the longest deciding fact a sentence gives before its effect (see _brief): with the
#: effect after it, a sentence stays near the 160 characters aimed at (issue 37)
BRIEF_MAX = 150


def _brief(view: View, rid: int, facts: dict[int, int], chosen: list[tuple]) -> str:
    """The deciding fact: ``in r8c14↓ 27/6, with r10c14 (2 or 5) and r13c14 (6 or 8), no
    arrangement puts a 2 in r14c14``; a digit with
    one short reason keeps it. As much as fits: the reasons, else their summary (one clause
    for all the digits), else the cells without their lists (the detail has it all)."""
    absent: list[str] = []  # digits in no combination at all
    full: list[str] = []  # per digit: its one short reason, or its summary
    summaries: list[str] = []
    items: list[str] = []  # per digit: "a 4 in r2c3", for the summary
    full_items: list[str] = []  # those of them whose one reason is too long to give
    for pairs, (clauses, _leaned, briefs) in chosen:
        d, at = pairs[0]
        if len(pairs) > 1 or not at:
            absent += clauses
            continue
        a_d = f"{'an' if d == 8 else 'a'} {d}"
        where = alts_of([view.cell_name(i) for i in at])
        if len(briefs) == 1 and len(briefs[0]) <= 75:
            full += briefs
        else:
            full_items.append(f"{a_d} in {where}")
        items.append(f"{a_d} in {where}")
    if full_items:
        full.append(f"no arrangement puts {alts_of(full_items)}")
    if items:
        summaries = [f"no arrangement puts {alts_of(items)}"]
    run = view.run_name(rid)
    given = [f", with {facts_brief(view, facts)}",
             f", with the candidates of {cells_and(view, list(facts))}"] if facts else [""]
    brief = ""
    for head, said in ((given[0], absent + full), (given[0], absent + summaries),
                       (given[-1], absent + summaries)):
        brief = f"in {run}{head}, {'; '.join(said)}"
        if len(brief) <= BRIEF_MAX:
            break
    return brief


@rule(values=("brief", "facts", "length", "open", "reasons", "what", "why"))
def permutation_check(view: View, rid: int, max_open: int | None = None,
                      max_reasons: int = 6) -> Iterator[Deduction]:
    """Remove the digits of the run's empty cells that fit no arrangement of its
    combinations, each with its reason: at most ``max_reasons`` reasons a step (a digit
    whose reasons are more is still taken alone; the rest are left to the next steps).
    The default is the core ladder's (tests/test_ladder_limits.py)."""
    open_ = view.open_cells(rid)
    if not open_ or (max_open is not None and len(open_) > max_open):
        return
    cells = list(view.layout.run_cells[rid])
    total = view.layout.run_total[rid]
    new = run_filter(total, tuple(view.mask(i) for i in cells))
    if new is None:
        return  # no arrangement at all: a broken run that combination rules report
    elim = {i: view.mask(i) & ~b for i, b in zip(cells, new, strict=True)
            if view.mask(i) & ~b}
    if not elim:
        return
    placed = view.placed_mask(rid)
    by_digit: dict[int, list[int]] = {}
    for i, m in elim.items():
        for d in DIGITS[m]:
            by_digit.setdefault(d, []).append(i)
    found: list[tuple] = []
    # digits in no combination at all share one clause
    union = 0
    for c in clue_combos(view, rid):
        union |= c
    absent = [d for d in by_digit if not union & BIT[d]]
    if absent:
        at = sorted({i for d in absent for i in by_digit.pop(d)})
        ds = both([str(d) for d in absent])
        found.append((1, 0, [(d, [i for i in at if elim[i] & BIT[d]]) for d in absent],
                      ([f"no combination of {view.run_name(rid)} has {ds}"], set(), [])))
    for d, at in by_digit.items():
        r = _reasons(view, rid, open_, placed, d, at)
        if r is None:
            return
        found.append((len(r[0]), d, [(d, at)], r))
    found.sort(key=lambda t: (t[0], t[1]))
    chosen: list[tuple] = []
    count = 0
    for n, _d, at, r in found:
        if chosen and count + n > max_reasons:
            continue
        chosen.append((at, r))
        count += n
    take: dict[int, int] = {}
    clauses: list[str] = []
    leaned: set[int] = set()
    for pairs, (cl, le, _briefs) in chosen:
        for d, at in pairs:
            for i in at:
                take[i] = take.get(i, 0) | BIT[d]
        clauses += cl
        leaned |= le
    facts = cell_facts(view, [j for j in open_ if j in leaned], (rid,))
    # the run's arrangements may rule the digits out with fewer cells' candidates than
    # the smallest groups above lean on: the proof keeps only those, and the reasons are
    # found again from them alone (a group is never short of digits with a cell in it
    # whose candidates are not stated, so they lean on kept facts only)
    kept = run_trim(view, rid, facts, elims=take)
    if kept != facts:
        again = [(pairs, _reasons(view, rid, open_, placed, pairs[0][0], pairs[0][1], kept)
                  if r[1] else r) for pairs, r in chosen]
        if all(r is not None for _, r in again):
            facts, chosen = kept, again
            clauses = [c for _, r in again if r is not None for c in r[0]]
    what = " or ".join(f"{'/'.join(map(str, DIGITS[m]))} in {view.cell_name(i)}"
                       for i, m in take.items())
    yield Deduction(eliminations=take, cells=tuple(cells), runs=(rid,),
                    values={"what": what, "open": len(open_), "why": "; ".join(clauses),
                            "brief": _brief(view, rid, facts, chosen),
                            "facts": holds(view, facts) + "; " if facts else "",
                            "length": view.run(rid).length,
                            "reasons": len(clauses)},
                    proof=proof(view, (rid,), facts))

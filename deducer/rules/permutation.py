"""The full-strength per-run check: a digit stays only if some arrangement puts it there.

Shares ``run_filter`` with the solver's bulk propagation, so explain and solve agree. A
person cannot try every arrangement of a long run, so the step gives the short reason
instead: for each combination with the digit, the group of other cells that could not
take what is left of it (Hall's condition), with those cells' candidates as its facts
(only those the run's arrangements need: where fewer rule the digits out, the reasons are
found again from them, see ``facts.run_trim``). When a run loses many digits at once, a
step takes those with the shortest reasons and leaves the rest to the next steps. The
sentence gives each digit's failing case in short words (``_Said.compact``); a step that
takes several cases says them in the words its split (CASES_MAX) is measured on.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..engine.state import Deduction
from ..puzzle.combos import BIT, DIGITS, POP, alts_of
from ..solver.propagate import run_filter
from . import rule
from .api import View
from .combination import hall_witness
from .facts import (
    alts,
    both,
    cell_facts,
    clue,
    clue_combos,
    digits_and,
    facts_brief,
    free_mask,
    holds,
    proof,
    run_trim,
    span,
)

#: the clauses that rule a digit out, the cells they lean on, and (each clause said briefly,
#: the raw cases: (cell, rest, group, digits))
Reasons = tuple[list[str], set[int],
                tuple[list[str], list[tuple[int, int, tuple[int, ...], int]]]]


def _reasons(view: View, rid: int, open_: list[int], placed: int, d: int,
             cells: Iterable[int], facts: dict[int, int] | None = None
             ) -> Reasons | None:
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
    raw: list[tuple[int, int, tuple[int, ...], int]] = []  # (cell, rest, group, digits)
    for c in with_d:
        rest = c & ~placed & ~BIT[d]
        groups: dict[tuple, list[int]] = {}
        for i in cells:
            others = [j for j in open_ if j != i]
            found = hall_witness(rest, others, [masks[j] for j in others])
            if found is None:  # cannot happen after run_filter; never claim it
                return None
            groups.setdefault(found, []).append(i)
            raw.append((i, rest, found[0], found[1]))
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
    return clauses, leaned, (briefs, raw)


#: the longest a step's cases run together as the sentence says them (each digit's case,
#: see _case): a step takes its digits, fewest reasons first, while their cases fit (the
#: first always), and leaves the rest to the next steps, so that each digit's failing case
#: is in the sentence, which stays near 160 characters (issue 51: median 160, longest 320)
CASES_MAX = 140


class _Said:
    """How the sentence is said, and what it has said of the cells so far: those given
    with their list, and those named bare (their lists are the detail's); the cells of
    neither are given first, with their lists (see _brief). ``compact``: the shorter
    words of a sentence that would run long (see _brief)."""

    def __init__(self, compact: bool) -> None:
        self.compact = compact
        self.listed: set[int] = set()
        self.named: set[int] = set()
        #: the digits the last "has only 1 and 3 for" said: the next such clause with the
        #: same digits says "only those two" (issue 51: no digit list said twice)
        self.only = 0


def _group_said(view: View, group: tuple[int, ...], facts: dict[int, int], said: _Said) -> str:
    """The cells of a Hall group, each with its list the first time it is named (those
    first: a list after a bare name would read as that cell's too); compact, a group of
    two or more cells is named bare (what it can take of the digits is said after it)."""
    listed, bare = [], []
    for j in group:
        if said.compact and len(group) > 1:
            said.named.add(j)
            bare.append(view.cell_name(j))
        elif j in facts and j not in said.listed:
            listed.append(f"{view.cell_name(j)} ({span(facts[j])})")
            said.listed.add(j)
        else:
            bare.append(view.cell_name(j))
    return both(listed + bare)


def _homeless(rest: int, group: tuple[int, ...], u: int) -> int:
    """The digits left to the other cells that none of them can hold, where that is why a
    group of two or more fails: the group is every other cell (as many as the digits), so
    it is short of a digit only when some digit fits none of them."""
    return rest & ~u if len(group) > 1 and len(group) == POP[rest] else 0


def _none_of(view: View, group: tuple[int, ...], said: _Said, named: bool) -> str:
    """``none of r5c2, r5c4 and r5c5``; ``neither r2c2 nor r2c3``; ``neither cell`` where
    the sentence has just named the two (``r2c2 + r2c3 would make 5``): after "1+6 or 2+5",
    a bare "neither has 5 or 6" reads as the combinations (a learner read it so)."""
    said.named.update(group)
    names = [view.cell_name(j) for j in group]
    if len(names) == 2:
        return "neither cell" if named else f"neither {names[0]} nor {names[1]}"
    return "none of those cells" if named else f"none of {both(names)}"


def _short(group: tuple[int, ...], us: list[int]) -> str:
    """What a group of cells cannot do with the digits left to the others: ``has none of
    them``; ``have only 1 and 5 of them for three cells``; ``have at most one of each for
    two cells`` (fewer digits than cells, so some cell of the group is left without one)."""
    many = len(group) > 1
    if not any(us):
        return f"{'have' if many else 'has'} none of {'them' if len(us) == 1 else 'their digits'}"
    n = len(group)
    if len(us) == 1:  # the digits are listed: their count is the reader's to see
        return f"have only {digits_and(us[0])} of them for {_NUM[n]} cells"
    k = max(POP[u] for u in us)
    return f"have at most {_NUM[k]} of each for {_NUM[n]} cells"


_NUM = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _fails(view: View, group: tuple[int, ...], cases: list[tuple[int, int]],
           facts: dict[int, int], said: _Said, named: bool) -> str:
    """Why one group of cells fails every combination of ``cases`` ((rest, digits the
    group can hold) each), after "and": ``none of r5c2, r5c4 and r5c5 has 2 or 3``
    (a digit of each that no other cell can hold: the cells' lists are the detail's), or
    the group with its lists and what it is short of (``r7c10 (5, 8 or 9) has none of
    them``)."""
    gone = 0
    for rest, u in cases:
        gone |= _homeless(rest, group, u)
    if said.compact and all(_homeless(rest, group, u) for rest, u in cases):
        return f"{_none_of(view, group, said, named)} has {alts(gone)}"
    return f"{_group_said(view, group, facts, said)} {_short(group, [u for _, u in cases])}"


def _leaves(view: View, group: tuple[int, ...], cases: list[tuple[int, int]],
            facts: dict[int, int], said: _Said, named: bool) -> str:
    """One group's part where the combinations fail on different groups: ``1+3+8+9 leaves
    r9c8 (3 or 4) and r10c8 (3 or 5) one digit, 3``; ``2+5+6+8 or 3+4+6+8 leave r6c8 (7 or
    9) nothing``; compact, ``1+3+4+8 needs 8, which none of r3c4, r5c4 and r6c4 has``,
    ``2+5+6+8 or 3+4+6+8 have nothing for r6c8 (7 or 9)``,
    ``1+3+8+9 has only 3 for r9c8 and r10c8``, ``... leave r3c3 and r3c5 at most one
    digit``."""
    combos = alts_of([view.combo(r) for r, _ in cases])
    one = len(cases) == 1
    gone = [_homeless(rest, group, u) for rest, u in cases]
    if said.compact and all(gone):
        union = 0
        for g in gone:
            union |= g
        return (f"{combos} need{'s' if one else ''} {alts(union)}, which "
                f"{_none_of(view, group, said, named)} has")
    us = [u for _, u in cases]
    top = max(POP[u] for u in us)
    if said.compact and top and len(set(us)) == 1:  # the digits first, then the cells
        digits = digits_and(us[0]) if us[0] != said.only or POP[us[0]] < 2 else \
            f"those {_NUM[POP[us[0]]]}"
        said.only = us[0]
        return (f"{combos} ha{'s' if one else 've'} only {digits} for "
                f"{_group_said(view, group, facts, said)}")
    if said.compact and not top:  # as "has only 9 for" above: "have nothing for r8c8 (7 or 9)"
        return (f"{combos} ha{'s' if one else 've'} nothing for "
                f"{_group_said(view, group, facts, said)}")
    # the count first: fewer digits than cells is the point ("X only 7" would read as
    # X's candidates, and the sentence checker reads it so)
    what = ("nothing" if not top else
            f"{_NUM[top]} digit{'s' if top > 1 else ''}, {digits_and(us[0])}"
            if len(set(us)) == 1 else
            f"at most {_NUM[top]} digit{'s' if top > 1 else ''}" if said.compact else
            f"at most {_NUM[top]} digit{'s' if top > 1 else ''} of each")
    return (f"{combos} {'leaves' if one else 'leave'} "
            f"{_group_said(view, group, facts, said)} {what}")


def _who(view: View, rid: int, at: list[int]) -> tuple[str, tuple[int, ...]]:
    """Who would make the sum left: the two other cells by name (``r7c10 + r7c11``), else
    ``the rest``; and the cells so named (none for ``the rest``)."""
    others = tuple(j for j in view.open_cells(rid) if j not in at)
    if len(at) == 1 and len(others) == 2:
        return " + ".join(view.cell_name(j) for j in others), others
    return "the rest", ()


def _case(view: View, rid: int, d: int, raw: list[tuple[int, int, tuple[int, ...], int]],
          facts: dict[int, int], said: _Said) -> str:
    """The case that fails, per cell the digit leaves (cells failing alike said together):
    ``if r7c9 were 8, r7c10 + r7c11 would make 7: 1+6 or 3+4, and r7c10 (5, 8 or 9) has
    none of them``. The digits left to the other cells are each combination of the clue
    with ``d`` (and the digits written in) less those; a group of other cells with fewer
    of them than cells (Hall's condition) leaves one cell without a digit."""
    by_cell: dict[int, list[tuple[int, tuple[int, ...], int]]] = {}
    for i, rest, group, u in raw:
        by_cell.setdefault(i, []).append((rest, group, u))
    alike: dict[tuple, list[int]] = {}
    for i, ws in by_cell.items():
        alike.setdefault(tuple(ws), []).append(i)
    # the sum left (its arithmetic, with the digits written in, is the detail's)
    made = clue(view, rid) - sum(DIGITS[view.placed_mask(rid)]) - d
    out = []
    for key, at in alike.items():
        who, named = _who(view, rid, at)
        head = _if(alts_of([view.cell_name(i) for i in at]), str(d), who, str(made), said)
        by_group: dict[tuple[int, ...], list[tuple[int, int]]] = {}
        for rest, group, u in key:
            by_group.setdefault(group, []).append((rest, u))
        if len(by_group) == 1:
            (group, cases), = by_group.items()
            out.append(f"{head}: {_one_group(view, group, cases, facts, said, named)}")
        else:  # each group with the combinations it fails: "1+3+8 or 2+4+6 leave r4c2 nothing"
            out.append(f"{head}: " + "; ".join(
                _leaves(view, group, cases, facts, said, set(group) == set(named))
                for group, cases in by_group.items()))
    return "; ".join(out)


def _cases(view: View, rid: int, key: tuple, digits: list, facts: dict[int, int],
           said: _Said) -> str:
    """Several digits of the same cells whose cases one group fails alike: ``if r2c4 were
    1 or 2, r2c2 + r2c3 would make 5 or 4: 2+3 or 1+3, and r2c2 (1 or 2) and r2c3 (1 or 2)
    have at most one of each for two cells``."""
    at, group = key
    total = view.layout.run_total[rid] - sum(DIGITS[view.placed_mask(rid)])
    who, named = _who(view, rid, list(at))
    cases = [(rest, u) for _d, raw in digits for _i, rest, _g, u in raw]
    head = _if(alts_of([view.cell_name(i) for i in at]), alts_of([str(d) for d, _ in digits]),
               who, alts_of([str(total - d) for d, _ in digits]), said)
    return f"{head}: {_one_group(view, group, cases, facts, said, named)}"


def _one_group(view: View, group: tuple[int, ...], cases: list[tuple[int, int]],
               facts: dict[int, int], said: _Said, named: tuple[int, ...]) -> str:
    """The combinations left to the other cells and why one group fails them all: ``1+6
    or 3+4, and r7c10 (5, 8 or 9) has none of them``; compact, where the group is not
    every other cell short of a digit, as where groups differ (``1+2+6+7+9 has only 1, 2
    and 6 for r3c3, r4c3, r5c3 and r7c3``)."""
    mine = set(group) == set(named)
    if said.compact and not all(_homeless(rest, group, u) for rest, u in cases):
        return _leaves(view, group, list(dict.fromkeys(cases)), facts, said, mine)
    combos = list(dict.fromkeys(view.combo(r) for r, _ in cases))
    return f"{_or(combos, said)}, and {_fails(view, group, cases, facts, said, mine)}"


def _if(cells: str, digits: str, who: str, made: str, said: _Said) -> str:
    """The case: ``if r7c9 were 8, r7c10 + r7c11 would make 7``; compact, ``if r7c9 is 8,
    r7c10 + r7c11 make 7``."""
    if said.compact:
        return f"if {cells} is {digits}, {who} make {made}"
    return f"if {cells} were {digits}, {who} would make {made}"


def _or(combos: list[str], said: _Said) -> str:
    """Combinations, one of which the cells would hold: ``1+7 or 2+6 or 3+5``; compact,
    ``1+7, 2+6 or 3+5``."""
    return alts_of(combos) if said.compact else " or ".join(combos)


def _brief(view: View, rid: int, facts: dict[int, int], chosen: list[tuple],
           compact: bool = False) -> str:
    """The deciding fact: ``in r7c8→ 15/3, if r7c9 were 8, r7c10 + r7c11 would make 7:
    1+6 or 3+4, and r7c10 (5, 8 or 9) has none of them``: for each digit the case that
    fails; digits no combination has, in one clause. Facts no case names (a cell whose
    list the arrangements need beside the groups named) are given first."""
    absent: list[str] = []
    cases: list = []
    said = _Said(compact)
    merged: dict[tuple, list] = {}
    for pairs, (_clauses, _leaned, extra) in chosen:
        d, at = pairs[0]
        if len(pairs) > 1 or not at:
            absent += extra[0]  # "no combination has 4 to 9": the run is named before
            continue
        raw = extra[1]
        groups = {g for _i, _r, g, _u in raw}
        if len(groups) == 1:  # one group fails every case: said with the digits alike
            key = (tuple(sorted({i for i, *_ in raw})), groups.pop())
            if key in merged:
                merged[key].append((d, raw))
                continue
            merged[key] = [(d, raw)]
            cases.append(key)
        else:
            cases.append(_case(view, rid, d, raw, facts, said))
    cases = [c if isinstance(c, str) else
             _case(view, rid, merged[c][0][0], merged[c][0][1], facts, said)
             if len(merged[c]) == 1 else _cases(view, rid, c, merged[c], facts, said)
             for c in cases]
    rest = {j: m for j, m in facts.items() if j not in said.listed | said.named}
    head = f"{view.run_name(rid)}, with {facts_brief(view, rest)}: " if rest else \
        f"{view.run_name(rid)}: "
    return head + "; ".join(absent + cases)


def _absent(view: View, rid: int, by_digit: dict[int, list[int]], elim: dict[int, int]
            ) -> tuple | None:
    """The digits in no combination of the run at all, as one entry of ``_found`` (one
    clause for them all), taken out of ``by_digit``; None if there are none."""
    union = 0
    for c in clue_combos(view, rid):
        union |= c
    absent = [d for d in by_digit if not union & BIT[d]]
    if not absent:
        return None
    at = sorted({i for d in absent for i in by_digit.pop(d)})
    gone = 0
    for d in absent:
        gone |= BIT[d]
    return (1, 0, [(d, [i for i in at if elim[i] & BIT[d]]) for d in absent],
            ([f"no combination of {view.run_name(rid)} has {both([str(d) for d in absent])}"],
             set(), ([f"no combination has {span(gone)}"], [])))


def _found(view: View, rid: int, open_: list[int], elim: dict[int, int]) -> list[tuple] | None:
    """Every digit the run's arrangements rule out, with its reasons, as (how many
    reasons, digit, [(digit, cells)], reasons): the digits in no combination together,
    and each other digit once per group of cells whose cases fail alike. None where a
    reason is not found (never claimed)."""
    placed = view.placed_mask(rid)
    by_digit: dict[int, list[int]] = {}
    for i, m in elim.items():
        for d in DIGITS[m]:
            by_digit.setdefault(d, []).append(i)
    none_has = _absent(view, rid, by_digit, elim)
    found: list[tuple] = [none_has] if none_has else []
    for d, at in by_digit.items():
        r = _reasons(view, rid, open_, placed, d, at)
        if r is None:
            return None
        # cells whose cases fail alike are one case; others are each their own (a step
        # may then take some of them and leave the rest to the next, see CASES_MAX)
        how: dict[tuple, list[int]] = {}
        for i in at:
            how.setdefault(tuple((rest, g, u) for j, rest, g, u in r[2][1] if j == i),
                           []).append(i)
        if len(how) == 1:
            found.append((len(r[0]), d, [(d, at)], r))
            continue
        for part in how.values():
            rp = _reasons(view, rid, open_, placed, d, part)
            if rp is None:
                return None
            found.append((len(rp[0]), d, [(d, part)], rp))
    return found


def _chosen(view: View, rid: int, open_: list[int], found: list[tuple],
            max_reasons: int) -> list[tuple]:
    """What one step takes, as ([(digit, cells)], reasons) pairs: the fewest reasons
    first, at most ``max_reasons`` of them, and then as many digits as their cases, as
    the sentence says them, fit CASES_MAX (the first always)."""
    chosen: list[tuple] = []
    count = 0
    for n, _d, at, r in sorted(found, key=lambda t: (t[0], t[1])):
        if chosen and count + n > max_reasons:
            continue
        chosen.append((at, r))
        count += n
    if len(chosen) < 2:
        return chosen
    first = cell_facts(view, [j for j in open_ if any(j in r[1] for _, r in chosen)], (rid,))
    fit: list[tuple] = []
    for at, r in chosen:
        if fit and len(_brief(view, rid, first, [*fit, (at, r)])) > CASES_MAX:
            break
        fit.append((at, r))
    return fit


def _trimmed(view: View, rid: int, open_: list[int], chosen: list[tuple],
             take: dict[int, int]) -> tuple[dict[int, int], list[tuple], list[str]]:
    """The cells' lists the proof states, the chosen reasons and their clauses. The run's
    arrangements may rule the digits out with fewer cells' candidates than the smallest
    groups lean on: the proof keeps only those, and the reasons are found again from
    them alone (a group is never short of digits with a cell in it whose candidates are
    not stated, so they lean on kept facts only)."""
    clauses = [c for _, r in chosen for c in r[0]]
    facts = cell_facts(view, [j for j in open_ if any(j in r[1] for _, r in chosen)], (rid,))
    kept = run_trim(view, rid, facts, elims=take)
    if kept == facts:
        return facts, chosen, clauses
    placed = view.placed_mask(rid)
    again = [(pairs, _reasons(view, rid, open_, placed, pairs[0][0], pairs[0][1], kept)
              if r[1] else r) for pairs, r in chosen]
    if not all(r is not None for _, r in again):
        return facts, chosen, clauses
    return kept, again, [c for _, r in again if r is not None for c in r[0]]


def _named(view: View, chosen: list[tuple], take: dict[int, int]) -> tuple[str, str] | None:
    """The effect as the engine says it where the sentence's cases name its digits and
    cells already (``if r8c8 is 4, ...``: ``4 leaves r8c8``), and its shorter words
    (``4 is out``: "4 goes" read as 4 going in); None where a digit is in no
    combination (its cells are not named) or the cells lose different digits (issue 51:
    the effect named the digit and its cells again)."""
    if any(len(pairs) > 1 or not pairs[0][1] for pairs, _r in chosen):
        return None
    masks = set(take.values())
    if len(masks) != 1:
        return None
    m = masks.pop()
    digits = digits_and(m)
    names = " and ".join(view.cells_name(sorted(take)).rsplit(", ", 1))
    one = POP[m] == 1
    return (f"{digits} {'leaves' if one else 'leave'} {names}",
            f"{digits} {'is' if one else 'are'} out")


@rule(values=("brief", "effect_named", "effect_said", "facts", "length", "open", "reasons",
              "what", "why"))
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
    new = run_filter(view.layout.run_total[rid], tuple(view.mask(i) for i in cells))
    if new is None:
        return  # no arrangement at all: a broken run that combination rules report
    elim = {i: view.mask(i) & ~b for i, b in zip(cells, new, strict=True)
            if view.mask(i) & ~b}
    found = _found(view, rid, open_, elim) if elim else None
    if not found:
        return
    chosen = _chosen(view, rid, open_, found, max_reasons)
    take: dict[int, int] = {}
    for pairs, _r in chosen:
        for d, at in pairs:
            for i in at:
                take[i] = take.get(i, 0) | BIT[d]
    facts, chosen, clauses = _trimmed(view, rid, open_, chosen, take)
    what = " or ".join(f"{'/'.join(map(str, DIGITS[m]))} in {view.cell_name(i)}"
                       for i, m in take.items())
    # the shorter words, but where the step takes several cases that fit CASES_MAX as
    # said in full: where a step stops is measured on the words it is said in
    brief = _brief(view, rid, facts, chosen)
    if len(chosen) == 1 or len(brief) > CASES_MAX:
        brief = _brief(view, rid, facts, chosen, compact=True)
    yield Deduction(eliminations=take, cells=tuple(cells), runs=(rid,),
                    values={"what": what, "open": len(open_), "why": "; ".join(clauses),
                            "brief": brief, "effect_named": _named(view, chosen, take),
                            "facts": holds(view, facts) + "; " if facts else "",
                            "length": view.run(rid).length,
                            "reasons": len(clauses)},
                    proof=proof(view, (rid,), facts))

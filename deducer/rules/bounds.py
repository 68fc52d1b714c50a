"""Largest and smallest possible numbers (the "minimax" method)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence

from ..engine.state import Deduction
from ..puzzle.combos import ALL, BIT, DIGITS, HIGH, LOW, POP
from ..solver.propagate import run_filter
from . import rule
from .api import View
from .facts import both, holds, minus, proof, span


def sum_limits(masks: list[int]) -> tuple[int, int]:
    """Valid lower and upper bounds on the sum of distinct digits, one from each mask.

    Two bounds each way, the tighter kept: each cell on its own (its smallest/largest
    candidate) and the distinct-digits bound (the smallest/largest ``k`` digits any of
    the cells can take)."""
    avail = 0
    lo = hi = 0
    for m in masks:
        avail |= m
        lo += LOW[m]
        hi += HIGH[m]
    k = len(masks)
    if POP[avail] >= k:
        lo = max(lo, LEAST[avail][k])
        hi = min(hi, MOST[avail][k])
    return lo, hi


def intervals(need: int, masks: Sequence[int]) -> list[tuple[int, int] | None]:
    """For each of a run's open cells (their candidates ``masks``), the least and most it
    can be when the others make what :func:`sum_limits` allows and all of them make
    ``need``: ``need`` less the most the others make, to ``need`` less the least (None
    where the others cannot be filled with different digits). Worked out for all the
    cells at once, each from what the cells before and after it hold."""
    n = len(masks)
    lows = highs = 0
    before = [0] * (n + 1)  # the digits of the cells before each, and after
    after = [0] * (n + 1)
    for k, m in enumerate(masks):
        lows += LOW[m]
        highs += HIGH[m]
        before[k + 1] = before[k] | m
    for k in range(n - 1, -1, -1):
        after[k] = after[k + 1] | masks[k]
    others = n - 1
    out: list[tuple[int, int] | None] = []
    for k, m in enumerate(masks):
        avail = before[k] | after[k + 1]
        if POP[avail] < others:
            out.append(None)
            continue
        lo = max(lows - LOW[m], LEAST[avail][others])
        hi = min(highs - HIGH[m], MOST[avail][others])
        out.append((need - hi, need - lo))
    return out


def _sums() -> tuple[list[list[int]], list[list[int]]]:
    """``[mask][k]``: the sum of the ``k`` least (most) digits of mask (k up to its size)."""
    least = [[sum(DIGITS[m][:k]) for k in range(POP[m] + 1)] for m in range(512)]
    most = [[sum(DIGITS[m][len(DIGITS[m]) - k:]) for k in range(POP[m] + 1)]
            for m in range(512)]
    return least, most


LEAST, MOST = _sums()


def _extremes(masks: list[int]) -> tuple[tuple[int, str], tuple[int, str]]:
    """:func:`sum_limits`, each with the sum that shows it (``1+2+3``), for the sentence: the
    cells' own smallest (largest) candidates where that bound is the one kept, else the
    smallest (largest) digits the cells can take."""
    lo, hi = sum_limits(masks)
    avail = 0
    for m in masks:
        avail |= m
    ds, k = DIGITS[avail], len(masks)
    lows = sorted(LOW[m] for m in masks)
    highs = sorted(HIGH[m] for m in masks)
    shown_lo = lows if sum(lows) == lo else ds[:k]
    shown_hi = highs if sum(highs) == hi else ds[-k:]
    return (lo, "+".join(map(str, shown_lo))), (hi, "+".join(map(str, shown_hi)))


def _made(bound: tuple[int, str], masks: list[int], side: str, unlisted: int = 0) -> str:
    """``as different digits they make at least 1+2+3 = 6``, or, where the bound adds each
    cell's own least (most), which may repeat a digit, says so instead. ``unlisted`` cells
    have no list in the sentence: what they may hold is any digit not yet in the run (not
    their candidates, which the reader would check against the board), so it is said."""
    value, shown = bound
    own = sorted((LOW if side == "least" else HIGH)[m] for m in masks)
    said = "+".join(map(str, _terms(masks, side, bound)))
    if "+".join(map(str, own)) == shown:
        free = (" (a cell without a list: any digit not yet in the run)" if unlisted
                else "")
        return (f"each at the {side} it may hold{free}, they make at {side} {said} = "
                f"{value}")
    return f"as different digits, they make at {side} {said} = {value}"


def _terms(masks: Sequence[int], side: str, bound: tuple[int, str]) -> list[int]:
    """The sum that shows ``bound``, its terms in the order of the cells (``masks``) as
    the sentence names them (``r2c8 (8 or 9) and r2c6 make at least 8 + 1``, not ``1 +
    8``, which reads as r2c8's 1): each cell's own least (most) where those add up to
    the bound, else different digits one from each cell that do; where no digits of the
    cells do (the bound of the smallest digits any cell holds), the bound's own sum,
    which names no cell."""
    value, shown = bound
    own = [(LOW if side == "least" else HIGH)[m] for m in masks]
    if sum(own) != value:
        best = _distinct(masks, side)
        if best is None or sum(best) != value:
            return [int(d) for d in shown.split("+")]
        own = best
    return own


def _bounds(need: int, masks: list[int]) -> tuple[int, int]:
    """The least and most a cell can be when the other cells (``masks``) leave ``need``."""
    least, most = sum_limits(masks)
    return need - most, need - least


def _exact(cells: Sequence[int], total: int | None, fixed: dict[int, int],
           facts: dict[int, int], i: int, d: int) -> bool:
    """Is ``d`` ruled out of cell ``i`` by the run alone, its cells limited to ``facts``
    (the others free: ``fixed`` has each written cell's digit and each open cell's free
    candidates)? (The per-run check over the local problem.) The run's exact filter keeps
    ``d`` in ``i`` exactly when some filling puts it there; asked without ``d`` written in,
    one filter answers for every digit of the cell (the solver's filters are kept)."""
    got = run_filter(total, tuple([facts.get(j, fixed[j]) for j in cells]))
    return got is None or not got[cells.index(i)] & BIT[d]


def _covered(groups: dict[tuple, list[int]], key: tuple) -> list[int]:
    """The digits whose facts are among ``key``."""
    return [d for k, ds in groups.items() if set(k) <= set(key) for d in ds]


def _upshot(name: str, need: int, bound: int, side: str) -> str:
    """What a bound leaves the cell: ``r6c6 is at most 18 - 13 = 5``; where the arithmetic
    would say nothing (at most 0, at least 10), the fact itself: nothing is left for it."""
    if side == "least":  # the others make at least ``bound``: the cell at most need - bound
        if need - bound < 1:
            return (f"all that the run still needs, so nothing is left for {name}"
                    if bound == need else
                    f"more than the {need} the run still needs, so nothing is left for {name}")
        return f"so {name} is at most {need} - {bound} = {need - bound}"
    if need - bound > 9:
        return f"so {name} would need {need} - {bound} = {need - bound}, more than 9"
    return f"so {name} is at least {need} - {bound} = {need - bound}"


def _repeats(used: Sequence[int], side: str, shown: str) -> bool:
    """Does the bound kept add each cell's own least (most), with a digit twice (``2 + 2 +
    7``), where two cells of one run never share a digit?"""
    own = [(LOW if side == "least" else HIGH)[m] for m in used]
    return len(set(own)) < len(own) and "+".join(map(str, sorted(own))) == shown


def _distinct(masks: Sequence[int], side: str) -> list[int] | None:
    """The least (``side`` "least") or most sum of different digits, one from each mask,
    as the digits in mask order; None if none fits. (:func:`sum_limits` may add a digit
    twice; this is the bound a solver says, worded where it removes no more.)"""
    best: list[int] | None = None
    best_sum = 0
    pick: list[int] = []
    order = range(1, 10) if side == "least" else range(9, 0, -1)

    def walk(n: int, used: int, total: int) -> None:
        nonlocal best, best_sum
        if best is not None and (total >= best_sum if side == "least" else total <= best_sum):
            return  # digits in order: the first fill found at each depth is kept if better
        if n == len(masks):
            best, best_sum = list(pick), total
            return
        for d in order:
            if masks[n] & BIT[d] and not used & BIT[d]:
                pick.append(d)
                walk(n + 1, used | BIT[d], total + d)
                pick.pop()

    walk(0, 0, 0)
    return best


def _each_said(view: View, others: Sequence[int], used: Sequence[int],
               listed: dict[int, int], side: str) -> str:
    """The cells with what each gives on its own: ``r3c2 and r4c2 (at least 2 each),
    r7c2 (7 or 9) and r5c2`` (a listed cell's own least is its list's first digit). A
    cell that may hold any digit down to 1 (up to 9) is named bare, last: "(at most 9)"
    would tell the reader nothing, and a list after a bare cell would read as its too."""
    own = [(LOW if side == "least" else HIGH)[m] for m in used]
    plain = 1 if side == "least" else 9
    parts: list[str] = []
    bare: list[str] = []
    groups: dict[int, list[str]] = {}
    for j, v in zip(others, own, strict=True):
        if j in listed:
            parts.append(f"{view.cell_name(j)} ({span(listed[j])})")
        elif v == plain:
            bare.append(view.cell_name(j))
        else:
            groups.setdefault(v, []).append(view.cell_name(j))
    for v in sorted(groups, reverse=side == "most"):
        each = " each" if len(groups[v]) > 1 else ""
        parts.insert(0, f"{both(groups[v])} (at {side} {v}{each})")
    return both(parts + bare)


def _brief(view: View, rid: int, placed: int, need: int, others: Sequence[int],
           facts: dict[int, int], used: Sequence[int], name: str, least: tuple[int, str],
           most: tuple[int, str], lo: int, hi: int, too_small: Sequence[int],
           too_big: Sequence[int], own: int) -> str:
    """The deciding fact of sum bounds: ``r4c6↓ 18/4: r5c6, r7c6 (4 to 7) and r8c6 (8 or
    9) make at least 1 + 4 + 8 = 13, so r6c6 is at most 18 - 13 = 5``; with digits
    written in, ``r4c6↓ 18/4 still needs 10: ...`` (the board shows which)."""
    head = f"{view.run_name(rid)} still needs {need}" if placed else view.run_name(rid)
    # cells with a list first: a list after a cell without one would read as both cells'
    named = [j for j in others if j in facts] + [j for j in others if j not in facts]
    if len(others) > 3:  # the sum below shows what each gives; their lists are the detail's
        named = list(others)
    cells = both([f"{view.cell_name(j)} ({span(facts[j])})" if j in facts and len(others) <= 3
                  else view.cell_name(j) for j in named])
    # the masks in the order the cells are named: a sum's terms follow that order
    in_order = [used[others.index(j)] for j in named]
    verb = "makes" if len(others) == 1 else "make"
    if too_small and too_big:
        said = (f"{verb} {least[0]} to {most[0]}, so {name} is {lo} to {hi}" if lo != hi else
                f"{verb} exactly {least[0]}, so {name} is {need} - {least[0]} = {lo}")
        return f"{head}: {cells} {said}"
    side, bound = ("least", least) if too_big else ("most", most)
    if _repeats(used, side, bound[1]):  # the cells' own bounds, which repeat a digit
        # a solver adds different digits (2 + 3 + 7 = 12, not 2 + 2 + 7): said so where
        # that bound takes no more from the cell than this step does
        best = _distinct(in_order, side)
        if best is not None:
            tight = sum(best)
            lo2, hi2 = (lo, need - tight) if side == "least" else (need - tight, hi)
            if tight != bound[0] and all(lo2 <= d <= hi2 for d in DIGITS[own]
                                         if lo <= d <= hi):
                said = " + ".join(map(str, best))
                return (f"{head}: {cells}, as different digits, make at {side} {said} = "
                        f"{tight}, {_upshot(name, need, tight, side)}")
        # else the bound the step rests on, which counts each cell at its own least
        # (most): true, and said as what the cells take of the sum, not as a sum of them
        said = _each_said(view, others, used, facts if len(others) <= 3 else {}, side)
        upshot = _upshot(name, need, bound[0], side)
        return f"{head}: {said} take at {side} {bound[0]} of the {need}, {upshot}"
    terms = " + ".join(map(str, _terms(in_order, side, bound)))
    said = f"{verb} at {side} {terms} = {bound[0]}"
    if sum((LOW if side == "least" else HIGH)[m] for m in used) != bound[0]:
        # a term is not its cell's own least (most): "r2c7 (5 to 7) and r6c7 (5 or 7) make
        # at least 6 + 5" says why r2c7 counts 6 only with this
        said = f", as different digits, {said}"
    else:
        said = f" {said}"
    return f"{head}: {cells}{said}, {_upshot(name, need, bound[0], side)}"


def _wording(view: View, rid: int, placed: int, need: int, name: str,
             others: Sequence[int], facts: dict[int, int], used: Sequence[int], lo: int,
             hi: int, too_small: Sequence[int], too_big: Sequence[int], own: int
             ) -> Callable[[], tuple[str, str, str]]:
    """A sum-bounds step's words (the other cells, the bounds, the brief), worked out
    once, when first asked: only for a step taken or a chain's link kept, not for each
    deduction a search measures and drops."""

    @functools.cache
    def words() -> tuple[str, str, str]:
        least, most = _extremes(list(used))
        unlisted = sum(1 for j in others if j not in facts)
        parts = []
        if too_big:
            parts.append(f"{_made(least, list(used), 'least', unlisted)}, "
                         f"{_upshot(name, need, least[0], 'least')}")
        if too_small:
            parts.append(f"{_made(most, list(used), 'most', unlisted)}, "
                         f"{_upshot(name, need, most[0], 'most')}")
        # the cells first, each list of digits in a clause of its own cells, so no list
        # can be read as belonging to a cell named before it
        named_others = both([view.cell_name(j) for j in others])
        if facts:
            named_others += "; " + holds(view, {j: facts[j] for j in others if j in facts})
        brief = _brief(view, rid, placed, need, others, facts, used, name, least, most, lo,
                       hi, too_small, too_big, own)
        return named_others, "; ".join(parts), brief

    return words


@rule(values=("bounds", "brief", "count", "high", "low", "need", "need_text", "others"))
def sum_bounds(view: View, rid: int) -> Iterator[Deduction]:
    """Each empty cell is at least the remaining sum minus the most the other empty cells
    can make, and at most the remaining sum minus the least they can make.

    The proof keeps the candidates of only those other cells whose candidates the bound
    needs (a cell that may hold any digit not yet written in the run needs no fact). The
    bound is set by a digit the run would not rule out with fewer of those facts (so the
    sentence's arithmetic is what the proof rests on); every digit outside the bound it
    states then goes, so that no digit the sentence excludes stays in the cell.
    """
    need = view.remaining(rid)
    if need is None:
        return
    open_ = view.open_cells(rid)
    if len(open_) < 2:
        return
    placed = view.placed_mask(rid)
    masks = {i: view.mask(i) & ~placed for i in open_}
    if any(m == 0 for m in masks.values()):
        return  # a broken cell: other rules report it
    # the digits outside each cell's bounds first: most runs a chain search asks about
    # have none, and need nothing more worked out
    outs: dict[int, list[int]] = {}
    for i, span_i in zip(open_, intervals(need, [masks[i] for i in open_]), strict=True):
        if span_i is None:
            continue  # the other cells cannot all be filled: other rules report it
        lo, hi = span_i
        out = [d for d in DIGITS[masks[i]] if d < lo or d > hi]
        if out:
            outs[i] = out
    if not outs:
        return
    cells = list(view.layout.run_cells[rid])
    total = view.layout.run_total[rid]
    assert total is not None  # remaining() is None only for an unclued run
    # every cell asked about is an open cell of this run: what it may hold without a fact
    # (facts.free_mask) is any digit not written in the run, and its fact (cell_facts)
    # is its candidates where they say more; read once for the run
    free = ALL & ~placed
    fixed = {j: view.mask(j) if view.is_placed(j) else free for j in cells}
    stated = {j: m for j in open_ if (m := view.mask(j)) != free}
    for i, out in outs.items():
        others = [j for j in open_ if j != i]
        # per digit, the fewest facts about the other cells its bound needs; a digit
        # whose facts say more than the run needs (the sum alone rules it out with
        # fewer) is left to a later step that can say why
        groups: dict[tuple, list[int]] = {}
        for d in out:
            facts = {j: m for j, m in stated.items() if j != i}
            for j in list(facts):
                trial = [facts[k] if k in facts and k != j else free for k in others]
                t_lo, t_hi = _bounds(need, trial)
                if d < t_lo or d > t_hi:
                    del facts[j]
            if any(_exact(cells, total, fixed, {k: m for k, m in facts.items() if k != j},
                          i, d) for j in facts):
                continue
            groups.setdefault(tuple(sorted(facts.items())), []).append(d)
        if not groups:
            continue
        # one step takes every digit whose facts are among those of one digit (each fact
        # then needed by that digit, and the bounds only tighten with more facts)
        key = max(groups, key=lambda k: len(_covered(groups, k)))
        digits = sorted(_covered(groups, key))
        facts = dict(key)
        used = [facts.get(j, free) for j in others]
        lo, hi = _bounds(need, used)
        # every digit the stated bounds exclude goes, not only the digits grouped here: a
        # sentence saying "at most 5" while 8 stays in the cell misleads its reader (the
        # stated facts imply the rest too, so the proof holds for them)
        too_small = [d for d in DIGITS[masks[i]] if d < lo]
        too_big = [d for d in DIGITS[masks[i]] if d > hi]
        assert set(digits) <= set(too_small + too_big)
        gone = 0
        for d in too_small + too_big:
            gone |= BIT[d]
        name = view.cell_name(i)
        words = _wording(view, rid, placed, need, name, others, facts, used, lo, hi,
                         too_small, too_big, masks[i])
        yield Deduction(eliminations={i: gone}, cells=tuple(open_), runs=(rid,),
                        values={"need": need, "need_text": minus(total, placed),
                                "cell": name, "count": len(open_), "low": lo, "high": hi,
                                "others": lambda words=words: words()[0],
                                "bounds": lambda words=words: words()[1],
                                "brief": lambda words=words: words()[2]},
                        proof=proof(view, (rid,), facts))

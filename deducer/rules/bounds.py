"""Largest and smallest possible numbers (the "minimax" method)."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..engine.state import Deduction
from ..puzzle.combos import ALL, BIT, DIGITS, HIGH, LOW, POP, SUM
from ..solver.propagate import run_filter
from . import rule
from .api import View
from .facts import both, clue, holds, minus, proof, span


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


def distinct_sums(masks: Sequence[int]) -> tuple[int, int] | None:
    """The least and most sum of *different* digits, one from each mask (None: the masks
    cannot all be filled so): the bound a person adds, each cell's own list on the
    board. Worked out over digit masks, not by trying products of digits; cached on the
    sorted masks (the answer does not depend on their order)."""
    return sorted_distinct_sums(tuple(sorted(masks)))


@functools.lru_cache(maxsize=1 << 16)
def sorted_distinct_sums(masks: tuple[int, ...]) -> tuple[int, int] | None:
    """:func:`distinct_sums` of masks already sorted (the chain bound's many calls)."""
    # ``reach``: the digit sets the cells so far can take, one digit each, as the bits of
    # one integer (bit ``s`` for the set ``s``); a cell's digit ``d`` moves each set
    # without ``d`` up by ``BIT[d]``: a few big-integer operations per digit where a set of
    # sets cost a loop over them (this runs for every run the chain bound filters)
    reach = 1
    for m in masks:
        got = 0
        for d in DIGITS[m]:
            got |= (reach & _WITHOUT[d]) << BIT[d]
        if not got:
            return None
        reach = got
    n = len(masks)
    least = n * (n + 1) // 2  # 1 + 2 + ... + n: no n different digits make less
    while not reach & _SUMMING[least]:
        least += 1
    most = 45 - (9 - n) * (10 - n) // 2  # (n + 1) + ... + 9 taken from 45
    while not reach & _SUMMING[most]:
        most -= 1
    return least, most


def _sets_bits() -> tuple[list[int], list[int]]:
    """``[d]``: the digit sets without ``d``; ``[t]``: the sets whose digits make ``t``
    (each as the bits of an integer, bit ``s`` for the set ``s``)."""
    every = (1 << 512) - 1
    # without d: in each stretch of 2 * BIT[d] sets, the first BIT[d] (built at once, as
    # import time counts)
    without = [0] + [((1 << BIT[d]) - 1) * (every // ((1 << 2 * BIT[d]) - 1))
                     for d in range(1, 10)]
    by_sum: list[list[int]] = [[] for _ in range(46)]
    for s in range(512):
        by_sum[SUM[s]].append(s)
    return without, [sum(1 << s for s in sets) for sets in by_sum]


_WITHOUT, _SUMMING = _sets_bits()


def distinct_intervals(need: int, masks: Sequence[int]) -> list[tuple[int, int] | None]:
    """:func:`intervals` with the others as different digits, each from its own list:
    for each cell, ``need`` less the most the other cells make to ``need`` less the least
    (None where they cannot all be filled)."""
    out: list[tuple[int, int] | None] = []
    for k in range(len(masks)):
        others = [m for j, m in enumerate(masks) if j != k]
        if not others:
            out.append((need, need))
            continue
        got = distinct_sums(others)
        out.append(None if got is None else (need - got[1], need - got[0]))
    return out


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


def _distinct(masks: Sequence[int], side: str) -> list[int] | None:
    """Different digits, one from each mask (in mask order), that make the least (``side``
    "least") or most sum; None if none fit. For the sentence only (a step taken): the
    best sum of the cells after each, over the digits already used, remembered."""
    n = len(masks)
    pick = min if side == "least" else max

    @functools.cache
    def best(k: int, used: int) -> int | None:
        if k == n:
            return 0
        got = [d + rest for d in DIGITS[masks[k] & ~used]
               if (rest := best(k + 1, used | BIT[d])) is not None]
        return pick(got) if got else None

    if best(0, 0) is None:
        return None
    out, used = [], 0
    for k in range(n):
        want = best(k, used)
        for d in DIGITS[masks[k] & ~used]:
            rest = best(k + 1, used | BIT[d])
            if rest is not None and d + rest == want:
                out.append(d)
                used |= BIT[d]
                break
    return out


def _terms(masks: Sequence[int], side: str) -> list[int]:
    """Different digits one from each of ``masks`` (in that order) that make the least
    (most) sum: the terms the sentence adds, each under the cell it names."""
    got = _distinct(masks, side)
    assert got is not None  # the bound exists, so some digits make it
    return got


def _listed(view: View, others: Sequence[int], facts: dict[int, int]) -> tuple[list[int], str]:
    """The other cells in the order the sentence names them, cells with a list first (a
    list after a cell without one would read as both cells'), and their names:
    ``r3c5 (1 or 3), r3c4 (5 to 8) and r3c2``."""
    named = [j for j in others if j in facts] + [j for j in others if j not in facts]
    return named, both([f"{view.cell_name(j)} ({span(facts[j])})" if j in facts
                        else view.cell_name(j) for j in named])


def _on_board(terms: list[int], board: Sequence[int], side: str) -> list[int]:
    """The terms of the bound, one digit per cell: from the cells' lists on the board
    (``board``) where those make the same sum, else ``terms`` (from the lists the bound
    rests on, a cell named bare any digit not written). A term is read as its cell's
    digit: "r7c4, r7c6 and r7c8 ... 1 + 2 + 3" put a 3 in r7c8, which could not hold it."""
    got = _distinct(board, side) if board else None
    return got if got is not None and sum(got) == sum(terms) else terms


def _said(masks: Sequence[int], side: str, value: int,
          board: Sequence[int] = ()) -> tuple[str, str]:
    """``at most 3 + 9 + 8 = 20``; a term that is not its cell's own least (most) says why
    it counts so: ``, as different digits, make at most 9 + 8 = 17`` (read from the lists
    said, ``masks``); the terms as :func:`_on_board` gives them."""
    terms = _terms(masks, side)
    own = [(LOW if side == "least" else HIGH)[m] for m in masks]
    sep = ", as different digits," if terms != own else ""
    return sep, f"at {side} {' + '.join(map(str, _on_board(terms, board, side)))} = {value}"


@dataclass(frozen=True, slots=True)
class Found:
    """What the bound found for one cell of run ``rid`` (one value, not a dozen arguments
    handed from function to function): the run still needs ``need`` (``placed``: the
    digits written in it), its ``others`` (its other open cells, those in ``facts`` with
    the candidate list the bound needs, the rest ``free``: any digit not yet written)
    make ``least`` to ``most``, and which end excludes digits of the ``cell``."""

    rid: int
    cell: int
    need: int
    placed: int
    others: tuple[int, ...]
    facts: dict[int, int]
    free: int
    least: int
    most: int
    cut_low: bool
    cut_high: bool
    #: each other cell's list on the board (as ``others``): the terms said are digits
    #: from these where they make the same sum
    board: tuple[int, ...] = ()

    @property
    def lo(self) -> int:
        """The least the cell can be: what the run needs less the most the others make."""
        return self.need - self.most

    @property
    def hi(self) -> int:
        """The most the cell can be: what the run needs less the least the others make."""
        return self.need - self.least


def _brief(view: View, f: Found) -> str:
    """The deciding fact: ``r3c1→ 24/4: r3c5 (1 or 3), r3c4 (5 to 8) and r3c2 make at
    most 3 + 8 + 9 = 20, so r3c3 is at least 24 - 20 = 4``; with digits written in,
    ``r3c1→ 24/4 still needs 17: ...`` (the board shows which)."""
    need, least, most = f.need, f.least, f.most
    head = f"{view.run_name(f.rid)} still needs {need}" if f.placed else view.run_name(f.rid)
    named, cells = _listed(view, f.others, f.facts)
    masks = [f.facts.get(j, f.free) for j in named]
    board = _board_lists(f, named)
    name = view.cell_name(f.cell)
    verb = "makes" if len(f.others) == 1 else "make"
    if f.cut_low and f.cut_high and least == most:  # one sum: the cell is what is left
        sep, said = _said(masks, "least", least, board)
        return (f"{head}: {cells}{sep} {verb} exactly {said.split(' ', 2)[2]}, so {name} is "
                f"{need} - {least} = {f.lo}")
    if f.cut_low and f.cut_high:
        sep_l, said_l = _said(masks, "least", least, board)
        sep_m, said_m = _said(masks, "most", most, board)
        sep = sep_l or sep_m
        # one minus sign a clause: the two ends said apart
        return (f"{head}: {cells}{sep} {verb} {said_l} and {said_m}, so {name} is at least "
                f"{need} - {most} = {f.lo}, and at most {need} - {least} = {f.hi}")
    side, value = ("least", least) if f.cut_high else ("most", most)
    sep, said = _said(masks, side, value, board)
    return f"{head}: {cells}{sep} {verb} {said}, {_upshot(name, need, value, side)}"


def _words(view: View, f: Found) -> tuple[str, str, str]:
    """The step's ``others``, ``bounds`` and ``brief`` values (worked out only for a step
    shown: a chain's search asks this rule on many boards it never shows)."""
    named_others = both([view.cell_name(j) for j in f.others])
    if f.facts:
        named_others += "; " + holds(view, {j: f.facts[j] for j in f.others if j in f.facts})
    low, high = max(f.lo, 1), min(f.hi, 9)
    span_ = f"only {low}" if low == high else f"{low} to {high}"
    return (named_others, _detail_bounds(f.least, f.most, f.cut_low, f.cut_high)
            + f", leaving {view.cell_name(f.cell)} {span_}", _brief(view, f))


def _detail_bounds(least: int, most: int, cut_low: bool, cut_high: bool) -> str:
    """``as different digits they make 9 to 14`` (or at least / at most one of them)."""
    if cut_low and cut_high:
        return (f"as different digits they make exactly {least}" if least == most else
                f"as different digits they make {least} to {most}")
    return (f"as different digits they make at least {least}" if cut_high else
            f"as different digits they make at most {most}")


def _fewest_lists(need: int, lists: list[int], others: list[int], free: int,
                  out: list[int]) -> dict[int, int]:
    """The fewest facts (the ``others``' candidate ``lists``, in their order) the bound
    needs to exclude every digit of ``out``: a list the sum excludes as much without is
    left out, each in turn (``free``: any digit not yet written in the run)."""
    facts = {j: m for j, m in zip(others, lists, strict=True) if m != free}
    for j in list(facts):
        trial = [facts.get(x, free) if x != j else free for x in others]
        t = distinct_sums(trial)
        if t is not None and all(d < need - t[1] or d > need - t[0] for d in out):
            del facts[j]
    return facts


def _board_lists(f: Found, named: Sequence[int]) -> list[int]:
    """The lists of the cells ``named`` on the board, in that order ([] where unknown)."""
    if not f.board:
        return []
    at = dict(zip(f.others, f.board, strict=True))
    return [f.facts.get(j, at[j]) for j in named]


def _bound(f: Found) -> dict:
    """``Proof.bound``: the cell, the run, and each sum that excludes digits with the
    digits that make it (worked out only for a step shown: a chain's search asks this
    rule on many boards it never shows), the other cells in the order _listed names them,
    the digits those the sentence adds."""
    named = [j for j in f.others if j in f.facts] + [j for j in f.others if j not in f.facts]
    in_order = [f.facts.get(j, f.free) for j in named]
    board = _board_lists(f, named)
    bound: dict = {"cell": f.cell, "run": f.rid}
    if f.cut_low:
        bound["most"] = (f.most, lambda: tuple(
            zip(named, _on_board(_terms(in_order, "most"), board, "most"), strict=True)))
    if f.cut_high:
        bound["least"] = (f.least, lambda: tuple(
            zip(named, _on_board(_terms(in_order, "least"), board, "least"), strict=True)))
    return bound


@rule(values=("bounds", "brief", "count", "high", "low", "need", "need_text", "others"))
def sum_bounds(view: View, rid: int) -> Iterator[Deduction]:
    """Each empty cell is at least what the run still needs less the most the other empty
    cells make, and at most that less the least they make, the others counted as
    *different* digits, one from each cell's candidates (written digits out): the sums a
    person adds. Every digit outside those bounds leaves the cell in one step.

    The proof keeps the candidates of only those other cells whose lists the bound needs
    (a cell that may hold any digit not yet written in the run needs no fact), and says
    the bound itself (``Proof.bound``: the sum and the digits that make it), which the
    proof checker works out again from the facts.
    """
    need = view.remaining(rid)
    if need is None:
        return
    open_ = view.open_cells(rid)
    if len(open_) < 2:
        return
    placed = view.placed_mask(rid)
    masks = [view.mask(i) & ~placed for i in open_]
    if not all(masks):
        return  # a broken cell: other rules report it
    # the run's exact filter first (cached by the solver): a digit the bound excludes
    # fits no arrangement, so a run whose every candidate fits one has no bound to take
    fit = run_filter(need, tuple(masks))
    if fit is None:
        return  # the run is broken: other rules report it
    free = ALL & ~placed
    for k, i in enumerate(open_):
        if not masks[k] & ~fit[k]:
            continue
        others = [j for j in open_ if j != i]
        theirs = [masks[open_.index(j)] for j in others]
        got = distinct_sums(theirs)
        if got is None:
            continue
        least, most = got
        lo, hi = need - most, need - least
        out = [d for d in DIGITS[masks[k]] if d < lo or d > hi]
        if not out:
            continue
        gone = 0
        for d in out:
            gone |= BIT[d]
        facts = _fewest_lists(need, theirs, others, free, out)
        used = [facts.get(j, free) for j in others]
        least, most = distinct_sums(used) or got
        lo, hi = need - most, need - least
        name = view.cell_name(i)
        cut_low = any(d < lo for d in out)
        cut_high = any(d > hi for d in out)
        found = Found(rid, i, need, placed, tuple(others), facts, free, least, most,
                      cut_low, cut_high, tuple(theirs))
        cached = functools.cache(functools.partial(_words, view, found))
        pr = proof(view, (rid,), facts)
        pr.bound = _bound(found)
        yield Deduction(eliminations={i: gone}, cells=tuple(open_), runs=(rid,),
                        values={"need": need, "need_text": minus(clue(view, rid),
                                                                 placed),
                                "cell": name, "count": len(open_), "low": lo, "high": hi,
                                "others": lambda w=cached: w()[0],
                                "bounds": lambda w=cached: w()[1],
                                "brief": lambda w=cached: w()[2]},
                        proof=pr)

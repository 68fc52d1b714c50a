"""Region sums: filled areas, innies and outies.

A group of clued runs of one direction covers cells ``S`` adding up to the sum of their
clues. Some clued runs of the other direction (chosen per state, see
:mod:`deducer.rules.regionfind`) cover nearly the same cells: the difference of the two totals is
what the cells in only one of the two groups add up to. When one of those cells is still
open, its value is known; when two are, they obey a sum (or difference).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import product
from typing import cast

from ..engine.state import Deduction, Proof
from ..puzzle.combos import BIT, DIGITS
from . import rule
from .api import View
from .local import trim
from .regionfind import Region, Touch, regions_of
from .regionsay import (
    ManyFound,
    cands_said,
    equation,
    many_words,
    pairs_fit,
    region_facts,
    run_homes,
)


class _Tracker:
    """Per puzzle: how many open cells each region's best identity leaves, kept up to date
    from the cells changed since the last call (only regions near them are redone), and
    which regions of each count are worth checking: ``ready[n]`` holds the regions of
    count ``n`` not found quiet (checked, nothing to deduce) since their cells last
    changed. No call walks every region or, when the state keeps a log, every cell."""

    def __init__(self, regions: tuple[Region, ...], ncells: int) -> None:
        self.regions = regions
        self.by_cell: list[list[int]] = [[] for _ in range(ncells)]
        for k, reg in enumerate(regions):
            for t in reg.touches:
                for i in t.inside + t.outside:
                    self.by_cell[i].append(k)
        self.started = False
        self.mark = 0  # the state's log length when last read
        self.seen: tuple[list[bool], tuple[int, ...]] | None = None  # without a log
        self.was_placed = [False] * ncells  # written in when last read
        self.cost = [0] * len(regions)
        self.ready: dict[int, set[int]] = {}

    @staticmethod
    def _cost(region: Region, placed: Callable[[int], bool]) -> int:
        total = 0
        for t in region.touches:
            n_in = sum(1 for i in t.inside if not placed(i))
            if t.total is None:
                total += n_in
            else:
                n_out = sum(1 for i in t.outside if not placed(i))
                total += n_in if n_in < n_out else n_out
        return total

    def _touched(self, view: View) -> tuple[set[int], set[int]]:
        """Regions with a cell changed since the last call, and those of them with a cell
        written in since (only a written digit changes a region's count)."""
        touched: set[int] = set()
        written: set[int] = set()
        was = self.was_placed
        log = view.changed_since(self.mark)
        if log is not None:
            self.mark += len(log)
            for i in set(log):
                touched.update(self.by_cell[i])
                if view.is_placed(i) != was[i]:
                    was[i] = not was[i]
                    written.update(self.by_cell[i])
            return touched, written
        # a state without a log (a hand-made test position): compare whole grids
        now = ([view.is_placed(i) for i in range(len(self.by_cell))], tuple(view.masks))
        if self.seen is not None:
            for i, (a, b, m, n) in enumerate(zip(*self.seen, *now, strict=True)):
                if a != b or m != n:
                    touched.update(self.by_cell[i])
        self.seen = now
        return touched, touched

    def update(self, view: View) -> None:
        ready, cost = self.ready, self.cost
        if not self.started:
            self.started = True
            self._touched(view)
            self.was_placed = [view.is_placed(i) for i in range(len(self.by_cell))]
            touched = written = range(len(self.regions))
        else:
            touched, written = self._touched(view)  # type: ignore[assignment]  # sets
        for k in touched:
            if k in written:
                ready.get(cost[k], set()).discard(k)
                cost[k] = self._cost(self.regions[k], view.is_placed)
            ready.setdefault(cost[k], set()).add(k)

    def candidates(self, want: int) -> list[int]:
        return sorted(self.ready.get(want, ()))

    def quiet(self, k: int, want: int) -> None:
        """Region ``k`` has nothing to deduce with ``want`` open cells until one of its
        cells changes."""
        self.ready.get(want, set()).discard(k)


def _tracker(view: View, limits: dict[str, int]) -> _Tracker:
    ctx = view.context
    kept = ctx.cache("regions")
    key = ("tracker", tuple(sorted(limits.items())))
    tr = kept.get(key)
    if tr is None:
        tr = kept[key] = _Tracker(regions_of(ctx, **limits), len(view.puzzle.whites))
    tr.update(view)
    return tr


def _choices(view: View, region: Region, want: int
             ) -> Iterator[tuple[list[Touch], list[Touch]]]:
    """Ways to choose the other-direction runs that leave exactly ``want`` open cells.

    Yields (chosen touches, excluded touches). Each clued touch is chosen when that leaves
    fewer open cells (its open cells outside the region) than not (its open cells inside);
    on a tie both ways are tried.
    """
    fixed_in = []
    fixed_out = []
    either = []
    total = 0
    for t in region.touches:
        n_in = sum(1 for i in t.inside if not view.is_placed(i))
        if t.total is None:
            total += n_in
            fixed_out.append(t)
        else:
            n_out = sum(1 for i in t.outside if not view.is_placed(i))
            if n_out < n_in:
                total += n_out
                fixed_in.append(t)
            elif n_in < n_out:
                total += n_in
                fixed_out.append(t)
            else:
                total += n_in
                if n_in:
                    either.append(t)
                else:
                    fixed_in.append(t)  # nothing open either way: use its clue
        if total > want:
            return
    if total != want:
        return
    for pick in product((True, False), repeat=len(either)):
        chosen = fixed_in + [t for t, p in zip(either, pick, strict=True) if p]
        if not chosen:
            continue  # the base runs alone: the simpler rules' business
        excluded = fixed_out + [t for t, p in zip(either, pick, strict=True) if not p]
        yield chosen, excluded


def _identity(view: View, region: Region, chosen: list[Touch], excluded: list[Touch]
              ) -> tuple[list[int], list[int], int]:
    """sum(open base-only cells) - sum(open other-only cells) = k, as
    (open base-only cells, open other-only cells, k)."""
    plus_open, minus_open = [], []
    k = region.total - sum(cast(int, t.total) for t in chosen)  # chosen touches are clued
    for t in excluded:
        for i in t.inside:
            if view.is_placed(i):
                k -= view.value(i)
            else:
                plus_open.append(i)
    for t in chosen:
        for i in t.outside:
            if view.is_placed(i):
                k += view.value(i)
            else:
                minus_open.append(i)
    return plus_open, minus_open, k


def _runs(region: Region, chosen: list[Touch]) -> tuple[int, ...]:
    return tuple(region.base) + tuple(t.run for t in chosen)


@rule(values=("apart", "base", "base_desc", "base_total", "chosen", "chosen_desc",
              "chosen_total", "cover", "digit", "equation", "fits", "full", "reason", "target",
              "ways"))
def region_sum(view: View, unknowns: int = 1, max_ways: int = 8, proof_work: int = 4000,
               regions: dict[str, int] | None = None) -> Iterator[Deduction]:
    """Every stored region whose identity leaves ``unknowns`` open cells. With three or
    more, the open cells are a virtual run: their sum (or difference) is known, and the
    ways to make it from their candidates (at most ``max_ways``, so a reader can check
    them) say which digits go.

    ``regions``: the region finder's limits (:func:`.regionfind._find_regions`; rules with
    the same limits share one finding); ``proof_work``: search nodes for each question
    that trims the step's proof to what a reader needs (:func:`.local.follows`). The
    defaults are the core ladder's (tests/test_ladder_limits.py)."""
    tracker = _tracker(view, regions or {})
    for n in tracker.candidates(unknowns):
        region = tracker.regions[n]
        found = False
        for chosen, excluded in _choices(view, region, unknowns):
            plus, minus, k = _identity(view, region, chosen, excluded)
            if unknowns == 1:
                ded = _one(view, region, chosen, excluded, plus, minus, k, proof_work)
            elif unknowns == 2:
                ded = _two(view, region, chosen, excluded, plus, minus, k, proof_work)
            else:
                ded = _many(view, region, chosen, excluded, plus, minus, k, max_ways,
                            proof_work)
            if ded is not None:
                found = True
                yield ded
        if not found:
            tracker.quiet(n, unknowns)  # nothing here until one of its cells changes


def _one(view: View, region: Region, chosen: list[Touch], excluded: list[Touch],
         plus: list[int], minus: list[int], k: int, proof_work: int) -> Deduction | None:
    (x,), v = (plus, k) if plus else (minus, -k)
    if not 1 <= v <= 9 or not view.mask(x) & BIT[v]:
        return None  # a contradiction; the other rules report it
    values, sides, written = region_facts(view, region, chosen, excluded)
    eq = equation(view, plus, minus, sides)[0]
    values.update(equation=equation(view, plus, minus, sides, short=True, written=written,
                                    homes=run_homes(view, region, chosen, excluded))[0], full=eq,
                  digit=v, target=view.cell_name(x), fits="", reason="")
    cells = tuple(sorted(region.cells | {i for t in chosen for i in t.outside}))
    runs = _runs(region, chosen)
    return Deduction(placements={x: v}, cells=cells, runs=runs, values=values,
                     size=_extra(runs), proof=_trimmed(view, runs, {}, {}, {x: v}, proof_work))


def _trimmed(view: View, runs: tuple[int, ...], facts: dict[int, int], elims: dict[int, int],
             places: dict[int, int], work: int) -> Callable[[], Proof]:
    """The step's proof, built late (:class:`Deduction`): the runs and facts a reader needs,
    found by solving the local problem again without each (:func:`local.trim`, ``work``
    nodes a question), a search that only a walkthrough someone reads needs; the rating
    does not read it."""
    def build() -> Proof:
        kept, needed = trim(view, runs, facts, elims, places, work=work)
        return Proof(cells=needed, runs=kept)

    return build


def _shared_run(view: View, x: int, y: int) -> int | None:
    """The run both cells are in, if any."""
    both = set(view.runs_of(x)) & set(view.runs_of(y))
    return min(both) if both else None


def _two(view: View, region: Region, chosen: list[Touch], excluded: list[Touch],
         plus: list[int], minus: list[int], k: int, proof_work: int) -> Deduction | None:
    if len(plus) == 2:
        (x, y), rel, total = plus, "+", k
    elif len(minus) == 2:
        (x, y), rel, total = minus, "+", -k
    else:
        (x,), (y,) = plus, minus
        rel, total = "-", k
    if rel == "+":
        def partner(a: int) -> int:
            return total - a

        def back(b: int) -> int:  # x + y = total either way round
            return total - b
    else:  # x - y = total
        def partner(a: int) -> int:
            return a - total

        def back(b: int) -> int:
            return b + total
    shared = _shared_run(view, x, y)
    distinct = shared is not None
    mx, my = view.mask(x), view.mask(y)
    gone_x = gone_y = 0
    for a in DIGITS[mx]:
        b = partner(a)
        if not (1 <= b <= 9 and my & BIT[b]) or (distinct and a == b):
            gone_x |= BIT[a]
    for b in DIGITS[my]:
        a = back(b)
        if not (1 <= a <= 9 and mx & BIT[a]) or (distinct and a == b):
            gone_y |= BIT[b]
    elim = {}
    if gone_x:
        elim[x] = gone_x
    if gone_y:
        elim[y] = gone_y
    if not elim:
        return None
    values, sides, written = region_facts(view, region, chosen, excluded)
    used_distinct = distinct and rel == "+"
    eq, first, second, _ = equation(view, plus, minus, sides)
    eq_short = equation(view, plus, minus, sides, short=True, written=written,
                        homes=run_homes(view, region, chosen, excluded), bare=True)[0]
    differ = (f" (both in {view.run_name(shared)}, so they differ)"
              if used_distinct and shared is not None else "")
    # the sentence names the run that makes them differ only where that takes a digit
    # (a pair of one digit twice among their candidates); the detail always does
    twice = any(1 <= partner(a) <= 9 and my & BIT[a] and partner(a) == a for a in DIGITS[mx])
    differ_brief = (f" (both in {view.puzzle.runs[shared].label})"
                    if used_distinct and shared is not None and twice else "")
    # the pairs still possible after the step (few), else the rule in words
    pairs = [(a, partner(a)) for a in DIGITS[mx & ~gone_x]
             if 1 <= partner(a) <= 9 and my & ~gone_y & BIT[partner(a)]
             and not (distinct and a == partner(a))]
    if rel == "-" and first and first[0] == y:  # said as y = x + ... : pairs in that order
        pairs = [(b, a) for a, b in pairs]
        order = (y, x)
    else:
        order = (x, y)
    fits = pairs_fit(view, pairs, rel, total, order)
    # the sentence's reason after the equation: the pairs that fit, unless the effect says
    # them already (one pair, each cell left its digit of it)
    said_by_effect = (len(pairs) == 1 and mx & ~gone_x == BIT[pairs[0][0]]
                      and my & ~gone_y == BIT[pairs[0][1]])
    values.update(equation=eq_short + differ_brief, target=view.cells_name((x, y)), digit="",
                  fits=fits, reason="" if said_by_effect else f"; {fits}",
                  full=f"{eq}{differ}, with {cands_said(view, (x, y))}")
    cells = tuple(sorted(region.cells | {i for t in chosen for i in t.outside}))
    runs = _runs(region, chosen)
    extra = (shared,) if used_distinct and shared is not None and shared not in runs else ()
    return Deduction(eliminations=elim, cells=cells, runs=runs + extra, values=values,
                     size=_extra(runs + extra),
                     proof=_trimmed(view, runs + extra, {x: mx, y: my}, elim, {}, proof_work))


def _ways(doms: Sequence[int], sign: Sequence[int], apart: Sequence[tuple[int, int, int]],
          k: int, cap: int) -> tuple[tuple[int, ...], ...] | None:
    """Every way (digit tuples) to give cells with domains ``doms`` the signed sum ``k``,
    cells paired in ``apart`` differing; None when there are more than ``cap``."""
    return _kept_ways(tuple(doms), tuple(sign), tuple(apart), k, cap)


def _walk_ways(doms: Sequence[int], sign: Sequence[int], apart: Sequence[tuple[int, int, int]],
               k: int, cap: int) -> tuple[tuple[int, ...], ...] | None:
    """:func:`_ways`, worked out."""
    ways: list[tuple[int, ...]] = []
    size = len(doms)
    pick = [0] * size
    differ: list[list[int]] = [[] for _ in range(size)]  # earlier cells each must differ from
    for a, b, _ in apart:
        differ[b].append(a)
    # the least and most the cells from n on can add (their signs counted): a partial
    # sum those cannot bring to k leads to no way, and is not walked on
    least, most = [0] * (size + 1), [0] * (size + 1)
    for n in range(size - 1, -1, -1):
        ds = DIGITS[doms[n]]
        if not ds:
            return ()  # a cell with no digit: no way at all
        lo, hi = (ds[0], ds[-1]) if sign[n] > 0 else (-ds[-1], -ds[0])
        least[n], most[n] = least[n + 1] + lo, most[n + 1] + hi

    def walk(n: int, acc: int) -> bool:
        if n == size:
            if acc == k:
                ways.append(tuple(pick))
                return len(ways) <= cap
            return True
        if not acc + least[n] <= k <= acc + most[n]:
            return True
        for d in DIGITS[doms[n]]:
            if any(pick[a] == d for a in differ[n]):
                continue
            pick[n] = d
            if not walk(n + 1, acc + sign[n] * d):
                return False
        return True

    return tuple(ways) if walk(0, 0) else None


#: the ways by question (a walk asks the same regions again and again: a step whose rule
#: comes first, counting the moves open, the chain rungs' own asking; on zwvista 84, 196
#: questions in 1,489); memory only
_kept_ways = functools.lru_cache(maxsize=20_000)(_walk_ways)


def _extra(runs: tuple[int, ...]) -> int:
    """The step's size: runs added up beyond two (the more a person adds up, the harder
    the step; the rule file's ``growth:`` says by how much, and up to how many runs)."""
    return max(0, len(runs) - 2)


def _apart(view: View, cells: Sequence[int]) -> list[tuple[int, int, int]]:
    """The pairs of cells (by place in ``cells``) that share a run, so must differ, with
    that run (named in the proof and the sentence)."""
    apart = []
    for a in range(len(cells)):
        for b in range(a + 1, len(cells)):
            r = _shared_run(view, cells[a], cells[b])
            if r is not None:
                apart.append((a, b, r))
    return apart


def _unused(cells: Sequence[int], masks: Sequence[int], ways: Iterable[Sequence[int]]
            ) -> dict[int, int]:
    """Each cell's digits that no way uses."""
    elim = {}
    for n, i in enumerate(cells):
        seen = 0
        for w in ways:
            seen |= BIT[w[n]]
        if masks[n] & ~seen:
            elim[i] = masks[n] & ~seen
    return elim


def _many(view: View, region: Region, chosen: list[Touch], excluded: list[Touch],
          plus: list[int], minus: list[int], k: int, max_ways: int, proof_work: int
          ) -> Deduction | None:
    """Three or more open cells: sum(plus) - sum(minus) = k as a virtual run."""
    as_found = (plus, minus)  # as the identity has them (the sentence turns them round)
    if not plus:  # all on the other side: their sum is -k
        plus, minus, k = minus, [], -k
    cells = list(plus) + list(minus)
    sign = [1] * len(plus) + [-1] * len(minus)
    masks = [view.mask(i) for i in cells]
    apart = _apart(view, cells)
    ways = _ways(masks, sign, apart, k, max_ways)
    if not ways:
        return None  # too many ways to list, or none (a contradiction the others report)
    elim = _unused(cells, masks, ways)
    if not elim:
        return None
    groups: dict[int, list[int]] = {}  # the cells each shared run makes differ
    for a, b, r in apart:
        g = groups.setdefault(r, [])
        g.extend(x for x in (cells[a], cells[b]) if x not in g)

    def ways_of(some: dict[int, list[int]]) -> tuple[tuple[int, ...], ...] | None:
        """The ways were only the cells of the runs in ``some`` told to differ."""
        return _ways(masks, sign, [a for a in apart if a[2] in some], k, max_ways)

    values, elim = many_words(view, ManyFound(region, chosen, excluded, as_found, cells, masks,
                                              ways, groups, elim, ways_of))
    runs = _runs(region, chosen)
    extra = tuple(r for r in sorted({r for _, _, r in apart}) if r not in runs)
    area = tuple(sorted(region.cells | {i for t in chosen for i in t.outside}))
    return Deduction(eliminations=elim, cells=area, runs=runs + extra, values=values,
                     size=_extra(runs + extra),
                     proof=_trimmed(view, runs + extra, dict(zip(cells, masks, strict=True)),
                                    elim, {}, proof_work))

"""Region sums: filled areas, innies and outies.

A group of clued runs of one direction covers cells ``S`` adding up to the sum of their
clues. Some clued runs of the other direction (chosen per state, see
:mod:`deducer.rules.regionfind`) cover nearly the same cells: the difference of the two totals is
what the cells in only one of the two groups add up to. When one of those cells is still
open, its value is known; when two are, they obey a sum (or difference).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import product
from typing import cast

from ..engine.state import Deduction, Proof
from ..puzzle.combos import BIT, DIGITS
from ..puzzle.model import DOWN
from . import rule
from .api import View
from .bounds import sum_limits
from .facts import both, pairs_said
from .local import trim
from .regionfind import Region, Touch, regions_of

_WORD = {True: "down", False: "across"}
#: the longest equation and ways a region sum's sentence gives (its area and effect aside):
#: beyond it, which cells differ and each way are left to the detail
FITS_MAX = 90
#: the longest a region sum's sentence runs before its effect (its runs, equation and
#: reason): the ways that fit are given only within it (issue 37: a sentence near 160)
BRIEF_MAX = 125


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


def _facts(view: View, region: Region, chosen: list[Touch], excluded: list[Touch]
           ) -> tuple[dict, tuple[list[int], list[int]], tuple[list[int], list[int]]]:
    """Sentence values, and the two known sides of the identity: (base total and the
    digits written in cells only the other runs cover, chosen total and the digits written
    in cells only the base runs cover), so that open base-only cells minus open other-only
    cells make sum(first) - sum(second); and the cells of those written digits, in the same
    order."""
    chosen_total = sum(cast(int, t.total) for t in chosen)  # chosen touches are clued
    only_base = [i for t in excluded for i in t.inside]
    only_other = [i for t in chosen for i in t.outside]
    base_vals = [view.value(i) for i in only_base if view.is_placed(i)]
    other_vals = [view.value(i) for i in only_other if view.is_placed(i)]
    down = region.direction == DOWN

    apart = []
    if only_base:
        apart.append(f"{_old_named(view, only_base)} (only in the {_WORD[down]} runs)")
    if only_other:
        apart.append(f"{_old_named(view, only_other)} (only in the {_WORD[not down]} runs)")
    said = {region.direction == DOWN: region.total, region.direction != DOWN: chosen_total}
    groups = {down: _labels(view, region.base, _WORD[down]),
              not down: _labels(view, [t.run for t in chosen], _WORD[not down])}
    facts = {
        "base_desc": _group(view, _WORD[down], region.base, region.total),
        "chosen_desc": _group(view, _WORD[not down], [t.run for t in chosen], chosen_total),
        "base": ", ".join(view.run_name(r) for r in region.base),
        "base_total": region.total,
        "chosen": ", ".join(view.run_name(t.run) for t in chosen),
        "chosen_total": chosen_total,
        "apart": " and ".join(apart),
        # the brief sentence: the two groups of runs, each run by its short name (its
        # clue square and direction, as a crossing run is named), and what each group adds
        # up to; each run's sum and the cells only one group covers are the detail's
        "cover": f"{groups[False]} ({said[False]}), {groups[True]} ({said[True]})",
    }
    written = ([i for i in only_other if view.is_placed(i)],
               [i for i in only_base if view.is_placed(i)])
    return facts, ([region.total] + other_vals, [chosen_total] + base_vals), written


def _homes(view: View, region: Region, chosen: list[Touch], excluded: list[Touch]
           ) -> dict[int, int]:
    """The run each cell only one group covers sits in, in that group: a sentence names
    the runs whose written digits it subtracts ("(42 + 19 in r1c6↓)"), not each cell."""
    out = {i: t.run for t in chosen for i in t.outside}
    base = set(region.base)
    for t in excluded:
        for i in t.inside:
            r = next((r for r in view.runs_of(i) if r in base), None)
            if r is not None:
                out[i] = r
    return out


#: a sentence names at most this many runs of one group; more are said as how many and
#: the first and last (each is in the detail), so the area is found at a glance
RUNS_MAX = 4


def _labels(view: View, runs: Iterable[int], word: str = "") -> str:
    """``r2c1→ r3c1→ r4c1→``: runs by their short names, in the grid's order (the arrows
    part them, so no commas are needed); more than :data:`RUNS_MAX`: ``the 9 across runs
    r2c3→ to r9c4→``."""
    labels = [view.puzzle.runs[r].label
              for r in sorted(runs, key=lambda r: view.puzzle.runs[r].ref[:2])]
    if word and len(labels) > RUNS_MAX:
        return f"the {len(labels)} {word} runs {labels[0]} to {labels[-1]}"
    return " ".join(labels)


def _old_named(view: View, cells: Iterable[int]) -> str:
    return ", ".join(view.cell_name(i) + (f" (= {view.value(i)})" if view.is_placed(i) else "")
                     for i in sorted(cells))


#: a sentence adds up at most this many digits written in the area one by one (more: their
#: sum, "(41 + 42 written in)"; the detail gives each)
WRITTEN_MAX = 2


def _terms(view: View, xs: list[int], short: bool = False, cells: Sequence[int] = (),
           homes: dict[int, int] | None = None) -> str:
    """``115``; ``(87 + 5 + 9)``; ``short``, with many digits written in: ``(41 + 42 in
    r3c4, r3c5 and r4c3)``, naming the cells whose digits are subtracted, or with
    ``homes`` (each cell's run) the runs they sit in where that is shorter: ``(41 + 42 in
    r2c4↓)``."""
    if short and len(xs) > WRITTEN_MAX + 1:
        where = f" in {both([view.cell_name(i) for i in cells])}" if cells else " written in"
        if homes and cells and all(i in homes for i in cells):
            runs = list(dict.fromkeys(homes[i] for i in cells))
            by_run = f" in {both([view.puzzle.runs[r].label for r in runs])}"
            where = min(where, by_run, key=len)
        return f"({xs[0]} + {sum(xs[1:])}{where})"
    return str(xs[0]) if len(xs) == 1 else f"({' + '.join(map(str, xs))})"


def equation(view: View, plus: Sequence[int], minus: Sequence[int],
             sides: tuple[list[int], list[int]], short: bool = False,
             written: tuple[list[int], list[int]] = ([], []),
             homes: dict[int, int] | None = None) -> tuple[str, list[int], list[int], int]:
    """sum(plus) - sum(minus) = sum(sides[0]) - sum(sides[1]), said with no negative
    number and one minus sign: ``r5c8 + r7c8 = 115 - (87 + 5 + 9) = 14``, or for a
    difference ``r8c3 + r9c3 = r7c2 + 1, as 15 - 14 = 1``. Returns the text and the cells
    of each side as said (their sums differ by the last value, the first side larger).
    ``short``: many digits written in are said as their sum, with their cells (``written``,
    in the order of ``sides``; :func:`_terms`, ``homes`` the runs they sit in)."""
    first, second = sides
    c_first, c_second = written
    k = sum(first) - sum(second)
    if k < 0 or not plus:
        plus, minus, first, second, k = minus, plus, second, first, -k
        c_first, c_second = c_second, c_first
    lhs = " + ".join(view.cell_name(i) for i in plus)
    arith = (f"{_terms(view, first, short, c_first, homes)} - "
             f"{_terms(view, second, short, c_second, homes)} = {k}")
    if not minus:
        return f"{lhs} = {arith}", list(plus), [], k
    rhs = " + ".join(view.cell_name(i) for i in minus)
    if not k:  # "as 52 - 52 = 0" says nothing: both groups make the same
        arith = (f"{_terms(view, first, short, c_first, homes)} and "
                 f"{_terms(view, second, short, c_second, homes)} both make {sum(first)}")
    return (f"{lhs} = {rhs}{f' + {k}' if k else ''}, as {arith}", list(plus), list(minus),
            k)


def _group(view: View, word: str, runs: Sequence[int], total: int) -> str:
    names = ", ".join(view.run_name(r) for r in runs)
    if len(runs) == 1:
        return f"the {word} run {names} adds up to {total}"
    return f"the {word} runs {names} add up to {total}"


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
    values, sides, written = _facts(view, region, chosen, excluded)
    eq = equation(view, plus, minus, sides)[0]
    values.update(equation=equation(view, plus, minus, sides, short=True, written=written,
                                    homes=_homes(view, region, chosen, excluded))[0], full=eq,
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
    values, sides, written = _facts(view, region, chosen, excluded)
    used_distinct = distinct and rel == "+"
    eq, first, second, _ = equation(view, plus, minus, sides)
    eq_short = equation(view, plus, minus, sides, short=True, written=written,
                        homes=_homes(view, region, chosen, excluded))[0]
    differ = (f" (both in {view.run_name(shared)}, so they differ)"
              if used_distinct and shared is not None else "")
    differ_brief = (f" (both in {view.puzzle.runs[shared].label})"
                    if used_distinct and shared is not None else "")
    # the pairs still possible after the step (few), else the rule in words
    pairs = [(a, partner(a)) for a in DIGITS[mx & ~gone_x]
             if 1 <= partner(a) <= 9 and my & ~gone_y & BIT[partner(a)]
             and not (distinct and a == partner(a))]
    if rel == "-" and first and first[0] == y:  # said as y = x + ... : pairs in that order
        pairs = [(b, a) for a, b in pairs]
        order = (y, x)
    else:
        order = (x, y)
    if rel == "+":  # each unordered pair once: "5 and 7", never "5 + 7 or 7 + 5"
        said, count = pairs_said(pairs)
    else:  # a = b + total, said as the equation is: ``9 = 6 + 3``
        said = " or ".join(f"{a} = {b}" + (f" + {abs(total)}" if total else "")
                           for a, b in pairs)
        count = len(pairs)
    fits = (f"only {said} {'fits' if count == 1 and ' and ' not in said else 'fit'}"
            if 1 <= len(pairs) <= 4 else
            f"with {_cands(view, order)}, digits with no partner go")
    # the sentence's reason after the equation: the pairs that fit, unless the effect says
    # them already (one pair, each cell left its digit of it)
    said_by_effect = (len(pairs) == 1 and mx & ~gone_x == BIT[pairs[0][0]]
                      and my & ~gone_y == BIT[pairs[0][1]])
    values.update(equation=eq_short + differ_brief, target=view.cells_name((x, y)), digit="",
                  fits=fits, reason="" if said_by_effect else f"; {fits}",
                  full=f"{eq}{differ}, with {_cands(view, (x, y))}")
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


def _cands(view: View, cells: Iterable[int]) -> str:
    """'r3c4 (1,2,4), r4c4 (6,8)': the candidates the step rests on."""
    return ", ".join(f"{view.cell_name(i)} ({view.digits(view.mask(i))})" for i in cells)


def _extra(runs: tuple[int, ...]) -> int:
    """The step's size: runs added up beyond two (the more a person adds up, the harder
    the step; the rule file's ``growth:`` says by how much, and up to how many runs)."""
    return max(0, len(runs) - 2)


def _limits(cells: Sequence[int], masks: dict[int, int], groups: dict[int, list[int]]
            ) -> tuple[int, int]:
    """The least and most ``cells`` add up to: cells that one run makes differ are
    bounded together as different digits (:func:`sum_limits`), the rest each alone."""
    lo = hi = 0
    left = list(cells)
    for g in groups.values():
        part = [i for i in left if i in g]
        if len(part) > 1:
            a, b = sum_limits([masks[i] for i in part])
            lo, hi = lo + a, hi + b
            left = [i for i in left if i not in part]
    for i in left:
        lo, hi = lo + DIGITS[masks[i]][0], hi + DIGITS[masks[i]][-1]
    return lo, hi


def _bound_clauses(view: View, first: list[int], second: list[int], k: int,
                   masks: dict[int, int], elim: dict[int, int], groups: dict[int, list[int]]
                   ) -> list[tuple[int, int, str]]:
    """Per cell, the digits a bound takes and the bound said as briefly as the ``≠`` of the
    cells that differ: ``(cell, digits, "r5c3 + r6c3 ≥ 10 and r2c5 + 4 ≤ 8: r3c5 ≥ 2")``
    (the equation sum(first) = sum(second) + k); a digit no bound takes is in none."""
    said: list[tuple[int, int, str]] = []
    for x, gone in sorted(elim.items()):
        # x = sum(big) - sum(small) with the constant on the side it is said on
        if x in first:
            big, small, const_big = second, [i for i in first if i != x], k
        else:
            big, small, const_big = first, [i for i in second if i != x], -k
        b_lo, b_hi = _limits(big, masks, groups)
        s_lo, s_hi = _limits(small, masks, groups)
        lo, hi = b_lo + const_big - s_hi, b_hi + const_big - s_lo
        for side, value, b_val, s_val, taken in (
                ("least", lo, b_lo, s_hi, [d for d in DIGITS[gone] if d < lo]),
                ("most", hi, b_hi, s_lo, [d for d in DIGITS[gone] if d > hi])):
            if not taken:
                continue
            names = [view.cell_name(i) for i in big]
            small_names = [view.cell_name(i) for i in small]
            if const_big > 0:
                names.append(str(const_big))
            elif const_big < 0:
                small_names.append(str(-const_big))
            b_val += max(const_big, 0)
            s_val += max(-const_big, 0)
            x_name = view.cell_name(x)
            if not names:  # x = -(small): not an equation a region gives
                continue
            sym, other_sym = ("≥", "≤") if side == "least" else ("≤", "≥")
            if not small_names:
                text = f"{' + '.join(names)} {sym} {b_val}: {x_name} {sym} {value}"
            elif not small and const_big < 0:  # x = big - k: "≤ 24: r3c3 ≤ 24 - 17 = 7"
                text = (f"{' + '.join(names)} {sym} {b_val - s_val + (-const_big)}: "
                        f"{x_name} {sym} {b_val - s_val + (-const_big)} - {-const_big} = "
                        f"{value}")
            elif len(names) == 1 and names[0].isdigit():  # x = k - small: one minus sign
                text = (f"{' + '.join(small_names)} {other_sym} {s_val}: {x_name} {sym} "
                        f"{names[0]} - {s_val} = {value}")
            else:
                text = (f"{' + '.join(names)} {sym} {b_val} and {' + '.join(small_names)} "
                        f"{other_sym} {s_val}: {x_name} {sym} {value}")
            mask = 0
            for d in taken:
                mask |= BIT[d]
            said.append((x, mask, text))
    return said


def _bound_reason(view: View, first: list[int], second: list[int], k: int,
                  masks: dict[int, int], elim: dict[int, int], groups: dict[int, list[int]]
                  ) -> str | None:
    """Why the digits go, where bounds say it for every one (:func:`_bound_clauses`);
    None where some digit goes for another reason."""
    said = _bound_clauses(view, first, second, k, masks, elim, groups)
    took: dict[int, int] = {}
    for x, m, _ in said:
        took[x] = took.get(x, 0) | m
    return "; ".join(t for _, _, t in said) if said and took == elim else None


_LEAST = re.compile(r"^(.+) ≥ (\d+): (r\d+c\d+) ≥ (\d+)$")
_MOST = re.compile(r"^(.+) ≤ (\d+): (r\d+c\d+) ≤ (\d+)$")


def _both_ends(texts: list[str]) -> list[str]:
    """A cell's two bounds from one sum said once: ``r8c5 + r8c4 + 3 ≥ 8: r7c3 ≥ 8`` and
    ``... ≤ 9: r7c3 ≤ 9`` as ``8 ≤ r8c5 + r8c4 + 3 ≤ 9: 8 ≤ r7c3 ≤ 9``, and where both
    ends meet ``r8c5 + r8c4 + 3 = 8: r7c3 = 8``."""
    out: list[str] = []
    for t in texts:
        lo = _LEAST.match(out[-1]) if out else None
        hi = _MOST.match(t)
        if lo and hi and lo.group(1) == hi.group(1) and lo.group(3) == hi.group(3):
            expr, cell = lo.group(1), lo.group(3)
            # the cell's own bounds only where they are not those of the sum it equals
            same = lo.group(2) == lo.group(4) and hi.group(2) == hi.group(4)
            if lo.group(2) == hi.group(2):
                out[-1] = f"{expr} = {lo.group(2)}" + ("" if same else
                                                       f": {cell} = {lo.group(4)}")
            else:
                out[-1] = (f"{lo.group(2)} ≤ {expr} ≤ {hi.group(2)}" + ("" if same else
                           f": {lo.group(4)} ≤ {cell} ≤ {hi.group(4)}"))
            continue
        out.append(t)
    return out


#: the longest the bounds a region sum's sentence gives run, as said: a step whose bounds
#: run longer takes the digits of those that fit (the first always) and leaves the rest to
#: the next steps (issue 51: a sentence of about 160 characters)
BOUNDS_MAX = 60


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
    # cells that share a run must differ (name that run in the proof and the sentence)
    apart: list[tuple[int, int, int]] = []
    for a in range(len(cells)):
        for b in range(a + 1, len(cells)):
            r = _shared_run(view, cells[a], cells[b])
            if r is not None:
                apart.append((a, b, r))
    ways = _ways(masks, sign, apart, k, max_ways)
    if not ways:
        return None  # too many ways to list, or none (a contradiction the others report)
    elim = {}
    for n, i in enumerate(cells):
        seen = 0
        for w in ways:
            seen |= BIT[w[n]]
        if masks[n] & ~seen:
            elim[i] = masks[n] & ~seen
    if not elim:
        return None
    values, sides, written = _facts(view, region, chosen, excluded)
    eq, first, second, k_said = equation(view, *as_found, sides)
    # the lengths that decide what the step says are measured on the equation as said
    eq_said = equation(view, *as_found, sides, short=True, written=written,
                       homes=_homes(view, region, chosen, excluded))[0]
    shared = sorted({r for _, _, r in apart})
    differ = ""
    groups: dict[int, list[int]] = {}
    for a, b, r in apart:
        g = groups.setdefault(r, [])
        g.extend(x for x in (cells[a], cells[b]) if x not in g)
    if groups:
        said = [f"{view.cells_name(sorted(g))} are all in {view.run_name(r)}"
                if len(g) > 2 else f"{view.cells_name(sorted(g))} are both in {view.run_name(r)}"
                for r, g in sorted(groups.items())]
        differ = "; " + "; ".join(said) + ", so they differ"
    # each way in the order the equation says its cells: ``1 + 4 + 9``, or with cells on
    # both sides ``4 + 5 with 8`` (first side's digits, then the other's)
    at = {i: n for n, i in enumerate(cells)}

    def way(w: Sequence[int]) -> str:  # ``1 + 3 + 8``; with cells on both sides ``8 + 5 = 1 + 12``
        out = " + ".join(str(w[at[i]]) for i in first)
        if not second:
            return out
        rest = [str(w[at[i]]) for i in second] + ([str(k_said)] if k_said else [])
        return f"{out} = {' + '.join(rest)}"

    shown = "; ".join(way(w) for w in ways)
    many = len(ways) > 1
    full = (f"{eq}, with {_cands(view, cells)}{differ}. "
            f"The only way{'s' if many else ''} to make it: {shown}")
    fits = f"only {' or '.join(way(w) for w in ways)} {'fit' if many else 'fits'}"
    listed = len(eq_said) + len(fits) <= FITS_MAX or len(ways) <= 2
    if not listed:
        fits = f"only {len(ways)} ways fit"  # each of them is in the detail
    # the sentence's reason after the equation, as much as fits in BRIEF_MAX with the
    # runs and the equation: which cells differ (each pair, else the runs that make them
    # differ, which the proof needs named), then the ways when they are few enough to
    # read (a count of ways the reader cannot see says nothing; the detail lists them)
    room = BRIEF_MAX - len(values["cover"]) - len(eq_said)
    reason = []
    ways_said = fits
    if groups:  # the runs that make cells differ are named (the proof lists them)
        differing = "; ".join((" ≠ ".join(view.cell_name(i) for i in sorted(g)) if len(g) == 2
                           else f"{both([view.cell_name(i) for i in sorted(g)])} differ")
                          + f" ({view.puzzle.runs[r].label})" for r, g in sorted(groups.items()))
        labels = [view.puzzle.runs[r].label for r in sorted(groups)]
        runs_differ = f"cells of {both(labels)} differ"
        said_differ = (differing if len(differing) + (len(fits) if listed else 0) <= room - 4
                       and len(differing) <= len(runs_differ) + 8 else runs_differ)
        fits = f"{said_differ}; {fits}"
        reason.append(said_differ)
    # the deciding fact is always said (issue 51: "cells of r9c5→ differ, so 7 leaves
    # r4c4" left the reader the search): the ways where they fit, or the bounds where
    # they are shorter (the step taking the digits they take, as many as fit BOUNDS_MAX,
    # the first always), else every way (at most max_ways of them)
    clauses = _bound_clauses(view, first, second, k_said,
                             dict(zip(cells, masks, strict=True)), elim, groups)
    bounds_said, kept = "", dict(elim)
    if clauses:
        kept = {}
        said_b: list[str] = []
        for x, m, text in clauses:
            if said_b and len("; ".join(_both_ends([*said_b, text]))) > BOUNDS_MAX:
                break
            said_b.append(text)
            kept[x] = kept.get(x, 0) | m
        bounds_said = "; ".join(_both_ends(said_b))
    if (listed and sum(len(r) + 2 for r in reason) + len(ways_said) + 2 <= room
            and not (bounds_said and len(bounds_said) < len(ways_said))):
        reason.append(ways_said)
    else:  # the ways are the detail's: the deciding bounds, where they say why digits go
        if bounds_said:
            elim = kept
            reason.append(bounds_said)
        else:
            reason.append(ways_said if listed else
                          f"only {' or '.join(way(w) for w in ways)} "
                          f"{'fit' if many else 'fits'}")
    values.update(equation=eq_said, target=view.cells_name(cells), digit="", ways=shown,
                  fits=fits, reason="".join(f"; {r}" for r in reason), full=full)
    runs = _runs(region, chosen)
    extra = tuple(r for r in shared if r not in runs)
    area = tuple(sorted(region.cells | {i for t in chosen for i in t.outside}))
    return Deduction(eliminations=elim, cells=area, runs=runs + extra, values=values,
                     size=_extra(runs + extra),
                     proof=_trimmed(view, runs + extra, dict(zip(cells, masks, strict=True)),
                                    elim, {}, proof_work))

"""Region sums: filled areas, innies and outies (seed 002 §1.2.6).

A group of clued runs of one direction covers cells ``S`` adding up to the sum of their
clues. Some clued runs of the other direction (chosen per state, see
:mod:`deducer.regions`) cover nearly the same cells: the difference of the two totals is
what the cells in only one of the two groups add up to. When one of those cells is still
open, its value is known; when two are, they obey a sum (or difference).
"""

from __future__ import annotations

import weakref
from itertools import product

from ..explain.state import Deduction
from ..puzzle.combos import BIT, DIGITS
from ..puzzle.model import DOWN
from . import rule

_WORD = {True: "down", False: "across"}


class _Tracker:
    """Per puzzle: how many open cells each region's best identity leaves, kept up to date
    from the cells written in since the last call (only regions near them are redone)."""

    def __init__(self, regions, ncells: int):
        self.regions = regions
        self.by_cell: list[list[int]] = [[] for _ in range(ncells)]
        for k, reg in enumerate(regions):
            for t in reg.touches:
                for i in t.inside + t.outside:
                    self.by_cell[i].append(k)
        self.placed: list[bool] | None = None
        self.masks: tuple[int, ...] | None = None
        self.cost = [0] * len(regions)
        # regions whose identity was checked and gave nothing, per unknown count; a change
        # to any of their cells makes them worth checking again
        self.quiet: dict[int, set[int]] = {1: set(), 2: set()}

    @staticmethod
    def _cost(region, placed) -> int:
        total = 0
        for t in region.touches:
            n_in = sum(1 for i in t.inside if not placed[i])
            if t.total is None:
                total += n_in
            else:
                n_out = sum(1 for i in t.outside if not placed[i])
                total += n_in if n_in < n_out else n_out
        return total

    def update(self, placed: list[bool], masks: tuple[int, ...]) -> None:
        if self.placed is None:
            todo = range(len(self.regions))
        else:
            touched: set[int] = set()
            for i, (a, b, m, n) in enumerate(zip(self.placed, placed, self.masks, masks,
                                                 strict=True)):
                if a != b or m != n:
                    touched.update(self.by_cell[i])
            todo = sorted(touched)
            for q in self.quiet.values():
                q.difference_update(touched)
        for k in todo:
            self.cost[k] = self._cost(self.regions[k], placed)
        self.placed = placed
        self.masks = masks

    def candidates(self, want: int) -> list[int]:
        quiet = self.quiet.setdefault(want, set())
        return [k for k, c in enumerate(self.cost) if c == want and k not in quiet]


_TRACKERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _tracker(view) -> _Tracker:
    ctx = view.context
    tr = _TRACKERS.get(ctx)
    if tr is None:
        tr = _Tracker(ctx.regions, len(view.puzzle.whites))
        _TRACKERS[ctx] = tr
    tr.update([view.is_placed(i) for i in range(len(view.puzzle.whites))], view.masks)
    return tr


def _choices(view, region, want: int):
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


def _identity(view, region, chosen, excluded):
    """sum(open base-only cells) - sum(open other-only cells) = k, as
    (open base-only cells, open other-only cells, k)."""
    plus_open, minus_open = [], []
    k = region.total - sum(t.total for t in chosen)
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


def _facts(view, region, chosen, excluded) -> tuple[dict, tuple[str, str]]:
    """Sentence facts, and the known side written for base-side / other-side unknowns."""
    chosen_total = sum(t.total for t in chosen)
    only_base = [i for t in excluded for i in t.inside]
    only_other = [i for t in chosen for i in t.outside]
    base_vals = [view.value(i) for i in only_base if view.is_placed(i)]
    other_vals = [view.value(i) for i in only_other if view.is_placed(i)]
    down = region.direction == DOWN

    def named(cells):
        return ", ".join(view.cell_name(i) + (f" (= {view.value(i)})" if view.is_placed(i)
                                              else "") for i in sorted(cells))

    apart = []
    if only_base:
        apart.append(f"{named(only_base)} (only in the {_WORD[down]} runs)")
    if only_other:
        apart.append(f"{named(only_other)} (only in the {_WORD[not down]} runs)")
    facts = {
        "base_desc": _group(view, _WORD[down], region.base, region.total),
        "chosen_desc": _group(view, _WORD[not down], [t.run for t in chosen], chosen_total),
        "base": ", ".join(view.run_name(r) for r in region.base),
        "base_total": region.total,
        "chosen": ", ".join(view.run_name(t.run) for t in chosen),
        "chosen_total": chosen_total,
        "apart": " and ".join(apart),
    }
    base_side = [str(region.total), f"- {chosen_total}"] + [f"- {v}" for v in base_vals] \
        + [f"+ {v}" for v in other_vals]
    other_side = [str(chosen_total), f"- {region.total}"] + [f"- {v}" for v in other_vals] \
        + [f"+ {v}" for v in base_vals]
    return facts, (" ".join(base_side), " ".join(other_side))


def _group(view, word: str, runs, total: int) -> str:
    names = ", ".join(view.run_name(r) for r in runs)
    if len(runs) == 1:
        return f"the {word} run {names} adds up to {total}"
    return f"the {word} runs {names} add up to {total}"


def _runs(region, chosen) -> tuple[int, ...]:
    return tuple(region.base) + tuple(t.run for t in chosen)


@rule(values=("apart", "base", "base_desc", "base_total", "chosen", "chosen_desc",
              "chosen_total", "digit", "equation", "target"))
def region_sum(view, unknowns: int = 1):
    """Every stored region whose identity leaves ``unknowns`` open cells (1 or 2)."""
    tracker = _tracker(view)
    regions = tracker.regions
    quiet = tracker.quiet[unknowns]
    for n in tracker.candidates(unknowns):
        region = regions[n]
        found = False
        for chosen, excluded in _choices(view, region, unknowns):
            plus, minus, k = _identity(view, region, chosen, excluded)
            if unknowns == 1:
                ded = _one(view, region, chosen, excluded, plus, minus, k)
            else:
                ded = _two(view, region, chosen, excluded, plus, minus, k)
            if ded is not None:
                found = True
                yield ded
        if not found:
            quiet.add(n)  # nothing here until one of its cells changes


def _one(view, region, chosen, excluded, plus, minus, k):
    (x,), v = (plus, k) if plus else (minus, -k)
    if not 1 <= v <= 9 or not view.mask(x) & BIT[v]:
        return None  # a contradiction; the other rules report it
    values, sides = _facts(view, region, chosen, excluded)
    expr = sides[0] if plus else sides[1]
    values.update(equation=f"{view.cell_name(x)} = {expr} = {v}", digit=v,
                  target=view.cell_name(x))
    cells = tuple(sorted(region.cells | {i for t in chosen for i in t.outside}))
    return Deduction(placements={x: v}, cells=cells, runs=_runs(region, chosen), values=values)


def _share_run(view, x, y) -> bool:
    return bool(set(view.runs_of(x)) & set(view.runs_of(y)))


def _two(view, region, chosen, excluded, plus, minus, k):
    if len(plus) == 2:
        (x, y), side, rel, total = plus, 0, "+", k
    elif len(minus) == 2:
        (x, y), side, rel, total = minus, 1, "+", -k
    else:
        (x,), (y,) = plus, minus
        side, rel, total = 0, "-", k
    if rel == "+":
        def partner(a):
            return total - a
        back = partner
    else:  # x - y = total
        def partner(a):
            return a - total

        def back(b):
            return b + total
    distinct = _share_run(view, x, y)
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
    values, sides = _facts(view, region, chosen, excluded)
    expr = (f"{view.cell_name(x)} {rel} {view.cell_name(y)} = {sides[side]} = {total}"
            + (" (and they share a run, so they differ)" if distinct and rel == "+" else ""))
    values.update(equation=expr, target=view.cells_name((x, y)), digit="")
    cells = tuple(sorted(region.cells | {i for t in chosen for i in t.outside}))
    return Deduction(eliminations=elim, cells=cells, runs=_runs(region, chosen), values=values)

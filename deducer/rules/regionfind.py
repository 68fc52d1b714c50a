"""Areas for the region-sum rules ("filled areas", innies and outies).

A region is a set of clued runs of one direction (the *base*): their cells ``S`` add up to
the sum of their clues. Every run of the other direction that crosses ``S`` (a *touch*)
either lies wholly inside ``S`` or sticks out of it. Choosing some of the touches (the
clued ones) gives an identity

    sum(S minus the chosen touches) - sum(the chosen touches' cells outside S)
        = sum(base clues) - sum(chosen clues)

whose unknowns are the cells of the symmetric difference. Which touches to choose depends
on which cells are already written in, so that choice is made per state by the rule; this
module only finds the base sets, once per puzzle, from the run/cell graph.

Base sets are the connected groups (runs linked when one crossing run touches both) of up
to ``max_size`` runs (``large_max_size`` on a grid of more than ``large_runs`` runs), plus
greedy growths that keep adding the neighbour which leaves the fewest cells sticking out,
up to ``grow_size`` runs. Only regions whose static unknown count (every cell open) is at
most ``max_cost`` are kept, the ``limit`` simplest of them, so big puzzles stay fast.
These limits change which steps the region-sum rules find: they are the rules'
``regions:`` parameter in the ladder (rules/core.yaml), and the keyword defaults of
:func:`_find_regions` equal the core ladder's (tests/test_ladder_limits.py).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from ..puzzle.model import ACROSS, DOWN, Puzzle, Run

if TYPE_CHECKING:
    import networkx as nx

    from ..engine.state import Context


@dataclass(frozen=True)
class Touch:
    """A run of the other direction crossing the region."""

    run: int
    total: int | None  # None: unclued (can never be chosen)
    inside: tuple[int, ...]  # its cells inside the region
    outside: tuple[int, ...]  # its cells outside


@dataclass(frozen=True)
class Region:
    """Runs of one direction whose clues sum a block of cells, and the crossing runs
    that close it."""

    base: tuple[int, ...]  # run ids, one direction, all clued
    direction: str
    total: int  # sum of the base clues
    cells: frozenset[int]
    touches: tuple[Touch, ...]
    cost: int  # unknown cells when nothing is written in, best choice of touches


def _cost(touches: Iterable[Touch]) -> int:
    return sum(len(t.inside) if t.total is None else min(len(t.inside), len(t.outside))
               for t in touches)


def _touch_cost(runs: Sequence[Run], t: int, k: int) -> int:
    """Unknown cells a crossing run ``t`` with ``k`` cells inside the region costs."""
    if t < 0:
        return k
    if runs[t].total is None:
        return k
    return min(k, runs[t].length - k)


def _region(puzzle: Puzzle, base: frozenset[int], cell_other: list[int]) -> Region:
    runs = puzzle.runs
    ids = tuple(sorted(base))
    cells = frozenset(i for r in ids for i in runs[r].cells)
    touching = sorted({cell_other[i] for i in cells if cell_other[i] >= 0})
    touches = []
    for t in touching:
        tc = runs[t].cells
        touches.append(Touch(t, runs[t].total, tuple(i for i in tc if i in cells),
                             tuple(i for i in tc if i not in cells)))
    # cells with no crossing run (a lone cell between blacks) are always unknowns
    lone = tuple(i for i in sorted(cells) if cell_other[i] < 0)
    if lone:
        touches.append(Touch(-1, None, lone, ()))
    return Region(ids, runs[ids[0]].direction, sum(runs[r].total or 0 for r in ids), cells,
                  tuple(touches), _cost(touches))


#: the last few geometries' regions: the generator explains one layout again and again
#: with different clues, and which regions exist does not depend on the clues' values.
#: Memory and time only: a geometry forgotten has its regions found again, the same ones
#: (tests/test_generate.py compares the kept with the fresh)
_KEPT = 4
_kept: OrderedDict[tuple, tuple[tuple, tuple[Region, ...], dict[int, list[int]]]] = \
    OrderedDict()


def regions_of(context: Context, **limits: int) -> tuple[Region, ...]:
    """The puzzle's regions within ``limits`` (:func:`_find_regions`' keywords), found once
    per walk (kept in the walk's context)."""
    kept = context.cache("regions")
    key = ("found", tuple(sorted(limits.items())))
    found = kept.get(key)
    if found is None:
        found = kept[key] = find_regions(context.puzzle, **limits)
    return found


def find_regions(puzzle: Puzzle, graph: nx.Graph | None = None, **limits: int
                 ) -> tuple[Region, ...]:
    """Regions worth checking, simplest first (fewest base runs, then fewest unknowns).

    Which regions there are, and their order, depend only on the geometry and on which
    runs have clues; a puzzle seen before with other clue values gets the kept regions
    with only those that involve a changed clue rebuilt."""
    runs = puzzle.runs
    key = (puzzle.rows, puzzle.cols, puzzle.whites,
           tuple(r.total is None for r in runs), tuple(sorted(limits.items())))
    totals = tuple(r.total for r in runs)
    kept = _kept.get(key)
    if kept is None:
        regions = _find_regions(puzzle, graph, **limits)
        by_run: dict[int, list[int]] = {}
        for k, reg in enumerate(regions):
            for r in {*reg.base, *(t.run for t in reg.touches if t.run >= 0)}:
                by_run.setdefault(r, []).append(k)
        _kept[key] = (totals, regions, by_run)
        if len(_kept) > _KEPT:
            _kept.popitem(last=False)
        return regions
    _kept.move_to_end(key)
    old_totals, regions, by_run = kept
    if old_totals == totals:
        return regions
    stale = {k for r, (a, b) in enumerate(zip(old_totals, totals, strict=True)) if a != b
             for k in by_run.get(r, ())}
    if stale:
        fresh = list(regions)
        for k in stale:
            fresh[k] = _retotal(regions[k], runs)
        regions = tuple(fresh)
    _kept[key] = (totals, regions, by_run)
    return regions


def _retotal(reg: Region, runs: Sequence[Run]) -> Region:
    """The same region with the clue values of ``runs``."""
    touches = tuple(t if t.run < 0 else Touch(t.run, runs[t.run].total, t.inside, t.outside)
                    for t in reg.touches)
    return Region(reg.base, reg.direction,
                  sum(cast(int, runs[r].total) for r in reg.base),  # base runs are clued
                  reg.cells, touches, reg.cost)


def _find_regions(puzzle: Puzzle, graph: nx.Graph | None = None, *, max_size: int = 3,
                  large_runs: int = 200, large_max_size: int = 2, grow_size: int = 8,
                  max_cost: int = 6,
                  limit: int = 6000) -> tuple[Region, ...]:
    runs = puzzle.runs
    if len(runs) > large_runs:
        max_size = large_max_size
    found: dict[frozenset[int], Region] = {}
    for direction in (DOWN, ACROSS):
        cell_other, cell_base = _cell_runs(puzzle, graph, direction)
        base_ok = [r for r in range(len(runs))
                   if runs[r].direction == direction and runs[r].total is not None]
        nbrs = _neighbours(runs, base_ok, cell_other, cell_base)

        def keep(base: frozenset[int], cell_other: list[int] = cell_other) -> Region:
            reg = found.get(base)
            if reg is None:
                reg = _region(puzzle, base, cell_other)
                found[base] = reg
            return reg

        _connected(base_ok, nbrs, max_size, keep)
        _grown(runs, base_ok, nbrs, cell_other, grow_size, keep)
    regions = [r for r in found.values()
               if 0 < r.cost <= max_cost and any(t.total is not None for t in r.touches)]
    regions.sort(key=lambda r: (len(r.base), r.cost, r.direction, r.base))
    return tuple(regions[:limit])


def _cell_runs(puzzle: Puzzle, graph: nx.Graph | None, direction: str
               ) -> tuple[list[int], list[int]]:
    """For each white cell: its run of the other direction (or -1), and of ``direction``.
    A cell is in one run of each direction, so the run/cell graph (networkx, given) and
    the runs themselves (without: networkx's import is 11 MB and a tenth of a second of a
    worker that rates thousands of puzzles) give the same."""
    other_dir = ACROSS if direction == DOWN else DOWN
    cell_other = [-1] * len(puzzle.whites)
    cell_base = [-1] * len(puzzle.whites)
    members = ((r, data["direction"], [i for _, i in graph.neighbors(("run", r))])
               for (kind, r), data in graph.nodes(data=True) if kind == "run") \
        if graph is not None else ((run.id, run.direction, run.cells) for run in puzzle.runs)
    for r, run_direction, run_cells in members:
        for i in run_cells:
            if run_direction == other_dir:
                cell_other[i] = r
            else:
                cell_base[i] = r
    return cell_other, cell_base


def _neighbours(runs: Sequence[Run], base_ok: list[int], cell_other: list[int],
                cell_base: list[int]) -> dict[int, set[int]]:
    """Each base run's neighbours: the other base runs a crossing run of it touches."""
    ok = set(base_ok)
    nbrs: dict[int, set[int]] = {}
    for b in base_ok:
        s = set()
        for i in runs[b].cells:
            t = cell_other[i]
            if t < 0:
                continue
            for j in runs[t].cells:
                if cell_base[j] in ok and cell_base[j] != b:
                    s.add(cell_base[j])
        nbrs[b] = s
    return nbrs


def _connected(base_ok: list[int], nbrs: dict[int, set[int]], max_size: int,
               keep: Callable[[frozenset[int]], Region]) -> None:
    """Keeps every connected group of up to ``max_size`` runs."""
    level = {frozenset((b,)) for b in base_ok}
    for group in level:
        keep(group)
    for _ in range(max_size - 1):
        nxt = set()
        for group in level:
            for b in group:
                for n in nbrs[b]:
                    if n not in group:
                        nxt.add(group | {n})
        for g in nxt:
            keep(g)
        level = nxt


def _grown(runs: Sequence[Run], base_ok: list[int], nbrs: dict[int, set[int]],
           cell_other: list[int], grow_size: int,
           keep: Callable[[frozenset[int]], Region]) -> None:
    """Keeps the greedy growths of each run: add the neighbour that leaves the fewest
    unknown cells; the choice depends only on the group, so a group already grown is not
    grown again."""
    grown: set[frozenset[int]] = set()
    for b in base_ok:
        group = frozenset((b,))
        inside: dict[int, int] = {}  # cells inside the group, by crossing run
        for i in runs[b].cells:
            inside[cell_other[i]] = inside.get(cell_other[i], 0) + 1
        for _ in range(grow_size - 1):
            if group in grown:
                break
            grown.add(group)
            cand = set()
            for r in group:
                cand |= nbrs[r]
            cand -= group
            if not cand:
                break
            best = _best_neighbour(runs, cand, inside, cell_other)
            for i in runs[best].cells:
                inside[cell_other[i]] = inside.get(cell_other[i], 0) + 1
            group = group | {best}
            keep(group)


def _best_neighbour(runs: Sequence[Run], cand: set[int], inside: dict[int, int],
                    cell_other: list[int]) -> int:
    """The neighbour whose adding leaves the fewest unknown cells (the lowest run id on a
    tie)."""
    best_key = None
    best = -1
    for n in cand:
        delta = 0
        seen: dict[int, int] = {}
        for i in runs[n].cells:
            t = cell_other[i]
            seen[t] = seen.get(t, 0) + 1
        for t, k in seen.items():
            delta += (_touch_cost(runs, t, inside.get(t, 0) + k)
                      - _touch_cost(runs, t, inside.get(t, 0)))
        key = (delta, n)
        if best_key is None or key < best_key:
            best_key, best = key, n
    return best

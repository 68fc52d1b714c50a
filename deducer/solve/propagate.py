"""Bulk propagation: the solve-mode hot path (plain int masks, tables, a run queue).

``run_filter`` is the full-strength per-run check: a digit stays in a cell only if some
arrangement of some combination of the run puts it there. It is exact (generalised arc
consistency for one run), memoised, and shared by the solver, the trial fallback and the
``permutation-check`` rules, so the explain and solve modes agree by construction.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..puzzle.combos import POP, combos
from ..puzzle.model import Puzzle

_CACHE: dict[tuple, tuple[int, ...] | None] = {}
_CACHE_LIMIT = 400_000
_SUBSETS: dict[tuple[int, int], frozenset[int]] = {}


def _subsets(total: int, n: int) -> frozenset[int]:
    """Every partial digit set that some combination of (total, n) contains."""
    key = (total, n)
    subs = _SUBSETS.get(key)
    if subs is None:
        acc = set()
        for c in combos(total, n):
            s = c
            while True:  # all submasks of c
                acc.add(s)
                if s == 0:
                    break
                s = (s - 1) & c
        subs = _SUBSETS[key] = frozenset(acc)
    return subs


def run_filter(total: int | None, masks: tuple[int, ...]) -> tuple[int, ...] | None:
    """Candidates of a run's cells that fit a full arrangement; None if none exists."""
    key = (total, masks)
    hit = _CACHE.get(key, False)
    if hit is not False:
        return hit
    res = _run_filter(total, masks)
    if len(_CACHE) >= _CACHE_LIMIT:
        _CACHE.clear()
    _CACHE[key] = res
    return res


def _run_filter(total, masks):
    n = len(masks)
    union = 0
    for m in masks:
        if not m:
            return None
        union |= m
    live = [c for c in combos(total, n) if c & union == c]
    if not live:
        return None
    allowed = 0
    for c in live:
        allowed |= c
    if masks.count(masks[0]) == n:
        # identical cells: every live combination can be permuted into any of them
        return (allowed,) * n
    # most constrained cells first: the sets of partial digit sets stay small
    order = sorted(range(n), key=lambda k: POP[masks[k] & allowed])
    ms = [masks[k] & allowed for k in order]
    # forward: sets of digits used by cells 0..k-1 (reachable states only), pruned to
    # partial sets some combination contains
    subs = None if total is None else _subsets(total, n)
    fwd: list[set[int]] = [{0}]
    for m in ms:
        nxt = set()
        for s in fwd[-1]:
            avail = m & ~s
            while avail:
                b = avail & -avail
                avail ^= b
                t = s | b
                if subs is None or t in subs:
                    nxt.add(t)
        if not nxt:
            return None
        fwd.append(nxt)
    good = fwd[n].intersection(live)
    if not good:
        return None
    out = [0] * n
    for k in range(n - 1, -1, -1):
        gk = set()
        nm = 0
        m = ms[k]
        for s in fwd[k]:
            avail = m & ~s
            while avail:
                b = avail & -avail
                avail ^= b
                if s | b in good:
                    gk.add(s)
                    nm |= b
        out[order[k]] = nm
        good = gk
    return tuple(out)


@dataclass(frozen=True)
class Layout:
    """The puzzle reduced to the tables propagation needs (built once per puzzle)."""

    run_cells: tuple[tuple[int, ...], ...]
    run_total: tuple[int | None, ...]
    cell_runs: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, puzzle: Puzzle) -> Layout:
        return cls(
            tuple(r.cells for r in puzzle.runs),
            tuple(r.total for r in puzzle.runs),
            puzzle.cell_runs,
        )


class Contradiction(Exception):
    """Propagation emptied a run; ``run`` is its id."""

    def __init__(self, run: int):
        super().__init__(run)
        self.run = run


def propagate(layout: Layout, masks: list[int], dirty, trace: list[int] | None = None,
              trail: list[int] | None = None) -> None:
    """Filter runs until nothing changes; ``masks`` is updated in place.

    ``dirty`` is an iterable of run ids to start from. Raises :class:`Contradiction`.
    ``trace``, if given, receives cells in the order they are narrowed to one digit (so a
    trial can tell its chain of consequences in the order they follow). ``trail``, if given,
    receives ``cell, old mask`` pairs (flat) before every change, so a search can undo a
    node without copying the grid.
    """
    run_cells = layout.run_cells
    run_total = layout.run_total
    cell_runs = layout.cell_runs
    queue = list(dict.fromkeys(dirty))
    queued = set(queue)
    while queue:
        rid = queue.pop()
        queued.discard(rid)
        cells = run_cells[rid]
        old = tuple([masks[i] for i in cells])
        new = run_filter(run_total[rid], old)
        if new is None:
            raise Contradiction(rid)
        if new == old:
            continue
        for i, a, b in zip(cells, old, new, strict=True):
            if a != b:
                if trail is not None:
                    trail.append(i)
                    trail.append(a)
                masks[i] = b
                if trace is not None and b & (b - 1) == 0:
                    trace.append(i)
                for other in cell_runs[i]:
                    if other != rid and other not in queued:
                        queued.add(other)
                        queue.append(other)

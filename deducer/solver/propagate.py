"""Bulk propagation: the solve-mode hot path (plain int masks, tables, a run queue).

``run_filter`` is the full-strength per-run check: a digit stays in a cell only if some
arrangement of some combination of the run puts it there. It is exact (generalised arc
consistency for one run), memoised, and shared by the solver, the trial fallback and the
``permutation-check`` rules, so the explain and solve modes agree by construction.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..clock import Limits
from ..puzzle.combos import combos
from ..puzzle.model import Puzzle

_CACHE: dict[tuple, dict[int, int] | None] = {}
_CACHE_LIMIT = 400_000

# Bit-parallel tables. A *set of digit sets* is one 512-bit int: bit ``s`` stands for the
# digit set ``s``. Adding digit d to every set lacking it is ``(X & LACKS[d]) << BIT[d]``, so
# a whole layer of the arrangement search is a handful of big-int operations, whatever the
# key: a fresh process filters as fast as a warm cache, with no per-key table to build.
_FULL = (1 << 512) - 1
#: LACKS[b] for a one-bit mask b: every digit set without b. The sets without bit k come
#: in blocks of 2**k, every 2**(k + 1): one block's bits times a bit per period (a closed
#: form: summing 256 shifted bits per digit was a millisecond of every start-up)
_lacks = {1 << k: ((1 << (1 << k)) - 1) * (_FULL // ((1 << (2 << k)) - 1)) for k in range(9)}
# indexed by the one-bit mask itself (tuples: the filter's inner loops read them hundreds of
# times a call, and an index is cheaper than a dict lookup); other indices are unused
_LACKS = tuple(_lacks.get(b, 0) for b in range(257))
_HAS = tuple(_FULL & ~_lacks[b] if b in _lacks else 0 for b in range(257))


def _bits_table() -> tuple[tuple[int, ...], ...]:
    """The one-bit masks of every mask, ascending (a function: fast local names)."""
    bits: list[tuple[int, ...]] = [()]
    for m in range(1, 512):  # a mask's lowest bit, then the bits of the rest
        bits.append((m & -m,) + bits[m & (m - 1)])
    return tuple(bits)


_BITS = _bits_table()


def reachable(masks) -> int:
    """The digit sets that cells with candidates ``masks`` can hold, each a different
    digit, as one 512-bit int (bit ``s``: the set ``s``): the forward half of the run
    filter, for a caller that asks which whole combinations fit (0: none)."""
    x = 1  # {empty set}
    lacks, bits = _LACKS, _BITS
    for m in masks:
        nxt = 0
        for b in bits[m]:
            nxt |= (x & lacks[b]) << b
        if not nxt:
            return 0
        x = nxt
    return x


def run_filter(total: int | None, masks: tuple[int, ...]) -> tuple[int, ...] | None:
    """Candidates of a run's cells that fit a full arrangement; None if none exists."""
    # canonical key: the answer does not depend on the cells' order, and cells with equal
    # candidates get equal answers, so the cache keys the sorted masks and maps back
    key = (total, tuple(sorted(masks)))
    hit = _CACHE.get(key, False)
    if hit is False:
        hit = _run_filter(total, key[1])
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        _CACHE[key] = hit
    if hit is None:
        return None
    return tuple([hit[m] for m in masks])  # type: ignore[index]  # a dict here


#: what a filter narrows: (cell, candidates left) for each cell it changes
Changes = tuple[tuple[int, int], ...]


def changes(cells: tuple[int, ...], old: tuple[int, ...], new: tuple[int, ...]) -> Changes:
    """(cell, candidates) for each of ``cells`` whose candidates ``new`` narrows from
    ``old``: a run filter's answer kept as what it changes, so that a run it leaves as it
    was costs its caller no loop (the chain bound's rounds, a proof trim's searches)."""
    return tuple([(i, b) for i, a, b in zip(cells, old, new, strict=True) if a != b])


def _run_filter(total, masks):
    """``{mask: filtered mask}`` for the cells' distinct masks, or None."""
    n = len(masks)
    union = 0
    for m in masks:
        if not m:
            return None
        union |= m
    live = 0
    for c in combos(total, n):
        if c & union == c:
            live |= 1 << c
    if not live:
        return None
    # forward: the digit sets the first k cells can use (all reachable sets, as one int)
    fwd = [1]  # {empty set}
    x = 1
    for m in masks:
        nxt = 0
        for b in _BITS[m]:
            nxt |= (x & _LACKS[b]) << b
        if not nxt:
            return None
        fwd.append(nxt)
        x = nxt
    good = x & live
    if not good:
        return None
    # backward: keep digit b in cell k if some reachable set before k, plus b, still
    # completes to a live combination
    out: dict[int, int] = {}
    for k in range(n - 1, -1, -1):
        m = masks[k]
        prev = fwd[k]
        keep = 0
        gk = 0
        for b in _BITS[m]:
            back = ((good & _HAS[b]) >> b) & prev
            if back:
                keep |= b
                gk |= back
        if not keep:
            return None
        out[m] = out.get(m, 0) | keep
        good = gk
    return out


@dataclass(frozen=True, slots=True)
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


class Timeout(Exception):
    """The deadline passed (or the work budget ran out) during propagation or search."""


#: runs filtered between two looks at the clock (when propagation has a deadline)
CLOCK_EVERY = 256


def propagate(layout: Layout, masks: list[int], dirty, trace: list[int] | None = None,
              trail: list[int] | None = None, limits: Limits | None = None) -> None:
    """Filter runs until nothing changes; ``masks`` is updated in place.

    ``dirty`` is an iterable of run ids to start from. Raises :class:`Contradiction`.
    ``trace``, if given, receives cells in the order they are narrowed to one digit (so a
    trial can tell its chain of consequences in the order they follow). ``trail``, if given,
    receives ``cell, old mask`` pairs (flat) before every change, so a search can undo a
    node without copying the grid. ``limits``: raise :class:`Timeout` once their deadline
    has passed, leaving ``masks`` narrowed soundly but not
    fully (a whole 200x200 grid takes a loaded machine over a second).
    """
    run_cells = layout.run_cells
    run_total = layout.run_total
    cell_runs = layout.cell_runs
    queue = list(dict.fromkeys(dirty))
    queued = set(queue)
    count = 0
    deadline = None if limits is None else limits.deadline
    while queue:
        if deadline is not None:
            count += 1
            if count % CLOCK_EVERY == 0 and time.perf_counter() > deadline:
                raise Timeout
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

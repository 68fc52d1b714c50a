"""Complete solving: propagation, islands, an iterative MRV search that asks a learning
oracle when it starts to flounder, and solution enumeration with a cap.

How a solve goes:

1. Exact per-run propagation (:mod:`.propagate`) from the starting candidates.
2. The cells still open split into **islands** that share no run; each is searched on its
   own and the solutions combined, so separate ambiguities cost a sum, not a product. Each
   island only searches as far as the cap needs: with two solutions asked, once two have
   been combined nothing looks for a third.
3. Each island runs a depth-first search with an explicit stack (no recursion limit at any
   size) and a trail of changed candidates (no grid copy per node); the branching cell is the
   one with fewest candidates, kept in a lazily updated heap (no full scan per node).
4. When the search has spent a few hundred nodes without a solution it asks the
   clause-learning oracle (:mod:`.oracle`) whether the part of the tree still ahead holds a
   solution at all: "no" prunes it, jumping back past every decision the answer's core does
   not need; "yes" comes with a solution, whose digits the search then follows down.
   Solutions are only ever reported at the leaves of the search, so nothing is counted
   twice and nothing needs to be remembered to block it.

Solutions stream out of :func:`iter_solutions` one at a time; :func:`solve` collects them.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..puzzle.combos import BIT, DIGITS, POP, SINGLE
from ..puzzle.model import Puzzle, cell_name, check_solution
from . import oracle as _oracle
from .graph import open_islands
from .propagate import Contradiction, Layout, propagate

UNIQUE, MULTIPLE, NONE = "unique", "multiple", "none"
#: the most solutions one call may report (the CLI streams them; see ``iter_solutions``)
MAX_SOLUTIONS_CAP = 100_000
#: dead ends in a row (no solution between them) before the island goes to the SAT solver
FIRST_ASK = 100
#: smaller islands are always searched to the end (a SAT solver would cost more)
MIN_SAT_CELLS = 9


class Timeout(Exception):
    """The deadline passed during search."""


@dataclass
class SolveResult:
    """Outcome of a complete solve. ``solutions`` hold one digit per white cell index."""

    status: str  # unique | multiple | none
    solutions: list[list[int]]
    complete: bool  # False when the cap or the time limit stopped enumeration
    nodes: int = 0
    reason: str | None = None  # for "none": where the contradiction shows
    timed_out: bool = False
    stats: dict = field(default_factory=dict)

    @property
    def solution_count(self) -> int:
        return len(self.solutions)


class _Stats:
    __slots__ = ("nodes", "asks", "deadline")

    def __init__(self, deadline: float | None):
        self.nodes = 0
        self.asks = 0
        self.deadline = deadline


def _island(layout: Layout, masks: list[int], cells: tuple[int, ...],
            st: _Stats) -> Iterator[tuple[int, ...]]:
    """Every solution of one island, as the digits of ``cells`` in order.

    ``masks`` is shared with the caller and left as it was found after every yield and at
    the end (the trail undoes each node's changes).
    """
    cell_runs = layout.cell_runs
    root = list(masks)  # the island's starting candidates, for the oracle's CNF
    trail: list[int] = []
    heap = [(POP[masks[c]], c) for c in cells if POP[masks[c]] > 1]
    heapq.heapify(heap)
    heap_limit = 8 * len(cells) + 64
    push, pop = heapq.heappush, heapq.heappop
    use_oracle = len(cells) >= MIN_SAT_CELLS and _oracle.available()
    fruitless = 0
    deadline = st.deadline

    def undo(mark: int) -> None:
        while len(trail) > mark:
            old = trail.pop()
            c = trail.pop()
            masks[c] = old
            if POP[old] > 1:
                push(heap, (POP[old], c))

    def choose() -> int:
        while heap:
            p, c = heap[0]
            pop(heap)
            if p > 1 and POP[masks[c]] == p:
                return c
        return -1

    # a frame: [branch cell, digits still to try, trail mark, digits tried (the last one
    # is the branch being explored below it)]
    stack: list[list] = []

    def enter() -> bool:
        """At a consistent node: True at a leaf, else push a frame for the next cell."""
        c = choose()
        if c < 0:
            return True
        order = list(DIGITS[masks[c]])
        stack.append([c, order, len(trail), []])
        return False

    def drop_frame() -> None:
        c, _, mark, _ = stack.pop()
        undo(mark)
        push(heap, (POP[masks[c]], c))

    try:
        if enter():
            yield tuple(SINGLE[masks[c]] for c in cells)
            return
        while stack:
            frame = stack[-1]
            c, order, mark, tried = frame
            undo(mark)
            if not order:
                drop_frame()
                continue
            if use_oracle and fruitless >= FIRST_ASK:
                yield from _hand_over(layout, root, cells, stack, st)
                return
            d = order.pop(0)
            tried.append(d)
            st.nodes += 1
            if deadline is not None and st.nodes & 127 == 0 and time.perf_counter() > deadline:
                raise Timeout
            start = len(trail)
            trail.append(c)
            trail.append(masks[c])
            masks[c] = BIT[d]
            try:
                propagate(layout, masks, cell_runs[c], trail=trail)
            except Contradiction:
                fruitless += 1
                continue
            for k in range(start + 2, len(trail), 2):
                j = trail[k]
                p = POP[masks[j]]
                if p > 1:
                    push(heap, (p, j))
            if len(heap) > heap_limit:
                heap[:] = [(POP[masks[j]], j) for j in cells if POP[masks[j]] > 1]
                heapq.heapify(heap)
            if enter():
                fruitless = 0
                yield tuple(SINGLE[masks[j]] for j in cells)
    finally:
        while stack:
            drop_frame()
        undo(0)


def _hand_over(layout: Layout, root: list[int], cells: tuple[int, ...], stack: list[list],
               st: _Stats) -> Iterator[tuple[int, ...]]:
    """Finish an island with the SAT solver: every solution the search has not reached yet.

    What the search has explored is shut out by one short clause per explored branch (the
    decisions above it and its digit), so solutions already reported are not found again;
    each new solution is then blocked in turn. The solver sees the whole island with no
    assumptions: CDCL is at its best there, while refuting a deep branch under its
    decisions as assumptions can take it minutes.
    """
    oracle = _oracle.Oracle(layout.run_cells, layout.run_total, layout.cell_runs, root, cells)
    try:
        lit = oracle.lit
        path: list[int] = []
        for k, (c, _, _, tried) in enumerate(stack):
            done = tried if k == len(stack) - 1 else tried[:-1]
            for t in done:
                oracle.add([-x for x in path] + [-lit(c, t)])
            if k < len(stack) - 1:
                path.append(lit(c, tried[-1]))
        while True:
            st.asks += 1
            try:
                model = oracle.ask([], st.deadline)
            except _oracle.OracleTimeout:
                raise Timeout from None
            if isinstance(model, set):
                return
            sol = tuple(model[c] for c in cells)
            yield sol
            oracle.add([-lit(c, d) for c, d in zip(cells, sol, strict=True)])
    finally:
        oracle.close()


class SolutionStream:
    """Solutions one at a time (digit lists by white-cell index); after the iteration ends,
    ``status``, ``complete``, ``timed_out``, ``reason``, ``count`` and ``nodes`` tell how
    it went. Memory stays bounded however many solutions stream out."""

    def __init__(self, puzzle: Puzzle, cap: int, start: list[int], deadline: float | None):
        self.puzzle = puzzle
        self.cap = cap
        self.start = start
        self.st = _Stats(deadline)
        self.status = NONE
        self.complete = True
        self.timed_out = False
        self.reason: str | None = None
        self.count = 0
        self.stats: dict = {}

    @property
    def nodes(self) -> int:
        return self.st.nodes

    def __iter__(self) -> Iterator[list[int]]:
        puzzle, cap, masks = self.puzzle, self.cap, self.start
        layout = Layout.of(puzzle)
        try:
            propagate(layout, masks, range(len(layout.run_cells)))
        except Contradiction as c:
            self.reason = _no_room(puzzle, puzzle.runs[c.run], masks)
            return
        islands = open_islands(layout.run_cells, layout.cell_runs, masks)
        self.stats["islands"] = len(islands)
        gens: list[Iterator[tuple[int, ...]]] = []
        lists: list[list[tuple[int, ...]]] = []
        done = [False] * len(islands)
        try:
            gens = [_island(layout, masks, cells, self.st) for cells in islands]
            for k, g in enumerate(gens):  # every island needs one solution first
                first = next(g, None)
                if first is None:
                    self.reason = ("every branch of the search ends in a contradiction "
                                   f"(around {cell_name(puzzle.whites[islands[k][0]])})")
                    return
                lists.append([first])
            # the biggest island streams; the others are held (they are small or few)
            s = max(range(len(islands)), key=lambda k: len(islands[k])) if islands else -1
            for k in range(len(islands)):
                if k == s:
                    continue
                while not done[k]:
                    others = _prod(len(lists[j]) for j in range(len(lists)) if j != k)
                    if len(lists[k]) * others >= cap:
                        break
                    nxt = next(gens[k], None)
                    if nxt is None:
                        done[k] = True
                    else:
                        lists[k].append(nxt)
            base = [SINGLE[m] for m in masks]
            rest = [k for k in range(len(islands)) if k != s]
            current = lists[s][0] if s >= 0 else ()
            while True:
                for combo in itertools.product(*(lists[k] for k in rest)):
                    values = base.copy()
                    if s >= 0:
                        for i, v in zip(islands[s], current, strict=True):
                            values[i] = v
                    for k, sol in zip(rest, combo, strict=True):
                        for i, v in zip(islands[k], sol, strict=True):
                            values[i] = v
                    bad = check_solution(puzzle, values)
                    if bad is not None:  # never show a wrong solution as right
                        raise AssertionError(f"solver produced an invalid solution: {bad}")
                    self.count += 1
                    self.status = UNIQUE if self.count == 1 else MULTIPLE
                    yield values
                    if self.count >= cap:
                        self.complete = all(done) and (s < 0 or done[s])
                        if s >= 0 and not done[s]:
                            self.complete = False
                        return
                if s < 0:
                    return
                nxt = next(gens[s], None)
                if nxt is None:
                    done[s] = True
                    return
                current = nxt
        except Timeout:
            self.timed_out = True
            self.complete = False
            if self.count == 0:
                self.reason = "time limit reached before a solution was found"
        finally:
            for g in gens:
                g.close()
            self.stats["nodes"] = self.st.nodes
            self.stats["oracle_asks"] = self.st.asks


def _prod(xs) -> int:
    p = 1
    for x in xs:
        p *= x
    return p


def iter_solutions(puzzle: Puzzle, *, max_solutions: int = 2, use_entries: bool = True,
                   timeout: float | None = None,
                   masks: list[int] | None = None) -> SolutionStream:
    """A :class:`SolutionStream` of up to ``max_solutions`` solutions (see :func:`solve`)."""
    cap = max(1, max_solutions)
    deadline = None if timeout is None else time.perf_counter() + timeout
    start = masks[:] if masks is not None else puzzle.initial_masks(with_entries=use_entries)
    return SolutionStream(puzzle, cap, start, deadline)


def solve(puzzle: Puzzle, *, max_solutions: int = 2, use_entries: bool = True,
          timeout: float | None = None, masks: list[int] | None = None) -> SolveResult:
    """Find solutions up to ``max_solutions``; prove uniqueness when the cap allows (>= 2).

    ``complete`` is True when the search space was exhausted: the solutions are all there
    are. Reaching the cap stops the search (nothing looks for one more), so ``complete`` is
    then False unless every island was already exhausted. ``masks`` may give starting
    candidates (e.g. after some deductions); they must be sound for every solution, or
    solutions will be missed.
    """
    stream = iter_solutions(puzzle, max_solutions=max_solutions, use_entries=use_entries,
                            timeout=timeout, masks=masks)
    solutions = list(stream)
    return SolveResult(stream.status, solutions, stream.complete, nodes=stream.nodes,
                       reason=stream.reason, timed_out=stream.timed_out, stats=stream.stats)


ENTRY_BLAME = "; the puzzle itself has a solution, so an entry is wrong (see 'deducer check')"


def entries_to_blame(puzzle: Puzzle, timeout: float | None = 30) -> bool:
    """With the player's entries there is no solution: is the bare puzzle solvable?"""
    return bool(puzzle.entries) and bool(
        solve(puzzle, max_solutions=1, use_entries=False, timeout=timeout).solutions)


def _no_room(puzzle: Puzzle, run, masks: list[int]) -> str:
    """Say which run or cell has no possibility left."""
    for i in run.cells:
        if masks[i] == 0:
            return f"cell {cell_name(puzzle.whites[i])} has no digit left"
    total = "no clue" if run.total is None else f"total {run.total}"
    return f"run {run.name} ({total}) has no combination of digits that fits its cells"

"""Complete solving: propagation, islands, an iterative MRV search that asks a learning
oracle when it starts to flounder, and solution enumeration with a cap.

How a solve goes:

1. Exact per-run propagation (:mod:`.propagate`) from the starting candidates.
2. The cells still open split into **islands** that share no run; each is searched on its
   own and the solutions combined, so separate ambiguities cost a sum, not a product. Each
   island only searches as far as the cap needs: with two solutions asked, once two have
   been combined nothing looks for a third.
3. Each island is searched by :func:`.island.island_solutions`: a depth-first search that
   splits again below its decisions and hands a floundering island to the SAT solver.

Solutions stream out of :func:`iter_solutions` one at a time; :func:`solve` collects them.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..clock import NO_LIMITS, Limits, past
from ..puzzle.combos import SINGLE
from ..puzzle.model import Puzzle, cell_name, check_solution, solution_grid
from .graph import open_islands
from .island import SearchStats, Solutions, island_solutions
from .propagate import Contradiction, Layout, Timeout, propagate
from .status import SolveStatus

UNIQUE, MULTIPLE, NONE, UNDECIDED = SolveStatus
#: the most solutions one call may report (the CLI streams them; see ``iter_solutions``)
MAX_SOLUTIONS_CAP = 100_000


@dataclass
class SolveResult:
    """Outcome of a complete solve. ``solutions`` hold one digit per white cell index."""

    status: SolveStatus  # UNDECIDED: a limit stopped it before any solution
    solutions: list[list[int]]
    complete: bool  # False when the cap, the time limit or the work budget stopped it
    nodes: int = 0
    reason: str | None = None  # for "none": where the contradiction shows
    timed_out: bool = False  # the time limit or the work budget stopped it
    work: int = 0  # units of work spent: search nodes and oracle conflicts (see ``solve``)
    stats: dict = field(default_factory=dict)

    @property
    def solution_count(self) -> int:
        return len(self.solutions)

    def to_json(self, puzzle: Puzzle, *, grids: bool = True) -> dict:
        """docs/json-contract.md ``solve --json``, the solutions drawn on ``puzzle``'s grid;
        ``grids`` False leaves ``solutions`` empty (``solution_count`` still counts them),
        for a writer that streams the grids one at a time."""
        obj: dict = {
            "rows": puzzle.rows,
            "cols": puzzle.cols,
            # the contract knows no "undecided": it is "none" with complete false, timed_out
            "status": "none" if self.status == UNDECIDED else str(self.status),
            "complete": self.complete,
            "solution_count": len(self.solutions),
            "solutions": [solution_grid(puzzle, s) for s in self.solutions] if grids else [],
        }
        if self.reason:
            obj["reason"] = self.reason
        if self.timed_out:
            obj["timed_out"] = True
        return obj



class SolutionStream:
    """Solutions one at a time (digit lists by white-cell index); after the iteration ends,
    ``status``, ``complete``, ``timed_out``, ``reason``, ``count`` and ``nodes`` tell how
    it went. Memory stays bounded however many solutions stream out."""

    def __init__(self, puzzle: Puzzle, cap: int, start: list[int], limits: Limits):
        self.puzzle = puzzle
        self.cap = cap
        self.start = start
        self.st = SearchStats(limits)
        self.status: SolveStatus = NONE
        self.complete = True
        self.timed_out = False
        self.reason: str | None = None
        self.count = 0
        self.stats: dict = {}

    @property
    def nodes(self) -> int:
        return self.st.nodes

    @property
    def work(self) -> int:
        """Units of work spent so far (see :func:`solve`)."""
        return self.st.spent

    def _out_of_time(self) -> None:
        self.timed_out = True
        self.complete = False
        if self.count == 0:
            self.status = UNDECIDED  # not NONE: nothing shows there is no solution
            self.reason = ("work limit reached before a solution was found"
                           if self.st.out_of_work
                           else "time limit reached before a solution was found")

    def __iter__(self) -> Iterator[list[int]]:
        layout = Layout.of(self.puzzle)
        if not self._propagate(layout):
            return
        masks = self.start
        islands = open_islands(layout.run_cells, layout.cell_runs, masks)
        self.stats["islands"] = len(islands)
        gens: list[Solutions] = []
        try:
            gens = [island_solutions(layout, masks, cells, self.st) for cells in islands]
            lists = self._firsts(gens, islands)
            if lists is None:
                return
            # the biggest island streams; the others are held (they are small or few)
            s = max(range(len(islands)), key=lambda k: len(islands[k])) if islands else -1
            done = self._hold(gens, lists, s)
            yield from self._combine(islands, gens, lists, done, s)
        except Timeout:
            self._out_of_time()
        finally:
            for g in gens:
                g.close()
            self._record()

    def _propagate(self, layout: Layout) -> bool:
        """Propagate from the start; False when that ends the stream (no solution, or the
        time limit)."""
        try:
            propagate(layout, self.start, range(len(layout.run_cells)), limits=self.st.limits)
        except Contradiction as c:
            self.reason = _no_room(self.puzzle, self.puzzle.runs[c.run], self.start)
            return False
        except Timeout:
            self._out_of_time()
            return False
        return True

    def _firsts(self, gens: list[Solutions], islands: list[tuple[int, ...]]
                ) -> list[list[tuple[int, ...]]] | None:
        """Each island's first solution, a list each; None when one has none."""
        lists: list[list[tuple[int, ...]]] = []
        for k, g in enumerate(gens):  # every island needs one solution first
            first = next(g, None)
            if first is None:
                self.reason = ("every branch of the search ends in a contradiction "
                               f"(around {cell_name(self.puzzle.whites[islands[k][0]])})")
                return None
            lists.append([first])
        return lists

    def _hold(self, gens: list[Solutions], lists: list[list[tuple[int, ...]]], s: int
              ) -> list[bool]:
        """Gather the solutions of every island but the streaming one ``s``, as many as the
        cap needs; which islands are exhausted."""
        done = [False] * len(gens)
        # the product of the lists' lengths, kept as they grow: recomputed for every
        # island it cost 40 s on 6600 two-way islands, with no look at the clock
        total = _prod(len(x) for x in lists)
        for k in range(len(gens)):
            if k == s:
                continue
            while not done[k]:
                if past(self.st.deadline):
                    raise Timeout
                if total >= self.cap:  # len(lists[k]) times the others' product
                    break
                nxt = next(gens[k], None)
                if nxt is None:
                    done[k] = True
                else:
                    total = total // len(lists[k]) * (len(lists[k]) + 1)
                    lists[k].append(nxt)
        return done

    def _combine(self, islands: list[tuple[int, ...]], gens: list[Solutions],
                 lists: list[list[tuple[int, ...]]], done: list[bool], s: int
                 ) -> Iterator[list[int]]:
        """Every combination of the held solutions with each of the streaming island's, as
        whole grids checked before they go out, up to the cap."""
        puzzle, cap = self.puzzle, self.cap
        base = [SINGLE[m] for m in self.start]
        rest = [k for k in range(len(islands)) if k != s]
        current = lists[s][0] if s >= 0 else ()
        deadline = self.st.deadline
        while True:
            for combo in itertools.product(*(lists[k] for k in rest)):
                # combining islands costs a grid check a solution: it must look at the
                # clock too (thousands of two-way islands once ran a minute past it)
                if past(deadline):
                    raise Timeout
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

    def _record(self) -> None:
        """What the search spent, into ``stats``."""
        self.stats["nodes"] = self.st.nodes
        self.stats["oracle_conflicts"] = self.st.conflicts
        self.stats["work"] = self.st.spent
        self.stats["oracle_asks"] = self.st.asks
        self.stats["resplits"] = self.st.resplits
        self.stats["splits_given_up"] = self.st.given_up


def _prod(xs) -> int:
    p = 1
    for x in xs:
        p *= x
    return p


def iter_solutions(puzzle: Puzzle, *, max_solutions: int = 2, masks: list[int] | None = None,
                   limits: Limits = NO_LIMITS) -> SolutionStream:
    """A :class:`SolutionStream` of up to ``max_solutions`` solutions (see :func:`solve`)."""
    cap = max(1, max_solutions)
    start = masks[:] if masks is not None else puzzle.initial_masks(with_entries=True)
    return SolutionStream(puzzle, cap, start, limits)


def solve(puzzle: Puzzle, *, max_solutions: int = 2, masks: list[int] | None = None,
          limits: Limits = NO_LIMITS) -> SolveResult:
    """Find solutions up to ``max_solutions``; prove uniqueness when the cap allows (>= 2).

    The player's entries count as givens (the bare puzzle is ``puzzle.without_progress()``).

    ``complete`` is True when the search space was exhausted: the solutions are all there
    are. Reaching the cap stops the search (nothing looks for one more), so ``complete`` is
    then False unless every island was already exhausted. ``masks`` may give starting
    candidates (e.g. after some deductions); they must be sound for every solution, or
    solutions will be missed.

    ``limits`` (:class:`~deducer.clock.Limits`, made by the caller) stop the search early
    at their deadline or work budget, leaving the result incomplete (``timed_out``). Work
    counts units: one per search node and one per ``CONFLICTS_PER_UNIT`` conflicts of the
    oracle (:mod:`.island`). Unlike seconds it does not depend on
    the machine or its load, so a caller that must give the same answer everywhere (the
    generator, whose puzzles a seed fixes) limits work, not time.
    """
    stream = iter_solutions(puzzle, max_solutions=max_solutions, masks=masks, limits=limits)
    solutions = list(stream)
    return SolveResult(stream.status, solutions, stream.complete, nodes=stream.nodes,
                       reason=stream.reason, timed_out=stream.timed_out, work=stream.work,
                       stats=stream.stats)


#: how long :func:`entries_to_blame` looks by default
BLAME_SECONDS = 30
ENTRY_BLAME = "; the puzzle itself has a solution, so an entry is wrong (see 'deducer check')"


def entries_to_blame(puzzle: Puzzle, limits: Limits | None = None) -> bool:
    """With the player's entries there is no solution: is the bare puzzle solvable? (None:
    ``BLAME_SECONDS`` from now.)"""
    if limits is None:
        limits = Limits.within(BLAME_SECONDS)
    return bool(puzzle.entries) and bool(
        solve(puzzle.without_progress(), max_solutions=1, limits=limits).solutions)


def _no_room(puzzle: Puzzle, run, masks: list[int]) -> str:
    """Say which run or cell has no possibility left."""
    for i in run.cells:
        if masks[i] == 0:
            return f"cell {cell_name(puzzle.whites[i])} has no digit left"
    total = "no clue" if run.total is None else f"total {run.total}"
    return f"run {run.name} ({total}) has no combination of digits that fits its cells"

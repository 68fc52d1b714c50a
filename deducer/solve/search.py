"""Complete solving: propagation plus MRV backtracking, solution enumeration with a cap.

Connected components of the run/cell graph are solved independently and their solutions
combined, so a puzzle made of separate islands costs the sum, not the product.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field

from ..puzzle.combos import DIGITS, POP
from ..puzzle.model import Puzzle, cell_name, check_solution
from .propagate import Contradiction, Layout, propagate

UNIQUE, MULTIPLE, NONE = "unique", "multiple", "none"
#: the most solutions one call may keep: each is a whole grid, so the cap bounds memory
MAX_SOLUTIONS_CAP = 100_000


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


def _search(layout: Layout, masks: list[int], cells: tuple[int, ...], cap: int,
            out: list[list[int]], deadline: float | None, counter: list[int]) -> bool:
    """Depth-first MRV search over ``cells``; appends full mask lists. True if exhausted."""
    best = -1
    best_pop = 10
    for i in cells:
        p = POP[masks[i]]
        if 1 < p < best_pop:
            best, best_pop = i, p
            if p == 2:
                break
    if best < 0:
        out.append(masks)
        return len(out) < cap
    for d in DIGITS[masks[best]]:
        counter[0] += 1
        if deadline is not None and counter[0] & 255 == 0 and time.perf_counter() > deadline:
            raise Timeout
        trial = masks.copy()
        trial[best] = 1 << (d - 1)
        try:
            propagate(layout, trial, layout.cell_runs[best])
        except Contradiction:
            continue
        if not _search(layout, trial, cells, cap, out, deadline, counter):
            return False
    return True


def solve(puzzle: Puzzle, *, max_solutions: int = 2, use_entries: bool = True,
          timeout: float | None = None, masks: list[int] | None = None) -> SolveResult:
    """Find solutions up to ``max_solutions``; prove uniqueness when the cap allows (>= 2).

    ``masks`` may give starting candidates (e.g. after some deductions); they must be
    sound for every solution, or solutions will be missed.
    """
    from .graph import components

    cap = max(1, max_solutions)
    # look for one solution past the cap: finding it is what tells "exactly cap" from "more"
    probe = cap + 1
    deadline = None if timeout is None else time.perf_counter() + timeout
    layout = Layout.of(puzzle)
    start = masks[:] if masks is not None else puzzle.initial_masks(with_entries=use_entries)
    try:
        propagate(layout, start, range(len(layout.run_cells)))
    except Contradiction as c:
        run = puzzle.runs[c.run]
        return SolveResult(NONE, [], True, reason=_no_room(puzzle, run, start))
    comps = components(puzzle)
    counter = [0]
    per_comp: list[list[list[int]]] = []
    exhausted = True
    timed_out = False
    for cells in comps:
        found: list[list[int]] = []
        try:
            done = _search(layout, start, cells, probe, found, deadline, counter)
        except Timeout:
            done, timed_out = False, True
        exhausted &= done
        if not found:
            if timed_out:
                break
            return SolveResult(NONE, [], True, nodes=counter[0],
                               reason="every branch of the search ends in a contradiction "
                                      f"(around {cell_name(puzzle.whites[cells[0]])})")
        per_comp.append([[DIGITS[m][0] for m in f] for f in found])
        if timed_out:
            break
    if len(per_comp) < len(comps):  # the clock stopped us before every island had a solution
        return SolveResult(NONE, [], False, nodes=counter[0], timed_out=True,
                           reason="time limit reached before a solution was found")
    solutions: list[list[int]] = []
    for combo in itertools.product(*per_comp):
        values = [0] * len(puzzle.whites)
        for cells, sol in zip(comps, combo, strict=True):
            for i in cells:
                values[i] = sol[i]
        solutions.append(values)
        if len(solutions) >= cap:
            break
    total_known = 1
    for p in per_comp:
        total_known *= len(p)
    complete = exhausted and not timed_out and total_known <= cap
    for values in solutions:  # final independent check: never show a wrong solution as right
        bad = check_solution(puzzle, values)
        if bad is not None:
            raise AssertionError(f"solver produced an invalid solution: {bad}")
    # status counts what was found; `complete` says whether that count is proven exact
    status = UNIQUE if len(solutions) == 1 else MULTIPLE
    return SolveResult(status, solutions, complete, nodes=counter[0], timed_out=timed_out)


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

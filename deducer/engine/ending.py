"""How a walk ended, and why: the message of each ending (solved, several solutions, none,
stalled, out of time), and the step to blame when the rules broke a puzzle that has a
solution (a faulty user rule, named with its file, instead of "no solution").
"""

from __future__ import annotations

from ..clock import Limits, stop_asked
from ..errors import RuleError
from ..puzzle.combos import BIT, SINGLE
from ..puzzle.model import Puzzle, cell_name, check_solution
from ..solver.search import ENTRY_BLAME, entries_to_blame, solve
from ..solver.status import ExplainStatus, SolveStatus
from .record import Explanation, Step
from .registry import Rule
from .sentences import differences
from .state import State

SOLVED, MULTIPLE, NONE, STALLED, TIMEOUT, OVER = ExplainStatus


def ending(puzzle: Puzzle, status: ExplainStatus, steps: list[Step], state: State,
           rules: list[Rule], limits: Limits, max_steps: int | None
           ) -> tuple[ExplainStatus, str, list[list[int]]]:
    """(status, message, a few solutions) of a walk that ended with ``status`` on
    ``state``: a grid filled wrongly blamed on the player's entries or on a rule, a stall
    told apart from several solutions or none."""
    masks = state.masks
    message = ""
    sols: list[list[int]] = []
    if status == SOLVED:
        values = [SINGLE[m] for m in masks]
        bad = check_solution(puzzle, values)
        if bad is not None and entries_to_blame(puzzle, limits.at_least(0.05).with_work(None)):
            # the player's entries filled a run wrongly (a mistake, not a faulty rule)
            status, message = NONE, f"{bad}{ENTRY_BLAME}"
        elif bad is not None:  # a faulty user rule must never pass a wrong grid off as right
            raise RuleError(f"the rules reached a grid that breaks the puzzle ({bad}); one of "
                            "the active rules made a false deduction (try 'deducer rules test')")
    elif status == NONE:
        blame_false_step(puzzle, steps, rules)
        kind, where = state.broken() or ("", 0)  # NONE: something is broken
        if kind == "cell":
            message = f"cell {cell_name(puzzle.whites[where])} has no digit left"
        else:
            message = f"run {puzzle.runs[where].name} has no combination left"
        if entries_to_blame(puzzle):
            message += ENTRY_BLAME
    elif status == TIMEOUT:
        message = ("interrupted (Ctrl-C): the walkthrough so far" if stop_asked()
                   else "the time limit stopped the walkthrough")
    elif status == STALLED:
        # why did the rules stop? Several solutions, none, or only a weaker ladder
        res = solve(puzzle, max_solutions=2, masks=masks,
                    limits=limits.at_least(0.5).with_work(None))
        stopped = max_steps is not None and len(steps) >= max_steps
        if res.status == SolveStatus.NONE:
            # the grid reached has no solution: if the puzzle has one, a step was false,
            # and that is said as when the walk breaks the grid (--max-steps or not)
            blame_false_step(puzzle, steps, rules)
            status, message = NONE, str(res.reason)
        elif len(res.solutions) > 1:
            status, sols = MULTIPLE, res.solutions
            message = several_message(puzzle, sols)
        elif stopped:
            message = f"stopped after {len(steps)} steps (the most steps asked for)"
        else:
            message = "the active rules found no further deduction"
    return status, message, sols


def several_message(puzzle: Puzzle, sols: list[list[int]]) -> str:
    diff = differences(puzzle, sols)
    return (f"the puzzle has more than one solution; two of them differ at "
            f"{len(diff)} cells: {', '.join(diff[:12])}" + (" …" if len(diff) > 12 else ""))


def several_solutions(puzzle: Puzzle, limits: Limits) -> Explanation | None:
    """The walkthrough of a puzzle the solver finds two solutions for, before any step.

    A walk over such a puzzle only stalls somewhere (on a large grid after tens of seconds
    and hundreds of megabytes of steps, where the solver takes one second), and its steps
    lead to no solution: say so at once. Anything else (one solution, none, or a solver the
    time limit stopped) is left to the walk, which reports it with its reasons.
    """

    res = solve(puzzle, max_solutions=2, limits=limits)
    if len(res.solutions) < 2:
        return None
    return Explanation(puzzle, MULTIPLE, [], puzzle.initial_masks(with_entries=True),
                       several_message(puzzle, res.solutions), res.solutions)


def _false_step(puzzle: Puzzle, steps: list[Step]) -> Step | None:
    """The first step after which the puzzle, which has a solution, has none (None: no
    step is to blame)."""

    masks = puzzle.initial_masks(with_entries=True)
    index = puzzle.index
    for step in steps:
        for r, c, d in step.placements:
            masks[index[(r, c)]] = BIT[d]
        for r, c, ds in step.eliminations:
            for d in ds:
                masks[index[(r, c)]] &= ~BIT[d]
        if not solve(puzzle, max_solutions=1, masks=masks, limits=Limits.within(30)).solutions:
            return step
    return None


def blame_false_step(puzzle: Puzzle, steps: list[Step], rules: list[Rule], *,
                      last_resort: bool = True) -> None:
    """The rules ran the grid into a contradiction. If the puzzle has a solution after
    all, some step was false: name the first one (and its rule's file) instead of
    reporting a solvable puzzle as unsolvable. Without ``last_resort``, return when no
    logged step is to blame (the caller blames the step being made)."""

    res = solve(puzzle, max_solutions=1, limits=Limits.within(30))
    if not res.solutions:
        return  # a real contradiction: the puzzle has no solution
    step = _false_step(puzzle, steps)
    if step is not None:
        source = next((r.source for r in rules if r.id == step.rule), None)
        raise RuleError(f"rule {step.rule!r} made a false deduction at step {step.n} "
                        f"({step.text}); the puzzle has a solution it rules out",
                        path=source)
    if not last_resort:
        return
    raise RuleError("the rules reported a contradiction, yet the puzzle has a solution; one "
                    "of the active rules is faulty (try 'deducer rules test')")

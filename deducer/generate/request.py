"""What to generate: the :class:`Request`, its checks, and the black share a layout gets.

Kept apart from the attempt loop (:mod:`.core`) and the level steering (:mod:`.level`),
which both read it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..errors import DeducerError
from ..explain.rating import LEVEL_MAX_WEIGHT, LEVELS
from ..explain.sentences import a_or_an
from .layout import SYMMETRIES

MIN_SIDE, MAX_SIDE = 6, 60
#: the cheapest step scores 4 points and every white cell needs at least one step of its
#: own, so a grid with more than limit/4 white cells always passes the effort limit of a
#: level (and is rated a level higher): that level is out of its reach.
MIN_STEP_SCORE = 4


class GenerateError(DeducerError):
    """A request no puzzle can meet (bad size, unreachable level, unknown rule)."""


@dataclass(frozen=True)
class Request:
    """What to generate. ``level`` None: any level (an unconstrained run)."""

    rows: int
    cols: int
    level: str | None = None
    seed: int = 0
    symmetry: str = "rot180"
    #: share of black squares inside the grid; None: :func:`default_density`
    density: float | None = None
    needs: str | None = None  # a rule id the walkthrough must use
    max_chain: int | None = None  # longest chain allowed, where the rating measures chains
    timeout: float | None = None  # seconds per puzzle
    deadline_at: float | None = None  # wall clock (time.time()) for a whole batch




def parse_size(text: str) -> tuple[int, int]:
    """``12x12`` or ``12`` -> (rows, cols), the clue row and column included."""
    parts = text.lower().replace("×", "x").split("x")
    try:
        nums = [int(p) for p in parts]
    except ValueError:
        raise GenerateError(f"size {text!r}: expected ROWSxCOLS, e.g. 12x12") from None
    if len(nums) == 1:
        nums *= 2
    if len(nums) != 2:
        raise GenerateError(f"size {text!r}: expected ROWSxCOLS, e.g. 12x12")
    return nums[0], nums[1]



def make_request(size: str | tuple[int, int] = "12x12", level: str | None = None, *,
                 seed: int = 0, symmetry: str = "rot180", density: float | None = None,
                 needs: str | None = None, max_chain: int | None = None,
                 timeout: float | None = None) -> Request:
    """A :class:`Request` from a caller's words: ``size`` as ``"12x12"`` or (rows, cols),
    the level by name in any case; ``timeout`` is the whole batch's, counted from now.
    (Not yet checked: see :func:`check_request`.)"""
    rows, cols = parse_size(size) if isinstance(size, str) else size
    return Request(rows, cols, level_name(level), seed, symmetry, density, needs, max_chain,
                   timeout, None if timeout is None else time.time() + timeout)

def level_name(text: str | None) -> str | None:
    if text is None:
        return None
    for name in LEVELS:
        if name.lower() == text.lower():
            return name
    raise GenerateError(f"unknown level {text!r}; levels: {', '.join(LEVELS)}")


#: janko's median share of black squares inside the grid, and about the densest share
#: the layout rules allow (measured: 0.31 at 12x12, 0.36 at 16x16, 0.33 at 30x30; no
#: one-cell runs, no 2x2 black block and no cut cell keep it low)
DENSITY, DENSEST = 0.27, 0.36
#: effort points a white cell costs a walkthrough of the level in practice (generated
#: puzzles: 6.5-6.9 for Easy at 12x12, 9.0 for Medium and Hard at 30x30). A walkthrough
#: over its level's effort limit is rated a level up, so these decide how many white
#: cells a puzzle of the level can have.
POINTS_PER_CELL = {"Easy": 6.5, "Medium": 9.0, "Hard": 9.5, "Expert": 11.0}
#: white cells are budgeted with this margin over the points a cell costs
MARGIN = 1.15


#: Extreme on a small grid: drafts there rarely need trial at janko's black share, and
#: fewer black squares (longer runs, more combinations each) make them several times more
#: common (12x12: median 17 s a puzzle at 0.27, 7 s at 0.18; 8x8: 12 s, 7 s). Large grids
#: need trial often anyway, and their wide-open drafts take longer to make unique (16x16:
#: 5.3 s at 0.27, 9.5 s at 0.18; 22x22: 7 s, 27 s), so they keep janko's share.
SPARSE, SMALL_WHITES = 0.18, 130


def default_density(rows: int, cols: int, level: str | None) -> float:
    """Black share when none is asked for: janko's median, except where the level's
    effort limit needs fewer white cells (Easy above 14x14, Medium above about 18x18,
    Hard above about 24x24): a walkthrough that long counts as the next level whatever
    its steps, so the grid gets more black squares, up to the densest share. Extreme
    on small grids gets fewer black squares (:data:`SPARSE`)."""
    inner = (rows - 1) * (cols - 1)
    if level == "Extreme" and inner * (1 - DENSITY) < SMALL_WHITES:
        return SPARSE
    if level not in POINTS_PER_CELL:
        return DENSITY
    return round(min(DENSEST, max(DENSITY, 1 - _afforded(level) / inner)), 3)


def white_budget(req: Request) -> int | None:
    """The most white cells a walkthrough of the level affords in practice (None: no
    bound, or the black share was asked for explicitly)."""
    if req.density is not None or req.level not in POINTS_PER_CELL:
        return None
    return int(_afforded(req.level))


def _afforded(level: str) -> float:
    """White cells a walkthrough of ``level`` can cover within its effort limit, with the
    margin."""
    from ..explain.rating import EFFORT_BUMP

    return EFFORT_BUMP[level] / (POINTS_PER_CELL[level] * MARGIN)


def density_of(req: Request) -> float:
    return req.density if req.density is not None else default_density(req.rows, req.cols,
                                                                        req.level)


def check_request(req: Request, rules=None) -> None:
    """Raise :class:`GenerateError` for a request no puzzle can meet."""
    for side, what in ((req.rows, "rows"), (req.cols, "columns")):
        if not MIN_SIDE <= side <= MAX_SIDE:
            raise GenerateError(
                f"size {req.rows}x{req.cols}: {what} must be {MIN_SIDE} to {MAX_SIDE} (the "
                f"size counts the clue row and column; {MIN_SIDE}x{MIN_SIDE} is the smallest "
                "grid with room for runs of 2 to 9 cells and symmetric black squares)")
    if req.symmetry not in SYMMETRIES:
        raise GenerateError(f"unknown symmetry {req.symmetry!r}; one of {', '.join(SYMMETRIES)}")
    if req.density is not None and not 0.0 <= req.density <= 0.6:
        raise GenerateError(f"density {req.density}: the share of black squares must be "
                            "0 to 0.6")
    if req.timeout is not None and not req.timeout > 0:
        raise GenerateError("the timeout must be a positive number of seconds")
    if req.max_chain is not None and req.max_chain < 0:
        raise GenerateError("the longest chain allowed (max_chain) must be 0 or more")
    if req.level is not None:
        from ..explain.rating import EFFORT_BUMP

        limit = EFFORT_BUMP.get(req.level)
        fewest = least_whites(req)
        if not reachable(req, req.level):
            assert limit is not None  # a level without an effort limit is always reachable
            reach = next(name for name in LEVELS[LEVELS.index(req.level) + 1:]
                         if reachable(req, name))
            if fewest * MIN_STEP_SCORE > limit:
                raise GenerateError(
                    f"no {req.rows}x{req.cols} puzzle can be rated {req.level}: it has at "
                    f"least {fewest} white cells, each needs a step of at least "
                    f"{MIN_STEP_SCORE} effort points, and a walkthrough over {limit} points "
                    f"is rated a level up; the easiest level this size reaches is {reach} "
                    "(or ask a smaller size)")
            raise GenerateError(
                f"{a_or_an(f'{req.rows}x{req.cols}')} puzzle rated {req.level} is out of "
                "reach in "
                f"practice: even the densest layout has about {fewest} white cells, a "
                f"walkthrough costs about {POINTS_PER_CELL[req.level]:g} effort points a "
                f"cell, and one over {limit} points is rated a level up; the easiest level "
                f"this size reaches is {reach} (or ask a smaller size; an explicit density "
                "tries anyway)")
    if req.needs is not None:
        if rules is None:
            from ..explain import registry

            rules = registry.load()
        rule = next((r for r in rules if r.id == req.needs), None)
        if rule is None:
            raise GenerateError(f"needs {req.needs!r}: no such rule in the ladder (see "
                                "'deducer rules')")
        if req.level is not None:
            cap = dict(LEVEL_MAX_WEIGHT).get(req.level)
            if cap is not None and rule.weight > cap + 1e-9:
                raise GenerateError(f"needs {req.needs} (weight {rule.weight:g}) is harder "
                                    f"than any step {a_or_an(req.level)} puzzle may use (up to "
                                    f"{cap:g})")


def reachable(req: Request, level: str) -> bool:
    """Can a puzzle of the request's size (and black share, if asked) be rated ``level``
    without its walkthrough's length lifting it a level up? In practice (the points a
    cell costs at that level) unless the black share was asked for; then in principle
    (the cheapest step)."""
    from ..explain.rating import EFFORT_BUMP

    cap = EFFORT_BUMP.get(level)
    per = MIN_STEP_SCORE if req.density is not None else POINTS_PER_CELL.get(level, 0)
    return cap is None or least_whites(req) * max(per, MIN_STEP_SCORE) <= cap


def least_whites(req: Request) -> int:
    """About the fewest white cells a layout of this size has (at the densest share the
    layout rules allow, or the share asked for if denser)."""
    inner = (req.rows - 1) * (req.cols - 1)
    return int(inner * (1 - max(density_of(req), DENSEST)))

"""What to generate: the :class:`Request`, its checks, and the black share a layout gets.

Kept apart from the attempt loop (:mod:`.core`) and the level steering (:mod:`.level`),
which both read it.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ..engine import registry
from ..engine.rating import LEVELS, level_cap
from ..engine.sentences import a_or_an
from ..errors import DeducerError
from .layout import SYMMETRIES
from .reach import level_weights, unreachable, white_cells

MIN_SIDE, MAX_SIDE = 6, 60


class GenerateError(DeducerError):
    """A request no puzzle can meet (bad size, unknown level, unknown rule)."""


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
    #: (low, high) the rating's score must fall in (either end None: open)
    score: tuple[float | None, float | None] | None = None


def parse_size(text: str) -> tuple[int, int]:
    """``12x12`` or ``12`` -> (rows, cols), the clue row and column included."""
    parts = [p.strip() for p in text.lower().replace("×", "x").split("x")]
    # ASCII digits only (int() also reads '٣' and '1_2'), and few: a side is at most 200
    if not all(p.isascii() and p.isdigit() and len(p) <= 6 for p in parts):
        raise GenerateError(f"size {text!r}: expected ROWSxCOLS, e.g. 12x12")
    nums = [int(p) for p in parts]
    if len(nums) == 1:
        nums *= 2
    if len(nums) != 2:
        raise GenerateError(f"size {text!r}: expected ROWSxCOLS, e.g. 12x12")
    return nums[0], nums[1]



def make_request(size: str | tuple[int, int] = "12x12", level: str | None = None, *,
                 seed: int = 0, symmetry: str = "rot180", density: float | None = None,
                 needs: str | None = None, max_chain: int | None = None,
                 timeout: float | None = None,
                 score: tuple[float | None, float | None] | None = None) -> Request:
    """A :class:`Request` from a caller's words: ``size`` as ``"12x12"`` or (rows, cols),
    the level by name in any case; ``timeout`` is the whole batch's, counted from now.
    (Not yet checked: see :func:`check_request`.)"""
    rows, cols = parse_size(size) if isinstance(size, str) else size
    return Request(rows, cols, level_name(level), seed, symmetry, density, needs, max_chain,
                   timeout, None if timeout is None else time.time() + timeout, score)


def parse_score(text: str | None) -> tuple[float | None, float | None] | None:
    """``3-6``, ``5-`` or ``-4`` (or one number: at least it) -> (low, high)."""
    if text is None:
        return None
    lo, sep, hi = text.strip().partition("-")
    if not all(c in "0123456789. " for c in lo + hi):  # float() reads '٣', 'nan', 'inf'
        raise GenerateError(f"score {text!r}: expected LOW-HIGH, e.g. 3-6, 5- or -4")
    try:
        low = float(lo) if lo.strip() else None
        high = float(hi) if hi.strip() else None
        if not sep:
            high = None
    except ValueError:
        raise GenerateError(f"score {text!r}: expected LOW-HIGH, e.g. 3-6, 5- or -4"
                            ) from None
    if low is None and high is None:
        raise GenerateError(f"score {text!r}: give a low end, a high end or both")
    return low, high

def level_name(text: str | None) -> str | None:
    if text is None:
        return None
    for name in LEVELS:
        if name.lower() == text.lower():
            return name
    raise GenerateError(f"unknown level {text!r}; levels: {', '.join(LEVELS)}")


#: janko's median share of black squares inside the grid
DENSITY = 0.27
#: Extreme on a small grid: drafts there rarely need trial at janko's black share, and
#: fewer black squares (longer runs, more combinations each) make them several times more
#: common (12x12: median 17 s a puzzle at 0.27, 7 s at 0.18; 8x8: 12 s, 7 s). Large grids
#: need trial often anyway, and their wide-open drafts take longer to make unique (16x16:
#: 5.3 s at 0.27, 9.5 s at 0.18; 22x22: 7 s, 27 s), so they keep janko's share.
SPARSE, SMALL_WHITES = 0.18, 130
#: the level mix of an unconstrained run: that of the published, labelled puzzles rated
#: in reports/ratings.md (Easy 72%, Medium 26%, Expert 2%), so a run without a level
#: gives what a published collection holds, not whatever drafts happen to rate
DEFAULT_MIX = (("Easy", 72), ("Medium", 26), ("Hard", 0), ("Expert", 2))


def default_density(rows: int, cols: int, level: str | None) -> float:
    """Black share when none is asked for: janko's median, except Extreme on small grids,
    which gets fewer black squares (:data:`SPARSE`)."""
    inner = (rows - 1) * (cols - 1)
    if level == "Extreme" and inner * (1 - DENSITY) < SMALL_WHITES:
        return SPARSE
    return DENSITY


def mixed_level(req: Request, rng: random.Random) -> str | None:
    """The level an unconstrained request's puzzle is made at (:data:`DEFAULT_MIX`, drawn
    from the puzzle's own stream; with a score range, the mix weighted by each level's
    chance of reaching it: :func:`.reach.level_weights`); a request with a level or
    ``needs`` keeps its own."""
    if req.level is not None or req.needs is not None:
        return req.level
    mix: list[tuple[str, float]] = list(DEFAULT_MIX)
    if req.score is not None:
        mix = level_weights(white_cells(req.rows, req.cols, density_of(req)), req.score,
                            DEFAULT_MIX)
    total = sum(w for _, w in mix)
    x = rng.random() * total
    for name, w in mix:
        x -= w
        if x < 0:
            return name
    return next(name for name, w in reversed(mix) if w > 0)


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
    if req.score is not None:
        lo, hi = req.score
        if lo is not None and hi is not None and lo > hi:
            raise GenerateError(f"score {lo:g}-{hi:g}: the low end is above the high end")
        # a range no level comes near at this size: said at once
        why = unreachable(req.rows, req.cols, req.level,
                          white_cells(req.rows, req.cols, density_of(req)), req.score)
        if why is not None:
            raise GenerateError(why)
    if req.needs is not None:
        if rules is None:
            rules = registry.load()
        rule = next((r for r in rules if r.id == req.needs), None)
        if rule is None:
            raise GenerateError(f"needs {req.needs!r}: no such rule in the ladder (see "
                                "'deducer rules'; a rule of your own file: --rules FILE)")
        if not rule.walk:
            raise GenerateError(f"needs {req.needs}: its steps are chain links only (walk: "
                                "false), never a walkthrough's own step; ask for a chain "
                                "rule (forcing-chain)")
        if req.level is not None:
            cap = level_cap(req.level, rules)
            if cap is not None and rule.weight > cap + 1e-9:
                raise GenerateError(f"needs {req.needs} (weight {rule.weight:g}) is harder "
                                    f"than any step {a_or_an(req.level)} puzzle may use (up to "
                                    f"{cap:g})")

"""``generate_one(request, index)``: one new puzzle, unique, at an exact level.

Pure and picklable: the result depends only on the request and the index (each puzzle has
its own random stream, seeded from ``(seed, index)``), so a batch gives the same puzzles
whatever the number of worker processes. The steps: a layout (:mod:`.layout`), a fill
(:mod:`.draft`), local repairs until the solution is unique (:mod:`.unique`), then the
walkthrough's rating, nudged towards the requested level (:mod:`.level`).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field, replace

from ..clock import NO_LIMITS, Limits
from ..engine import registry
from ..engine.rating import Rating
from ..engine.walk import SOLVED
from ..puzzle.formats import dumps
from ..puzzle.model import Grade, Puzzle
from .draft import Draft, fill
from .layout import make_layout
from .level import Target, _unique, ease, exact_rating, fits, rate_lean, steer
from .request import (  # noqa: F401  (re-exported: callers import them from here)
    DEFAULT_MIX,
    GenerateError,
    Request,
    check_request,
    density_of,
    level_name,
    mixed_level,
    parse_score,
    parse_size,
)
from .score import steer_score
from .unique import make_unique


@dataclass
class Found:
    """What one search for a puzzle found: the puzzle, its solution and rating."""

    puzzle: Puzzle | None = None
    solution: list[int] | None = None
    rating: Rating | None = None
    attempts: int = 0
    message: str = ""
    stats: dict = field(default_factory=dict)


@dataclass
class Result:
    """One generated puzzle (``puzzle`` None when the time ran out first)."""

    index: int
    seed: str
    puzzle: Puzzle | None
    solution: list[int] | None = None
    rating: Rating | None = None
    attempts: int = 0
    seconds: float = 0.0
    message: str = ""
    stats: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        out: dict = {"index": self.index, "seed": self.seed, "attempts": self.attempts,
                     "seconds": round(self.seconds, 3)}
        if self.puzzle is None:
            out["error"] = self.message
            return out
        out["puzzle"] = dumps(self.puzzle, "pipe")
        out["rows"], out["cols"] = self.puzzle.rows, self.puzzle.cols
        out["rating"] = None if self.rating is None else self.rating.to_json()
        out["solution"] = self.solution
        return out


def stream(seed: int, index: int) -> tuple[str, random.Random]:
    """The puzzle's own seed string and random stream: depends on (seed, index) only."""
    key = f"{seed}:{index}"
    return key, random.Random(key)


def generate_one(req: Request, index: int = 0, rules=None, progress=None) -> Result:
    """Puzzle number ``index`` of the request (see the module docstring). ``progress``,
    if given, is called now and then with a :class:`Progress` (how the search goes)."""
    key, rng = stream(req.seed, index)
    start = time.perf_counter()
    deadline = None if req.timeout is None else start + req.timeout
    if req.deadline_at is not None:  # wall clock: shared by every worker process
        left = start + (req.deadline_at - time.time())
        deadline = left if deadline is None else min(deadline, left)
    level = mixed_level(req, rng)
    if level != req.level:
        req = replace(req, level=level)
    found = find(req, rng, Limits(deadline), rules, progress)
    res = Result(index, key, None, attempts=found.attempts,
                 seconds=time.perf_counter() - start, stats=found.stats)
    if found.puzzle is None:
        res.message = found.message or "the time limit stopped the search"
        return res
    res.puzzle, res.solution, res.rating = found.puzzle, found.solution, found.rating
    rating = found.rating
    if rating is not None and rating.level is not None and rating.score is not None:
        # the puzzle carries its grade: every file written of it says it (a publisher
        # need not rate it again)
        res.puzzle = found.puzzle.graded(Grade(rating.level, rating.score, rating.version))
    return res


def _count(out: Found, why: str) -> None:
    """Why attempts were given up, kept in ``Result.stats`` (where a slow request's time
    went)."""
    failed = out.stats.setdefault("failed", {})
    failed[why] = failed.get(why, 0) + 1


@dataclass
class Progress:
    """How a puzzle's search goes: attempts so far (layouts tried), its level, and the
    lowest and highest exact scores its drafts got (None before the first)."""

    attempts: int
    level: str | None
    low: float | None = None
    high: float | None = None


def find(req, rng: random.Random, limits: Limits, rules=None, progress=None) -> Found:
    """Attempts (layout, fill, repair, rate, steer) until one fits or the time runs out."""

    if rules is None:
        rules = registry.load()
    seen = Progress(0, req.level)

    target = Target(rules, req.level)
    density = density_of(req)
    out = Found()
    # easier levels get fills whose clues allow few combinations (see Draft.sweeten)
    sweet = {"Easy": 30, "Medium": 8, "Hard": 2}.get(req.level, 0)
    deadline = limits.deadline
    while deadline is None or time.perf_counter() < deadline:
        out.attempts += 1
        if progress is not None:
            seen.attempts = out.attempts
            progress(seen)
        white = make_layout(rng, req.rows, req.cols, req.symmetry, density)
        if white is None:
            raise GenerateError(f"no {req.rows}x{req.cols} layout with {req.symmetry} "
                                f"symmetry and black share {density:g} keeps every run "
                                "at 2 to 9 cells without a cut cell or a 2x2 black block; "
                                "try another size, symmetry or density")
        values = fill(white, rng)
        if values is None:
            _count(out, "no fill")
            continue
        first = Draft(white, values)
        first.sweeten(rng, sweet * len(first.values))
        draft = make_unique(first, rng, limits, symmetry=req.symmetry)
        if draft is None:
            _count(out, "not made unique")
            continue
        if target.cap is not None:
            exp = ease(req, draft, target, rng, limits)
            if exp is None:
                _count(out, "easing stalled")
                continue
        else:
            exp = rate_lean(draft, target, limits, target.top)
            if exp.status != SOLVED:
                _count(out, "rating stalled")
                continue
        exp = steer(req, draft, exp, target, rng, limits)
        if exp is None:
            _count(out, "steering missed the level")
            continue
        if any(s.rule in target.guesses for s in exp.steps) and not _unique(draft, NO_LIMITS):
            continue  # a guessed walkthrough proves nothing: the solver must confirm
        puzzle = draft.puzzle()
        rating = exact_rating(puzzle, rules, exp.steps, draft.values)
        if req.score is not None and rating.score is not None:
            seen.low = rating.score if seen.low is None else min(seen.low, rating.score)
            seen.high = rating.score if seen.high is None else max(seen.high, rating.score)
        if (not fits(req, rating) and fits(req, rating, exact=False)
                and target.cap is not None and req.score is not None):
            # the level is right, the score is not: steer it there (digit changes that
            # keep the level), rather than start over with a new layout
            steered = steer_score(req, draft, exp, rating, target, rng, limits, rules)
            if steered is not None:
                exp, rating = steered
                puzzle = draft.puzzle()
        if not fits(req, rating):  # the level cannot differ from the walk's; the score can
            _count(out, "score out of range" if fits(req, rating, exact=False)
                   else "full rating missed")
            continue
        out.puzzle, out.solution, out.rating = puzzle, draft.values[:], rating
        return out
    out.message = "the time limit stopped the search before a puzzle fit"
    return out

"""``--score LOW-HIGH``: which levels can reach a score range at a size, and steering a
puzzle's score into it.

The score (:mod:`deducer.engine.rating`) grows with the level's technique and with the grid
(its size, the work, how few easy moves are open). A request used to make a puzzle at a
level drawn from the published mix and drop it when the score missed, so a range the drawn
level never reaches at that size never ended (10x10, score 3-6: the second puzzle was drawn
Expert, and 10x10 Expert puzzles score about 10). Now:

- :func:`typical` says what a level's puzzles score on a grid of so many white cells,
  fitted on generated puzzles (``python benchmarks/bench_generate.py --calibrate``
  refits :data:`FIT` after the score's model changes);
- :func:`level_weights` draws a puzzle's level (when none is asked for) from the mix
  weighted by the chance of each level's score falling in the range, and
  :func:`check_reachable` refuses at once a range no level comes near at that size;
- :func:`steer_score` moves a finished draft's score towards the range with digit changes
  that keep its level: clues allowing more combinations raise the score (less to go on),
  fewer lower it.
"""

from __future__ import annotations

import math
import random
import time

from ..engine.walk import SOLVED
from .request import DEFAULT_MIX, GenerateError, density_of

#: score ~ a + b * ln(white cells) per level: least squares over 86 puzzles generated at
#: 7x7 to 16x16 (benchmarks/bench_generate.py --calibrate), residuals within about 1.2
FIT = {"Easy": (-0.25, 1.27), "Medium": (-0.93, 1.89), "Hard": (2.02, 1.63),
       "Expert": (0.89, 2.28)}
#: the spread of a level's scores around the fit (their standard deviation, about 0.6)
SPREAD = 0.6
#: the share of a published mix's puzzles that must fall in a score range for the mix to be
#: kept (below it, the levels that reach the range are drawn by their chance alone)
MIX_HITS = 0.25
#: how far from the fit a level's score goes, steered (beyond it a range is refused): the
#: scores generated fell within 1.3 of the fit, and steering moves one by a tenth or two
#: per kept change (10x10 Easy asked for 6.5 or more, 1.6 above its fit, made nothing in
#: five CPU minutes)
REACH = 1.5
#: rounds of the score steering per draft at most, and in a row without getting closer to
#: the range; digit changes it rates in full per round
SCORE_ROUNDS, SCORE_PATIENCE, SCORE_MOVES = 16, 3, 5


def white_cells(req) -> int:
    """About how many white cells a layout of the request's size has."""
    return max(1, round((req.rows - 1) * (req.cols - 1) * (1 - density_of(req))))


def typical(level: str, cells: int) -> float:
    """What a puzzle of ``level`` (Easy to Expert) on ``cells`` white cells scores, as
    fitted (the middle of its range)."""
    a, b = FIT[level]
    return a + b * math.log(max(cells, 2))


def chance(level: str, cells: int, score: tuple[float | None, float | None]) -> float:
    """The share of ``level``'s puzzles at that size whose score falls in the range (a
    normal spread around :func:`typical`)."""
    mid = typical(level, cells)

    def below(x: float | None, default: float) -> float:
        if x is None:
            return default
        return 0.5 * (1 + math.erf((x - mid) / (SPREAD * math.sqrt(2))))

    return max(0.0, below(score[1], 1.0) - below(score[0], 0.0))


def level_weights(req) -> list[tuple[str, float]]:
    """The level mix of a request with a score range and no level: the published mix times
    each level's chance of a score in the range, so a batch still looks published; where
    that mix would rarely hit the range (less than :data:`MIX_HITS` of its puzzles: the
    range wants a level the mix has little of), each level by its chance alone."""
    cells = white_cells(req)
    odds = {name: chance(name, cells, req.score) for name in FIT}
    mixed = [(name, w * odds.get(name, 0.0)) for name, w in DEFAULT_MIX]
    if sum(w for _, w in mixed) >= MIX_HITS * sum(w for _, w in DEFAULT_MIX):
        return mixed
    return list(odds.items())


def _span(score) -> str:
    lo, hi = score
    if lo is None:
        return f"at most {hi:g}"
    if hi is None:
        return f"at least {lo:g}"
    return f"{lo:g}-{hi:g}"


def check_reachable(req) -> None:
    """Refuse a score range no level the request allows comes near at its size (a
    :class:`GenerateError` saying what puzzles there score)."""
    if req.score is None or req.level in ("Extreme", "Unreasonable"):
        return
    lo, hi = req.score
    cells = white_cells(req)
    levels = [req.level] if req.level is not None else list(FIT)
    for name in levels:
        mid = typical(name, cells)
        if (lo is None or mid + REACH >= lo) and (hi is None or mid - REACH <= hi):
            return
    size = f"{req.rows}x{req.cols}"
    scores = ", ".join(f"{name} about {typical(name, cells):.1f}" for name in FIT)
    what = f"{size} {req.level} puzzles" if req.level else f"{size} puzzles"
    if len(levels) > 1:
        hint = "a larger grid scores higher, a smaller one lower"
    else:
        near = min(FIT, key=lambda name: miss(typical(name, cells), req.score))
        hint = (f"--level {near} comes nearer" if near != req.level else
                "a larger grid scores higher, a smaller one lower")
    raise GenerateError(f"--score {_span(req.score)} is out of reach for {what} (about "
                        f"{cells} white cells): puzzles there score {scores}, and steering "
                        f"moves a score by about {REACH:g} at most; {hint}")


def miss(score: float | None, rng_: tuple[float | None, float | None]) -> float:
    """How far a score is from the range (0 inside it)."""
    if score is None:
        return math.inf
    lo, hi = rng_
    if lo is not None and score < lo:
        return lo - score
    if hi is not None and score > hi:
        return score - hi
    return 0.0


def steer_score(req, draft, exp, rating, target, rng: random.Random,
                deadline: float | None, rules):
    """Digit changes that bring the draft's score into ``req.score`` at the same level:
    ``(explanation, exact rating)`` once it is in, or None (the draft keeps the changes
    that brought it closer). Only below a level cap (Easy to Expert), where a finished walk
    of the cut-down ladder proves the puzzle unique.

    Each round rates a few changes in full and keeps the one that comes closest, if it is
    closer: the score answers to how many easy moves are open and how much work the path
    is, which no estimate from the clues predicts well (the change the clues favoured
    alone got closer one time in six)."""
    from ..engine.rating import model_for
    from .level import _combos_after, _hard_cells, exact_rating, fits, walk

    gap = miss(rating.score, req.score)
    easy_cap = model_for(target.rules).levels[0][1]
    tried: set[tuple[int, int]] = set()
    idle = 0
    for _ in range(SCORE_ROUNDS):
        if gap == 0:
            return exp, rating
        if idle >= SCORE_PATIENCE or (deadline is not None and time.perf_counter() > deadline):
            return None
        idle += 1
        up = req.score[0] is not None and rating.score < req.score[0]
        # where: anywhere to raise it; to lower it, half at the steps above Easy (the work
        # a reader must think through), half anywhere
        hard = [] if up else _hard_cells(draft, exp, easy_cap)
        moves = []
        for k in range(SCORE_MOVES * 3):
            if len(moves) >= SCORE_MOVES:
                break
            i = rng.choice(hard) if hard and k % 2 else rng.randrange(len(draft.values))
            digits = [x for x in draft.free_digits(i) if (i, x) not in tried]
            if not digits:
                continue
            now = _combos_after(draft, i, draft.values[i])
            # more combinations: less for a reader to go on (a higher score); fewer: lower.
            # Every other move is a random digit: the estimate is often wrong
            if k % 3 == 2:
                d = rng.choice(digits)
            else:
                _, _, d = max(((_combos_after(draft, i, x) - now) * (1 if up else -1),
                               rng.random(), x) for x in digits)
            tried.add((i, d))
            moves.append((i, d))
        best = None
        for i, d in moves:
            old = draft.values[i]
            draft.set(i, d)
            try:
                w = walk(draft, target.ladder, target.cap, deadline)
                if w.status != SOLVED:  # unique and within the cap, or no use
                    continue
                new = w.explanation(target.rules)
                if not fits(req, new.rating, exact=False):  # the same level (and --needs)
                    continue
                exact = exact_rating(w.puzzle, rules, new.steps, draft.values)
                got = miss(exact.score, req.score)
                if got < gap and (best is None or got < best[0]):
                    best = (got, i, d, new, exact)
            finally:
                draft.set(i, old)
        if best is not None:
            gap, i, d, exp, rating = best
            draft.set(i, d)
            tried.clear()
            idle = 0
    return (exp, rating) if gap == 0 else None

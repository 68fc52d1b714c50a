"""``--score LOW-HIGH``: steering a finished draft's score into the range with digit changes
that keep its level (clues allowing more combinations raise the score: less to go on; fewer
lower it). Which levels can reach a range at a size is :mod:`.reach`'s.
"""

from __future__ import annotations

import random
import time

from ..clock import Limits
from ..engine.rating import model_for
from ..engine.walk import SOLVED
from .level import _combos_after, _hard_cells, exact_rating, fits, walk
from .reach import miss

#: rounds of the score steering per draft at most, and in a row without getting closer to
#: the range; digit changes it rates in full per round
SCORE_ROUNDS, SCORE_PATIENCE, SCORE_MOVES = 16, 3, 5


def steer_score(req, draft, exp, rating, target, rng: random.Random,
                limits: Limits, rules):
    """Digit changes that bring the draft's score into ``req.score`` at the same level:
    ``(explanation, exact rating)`` once it is in, or None (the draft keeps the changes
    that brought it closer). Only below a level cap (Easy to Expert), where a finished walk
    of the cut-down ladder proves the puzzle unique.

    Each round rates a few changes in full and keeps the one that comes closest, if it is
    closer: the score answers to how many easy moves are open and how much work the path
    is, which no estimate from the clues predicts well (the change the clues favoured
    alone got closer one time in six)."""

    deadline = limits.deadline
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
        moves: list[tuple[int, int]] = []
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
                w = walk(draft, target.ladder, target.cap, limits)
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

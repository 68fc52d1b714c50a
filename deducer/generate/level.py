"""Steer a unique draft to the requested level (Tatham's test: the walkthrough needs a step
of that level and no harder one, so the puzzle cannot be solved a level lower).

A draft that rates too hard is eased where its walkthrough first needed a step above the
level (a digit there changes so the clues through it allow fewer combinations); one that
rates too easy is hardened by digit changes that make clues allow more combinations,
kept only while the solution stays unique and the rating does not drop. Every kept
change is re-rated with the full ladder, so the level reported is the one `rate` gives.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from ..explain.engine import SOLVED, explain
from ..explain.rating import GUESS_RULES, LEVEL_MAX_WEIGHT, LEVELS
from ..puzzle.combos import combos
from ..puzzle.model import Puzzle
from .draft import Draft, fill
from .layout import make_layout
from .unique import Undecided, make_unique, open_count, other_solution

#: digit changes tried per attempt before starting over with a new layout and fill
STEER_TRIES = 40


@dataclass
class Found:
    puzzle: Puzzle | None = None
    solution: list[int] | None = None
    rating: object = None
    attempts: int = 0
    message: str = ""
    stats: dict = field(default_factory=dict)


def _rank(level: str) -> int:
    return LEVELS.index(level)


def fits(req, rating) -> bool:
    """Does a rating meet the request (level, --needs, --max-chain)?"""
    if req.level is not None and rating.level != req.level:
        return False
    if req.needs is not None and req.needs not in rating.rules:
        return False
    chain = getattr(rating, "max_chain", None)  # rated only where chains exist
    return not (req.max_chain is not None and chain is not None and chain > req.max_chain)


def _rate(draft: Draft, rules, deadline: float | None):
    left = None if deadline is None else max(0.05, deadline - time.perf_counter())
    exp = explain(draft.puzzle(), rules, timeout=left)
    return exp


def _unique(draft: Draft, deadline: float | None) -> bool:
    score, masks = open_count(draft)
    if score == 0:
        return True
    try:
        return other_solution(draft, masks, deadline, budget=20_000) is None
    except Undecided:
        return False


def _hard_cells(draft: Draft, exp, limit: float | None) -> list[int]:
    """Cells the first step above ``limit`` (or the first trial/guess) works on."""
    for step in exp.steps:
        if limit is None and step.rule not in GUESS_RULES:
            continue
        if limit is not None and step.weight <= limit + 1e-9:
            continue
        cells = {(r, c) for r, c, _ in step.placements}
        cells |= {(r, c) for r, c, _ in step.eliminations}
        out = [draft.index[rc] for rc in cells if rc in draft.index]
        if out:
            return out
    return []


def _combos_after(draft: Draft, i: int, d: int) -> int:
    """Combinations the clues through cell ``i`` allow, with ``d`` there."""
    totals = draft.totals_with(i, d)
    return sum(len(combos(totals[rid], len(draft.runs[rid]))) for rid in draft.cell_runs[i])


def _open_after(draft: Draft, i: int, d: int) -> int:
    """Digits the clues around cell ``i`` leave at the start, with ``d`` there."""
    return draft._open_at_start(i, draft.totals_with(i, d))


def _key(rating) -> tuple:
    return (_rank(rating.level), rating.max_weight, rating.score)


def steer(req, draft: Draft, exp, rng: random.Random, rules, deadline: float | None):
    """Digit changes towards the requested level; the explanation that fits, or None."""
    target = _rank(req.level) if req.level is not None else None
    for _ in range(STEER_TRIES):
        if fits(req, exp.rating) and exp.status == SOLVED:
            return exp
        if target is None or (deadline is not None and time.perf_counter() > deadline):
            return None
        rank = _rank(exp.rating.level)
        harder = rank < target or (rank == target and req.needs is not None)
        if harder:
            i = rng.randrange(len(draft.values))
            digits = draft.free_digits(i)
            if not digits:
                continue
            # the digit whose clues allow the most combinations: less for the reader to go on
            d = max(digits, key=lambda x: (_combos_after(draft, i, x), rng.random()))
        else:
            limit = dict(LEVEL_MAX_WEIGHT).get(req.level)
            where = _hard_cells(draft, exp, limit) or list(range(len(draft.values)))
            cands = [(i, d) for i in where for d in draft.free_digits(i)]
            if not cands:
                return None
            i, d = min(cands, key=lambda c: (_open_after(draft, *c), rng.random()))
        old = draft.values[i]
        draft.set(i, d)
        new = None
        if _unique(draft, deadline):
            new = _rate(draft, rules, deadline)
        ok = new is not None and new.status == SOLVED and (
            (harder and _rank(new.rating.level) <= target
             and _key(new.rating) > _key(exp.rating))
            or (not harder and _rank(new.rating.level) >= target
                and _key(new.rating) < _key(exp.rating)))
        if ok:
            exp = new
        else:
            draft.set(i, old)
    return exp if fits(req, exp.rating) and exp.status == SOLVED else None


def find(req, rng: random.Random, deadline: float | None, rules=None) -> Found:
    """Attempts (layout, fill, repair, rate, steer) until one fits or the time runs out."""
    from ..explain import registry

    if rules is None:
        rules = registry.load()
    out = Found()
    # easier levels get fills whose clues allow few combinations (see Draft.sweeten)
    sweet = {"Easy": 30, "Medium": 8, "Hard": 2}.get(req.level, 0)
    while deadline is None or time.perf_counter() < deadline:
        out.attempts += 1
        white = make_layout(rng, req.rows, req.cols, req.symmetry, req.density)
        if white is None:
            from .core import GenerateError

            raise GenerateError(f"no {req.rows}x{req.cols} layout with {req.symmetry} "
                                f"symmetry and black share {req.density:g} keeps every run "
                                "at 2 to 9 cells without a cut cell or a 2x2 black block; "
                                "try another size, symmetry or --density")
        values = fill(white, rng)
        if values is None:
            continue
        draft = Draft(white, values)
        draft.sweeten(rng, sweet * len(draft.values))
        draft = make_unique(draft, rng, deadline, symmetry=req.symmetry)
        if draft is None:
            continue
        exp = _rate(draft, rules, deadline)
        if exp.status != SOLVED:
            continue
        exp = steer(req, draft, exp, rng, rules, deadline)
        if exp is None:
            continue
        if any(s.rule in GUESS_RULES for s in exp.steps) and not _unique(draft, None):
            continue  # a guessed walkthrough proves nothing: the solver must confirm
        out.puzzle, out.solution, out.rating = draft.puzzle(), draft.values[:], exp.rating
        return out
    out.message = "the time limit stopped the search before a puzzle fit"
    return out

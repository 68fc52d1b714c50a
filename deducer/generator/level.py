"""Steer a unique draft to the requested level (Tatham's test: the walkthrough needs a step
of that level and no harder one, so the puzzle cannot be solved a level lower).

Most of the work is cheap walks: the ladder cut down to the rules a puzzle of the level may
use (:class:`Target`), run lean (no sentences) until it stalls or a step weighs too much.
A draft that rates too hard is eased where that walk stalls: digit changes there (then
around there, when none helps) are ranked by an estimate, and the first after which the
walk places more cells is kept, until it finishes (Tatham's generators work the same
way). A walk that finishes proves the solution unique, and since the cut-down ladder is
the head of the whole one its steps *are* the walkthrough, so its rating is exact (no
second rating). A draft that rates too easy is hardened by digit changes that make clues
allow more combinations, kept only while the rating rises and stays within the level. The
puzzle returned gets what lean walks leave out of a rating (the open easy moves before each
step) by replaying its walk, so the rating reported is the one `rate` gives.
"""

from __future__ import annotations

import random
import time
from contextlib import contextmanager
from dataclasses import dataclass

from ..clock import Limits
from ..engine.rating import LEVELS, model_for, rate_steps
from ..engine.state import State
from ..engine.walk import SOLVED, Engine, Explanation, WalkOptions
from ..errors import RuleError
from ..puzzle.combos import DIGITS, POP, SINGLE, combos
from ..puzzle.model import Puzzle
from ..solver.status import ExplainStatus
from .draft import Draft
from .unique import (
    REPAIR_SAMPLE,
    Undecided,
    ambiguity,
    open_count,
    other_solution,
    repair,
)

#: digit changes steering tries per attempt at most, and in a row without a rating that
#: helps, before starting over with a new layout and fill: a climb that keeps finding
#: better ratings goes on, since an attempt costs more than a few more moves
STEER_TRIES, STEER_PATIENCE = 120, 20
#: cells a hardening move towards an uncapped level (Extreme) looks at: the one whose best
#: digit adds most combinations to its clues is changed (a change at one random cell is
#: often too small to count, at many it breaks uniqueness). Below a cap bigger changes
#: overshoot it, so capped levels look at one
STEER_CELLS = 2
#: easing rounds (each tries a handful of digit changes where the walk stalls) per attempt,
#: and rounds in a row without progress before the attempt is given up
EASE_ROUNDS, EASE_PATIENCE = 120, 4
#: digit changes compared per easing round, and how many of them (the best estimates)
#: are walked in full. Small grids compare more changes (a stalled attempt there costs a
#: layout, a fill and a uniqueness repair, more than the estimates); above
#: EASE_SMALL_CELLS white cells the estimates cost more than they save
EASE_SAMPLE, EASE_SAMPLE_LARGE, EASE_SMALL_CELLS, EASE_EXACT = 12, 8, 200, 3
#: Work budgets of one draft's searches, counted, not timed, so that a seed gives the same
#: puzzles on a loaded machine. A lean walk may spend WALK_WORK + WALK_WORK_PER_CELL units
#: per white cell (Context.spend: a chain link walked is one unit, a solver node three);
#: the solver asked whether a steered draft is still unique may spend UNIQUE_WORK units
#: (search nodes, or CONFLICTS_PER_UNIT oracle conflicts). Both are far above what a
#: draft worth steering needs
WALK_WORK, WALK_WORK_PER_CELL = 32_000, 320
UNIQUE_WORK = 10_000
#: repair rounds (see :func:`_mend`) an easing move that broke uniqueness may take before
#: it is given up
MEND_ROUNDS = 4


def _rank(level: str | None) -> int:
    return LEVELS.index(level) if level is not None else -1


def fits(req, rating, exact: bool = True) -> bool:
    """Does a rating meet the request (level, --needs, --max-chain, --score)? The score is
    checked only on an ``exact`` rating: a lean walk counts no open moves, which the score
    weighs."""
    if req.level is not None and rating.level != req.level:
        return False
    score = getattr(req, "score", None)
    if exact and score is not None and rating.score is not None and not (
            (score[0] is None or rating.score >= score[0])
            and (score[1] is None or rating.score <= score[1])):
        return False
    if req.needs is not None and req.needs not in rating.rules:
        return False
    chain = getattr(rating, "max_chain", None)  # rated only where chains exist
    return not (req.max_chain is not None and chain is not None and chain > req.max_chain)


class Target:
    """The rules a walkthrough of ``level`` may use: the head of the ladder up to the first
    rule that weighs more than the level's cap.

    The engine always takes the first rule in ladder order that has a deduction, so a walk
    with the head alone that finishes is step for step the walk the whole ladder makes: its
    rating is exact. (For Hard the head stops at the naked triple, since the naked quad,
    an Expert step, comes before the hidden pair in the ladder: Hard puzzles are eased
    towards naked subsets; steer reaches the others.)"""

    def __init__(self, rules, level: str | None):
        self.rules = rules
        model = model_for(rules)
        self.guesses = frozenset(r.id for r in rules if model.kind(r.id) == "guess")
        #: a whole-ladder walk's work budget grows by one trial step's own budget (the
        #: trial rules' ``work`` in the rule files): a walk that needs trial spends that
        #: much on one step, more than a 10x10 draft's budget, and every Extreme puzzle
        #: needs one (10x10 Extreme, seed 1: the first Extreme draft ran out 27% short and
        #: was thrown away, and 7 more attempts were made). Capped ladders hold no trial
        self.trial_work = 0
        self.cap = dict(model.levels).get(level) if level is not None else None
        #: the heaviest step short of guessing: a walk that needs more is Unreasonable
        self.top = max((r.weight for r in rules if r.id not in self.guesses), default=None)
        if level is None or level == "Unreasonable":
            self.top = None
        self.ladder = list(rules)
        if self.cap is not None:  # below Extreme
            # a ``walk: false`` rule (chain links only) is never a step: its weight cuts
            # nothing
            over = next((k for k, r in enumerate(rules)
                         if r.walk and r.weight > self.cap + 1e-9), len(rules))
            self.ladder = list(rules[:over])
        else:
            self.trial_work = sum(int(r.params.get("work", 0)) for r in rules
                                  if model.kind(r.id) == "trial")
        if hasattr(rules, "part"):  # keep the rule files' rating section with the head
            self.ladder = rules.part(self.ladder)


@dataclass
class Walk:
    """A lean walk: how far a ladder got (cells placed, candidates left), and its steps."""

    status: ExplainStatus
    steps: list
    placed: int
    left: int
    puzzle: Puzzle
    state: State | None = None  # where it ended (for estimates that continue from there)
    dirty: dict | None = None  # and the runs its rules had still to look at there

    @property
    def progress(self) -> tuple[int, int, int]:
        effort = sum(s.score for s in self.steps) if self.status == SOLVED else 0
        return (self.placed, -self.left, -effort)

    def explanation(self, rules=None) -> Explanation:
        return Explanation(self.puzzle, self.status, self.steps, [], rules=rules)


def _lean(draft: Draft, cap: float | None, limits: Limits, extra: int = 0) -> WalkOptions:
    """A draft's walk: lean, ended early by a step over ``cap``, and a work budget (with
    ``extra`` units more)."""
    return WalkOptions(lean=True, stop_above=cap,
                       limits=limits.with_work(walk_work(len(draft.values)) + extra))


def walk(draft: Draft, ladder, cap: float | None, limits: Limits, extra: int = 0) -> Walk:
    """Run ``ladder`` lean over the draft's puzzle until solved, stalled or a step weighs
    over ``cap`` (``extra``: work units beyond :func:`walk_work`)."""
    puzzle = draft.puzzle()
    eng = Engine(puzzle, ladder, _lean(draft, cap, limits, extra))
    status = eng.run()
    masks = eng.state.masks
    placed = sum(eng.state.placed)
    return Walk(status, eng.steps, placed, sum(POP[m] for m in masks) - len(masks), puzzle,
                eng.state, eng.dirty)


def estimate(draft: Draft, base: Walk, changed: list[int], ladder, cap: float | None,
             limits: Limits) -> tuple[int, int]:
    """How far a walk would get after a change (already made in ``draft``) to ``changed``,
    estimated by going on from where ``base`` stalled, with the cells two runs around the
    change starting over from every digit.

    A whole walk per candidate change costs a grid's worth of steps, and the rounds of a
    large grid made easing quadratic; going on from the stall costs the steps near the
    change. Still sound for the new clues' fill (every digit kept is the fill's, which is
    unchanged outside the reset cells), so the estimate never breaks; the change kept is
    then walked in full."""
    puzzle = draft.puzzle()
    reset_runs, reset = draft.around(changed)
    assert base.state is not None  # estimates go on from a walk that kept its end
    state = base.state.reopened(puzzle, reset, reset_runs)
    # the rules look again only around the change: elsewhere the grid is where the walk
    # left off, with nothing more to find (a tenth of the estimates' time on 12x12 Easy
    # went to rescanning every run)
    eng = Engine(puzzle, ladder, _lean(draft, cap, limits), state=state, dirty=base.dirty)
    eng.touched(reset, reset_runs)
    eng.run()
    return sum(state.placed), -(sum(POP[m] for m in state.masks) - len(state.masks))


def walk_work(cells: int) -> int:
    """No single rating may eat the request's time: a draft whose walk spends this much
    work (deep chains or trial over a wide-open grid) is not worth steering. Counted, not
    timed (see WALK_WORK), so the drafts given up are the same on any machine."""
    return WALK_WORK + WALK_WORK_PER_CELL * cells


def rate_lean(draft: Draft, target: Target, limits: Limits,
              cap: float | None = None) -> Explanation:
    """The whole ladder's rating of the draft (lean), stopped early past ``cap``."""
    w = walk(draft, target.rules, cap, limits, target.trial_work)
    return w.explanation(target.rules)


def _unique(draft: Draft, limits: Limits) -> bool:
    score, masks = open_count(draft)
    if score == 0:
        return True
    try:
        return other_solution(draft, masks, limits.with_work(UNIQUE_WORK)) is None
    except Undecided:
        return False


def _hard_cells(draft: Draft, exp, limit: float | None, guesses=frozenset()) -> list[int]:
    """Cells the first step above ``limit`` (or the first guess) works on."""
    for step in exp.steps:
        if limit is None and step.rule not in guesses:
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
    return (_rank(rating.level), rating.max_weight, rating.effort)


def ease(req, draft: Draft, target: Target, rng: random.Random,
         limits: Limits) -> Explanation | None:
    """Digit changes where the cut-down walk stalls, each round keeping the first (in the
    estimate's order) after which it gets further, until it finishes within the level; the
    exact rating then, or None.

    """
    cur = walk(draft, target.ladder, target.cap, limits)
    deadline = limits.deadline
    level_rank = _rank(req.level)
    sample = EASE_SAMPLE if len(draft.values) <= EASE_SMALL_CELLS else EASE_SAMPLE_LARGE
    misses = 0
    for _ in range(EASE_ROUNDS):
        if deadline is not None and time.perf_counter() > deadline:
            return None
        if cur.status == SOLVED:
            exp = cur.explanation(target.rules)  # exact: the walk is the walkthrough
            if _rank(exp.rating.level) <= level_rank:
                return exp  # at the level or below it (steer hardens the latter)
        # where to change: cells the walk left open, or (a finished but too long walk)
        # anywhere, favouring clues that leave fewer digits at the start
        where = [i for i, m in enumerate(_open_cells(cur, draft)) if m]
        if not where:
            where = list(range(len(draft.values)))
        moves = _moves(draft, cur, where, misses, target, rng, sample, limits)
        if moves is None:
            return None
        best, best_walk = None, None
        for move in moves:
            fix = None
            with _applied(draft, move):
                w = walk(draft, target.ladder, target.cap, limits)
                # a change that helps the walk often does so by letting in a second
                # solution (half of them on 12x12 Easy), and a draft with two solutions
                # can be eased for ever and never finish: such a change is kept only
                # with the repairs that make the draft unique again
                if (w.progress > cur.progress and w.status != SOLVED
                        and not _unique(draft, limits)):
                    fix = _mend(draft, rng, limits)
                    if fix is None:
                        continue
            if fix is not None:
                move = move + fix
                with _applied(draft, move):
                    w = walk(draft, target.ladder, target.cap, limits)
            if best_walk is None or w.progress > best_walk.progress:
                best, best_walk = move, w
            if best_walk.progress > cur.progress:
                break  # the first that helps, in the estimate's order: fewer whole walks
        if best is not None and best_walk is not None and best_walk.progress > cur.progress:
            for i, d in best:
                draft.set(i, d)
            cur, misses = best_walk, 0
        else:
            misses += 1
            # a large grid stalls in many places, and a round's few moves may miss them all
            if misses >= max(EASE_PATIENCE, len(draft.values) // 60):
                return None
    return None


def _moves(draft: Draft, cur, where: list[int], misses: int, target: Target,
           rng: random.Random, sample: int, limits: Limits) -> list | None:
    """One round of :func:`ease`'s candidate changes near ``where`` (widened by ``misses``),
    the best few by the estimate when the walk stalled; None when there is none."""
    # rounds that found nothing widen the search to the runs around the stall (two
    # rings at most, or it is no longer near): a few cells stuck in a pattern the
    # level's rules cannot break (two cells with the same two digits in two runs)
    # are unlocked by a clue next to them
    for _ in range(min(misses, 2)):
        where = sorted({j for i in where for rid in draft.cell_runs[i]
                        for j in draft.runs[rid]})
    cands = [(i, d) for i in where for d in draft.free_digits(i)]
    if not cands:
        return None
    if len(cands) > 4 * sample:
        cands = rng.sample(cands, 4 * sample)
    cands.sort(key=lambda c: (_open_after(draft, *c), rng.random()))
    half = sample // 2
    rest = cands[half:]
    pick = cands[:half] + rng.sample(rest, min(half, len(rest)))
    moves = [[(i, d)] for i, d in pick] + _refills(draft, where, rng, sample // 2)
    if cur.status != SOLVED and cur.state is not None:
        # rank the moves by an estimate, walk the best few in full
        ranked = []
        for k, move in enumerate(moves):
            with _applied(draft, move):
                ranked.append((estimate(draft, cur, [i for i, _ in move], target.ladder,
                                        target.cap, limits), -k, move))
        ranked.sort(reverse=True)
        moves = [move for _, _, move in ranked[:EASE_EXACT]]
    return moves


def _mend(draft: Draft, rng: random.Random, limits: Limits) -> list | None:
    """Repairs that make the draft unique again (digit changes where a second solution
    differs, as :func:`make_unique` makes them): the changes, already undone, or None."""
    before = draft.values[:]
    ok = False
    for k in range(MEND_ROUNDS + 1):  # the last round only checks the last repair
        try:
            found = ambiguity(draft, limits.with_work(UNIQUE_WORK))
        except Undecided:
            break
        if found is None:
            ok = True
            break
        _, masks, diff = found
        if k == MEND_ROUNDS or not repair(draft, rng, diff, REPAIR_SAMPLE, None, masks):
            break
    fix = [(i, d) for i, d in enumerate(draft.values) if d != before[i]]
    for i, _ in fix:
        draft.set(i, before[i])
    return fix if ok else None


@contextmanager
def _applied(draft: Draft, move: list):
    """The draft with a move's digit changes made, undone on leaving."""
    old = [(i, draft.values[i]) for i, _ in move]
    for i, d in move:
        draft.set(i, d)
    try:
        yield draft
    finally:
        for i, d in reversed(old):
            draft.set(i, d)


def _refills(draft: Draft, where: list[int], rng: random.Random, n: int) -> list[list]:
    """Up to ``n`` moves that refill a whole run through ``where`` with the digits of a sum
    that has one combination (3 in two cells, 6 in three …): the strongest clue there is
    for a reader, and one a single digit change rarely reaches."""
    runs = sorted({rid for i in where for rid in draft.cell_runs[i]})
    rng.shuffle(runs)
    out = []
    for rid in runs:
        cells = draft.runs[rid]
        single = _SINGLE_SUMS[len(cells)]
        if not single:
            continue
        digits = list(DIGITS[rng.choice(single)])
        for _ in range(6):  # a few shuffles for one that keeps the crossing runs distinct
            rng.shuffle(digits)
            if _fits_crossing(draft, rid, cells, digits):
                out.append(list(zip(cells, digits, strict=True)))
                break
        if len(out) >= n:
            break
    return out


def _fits_crossing(draft: Draft, rid: int, cells, digits) -> bool:
    for i, d in zip(cells, digits, strict=True):
        for other in draft.cell_runs[i]:
            if other != rid and any(draft.values[j] == d for j in draft.runs[other] if j != i):
                return False
    return True


#: per run length, the digit sets of the sums with exactly one combination
_SINGLE_SUMS = {n: [cs[0] for t in range(1, 46) if len(cs := combos(t, n)) == 1]
                for n in range(1, 10)}


def _open_cells(w: Walk, draft: Draft) -> list[bool]:
    """Which cells the walk left unplaced (all of them, for a finished walk)."""
    if w.status == SOLVED:
        return [False] * len(draft.values)
    placed = {(r, c) for s in w.steps for r, c, _ in s.placements}
    return [rc not in placed for rc in draft.whites]


def steer(req, draft: Draft, exp, target: Target, rng: random.Random, limits: Limits):
    """Digit changes towards the requested level; the explanation that fits, or None."""
    level = _rank(req.level) if req.level is not None else None
    deadline = limits.deadline
    idle = 0
    for _ in range(STEER_TRIES):
        if idle >= STEER_PATIENCE:
            break
        idle += 1
        if fits(req, exp.rating, exact=False) and exp.status == SOLVED:
            return exp
        if level is None or (deadline is not None and time.perf_counter() > deadline):
            return None
        rank = _rank(exp.rating.level)
        harder = rank < level or (rank == level and req.needs is not None)
        if harder:
            picked = None
            for _ in range(STEER_CELLS if target.cap is None else 1):
                i = rng.randrange(len(draft.values))
                digits = draft.free_digits(i)
                if not digits:
                    continue
                # the digits whose clues allow the most combinations first: less for the
                # reader to go on
                order = sorted(digits,
                               key=lambda x: (-_combos_after(draft, i, x), rng.random()))
                now = _combos_after(draft, i, draft.values[i])
                gain = _combos_after(draft, i, order[0]) - now
                if picked is None or gain > picked[0]:
                    picked = (gain, i, order)
            if picked is None:
                continue
            _, i, order = picked
            d = order[0]
            # a rating within the level and above the current one, or it is no use
            stop = target.cap if target.cap is not None else target.top
        else:
            where = (_hard_cells(draft, exp, target.cap, target.guesses)
                     or list(range(len(draft.values))))
            cands = [(i, d) for i in where for d in draft.free_digits(i)]
            if not cands:
                return None
            i, d = min(cands, key=lambda c: (_open_after(draft, *c), rng.random()))
            stop = exp.rating.max_weight  # a heavier step makes the rating no lower
        old = draft.values[i]
        draft.set(i, d)
        # a walk the cut-down ladder finishes proves the solution unique, and over a cap it
        # stops early; the whole ladder walks a grid with several solutions to trial and
        # guessing, dearer than the solver's answer. Hardening that way (Extreme), most
        # first choices lose uniqueness: the cell's next digits are tried before the move
        # is given up (12x12 Extreme: 25 attempts for 8 puzzles before, 15 after)
        new = None
        if target.cap is None and harder:
            for d in order[:3]:
                draft.set(i, d)
                if _unique(draft, limits):
                    new = rate_lean(draft, target, limits, stop)
                    break
        elif target.cap is not None or _unique(draft, limits):
            new = rate_lean(draft, target, limits, stop)
        ok = new is not None and new.status == SOLVED and (
            (harder and _rank(new.rating.level) <= level
             and _key(new.rating) > _key(exp.rating))
            or (not harder and _rank(new.rating.level) >= level
                and _key(new.rating) < _key(exp.rating)))
        if ok:
            exp, idle = new, 0
        else:
            draft.set(i, old)
    return exp if fits(req, exp.rating, exact=False) and exp.status == SOLVED else None


def exact_rating(puzzle: Puzzle, rules, steps: list, solution: list[int]):
    """The rating `rate` gives the puzzle, from a lean walk of it that finished.

    The steps are the whole ladder's (see :class:`Target`), so only what lean walks leave
    out is added: the open easy moves before each step, counted by replaying the walk
    (:meth:`Engine.recount`), a small part of the second full walkthrough it replaces
    (12x12 Extreme: 1.2 s a puzzle)."""
    eng = Engine(puzzle, rules)
    steps = eng.recount(steps)
    if [SINGLE[m] for m in eng.state.masks] != solution:
        raise RuleError("the rules reached a grid that breaks the puzzle; one of the active "
                        "rules made a false deduction (try 'deducer rules test')")
    return rate_steps(steps, SOLVED, rules, len(puzzle.whites), puzzle)

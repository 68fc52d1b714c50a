"""Make a draft's solution unique by local repairs instead of starting over.

The fill is always a solution, so only the other solutions have to go. First
:func:`narrow`: digits of cells that propagation leaves open change while that narrows the
grid (cheap, no search). Then rounds of :func:`other_solution` (a second solution, from
the complete solver) and :func:`repair`: a digit where the two solutions differ changes
to the one after which the fewest solutions remain that differ from the fill only around
there, never back to an earlier state. When digit changes keep trading
one ambiguity for another, :func:`split_run` turns a cell black (with its symmetric
partner), splitting its runs. The rest of the grid is kept throughout.
"""

from __future__ import annotations

import random
import time

from ..clock import Limits
from ..puzzle.combos import ALL, BIT, DIGITS, POP
from ..solver.propagate import Contradiction, propagate
from ..solver.search import solve
from .draft import Draft
from .layout import try_blacken


def open_count(draft: Draft, totals: list[int] | None = None) -> tuple[int, list[int]]:
    """Candidates left beyond one per cell after propagation, and the masks."""
    layout = draft.layout(totals)
    masks = [ALL] * len(draft.whites)
    try:
        propagate(layout, masks, range(len(layout.run_cells)))
    except Contradiction:  # cannot happen while the fill is a solution; be safe anyway
        return 10**9, masks
    return sum(POP[m] for m in masks) - len(masks), masks


def open_near(draft: Draft, masks: list[int], i: int, d: int) -> int:
    """:func:`open_count` after cell ``i`` changes to ``d``, estimated: the cells two runs
    around ``i`` start over from every digit, the rest keep ``masks`` (the propagated
    candidates before the change), and propagation spreads from the reset runs.

    A whole-grid propagation per candidate change was most of a repair's cost (narrow
    compares 16 a round). The estimate never breaks: the changed fill is a solution of the
    new clues and every kept digit is its digit. It is optimistic where the change would
    widen candidates farther away, so the change chosen is checked in full."""
    totals = draft.totals_with(i, d)
    layout = draft.layout(totals)
    trial = masks[:]
    _, reset = draft.around([i])
    for j in reset:
        trial[j] = ALL
    try:  # every run through a reset cell: its crossing run may hold what narrowed it
        propagate(layout, trial, {rid for j in reset for rid in draft.cell_runs[j]})
    except Contradiction:  # cannot happen (see above); be safe anyway
        return 10**9
    return sum(POP[m] for m in trial) - len(trial)


class Undecided(Exception):
    """The search budget or the clock ran out before uniqueness was decided."""


#: solver work (search nodes, or CONFLICTS_PER_UNIT oracle conflicts) one round of repairs
#: may spend looking for a second solution before the draft is given up: counted, not
#: timed, so that a seed gives the same puzzles on any machine at any load. The 10 s it
#: was allowed before at about 5,000 units/s (see level.WALK_WORK)
REPAIR_WORK = 50_000
#: digit changes a repair compares
REPAIR_SAMPLE = 16
#: search nodes :func:`local_count` may spend before it counts a region as ambiguous
LOCAL_NODES = 300


def other_solution(draft: Draft, masks: list[int], limits: Limits):
    """A solution other than the fill, or None when the fill is the only one.

    The complete solver decides (its search hands hard cases to clause learning), started
    from ``masks``, the draft's propagated candidates; two solutions are asked for, so a
    second one is never searched past. Raises :class:`Undecided` when the solver spends
    ``limits.work`` units (see :func:`~deducer.solver.search.solve`) or the deadline passes
    first (however late, the solver is given a hundredth of a second).
    """

    res = solve(draft.puzzle(), max_solutions=2, masks=masks, limits=limits.at_least(0.01))
    if len(res.solutions) < 2 and not res.complete:
        raise Undecided
    return next((s for s in res.solutions if s != draft.values), None)


def ambiguity(draft: Draft, limits: Limits):
    """None when the fill is the draft's only solution; else (candidates propagation
    leaves open, the propagated masks, the cells where a second solution differs).
    Raises :class:`Undecided` as :func:`other_solution` does."""
    score, masks = open_count(draft)
    if score == 0:
        return None
    other = other_solution(draft, masks, limits)
    if other is None:
        return None
    return score, masks, [i for i, (a, b) in enumerate(zip(draft.values, other, strict=True))
                          if a != b]


def make_unique(draft: Draft, rng: random.Random, limits: Limits,
                max_rounds: int = 300, sample: int = REPAIR_SAMPLE,
                symmetry: str = "none") -> Draft | None:
    """A repaired draft whose solution is unique (the same object unless a run was split),
    or None if the rounds or the clock ran out."""
    narrow(draft, rng, limits, sample)
    stuck = 0
    best = None
    seen: set[tuple[int, ...]] = {tuple(draft.values)}
    for _ in range(max_rounds):
        try:
            found = ambiguity(draft, limits.with_work(REPAIR_WORK))
        except Undecided:
            return None
        if found is None:
            return draft
        score, masks, diff = found
        if best is None or score < best:
            best, stuck = score, 0
        else:
            stuck += 1
        if stuck >= 6:  # digit changes keep trading one ambiguity for another: split a run
            split = split_run(draft, rng, diff, symmetry)
            if split is not None:
                draft, best, stuck = split, None, 0
                continue
        if not repair(draft, rng, diff, sample, seen, masks):
            split = split_run(draft, rng, diff, symmetry)
            if split is None:
                return None
            draft, best, stuck = split, None, 0
        seen.add(tuple(draft.values))
    return None


#: the best estimates narrow checks in full before a round counts as a miss
NARROW_CHECKED = 3


def narrow(draft: Draft, rng: random.Random, limits: Limits, sample: int,
           patience: int = 4) -> int:
    """Cheap first phase: change digits of cells propagation leaves open, keeping each
    change that leaves fewer candidates open, until no change helps for ``patience``
    rounds. Search is slow on wide-open grids and fast on narrow ones, so this runs
    before any search. Returns the candidates left open."""
    score, masks = open_count(draft)
    misses = 0
    deadline = limits.deadline
    while score and misses < patience:
        if deadline is not None and time.perf_counter() > deadline:
            break
        open_cells = [i for i, m in enumerate(masks) if POP[m] > 1]
        cands = [(i, d) for i in open_cells for d in draft.free_digits(i)]
        if len(cands) > sample:
            cands = rng.sample(cands, sample)
        scored = sorted((open_near(draft, masks, i, d), rng.random(), i, d)
                        for i, d in cands)
        misses += 1
        for est, _, i, d in scored[:NARROW_CHECKED]:
            if est >= score:
                break
            new, new_masks = open_count(draft, draft.totals_with(i, d))
            if new < score:
                draft.set(i, d)
                score, masks, misses = new, new_masks, 0
                break
    return score


def _region(draft: Draft, cells: list[int]) -> list[int]:
    """The cells sharing a run with any of ``cells``."""
    out: set[int] = set()
    for i in cells:
        for rid in draft.cell_runs[i]:
            out.update(draft.runs[rid])
    return sorted(out)


def local_count(draft: Draft, totals: list[int], region: list[int], cap: int = 4) -> int:
    """How many solutions (up to ``cap``) differ from the fill only inside ``region``,
    the fill included; a search that takes more than ``LOCAL_NODES`` nodes counts as
    ``cap``."""
    layout = draft.layout(totals)
    masks = [BIT[v] for v in draft.values]
    for i in region:
        masks[i] = ALL
    try:
        propagate(layout, masks, {r for i in region for r in draft.cell_runs[i]})
    except Contradiction:
        return 0
    found = [0]
    nodes = [0]

    def go(masks: list[int]) -> bool:  # False: stop (cap or budget reached)
        best, best_pop = -1, 10
        for i in region:
            p = POP[masks[i]]
            if 1 < p < best_pop:
                best, best_pop = i, p
        if best < 0:
            found[0] += 1
            return found[0] < cap
        for d in DIGITS[masks[best]]:
            nodes[0] += 1
            if nodes[0] > LOCAL_NODES:
                found[0] = cap
                return False
            trial = masks.copy()
            trial[best] = BIT[d]
            try:
                propagate(layout, trial, layout.cell_runs[best])
            except Contradiction:
                continue
            if not go(trial):
                return False
        return True

    go(masks)
    return found[0]


def repair(draft: Draft, rng: random.Random, where: list[int], sample: int,
           seen: set | None = None, masks: list[int] | None = None) -> bool:
    """Change one digit near ``where`` (cells where two solutions differ): the change
    after which fewest solutions differ from the fill only around there, then the one
    leaving fewest candidates open after propagation. Changes leading back to a state in
    ``seen`` are skipped (without that the repairs can cycle between two ambiguities).
    ``masks``: the draft's propagated candidates, if known. False if no change is
    possible."""
    region = _region(draft, where)
    cands = [(i, d) for i in where for d in draft.free_digits(i)]
    if seen:
        values = draft.values
        cands = [(i, d) for i, d in cands
                 if tuple(values[:i]) + (d,) + tuple(values[i + 1:]) not in seen]
    if not cands:
        return False
    if len(cands) > sample:
        cands = rng.sample(cands, sample)

    def key(c):
        totals = draft.totals_with(*c)
        old = draft.values[c[0]]
        draft.values[c[0]] = c[1]
        try:
            n = local_count(draft, totals, region)
        finally:
            draft.values[c[0]] = old
        return n

    if len(where) > 10:  # far from unique: any narrowing helps, count nothing yet
        counts = [0] * len(cands)
    else:
        counts = [key(c) for c in cands]
    least = min(counts)
    tied = [c for c, n in zip(cands, counts, strict=True) if n == least]
    if masks is None:
        masks = open_count(draft)[1]
    best = min(tied, key=lambda c: (open_near(draft, masks, *c), rng.random()))
    draft.set(*best)
    return True


def split_run(draft: Draft, rng: random.Random, where: list[int], symmetry: str):
    """A new draft with one cell of ``where`` (and its partner) turned black, keeping the
    layout rules; None when no such cell exists."""

    cells = where[:]
    rng.shuffle(cells)
    for i in cells:
        r, c = draft.whites[i]
        white = [row[:] for row in draft.white]
        if try_blacken(white, r, c, symmetry):
            values = {rc: v for rc, v in draft.value_map().items() if white[rc[0]][rc[1]]}
            return Draft(white, values)
    return None

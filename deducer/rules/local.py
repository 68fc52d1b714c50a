"""The local problem of a step (docs/json-contract.md), solved exactly, so a rule can trim its proof
to what the step needs: the cells of some runs, limited by facts and the written digits,
each run all different and adding up to its clue.

Rules use this to drop facts and runs a reader need not check; the project's proof checker
(deducer/proofcheck/checker.py) stays independent and judges the result.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from ..puzzle.combos import BIT, DIGITS, POP
from ..solver.propagate import Changes, Layout, changes, run_filter
from .api import View

#: a run's exact filter by run and its cells' candidates, for one trimming (the searches
#: of a trim ask the same few runs the same questions many times over): the (cell,
#: candidates left) pairs it narrows, or None where the run has no filling
Filtered = dict[tuple[int, tuple[int, ...]], Changes | None]

#: a filter not worked out yet (no filter gives it)
_UNSEEN: Changes = ((-1, -1),)


def _narrow(layout: Layout, runs: Collection[int], doms: dict[int, int], todo: list[int],
            seen: Filtered) -> bool:
    """The listed runs' exact filters to a fixpoint, starting from the runs in ``todo`` (the
    others' filters would leave their cells as they are); False when one has no filling."""
    run_cells, run_total, cell_runs = layout.run_cells, layout.run_total, layout.cell_runs
    queued = set(todo)
    while todo:
        r = todo.pop()
        queued.discard(r)
        cells = run_cells[r]
        old = tuple([doms[i] for i in cells])
        key = (r, old)
        got = seen.get(key, _UNSEEN)
        if got is _UNSEEN:
            new = run_filter(run_total[r], old)
            got = seen[key] = None if new is None else changes(cells, old, new)
        if got is None:
            return False
        for i, b in got:
            doms[i] = b
            for o in cell_runs[i]:
                if o in runs and o not in queued:
                    queued.add(o)
                    todo.append(o)
    return True


def _fillable(layout: Layout, runs: Collection[int], doms: dict[int, int],
              budget: list[int], changed: int, seen: Filtered) -> bool:
    """Has the local problem a filling? ``doms`` was at the runs' fixpoint before cell
    ``changed`` was set, so only that cell's runs are filtered first."""
    if budget[0] <= 0:
        raise TimeoutError
    budget[0] -= 1
    if not _narrow(layout, runs, doms, [r for r in layout.cell_runs[changed] if r in runs], seen):
        return False
    # branch on the open cell with the fewest candidates, the first such cell on ties
    i, fewest = -1, 10
    for j, m in doms.items():
        n = POP[m]
        if 1 < n and (n < fewest or n == fewest and j < i):
            i, fewest = j, n
    if i < 0:
        return True
    for d in DIGITS[doms[i]]:
        trial = dict(doms)
        trial[i] = BIT[d]
        if _fillable(layout, runs, trial, budget, i, seen):
            return True
    return False


def domains(view: View, runs: Iterable[int], facts: dict[int, int]) -> dict[int, int]:
    """The local problem's starting domains: written digits, facts, else 1-9."""
    doms: dict[int, int] = {}
    for r in runs:
        for i in view.layout.run_cells[r]:
            doms[i] = BIT[view.value(i)] if view.is_placed(i) else facts.get(i, 0x1FF)
    for i, m in facts.items():
        doms.setdefault(i, BIT[view.value(i)] if view.is_placed(i) else m)
    return doms


def follows(view: View, runs: Iterable[int], facts: dict[int, int], elims: dict[int, int],
            places: dict[int, int], work: int, seen: Filtered | None = None) -> bool:
    """Do ``elims`` and ``places`` hold in every filling of the local problem? (False too
    when the search would take more than ``work`` nodes: keep the larger proof then.)"""
    layout = view.layout
    runs = set(runs)
    base = domains(view, runs, facts)
    seen = {} if seen is None else seen
    # narrowed once here rather than in every trial: the same fixpoint, so the same search
    if not _narrow(layout, runs, base, list(runs), seen):
        return True  # no filling at all: nothing is left to contradict the step
    budget = [work]
    try:
        for i, m in elims.items():
            if i not in base:
                return False
            for d in DIGITS[m & base[i]]:
                trial = dict(base)
                trial[i] = BIT[d]
                if _fillable(layout, runs, trial, budget, i, seen):
                    return False
        for i, d in places.items():
            if i not in base:
                return False
            for e in DIGITS[base[i] & ~BIT[d]]:
                trial = dict(base)
                trial[i] = BIT[e]
                if _fillable(layout, runs, trial, budget, i, seen):
                    return False
    except TimeoutError:
        return False
    return True


def trim(view: View, runs: Iterable[int], facts: dict[int, int], elims: dict[int, int],
         places: dict[int, int], keep_runs: Collection[int] = (), *, work: int
         ) -> tuple[tuple[int, ...], dict[int, int]]:
    """The runs and facts of a proof with every one a reader need not check dropped (each
    left is needed: without it the step no longer follows; ``work``: search nodes a
    question, beyond which a fact or run stays). ``keep_runs`` stay."""
    runs = list(runs)
    facts = dict(facts)
    seen: Filtered = {}
    if not follows(view, runs, facts, elims, places, work, seen):
        return tuple(runs), facts
    for i in list(facts):
        trial = {j: m for j, m in facts.items() if j != i}
        if follows(view, runs, trial, elims, places, work, seen):
            facts = trial
    for r in list(runs):
        if r in keep_runs:
            continue
        fewer = [x for x in runs if x != r]
        if fewer and follows(view, fewer, facts, elims, places, work, seen):
            runs = fewer
    return tuple(runs), facts

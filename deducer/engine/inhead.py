"""A solver who writes digits and no pencil marks: what it must hold in mind.

The ``notes`` figure of the rating (docs/rating.md, "Pencil marks") asks how likely a person
is to need pencil marks. A person who keeps no notes sees only the digits written; each
time they look at the board they work a cell's candidates out again from the runs through
it. This module plays that person, round by round:

1. every open cell's candidates are what the combinations of its runs allow, given the
   digits written in those runs (a run's combinations that hold its written digits);
2. each run narrows its cells to the digits some arrangement of the run puts there
   (``passes`` times over all runs: what one can work out in one's head in one look);
3. every cell left with one digit, and every digit a run needs that only one of its
   cells can take, is written; the next round starts from the new board.

It stops when a round writes nothing (a person without notes is stuck there). Counted:
the rounds that wrote something, the candidates held over the open cells per cell written
(summed over the rounds), and the share of the cells it wrote. Plain ints and the run
filter's bit-parallel arrangement search (:func:`deducer.solver.propagate.reachable`: every
combination that fits a run's cells at once); the janko.at grids take 1.8 ms each.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..puzzle.combos import BIT, DIGITS, POP, combos
from ..solver.propagate import reachable


@dataclass(frozen=True)
class InHead:
    """What the no-notes solver did on one grid."""

    rounds: int  # rounds that wrote at least one digit
    held: float  # sum over those rounds of (candidates on the open cells / cells written)
    share: float  # the share of the white cells written (givens included) when it stopped


def in_head(puzzle, passes: int = 3) -> InHead:
    """Play the no-notes solver on ``puzzle`` (see the module's docstring)."""
    runs = puzzle.runs
    n = len(puzzle.whites)
    val = [0] * n  # the digit's bit once written
    for i, m in enumerate(puzzle.initial_masks()):
        if POP[m] == 1:
            val[i] = m
    if not n:
        return InHead(0, 0.0, 1.0)
    # a run's combinations by (total, length), fetched once
    table = [combos(r.total, len(r.cells)) for r in runs]
    run_cells = [r.cells for r in runs]
    runs_of: list[list[int]] = [[] for _ in range(n)]
    for k, cs in enumerate(run_cells):
        for i in cs:
            runs_of[i].append(k)
    # per run, what the digits written in it leave (its open cells, the combinations that
    # hold those digits less them, their union), worked out again only for a run in which
    # a digit was written (a round writes in few runs; this was a fifth of the solver)
    state: list[tuple[list[int], list[int], int] | None] = [None] * len(runs)
    # per run, the combinations its open cells can hold for each set of candidates met,
    # for the combinations in ``state``: the same candidates come back round after round
    # (the filter of the combinations left is the filter of all of them: candidates only
    # narrow within a round, and a combination that does not fit wider ones fits no
    # narrower ones)
    memo: list[dict[tuple, list[int]]] = [{} for _ in runs]
    dirty = set(range(len(runs)))
    rounds, held = 0, 0.0
    while True:
        _written_in(sorted(dirty), run_cells, table, val, state, memo)
        dirty.clear()
        cand, info, live = _candidates(val, state)
        _look(info, live, cand, memo, passes)
        new = _to_write(info, cand, val)
        if not new:
            break
        rounds += 1
        held += sum(POP[cand[i]] for i in range(n) if not val[i]) / len(new)
        for i, m in new.items():
            val[i] = m
            dirty.update(runs_of[i])
    return InHead(rounds, held, sum(1 for v in val if v) / n)


def _written_in(changed: list[int], run_cells: list, table: list, val: list[int],
                state: list, memo: list) -> None:
    """Step 1 for the runs in ``changed`` (a digit was written in them): their open cells
    and the combinations that hold their written digits, less those digits."""
    for k in changed:
        pm = 0
        opn = []
        for i in run_cells[k]:
            if val[i]:
                pm |= val[i]
            else:
                opn.append(i)
        if not opn:
            state[k] = None
            continue
        rest = [c & ~pm for c in table[k] if c & pm == pm]
        u = 0
        for c in rest:
            u |= c
        state[k] = (opn, rest, u)
        memo[k] = {}


def _candidates(val: list[int], state: list
                ) -> tuple[list[int], list[tuple[list[int], list[int]]], list[int]]:
    """Each cell's candidates as its runs' combinations allow (written cells: 0), and per
    run with open cells (``live``, in order) those cells and the digits its combinations
    leave them."""
    cand = [0 if v else 0x1FF for v in val]
    info = []
    live = []
    for k, st in enumerate(state):
        if st is None:
            continue
        opn, rest, u = st
        for i in opn:
            cand[i] &= u
        info.append((opn, rest))
        live.append(k)
    return cand, info, live


def _look(info: list, live: list[int], cand: list[int], memo: list, passes: int) -> None:
    """Step 2: each run narrows its cells to what its arrangements put there, ``passes``
    times over all runs (``info`` and ``cand`` narrowed in place). A run is filtered again
    in a pass only when a cell of it has narrowed since it was last filtered (the same
    candidates give the same answer)."""
    seen: list[tuple | None] = [None] * len(info)
    for _ in range(passes):
        for j, (opn, rest) in enumerate(info):
            now = tuple([cand[i] for i in opn])
            if now == seen[j]:
                continue
            known = memo[live[j]]
            good = known.get(now)
            if good is None:
                can = reachable(now)
                good = [c for c in rest if can >> c & 1]
                known[now] = good
            u = 0
            for c in good:
                u |= c
            for i in opn:
                cand[i] &= u
            info[j] = (opn, good)
            seen[j] = tuple([cand[i] for i in opn])


def _to_write(info: list, cand: list[int], val: list[int]) -> dict[int, int]:
    """Step 3: every open cell left one digit, and every digit a run needs that only one of
    its cells can take (cell -> the digit's bit)."""
    new: dict[int, int] = {i: cand[i] for i in range(len(val))
                           if not val[i] and POP[cand[i]] == 1}
    for opn, good in info:
        if not good:
            continue
        need = 0x1FF
        for c in good:
            need &= c
        for d in DIGITS[need]:
            where = [i for i in opn if cand[i] & BIT[d]]
            if len(where) == 1:
                new.setdefault(where[0], BIT[d])
    return new

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
(summed over the rounds), and the share of the cells it wrote. Plain ints and the solver's
memoised run filter (:func:`deducer.solver.propagate.run_filter`); a grid of 990 cells
costs a few hundredths of a second.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..puzzle.combos import BIT, DIGITS, POP, combos


@dataclass(frozen=True)
class InHead:
    """What the no-notes solver did on one grid."""

    rounds: int  # rounds that wrote at least one digit
    held: float  # sum over those rounds of (candidates on the open cells / cells written)
    share: float  # the share of the white cells written (givens included) when it stopped


@lru_cache(maxsize=1 << 16)
def _fits(masks: tuple[int, ...]) -> bool:
    """Can each cell take a different digit from its mask, the masks' union being exactly
    as many digits as cells (a combination laid on its cells: a perfect matching)?"""
    if not masks:
        return True
    first, rest = masks[0], masks[1:]
    for d in DIGITS[first]:
        b = BIT[d]
        if _fits(tuple(sorted(m & ~b for m in rest))):
            return True
    return False


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
    rounds, held = 0, 0.0
    while True:
        cand = [0 if v else 0x1FF for v in val]
        info = []  # per run: its open cells and the digits its combinations leave them
        for r, cs in zip(runs, table, strict=True):
            pm = 0
            opn = []
            for i in r.cells:
                if val[i]:
                    pm |= val[i]
                else:
                    opn.append(i)
            if not opn:
                continue
            rest = [c & ~pm for c in cs if c & pm == pm]
            u = 0
            for c in rest:
                u |= c
            for i in opn:
                cand[i] &= u
            info.append((opn, rest))
        # a run is filtered again in a pass only when a cell of it has narrowed since it
        # was last filtered (the same candidates give the same answer)
        seen: list[tuple | None] = [None] * len(info)
        for _ in range(passes):
            for k, (opn, rest) in enumerate(info):
                now = tuple([cand[i] for i in opn])
                if now == seen[k]:
                    continue
                good = [c for c in rest if _fits(tuple(sorted([m & c for m in now])))]
                u = 0
                for c in good:
                    u |= c
                for i in opn:
                    cand[i] &= u
                info[k] = (opn, good)
                seen[k] = tuple([cand[i] for i in opn])
        new: dict[int, int] = {i: cand[i] for i in range(n) if not val[i] and POP[cand[i]] == 1}
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
        if not new:
            break
        rounds += 1
        held += sum(POP[cand[i]] for i in range(n) if not val[i]) / len(new)
        for i, m in new.items():
            val[i] = m
    return InHead(rounds, held, sum(1 for v in val if v) / n)

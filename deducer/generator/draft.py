"""A draft puzzle: a layout plus a full digit fill; its clues are the fill's run sums.

The fill is always a solution of the draft's clues, so repairs only ever have to remove
the *other* solutions. Cells and runs are numbered exactly as :class:`Puzzle` numbers them
(white cells in reading order; across runs by row, then down runs by column), so solver
results index the draft directly.
"""

from __future__ import annotations

import random

from ..puzzle.combos import POP, combos
from ..puzzle.model import BLANK, WHITE, Puzzle, Run, Square
from ..solver.propagate import Layout
from .layout import Grid, runs_of

_UNIONS: dict[tuple[int, int], int] = {}


def _union(total: int, n: int) -> int:
    """Every digit some combination of ``n`` distinct digits summing to ``total`` uses."""
    key = (total, n)
    u = _UNIONS.get(key)
    if u is None:
        u = 0
        for c in combos(total, n):
            u |= c
        _UNIONS[key] = u
    return u


class Draft:
    """A layout with a fill; mutable (repairs change digits, splits change the layout)."""

    def __init__(self, white: Grid, values: dict[tuple[int, int], int]):
        self.white = white
        self.rows, self.cols = len(white), len(white[0])
        self.whites = [(r, c) for r in range(self.rows) for c in range(self.cols) if white[r][c]]
        self.index = {rc: i for i, rc in enumerate(self.whites)}
        self.runs: list[tuple[int, ...]] = []
        self.run_dir: list[str] = []
        cell_runs: list[list[int]] = [[] for _ in self.whites]
        for direction, cells in runs_of(white):
            rid = len(self.runs)
            ids = tuple(self.index[rc] for rc in cells)
            self.runs.append(ids)
            self.run_dir.append(direction)
            for i in ids:
                cell_runs[i].append(rid)
        self.cell_runs = tuple(tuple(x) for x in cell_runs)
        self.values = [values[rc] for rc in self.whites]
        self.totals = [sum(self.values[i] for i in run) for run in self.runs]
        self._template: Puzzle | None = None  # the first puzzle, whose geometry is reused

    # ---- views ------------------------------------------------------------------
    def layout(self, totals: list[int] | None = None) -> Layout:
        return Layout(tuple(self.runs), tuple(totals or self.totals), self.cell_runs)

    def value_map(self) -> dict[tuple[int, int], int]:
        return {rc: self.values[i] for i, rc in enumerate(self.whites)}

    def puzzle(self) -> Puzzle:
        """The puzzle the draft stands for (clues only, no givens).

        The generator asks for one per candidate digit change, so after the first (fully
        validated) puzzle the geometry is reused: only the clues differ, and clues summed
        from a fill of distinct digits are always valid."""
        squares = self._squares()
        tpl = self._template
        if tpl is None:
            tpl = self._template = Puzzle(squares).validate()
            return tpl
        if squares == tpl.squares:
            return tpl
        p = Puzzle(squares)
        # cached properties of a frozen dataclass live in its __dict__
        p.__dict__.update(whites=tpl.whites, index=tpl.index, cell_runs=tpl.cell_runs,
                          runs=tuple(Run(r.id, r.direction, self.totals[r.id], r.cells, r.coords,
                                        r.clue_at) for r in tpl.runs))
        return p

    def _squares(self) -> tuple:
        clue: dict[tuple[int, int], list] = {}
        for rid, run in enumerate(self.runs):
            r, c = self.whites[run[0]]
            at = (r, c - 1) if self.run_dir[rid] == "A" else (r - 1, c)
            slot = clue.setdefault(at, [None, None])  # [down, across]
            slot[1 if self.run_dir[rid] == "A" else 0] = self.totals[rid]
        squares = []
        for r in range(self.rows):
            row = []
            for c in range(self.cols):
                if self.white[r][c]:
                    row.append(WHITE)
                elif (r, c) in clue:
                    down, across = clue[(r, c)]
                    row.append(Square(False, down, across))
                else:
                    row.append(BLANK)
            squares.append(tuple(row))
        return tuple(squares)

    def around(self, cells) -> tuple[set[int], set[int]]:
        """The runs through the cells that share a run with ``cells``, and their cells:
        what a digit change there can alter before propagation reaches farther."""
        near = {j for i in cells for rid in self.cell_runs[i] for j in self.runs[rid]}
        runs = {rid for j in near for rid in self.cell_runs[j]}
        return runs, {j for rid in runs for j in self.runs[rid]}

    # ---- edits -------------------------------------------------------------------
    def free_digits(self, i: int) -> list[int]:
        """Digits cell ``i`` could take instead of its own, keeping its runs distinct."""
        used: set[int] = set()
        for rid in self.cell_runs[i]:
            used.update(self.values[j] for j in self.runs[rid] if j != i)
        return [d for d in range(1, 10) if d not in used and d != self.values[i]]

    def totals_with(self, i: int, d: int) -> list[int]:
        totals = self.totals[:]
        for rid in self.cell_runs[i]:
            totals[rid] += d - self.values[i]
        return totals

    def _open_at_start(self, i: int, totals: list[int]) -> int:
        """Candidates left in the cells of ``i``'s runs when each cell keeps only the
        digits both its clues allow (the first thing a reader does)."""
        seen = 0
        cells = {j for rid in self.cell_runs[i] for j in self.runs[rid]}
        for j in cells:
            m = 0x1FF
            for rid in self.cell_runs[j]:
                m &= _union(totals[rid], len(self.runs[rid]))
            seen += POP[m]
        return seen

    def sweeten(self, rng: random.Random, rounds: int) -> None:
        """Random digit changes, kept when the clues around the cell leave fewer digits
        at the start (each cell: the digits both its clues allow): easier openings."""
        n = len(self.values)
        for _ in range(rounds):
            i = rng.randrange(n)
            digits = self.free_digits(i)
            if not digits:
                continue
            d = rng.choice(digits)
            if self._open_at_start(i, self.totals_with(i, d)) < \
                    self._open_at_start(i, self.totals):
                self.set(i, d)

    def set(self, i: int, d: int) -> None:
        self.totals = self.totals_with(i, d)
        self.values[i] = d


#: cells one fill attempt may place (backtracking included) before it is given up
FILL_STEPS = 30000


def fill(white: Grid, rng: random.Random, tilt: float = 0.0,
         tries: int = 20) -> dict[tuple[int, int], int] | None:
    """Digits for every white cell, distinct in each run (randomised backtracking).

    ``tilt`` (0..1) is the share of runs pushed towards low or high digits: such runs get
    sums with few combinations, which makes puzzles easier to pin down and to solve.
    """
    runs = runs_of(white)
    run_of: dict = {}
    lean: list[float] = []
    for k, (_, cells) in enumerate(runs):
        for rc in cells:
            run_of.setdefault(rc, []).append(k)
        lean.append(rng.choice((-1.0, 1.0)) if rng.random() < tilt else 0.0)
    cells = sorted(run_of)
    for _ in range(tries):
        values = _fill_once(cells, run_of, lean, len(runs), rng)
        if values is not None:
            return values
    return None


def _fill_once(cells, run_of, lean, nruns: int, rng: random.Random):
    # depth-first with an explicit stack (one frame per cell: a 60x60 grid is deeper than
    # Python's recursion limit); the random draws are made in the same order as a
    # recursive search would make them, so a seed gives the same fill
    used = [0] * nruns  # digit bitmask per run
    values: dict = {}
    count = 0
    most = FILL_STEPS
    stack: list[list[int]] = []  # per cell placed or being tried: the digits still to try

    def enter(k: int) -> bool:
        nonlocal count
        count += 1
        if count > most:
            return False
        rc = cells[k]
        ra, rd = run_of[rc]
        taken = used[ra] | used[rd]
        push = lean[ra] + lean[rd]
        digits = [d for d in range(1, 10) if not taken >> d & 1]
        digits.sort(key=lambda d: rng.random() * 4 + push * (d - 5) * 0.6)
        stack.append(digits[::-1])
        return True

    if not cells:
        return values
    if not enter(0):
        return None
    while stack:
        k = len(stack) - 1
        rc = cells[k]
        ra, rd = run_of[rc]
        if rc in values:  # the digit tried here led nowhere: take it back
            d = values.pop(rc)
            used[ra] &= ~(1 << d)
            used[rd] &= ~(1 << d)
        todo = stack[-1]
        if not todo:
            stack.pop()
            continue
        d = todo.pop()
        values[rc] = d
        used[ra] |= 1 << d
        used[rd] |= 1 << d
        if k + 1 == len(cells):
            return values
        if not enter(k + 1):
            return None  # out of budget: every open branch would fail at once
    return None

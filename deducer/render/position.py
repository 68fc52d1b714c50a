"""Positions: the board after replaying steps 1..k of a walkthrough (candidates, digits
written, what wrote them), and the marks of step k (its cells, its runs, its eliminations
struck out, its placements, a chain's links, a region's area), which the boards of
:mod:`deducer.render.svg` draw on top of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..puzzle.combos import BIT, combos
from ..puzzle.model import Coord, Puzzle
from .walk import region_parts


@dataclass
class Position:
    """The board after some steps: candidates, digits written, what wrote them."""

    masks: list[int]  # per white-cell index
    digits: dict[Coord, int]
    kinds: dict[Coord, str]  # given | entry | placed
    start: list[int]  # masks before the first step (a cell still at it is "untouched")
    k: int = 0  # steps applied

    def copy(self) -> Position:
        return Position(list(self.masks), dict(self.digits), dict(self.kinds), self.start,
                        self.k)


def start_position(puzzle: Puzzle) -> Position:
    """Before step 1: the puzzle's masks with givens and entries written in and their
    digits removed from their runs, exactly as the engine starts."""
    masks = puzzle.initial_masks(with_entries=True)
    digits: dict[Coord, int] = {}
    kinds: dict[Coord, str] = {}
    for rc, d in puzzle.entries.items():
        digits[rc], kinds[rc] = d, "entry"
    for rc, d in puzzle.givens.items():
        digits[rc], kinds[rc] = d, "given"
    idx = puzzle.index
    for rc, d in digits.items():
        i = idx[rc]
        for rid in puzzle.cell_runs[i]:
            for j in puzzle.runs[rid].cells:
                if j != i:
                    masks[j] &= ~BIT[d]
    return Position(masks, digits, kinds, list(masks))


def advance(puzzle: Puzzle, pos: Position, step) -> None:
    """Apply one logged step (its eliminations, then its placements) in place."""
    idx = puzzle.index
    for r, c, ds in step.eliminations:
        i = idx[(r, c)]
        for d in ds:
            pos.masks[i] &= ~BIT[d]
    for r, c, d in step.placements:
        pos.masks[idx[(r, c)]] = BIT[d]
        pos.digits[(r, c)] = d
        pos.kinds[(r, c)] = "placed"
    pos.k += 1


def position_at(puzzle: Puzzle, steps, k: int) -> Position:
    """The board after steps 1..k (k = 0: the start)."""
    pos = start_position(puzzle)
    for step in steps[:k]:
        advance(puzzle, pos, step)
    return pos


@dataclass
class Marks:
    """What one step highlights."""

    cells: set[Coord] = field(default_factory=set)
    runs: set[int] = field(default_factory=set)  # run ids
    struck: dict[Coord, int] = field(default_factory=dict)  # coord -> mask of removed digits
    new: dict[Coord, int] = field(default_factory=dict)  # digits placed by the step
    # a chain drawn on the board: the assumed digit, link numbers at the cells each link
    # changes (later numbers over earlier ones), the cell or run cells where it breaks
    assumed: dict[Coord, int] = field(default_factory=dict)
    badges: dict[Coord, list[int]] = field(default_factory=dict)
    broken: set[Coord] = field(default_factory=set)
    facts: set[Coord] = field(default_factory=set)  # cells whose candidates the proof uses
    # a region sum: its area (outlined), the cells the crossing runs add beyond it, the
    # cells only one group covers, and its runs of each group (walk.RegionParts)
    inside: set[Coord] = field(default_factory=set)
    outside: set[Coord] = field(default_factory=set)
    left: set[Coord] = field(default_factory=set)
    region_runs: dict[int, str] = field(default_factory=dict)  # run id -> "in" | "out"
    # a chain's links joined on the board: (from cell, to cell)
    arrows: list[tuple[Coord, Coord]] = field(default_factory=list)


def run_ids(puzzle: Puzzle) -> dict[str, int]:
    """Run name (as in ``Step.runs``) -> run id."""
    return {run.name: run.id for run in puzzle.runs}


def step_marks(puzzle: Puzzle, step, names: dict[str, int] | None = None) -> Marks:
    names = run_ids(puzzle) if names is None else names
    struck: dict[Coord, int] = {}
    for r, c, ds in step.eliminations:
        for d in ds:
            struck[(r, c)] = struck.get((r, c), 0) | BIT[d]
    marks = Marks(
        cells={tuple(rc) for rc in step.cells},
        runs={names[n] for n in step.runs if n in names},
        struck=struck,
        new={(r, c): d for r, c, d in step.placements},
    )
    add_region(marks, puzzle, step)
    return marks


def add_region(marks: Marks, puzzle: Puzzle, step) -> Marks:
    """A region sum's area on ``marks`` (nothing for another step)."""
    parts = region_parts(puzzle, step)
    if parts is not None:
        marks.inside, marks.outside, marks.left = parts.inside, parts.outside, parts.left
        marks.region_runs = {**{r: "in" for r in parts.base},
                             **{r: "out" for r in parts.crossing}}
    return marks


def shown_candidates(puzzle: Puzzle, pos: Position, marks: Marks | None = None, *,
                     show_all: bool = False) -> dict[Coord, int]:
    """Candidates worth drawing: cells without a digit whose mask has been narrowed since
    the start (or every empty cell with ``show_all``)."""
    out = {}
    for i, rc in enumerate(puzzle.whites):
        if rc in pos.digits:
            continue
        m = pos.masks[i]
        if show_all or m != pos.start[i] or (marks is not None and rc in marks.struck):
            out[rc] = m
    return out


def combination_candidates(puzzle: Puzzle, pos: Position | None = None) -> dict[Coord, int]:
    """For a bare puzzle: each empty cell's digits that fit some combination of both its
    runs (the puzzle's own pencil marks win where it has them)."""
    pos = pos or start_position(puzzle)
    out = {}
    for i, rc in enumerate(puzzle.whites):
        if rc in pos.digits:
            continue
        if rc in puzzle.pencil:
            out[rc] = puzzle.pencil[rc]
            continue
        m = pos.masks[i]
        for rid in puzzle.cell_runs[i]:
            run = puzzle.runs[rid]
            u = 0
            for cm in combos(run.total, run.length):
                u |= cm
            m &= u
        out[rc] = m
    return out


def position_digits(pos: Position) -> dict[Coord, tuple[int, str]]:
    return {rc: (d, pos.kinds.get(rc, "placed")) for rc, d in pos.digits.items()}

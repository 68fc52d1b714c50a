"""Replaying a solve: a solving record stepped through move by move, set beside the
walkthrough (``deducer replay``, the play page's replay; docs/play.md, "Replay").

A record (docs/formats.md, "Solving records") is read from janko.at's ``x-janko`` data: a
saved solve of the play page ("Save my solve"), a janko.at page, or a record of the
janko.at scrapes' JSON lines. :func:`read` gives the puzzle, the record and its solver;
:func:`compare` sets the record beside the walkthrough's order of placements and the
solution:

- each move, with its time (the play page's records have one, janko.at's none) and whether
  the digit it writes is wrong;
- where the solver's order and the walkthrough's part ways: a move that fills a cell for
  good *keeps to* the walkthrough's order when that cell is among the next :data:`AHEAD`
  cells the walkthrough fills (of those the solver has not filled yet), counted from the
  walkthrough's start or from the solver's previous cell; else it *parts ways* (the
  walkthrough's order among independent steps is one of many, so one cell off is no
  parting, and a solver who starts elsewhere and then fills the cells in the
  walkthrough's order keeps to it);
- the cells the solver took longest over: the time before each move on a cell (since the
  move before it, on any cell), summed per cell; a record without times ranks the cells by
  how many moves they took instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import PuzzleError
from ..puzzle import formats, records
from ..puzzle.combos import mask_of
from ..puzzle.formats import janko
from ..puzzle.model import Coord, Puzzle, cell_name
from ..puzzle.records import DIGIT, Move, Record

#: a solver's move keeps to the walkthrough's order when the cell it fills is among the
#: walkthrough's next this many cells (of those the solver has left empty)
AHEAD = 5
#: cells listed as the ones the solver took longest over
SLOWEST = 5


def read(text: str, label: str, *, name: str | None = None,
         fmt: str | None = None) -> tuple[Puzzle, Record, str | None]:
    """The puzzle, its solving record and the solver's name (or None) of janko.at text
    (``x-janko`` data, a janko.at page, a janko.at JSON record; ``name`` picks one of
    several). Bad input raises one error naming ``label``."""

    puzzle = formats.loads(text, fmt, name=name, path=label)
    if fmt not in (None, "janko") or formats.detect(text, label).name != "janko":
        raise PuzzleError("holds no solving record: a record is janko.at's x-janko data with "
                          "its 'moves' (the play page's Save my solve writes one)", path=label)
    moves, solver = janko.solve_record(text, name)
    if moves is None:
        raise PuzzleError("holds no solving record (no 'moves' property)", path=label)
    rec = records.parse(moves, path=label)
    return puzzle.without_progress(), rec, solver


@dataclass(frozen=True)
class Parting:
    """A move where the solver's order parts from the walkthrough's."""

    move: int  # 0-based index in the record's moves
    cell: Coord
    walk_rank: int  # 0-based: the walkthrough's how-manieth cell it is
    next_cell: Coord  # the cell the walkthrough fills next there
    next_digit: int
    next_rule: str  # the technique that fills it

    def text(self) -> str:
        return (f"{cell_name(self.cell)} is the walkthrough's cell {self.walk_rank + 1}; "
                f"its next is {cell_name(self.next_cell)} = {self.next_digit} "
                f"({self.next_rule})")

    def to_json(self) -> dict:
        return {"move": self.move, "cell": list(self.cell), "walk_rank": self.walk_rank,
                "next": [*self.next_cell, self.next_digit], "rule": self.next_rule,
                "text": self.text()}


@dataclass
class Replay:
    """A record set beside the walkthrough (see the module's docstring)."""

    puzzle: Puzzle
    record: Record
    solver: str | None
    solution: dict[Coord, int] | None
    #: the walkthrough's placements in order: (cell, digit, step number, technique)
    walk: list[tuple[Coord, int, int, str]]
    walk_status: str
    #: index of the move from which each cell held its solution digit for good
    order: dict[Coord, int] = field(default_factory=dict)
    partings: list[Parting] = field(default_factory=list)
    #: (cell, milliseconds or moves, moves on the cell), slowest first
    slowest: list[tuple[Coord, int, int]] = field(default_factory=list)
    #: where the record was read from (its file), for a puzzle without a name
    label: str = ""

    #: the walkthrough's next cells a move may fill and keep to its order
    ahead = AHEAD

    def board_after(self, upto: int) -> Puzzle:
        """The puzzle with the entries and pencil marks the first ``upto`` moves left."""
        return board_after(self, upto)

    @property
    def timed(self) -> bool:
        return any(mv.ms is not None for mv in self.record.moves)

    def off_grid(self, mv: Move) -> bool:
        """A move on a square that is no white cell (janko has stray marks on clues)."""
        return mv.cell is not None and mv.cell not in self.puzzle.index

    def wrong(self, mv: Move) -> bool:
        return (self.solution is not None and mv.kind == DIGIT and mv.cell is not None
                and mv.cell in self.solution and self.solution[mv.cell] != mv.digit)

    def follows(self) -> int:
        """How many of the solver's placements kept to the walkthrough's order."""
        return len(self.order) - len(self.partings)

    def to_json(self) -> dict:
        parting = {p.move: p for p in self.partings}
        moves = []
        for k, mv in enumerate(self.record.moves):
            moves.append({"kind": mv.kind, "cell": list(mv.cell) if mv.cell else None,
                          "digit": mv.digit, "marks": list(mv.candidates), "text": mv.text,
                          "ms": mv.ms, "off": self.off_grid(mv), "wrong": self.wrong(mv),
                          "final": self.order.get(mv.cell) == k if mv.cell else False,
                          "part": parting[k].to_json() if k in parting else None})
        return {"solver": self.solver, "timed": self.timed, "moves": moves,
                "walk": [[*c, d, n, rule] for c, d, n, rule in self.walk],
                "walk_status": self.walk_status, "placed": len(self.order),
                "follows": self.follows(),
                "slowest": [{"cell": list(c), "amount": a, "moves": n}
                            for c, a, n in self.slowest],
                "ahead": AHEAD}


def compare(puzzle: Puzzle, record: Record, explanation, solver: str | None = None, *,
            solution: list[int] | None = None) -> Replay:
    """``record`` beside ``explanation`` (the walkthrough of the bare ``puzzle``; its
    solution, or ``solution`` (digits in ``puzzle.whites`` order) when the walkthrough
    stopped short, is the record's yardstick)."""
    sol = explanation.solution if explanation.solution is not None else solution
    digits = dict(zip(puzzle.whites, sol, strict=True)) if sol is not None else None
    walk = [((r, c), d, s.n, s.name) for s in explanation.steps for r, c, d in s.placements]
    rep = Replay(puzzle, record, solver, digits, walk, str(explanation.status))
    if digits is not None:
        rep.order = records.entry_order(record, digits)
    rep.partings = _partings(rep)
    rep.slowest = _slowest(rep)
    return rep


def _partings(rep: Replay) -> list[Parting]:
    rank = {cell: i for i, (cell, *_rest) in enumerate(rep.walk)}
    placed: set[Coord] = set()
    out = []
    last = -1  # the walkthrough's rank of the solver's previous cell

    def next_unfilled(start: int) -> list[int]:
        ahead: list[int] = []
        i = max(0, start)
        while i < len(rep.walk) and len(ahead) < AHEAD:
            if rep.walk[i][0] not in placed:
                ahead.append(i)
            i += 1
        return ahead

    for k, cell in sorted(((k, c) for c, k in rep.order.items())):
        if cell in rank:
            fresh = next_unfilled(0)  # from the walkthrough's start
            on = next_unfilled(last + 1)  # or on from where the solver just was
            if fresh and rank[cell] not in fresh and rank[cell] not in on:
                nc, nd, _n, rule = rep.walk[(on or fresh)[0]]
                out.append(Parting(k, cell, rank[cell], nc, nd, rule))
            last = rank[cell]
        placed.add(cell)
    return out


def _slowest(rep: Replay) -> list[tuple[Coord, int, int]]:
    spent: dict[Coord, int] = {}
    count: dict[Coord, int] = {}
    last = 0
    for mv in rep.record.moves:
        if mv.ms is not None:
            gap, last = mv.ms - last, mv.ms
        else:
            gap = 0
        if mv.cell is None or rep.off_grid(mv):
            continue
        spent[mv.cell] = spent.get(mv.cell, 0) + gap
        count[mv.cell] = count.get(mv.cell, 0) + 1
    amount = spent if rep.timed else count
    ranked = sorted(amount, key=lambda c: (-amount[c], c))
    # without times, a cell that took one move says nothing
    least = 1 if rep.timed else 2
    return [(c, amount[c], count[c]) for c in ranked[:SLOWEST] if amount[c] >= least]


def board_after(rep: Replay, upto: int) -> Puzzle:
    """The puzzle with the entries and pencil marks the first ``upto`` moves left."""

    entries: dict[Coord, int] = {}
    pencil: dict[Coord, int] = {}
    for mv in rep.record.moves[:upto]:
        if mv.cell is None or rep.off_grid(mv):
            continue
        if mv.kind == DIGIT and mv.digit is not None:
            entries[mv.cell] = mv.digit
        else:
            entries.pop(mv.cell, None)
        marks = mask_of(mv.candidates)
        if marks:
            pencil[mv.cell] = marks
        else:
            pencil.pop(mv.cell, None)
    return rep.puzzle.with_entries(entries, pencil)

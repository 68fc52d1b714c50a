"""The proof checker's own board: the puzzle's geometry in the shapes the checker needs,
the candidates and ruled-out combinations the logged steps imply, and a step's JSON
(docs/json-contract.md, "Proofs") read into the board's ids.

Shared by every kind of proof the checker judges (``simple.py``, ``bound.py``,
``assume.py``) and by the judge (``checker.py``); like them it shares no code with the
engine, the rules or the solver.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from itertools import combinations

from ..puzzle.model import Puzzle

ALL = 0x1FF


def bit(d: int) -> int:
    return 1 << (d - 1)


def digits_of(mask: int) -> list[int]:
    return [d for d in range(1, 10) if mask >> (d - 1) & 1]


def mask_of(ds) -> int:
    m = 0
    for d in ds:
        m |= bit(d)
    return m


@cache
def digit_sets(total: int | None, length: int) -> tuple[int, ...]:
    """Every set of ``length`` distinct digits summing to ``total`` (any total: None)."""
    return tuple(mask_of(c) for c in combinations(range(1, 10), length)
                 if total is None or sum(c) == total)


@dataclass
class Board:
    """What the logged steps so far imply: candidates per cell, written digits, and the
    combinations each run has had ruled out."""

    masks: list[int]
    written: list[bool]
    removed: dict[int, set[int]] = field(default_factory=dict)

    def copy(self) -> Board:
        return Board(self.masks.copy(), self.written.copy(),
                     {r: set(s) for r, s in self.removed.items()})


class Grid:
    """The puzzle's geometry in the shapes the checker needs, the board its givens and
    entries leave, and how a step's effects change a board."""

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        self.runs = puzzle.runs
        self.cell_runs = puzzle.cell_runs
        self.by_ref = {(r.ref[0], r.ref[1], r.ref[2]): r.id for r in self.runs}
        self.by_name = {r.name: r.id for r in self.runs}
        self.index = puzzle.index
        # the player's entries are written in as the walk wrote them (a walk of the bare
        # puzzle was of ``puzzle.without_progress()``, which has none)
        masks = puzzle.initial_masks(with_entries=True)
        board = Board(masks, [False] * len(masks))
        written = {**puzzle.givens, **puzzle.entries}
        for rc, d in written.items():
            self.write(board, self.index[rc], d)
        self.board = board

    # ---- changes ----------------------------------------------------------------
    def write(self, board: Board, i: int, d: int) -> None:
        """Digit ``d`` written in cell ``i``: every reader sees it leave the cell's runs."""
        board.masks[i] = bit(d)
        board.written[i] = True
        for rid in self.cell_runs[i]:
            for j in self.runs[rid].cells:
                if j != i:
                    board.masks[j] &= ~bit(d)

    def apply(self, board: Board, eff: Effects) -> None:
        for i, m in eff.elims.items():
            board.masks[i] &= ~m
        for i, d in eff.places.items():
            self.write(board, i, d)
        for rid, cs in eff.combos.items():
            board.removed.setdefault(rid, set()).update(cs)

    # ---- facts ------------------------------------------------------------------
    def possible_combos(self, board: Board, rid: int) -> list[int]:
        """Combinations of run ``rid`` not ruled out that its cells' candidates can hold
        (some arrangement puts each digit in a cell that has it)."""
        run = self.runs[rid]
        cells = [board.masks[i] for i in run.cells]
        gone = board.removed.get(rid, ())
        return [c for c in digit_sets(run.total, run.length)
                if c not in gone and arranges(c, cells)]


def arranges(combo: int, cells: list[int]) -> bool:
    """Can the digits of ``combo`` go one per cell, each cell holding one of its own?"""
    order = sorted(range(len(cells)), key=lambda k: bin(cells[k] & combo).count("1"))

    def place(k: int, left: int) -> bool:
        if k == len(order):
            return True
        m = cells[order[k]] & left
        while m:
            b = m & -m
            if place(k + 1, left & ~b):
                return True
            m &= ~b
        return False

    return place(0, combo)


def peer_elims(rp: Grid, places: dict[int, int]) -> dict[int, int]:
    """Eliminations a placement makes on its own: its digit leaves its runs' other cells."""
    out: dict[int, int] = {}
    for i, d in places.items():
        for rid in rp.cell_runs[i]:
            for j in rp.runs[rid].cells:
                if j != i:
                    out[j] = out.get(j, 0) | bit(d)
    return out


@dataclass
class Effects:
    """A step's (or link's) claims in internal ids."""

    places: dict[int, int] = field(default_factory=dict)
    elims: dict[int, int] = field(default_factory=dict)
    combos: dict[int, set[int]] = field(default_factory=dict)


class Malformed(Exception):
    """The JSON names something the puzzle does not have."""


def cell_id(rp: Grid, r, c) -> int:
    i = rp.index.get((r, c)) if isinstance(r, int) and isinstance(c, int) else None
    if i is None:
        raise Malformed(f"({r}, {c}) is not a white cell")
    return i


def run_id(rp: Grid, ref) -> int:
    try:
        rid = rp.by_ref.get((ref[0], ref[1], ref[2]))
    except (TypeError, IndexError, KeyError):
        rid = None
    if rid is None:
        raise Malformed(f"{ref!r} is not a run")
    return rid


def digit_mask(ds) -> int:
    if not isinstance(ds, list) or not all(isinstance(d, int) and 1 <= d <= 9 for d in ds):
        raise Malformed(f"{ds!r} is not a list of digits")
    return mask_of(ds)


def effects_of(rp: Grid, obj: dict) -> Effects:
    eff = Effects()
    for r, c, d in obj.get("placements", ()):
        eff.places[cell_id(rp, r, c)] = d
    for r, c, ds in obj.get("eliminations", ()):
        i = cell_id(rp, r, c)
        eff.elims[i] = eff.elims.get(i, 0) | digit_mask(ds)
    for name, cs in obj.get("combos_removed", ()):
        rid = rp.by_name.get(name)
        if rid is None:
            raise Malformed(f"{name!r} is not a run")
        try:
            masks = {mask_of(int(x) for x in c.split("+")) for c in cs}
        except ValueError:
            raise Malformed(f"{cs!r} are not combinations like 1+2+4") from None
        eff.combos.setdefault(rid, set()).update(masks)
    return eff


def as_json(step) -> dict:
    return step if isinstance(step, dict) else step.to_json()

"""Explain-mode state: candidates per cell and live combinations per run, plus the
read-only :class:`View` that rule functions receive, and the :class:`Deduction` they yield.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import overload

from ..clock import NO_LIMITS, Limits, stop_asked
from ..puzzle.combos import BIT, DIGITS, SINGLE, SUM, alts_of, combos, fmt_combo, fmt_mask
from ..puzzle.model import Puzzle, Run, cell_name
from ..solver.propagate import Layout


@dataclass
class Proof:
    """What a step rests on (docs/json-contract.md, "Proofs"), in internal ids.

    ``cells`` maps a white-cell index to the candidate mask the cell is limited to; ``combos``
    maps a run id to the combo masks its digits are one of; ``runs`` are the runs whose rules
    the step applies (the local problem), ``search`` those of them whose arrangements a
    reader must try (the rating's floor). A proof by assumption sets ``assume`` = (cell, digit)
    and ``links``; a proof by cases lists assumption proofs in ``cases``, one per candidate.
    Digits written on the board need no fact: every reader sees them.
    """

    cells: dict[int, int] = field(default_factory=dict)
    combos: dict[int, tuple[int, ...]] = field(default_factory=dict)
    runs: tuple[int, ...] = ()
    assume: tuple[int, int] | None = None
    links: tuple[Link, ...] = ()
    cases: tuple[Proof, ...] = ()
    #: runs whose arrangements a reader must try to check the step (not in the JSON: the
    #: rating reads it, see rating.search_floor)
    search: tuple[int, ...] = ()
    #: sentence values known only once the proof is built (a proof built late)
    values: dict = field(default_factory=dict)
    #: a proof by assumption's shape: "whip" (each link rests on the board, the assumption
    #: and the link before it) or "braid" (some link rests on several earlier links)
    kind: str = ""
    #: a sum bound the step states (docs/json-contract.md, "Proofs"): {"cell": i, "run":
    #: rid, "least"/"most": (sum, ((cell, digit), ...)) (or a function giving those pairs,
    #: worked out when the proof is shown)}, the different digits of the run's other open
    #: cells that make the least (most) sum, which the checker works out again
    bound: dict | None = None


@dataclass
class Link:
    """One simple step inside a proof by assumption, with its own local proof."""

    text: str
    proof: Proof
    placements: dict[int, int] = field(default_factory=dict)
    eliminations: dict[int, int] = field(default_factory=dict)
    contradiction: bool = False
    #: 1-based numbers of the earlier links this one rests on (empty: the assumption alone)
    after: tuple[int, ...] = ()
    #: the id of the link rule whose step this is ("" for the closing contradiction)
    rule: str = ""


@dataclass
class Deduction:
    """What a rule found. Cells are white-cell indices, runs are run ids.

    ``eliminations`` maps cell -> mask of digits to remove; ``placements`` maps cell -> digit;
    ``drop_combos`` maps run -> mask-tuple of combinations no longer possible. ``cells`` and
    ``runs`` are what the deduction rests on (highlighted in walkthroughs). ``values`` fill
    the rule's explanation template. ``weight``/``score`` override the rule's (e.g. a
    subset rule whose difficulty grows with its size).
    """

    placements: dict[int, int] = field(default_factory=dict)
    eliminations: dict[int, int] = field(default_factory=dict)
    drop_combos: dict[int, tuple[int, ...]] = field(default_factory=dict)
    cells: tuple[int, ...] = ()
    runs: tuple[int, ...] = ()
    values: dict = field(default_factory=dict)
    weight: float | None = None
    score: int | None = None
    #: units of the rule's ``growth:`` (a chain's links, a region sum's runs beyond two);
    #: the weight is the rule's plus its growth per unit (Rule.weight_of) unless ``weight``
    size: int = 0
    text: str | None = None  # a ready sentence instead of the template (trial chains)
    #: what the step rests on; the engine turns it into the step's JSON. May be a function returning
    #: the Proof, called only for the deduction the engine takes (:func:`resolve_proof`)
    #: and never in lean walks, so such a proof may not carry what the rating reads
    #: (``search`` runs, an assumption): those are given at once
    proof: Proof | Callable[..., Proof | None] | None = None


def resolve_proof(ded: Deduction) -> Proof | None:
    """The deduction's proof, built now if the rule gave a function (cheap rules that
    yield many deductions build the proof only for the one taken); its late sentence
    values join the deduction's."""
    proof = ded.proof
    if callable(proof):
        proof = ded.proof = proof()
        if proof is not None and proof.values:
            ded.values = {**ded.values, **proof.values}
    return proof


class State:
    """Mutable candidates and live combos; rules only ever see a :class:`View` of it."""

    def __init__(self, puzzle: Puzzle, masks: list[int] | None = None,
                 live: list[tuple[int, ...]] | None = None):
        self.puzzle = puzzle
        self.layout = Layout.of(puzzle)
        self.masks = masks if masks is not None else puzzle.initial_masks(with_entries=True)
        self.live = live if live is not None else [
            combos(r.total, r.length) for r in puzzle.runs
        ]
        #: cells whose digit is written in (a given, an entry or a placement)
        self.placed: list[bool] = [False] * len(self.masks)
        #: cells whose candidates changed or whose digit was written in, in order, when the
        #: engine that owns the state keeps that log (None: nobody does); rules that keep
        #: facts from step to step read only what changed instead of the whole grid
        self.journal: list[int] | None = None

    def copy(self) -> State:
        """A copy with no journal (the layout is shared: it never changes)."""
        s = State.__new__(State)
        s.puzzle, s.layout, s.journal = self.puzzle, self.layout, None
        s.masks, s.live, s.placed = self.masks.copy(), self.live.copy(), self.placed.copy()
        return s

    def reopened(self, puzzle: Puzzle, cells, runs) -> State:
        """A copy for ``puzzle`` (same grid, clues may differ) with ``cells`` back to every
        digit their written peers leave and ``runs`` back to all their combinations: where
        a resumed walk starts after a change there (see Engine's ``dirty``)."""
        lay = self.layout
        masks, placed = self.masks[:], self.placed[:]
        for j in cells:
            masks[j], placed[j] = 0x1FF, False
        for j in cells:
            for rid in lay.cell_runs[j]:
                for k in lay.run_cells[rid]:
                    if placed[k]:
                        masks[j] &= ~masks[k]
        live = self.live[:]
        for rid in runs:
            live[rid] = combos(puzzle.runs[rid].total, puzzle.runs[rid].length)
        out = State(puzzle, masks, live)
        out.placed = placed
        return out

    def broken(self) -> tuple[str, int] | None:
        """("cell", i) or ("run", id) where nothing is possible any more, else None."""
        for i, m in enumerate(self.masks):
            if m == 0:
                return ("cell", i)
        for rid, lv in enumerate(self.live):
            if not lv:
                return ("run", rid)
        return None


class _ReadOnly(Sequence[int]):
    """A list seen through a sequence that cannot change it."""

    __slots__ = ("_items",)

    def __init__(self, items: list[int]):
        self._items = items

    @overload
    def __getitem__(self, i: int) -> int: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[int]: ...

    def __getitem__(self, i: int | slice) -> int | Sequence[int]:
        return self._items[i]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[int]:
        return iter(self._items)


class View:
    """Read-only access to a state, with helpers every rule needs."""

    def __init__(self, state: State, context: Context):
        self._s = state
        self.context = context
        self.puzzle: Puzzle = state.puzzle
        self.layout: Layout = state.layout

    # ---- raw facts ------------------------------------------------------------
    @property
    def masks(self) -> Sequence[int]:
        """Every cell's candidate mask, read-only and live (no copy of the grid: take
        ``tuple(view.masks)`` to keep a snapshot)."""
        return _ReadOnly(self._s.masks)

    def mask(self, i: int) -> int:
        return self._s.masks[i]

    @property
    def placed(self) -> tuple[bool, ...]:
        """Per cell: is its digit written in?"""
        return tuple(self._s.placed)

    def suppose(self) -> State:
        """A private copy of the state viewed, to reason on a hypothesis in (chains): the
        caller changes the copy and views it with its own :class:`View`; this view and
        the state it shows stay as they are."""
        return self._s.copy()

    def changed_since(self, mark: int) -> list[int] | None:
        """Cells changed (candidates or written digit) since the log held ``mark`` entries,
        a cell once per change, in order; the log's length is ``mark`` plus their number.
        None when the state keeps no log: compare the whole grid then."""
        journal = self._s.journal
        return None if journal is None else journal[mark:]

    def live(self, rid: int) -> tuple[int, ...]:
        """Combinations of run ``rid`` not yet ruled out."""
        return self._s.live[rid]

    def run(self, rid: int) -> Run:
        return self.puzzle.runs[rid]

    @property
    def run_ids(self) -> range:
        return range(len(self.puzzle.runs))

    def runs_of(self, i: int) -> tuple[int, ...]:
        return self.layout.cell_runs[i]

    def crossing(self, rid: int, i: int) -> int | None:
        """The other run through cell ``i`` (not ``rid``)."""
        for other in self.layout.cell_runs[i]:
            if other != rid:
                return other
        return None

    # ---- derived facts --------------------------------------------------------
    def value(self, i: int) -> int:
        """The digit of a decided cell, else 0."""
        return SINGLE[self._s.masks[i]]

    def is_placed(self, i: int) -> bool:
        """Is the cell's digit written in (not merely down to one candidate)?"""
        return self._s.placed[i]

    def open_cells(self, rid: int) -> list[int]:
        """Cells of the run whose digit is not written in yet."""
        placed = self._s.placed
        return [i for i in self.layout.run_cells[rid] if not placed[i]]

    def placed_mask(self, rid: int) -> int:
        """Digits written in the run so far."""
        m = 0
        placed = self._s.placed
        for i in self.layout.run_cells[rid]:
            if placed[i]:
                m |= self._s.masks[i]
        return m

    def remaining(self, rid: int) -> int | None:
        """What the open cells of a clued run must still add up to."""
        total = self.layout.run_total[rid]
        if total is None:
            return None
        return total - SUM[self.placed_mask(rid)]

    def live_union(self, rid: int) -> int:
        u = 0
        for c in self._s.live[rid]:
            u |= c
        return u

    def live_common(self, rid: int) -> int:
        """Digits every live combination of the run contains."""
        common = 0x1FF
        for c in self._s.live[rid]:
            common &= c
        return common if self._s.live[rid] else 0

    # ---- names for sentences ---------------------------------------------------
    def cell_name(self, i: int) -> str:
        return cell_name(self.puzzle.whites[i])

    def cells_name(self, cells) -> str:
        return ", ".join(self.cell_name(i) for i in cells)

    def run_name(self, rid: int) -> str:
        return self.puzzle.runs[rid].name

    @staticmethod
    def digits(mask: int, sep: str = ",") -> str:
        return fmt_mask(mask, sep)

    @staticmethod
    def combo(mask: int) -> str:
        return fmt_combo(mask)

    @staticmethod
    def combos_text(masks) -> str:
        return alts_of([fmt_combo(c) for c in masks])  # "1+9, 2+8, 3+7 or 4+6"

    @staticmethod
    def bit(d: int) -> int:
        return BIT[d]

    @staticmethod
    def digit_list(mask: int) -> tuple[int, ...]:
        return DIGITS[mask]


class Context:
    """Per-puzzle facts computed once for rules to share (a rule family's analysis, kept
    through :meth:`cache`), and the limits of the walk: a deadline (seconds) and a work
    budget (counted units)."""

    def __init__(self, puzzle: Puzzle, limits: Limits = NO_LIMITS):
        self.puzzle = puzzle
        #: the walk's limits, as its options carry them
        self.limits = limits
        #: perf_counter() time by which the walkthrough must end (expensive rules honour it)
        self.deadline = limits.deadline
        #: units of work the walk may spend (None: no limit), counted by the expensive
        #: rules: a chain link walked, a search node of the complete solver (see
        #: :meth:`spend`). Unlike the deadline it ends a walk at the same point on any
        #: machine at any load, so callers that must be reproducible (the generator) use it
        self.work = limits.work
        self.spent = 0
        #: rules' caches for this walk, by name (see :meth:`cache`)
        self.caches: dict[str, dict] = {}
        #: the ladder the walk runs (the engine sets it), for rules that run other rules
        #: (chains); None: the built-in ladder
        self.rules: list | None = None
        #: per cell, the logged steps that took digits from it, in order: (digits taken,
        #: step number, rule name, the step's runs); kept by walks that word their steps
        #: (None: not kept), read by sentences (a naked single says what took its digits)
        self.taken: dict[int, list[tuple[int, int, str, tuple[int, ...]]]] | None = None

    def cache(self, name: str) -> dict:
        """A rule's cache for this walk: it lives and dies with the context. (Module-level
        dicts keyed weakly by the context leaked every walk: their values held the view,
        which holds the context, so the key never died.)"""
        got = self.caches.get(name)
        if got is None:
            got = self.caches[name] = {}
        return got

    def time_left(self) -> float | None:
        """Seconds until the deadline (None: no limit; 0 once a stop is asked for)."""
        if stop_asked():
            return 0.0
        if self.deadline is None:
            return None

        return self.deadline - time.perf_counter()

    def spend(self, units: int) -> None:
        """Count work done (chain links walked, solver work)."""
        self.spent += units

    def work_left(self) -> int | None:
        """Units left of the work budget (None: no limit; 0 or less: spent)."""
        return None if self.work is None else self.work - self.spent

    def stopped(self) -> bool:
        """Has the deadline passed or the work budget run out? Expensive rules stop then."""
        if self.work is not None and self.spent >= self.work:
            return True
        left = self.time_left()
        return left is not None and left <= 0

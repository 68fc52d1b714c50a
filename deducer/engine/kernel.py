"""The kernel: what a deduction changes on a state, and making that change.

Everything that moves a state on goes through here: the engine's steps, the chains' links
on hypothetical states (:mod:`deducer.rules.chains`), the rule fixture kit
(:mod:`deducer.rules.fixture`) and the tests. :func:`effect` checks a rule's deduction
(:func:`check_deduction`) and measures what it really changes; :func:`apply`
makes that change: digits written (each leaves the other cells of its runs, and the runs'
combinations without it go), candidates removed, combinations dropped. It returns the cells
and runs it touched (the engine's incremental bookkeeping) and can note in an undo log what
it overwrote (the whip search writes a node's state in one scratch board and undoes it).

The proof checker (:mod:`deducer.proofcheck`) keeps its own replay on purpose: it judges the
engine's output from outside, so it must not share the engine's code.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..errors import RuleError
from ..puzzle.combos import BIT
from .rule import Rule
from .ruleyaml import number, short
from .state import Deduction, State


@dataclass(frozen=True, slots=True)
class Effect:
    """What a deduction really changes on the state it was measured on: placements (cell,
    digit), eliminations (cell, mask of digits still there to remove) and combinations
    dropped (run, masks still live), each sorted by cell or run. Hashable: a chain search
    meets each effect once."""

    place: tuple[tuple[int, int], ...] = ()
    elim: tuple[tuple[int, int], ...] = ()
    drop: tuple[tuple[int, tuple[int, ...]], ...] = ()

    def cells(self) -> set[int]:
        """The cells written or narrowed (not their runs' peers)."""
        return {i for i, _ in self.place} | {i for i, _ in self.elim}


#: what :func:`undo` puts back, latest last: (cell, mask, written in?) or (~run, live
#: combinations, False)
UndoLog = list[tuple[int, Any, bool]]


def effect(state: State, rule: Rule, ded: Deduction) -> Effect | None:
    """What ``rule``'s deduction ``ded`` really changes on ``state`` (None: nothing). A
    malformed deduction is refused with a one-line :class:`~deducer.errors.RuleError`
    naming the rule, for every rule and on every state (a board or a chain's hypothesis)."""
    check_deduction(rule, ded, len(state.masks), len(state.live))
    return measure(state, ded.placements.items(), ded.eliminations.items(),
                   ded.drop_combos.items())


def measure(state: State, place: Iterable[tuple[int, int]], elim: Iterable[tuple[int, int]],
            drop: Iterable[tuple[int, Iterable[int]]]) -> Effect | None:
    """What claims of placements (cell, digit), eliminations (cell, mask) and dropped
    combinations (run, masks) really change on ``state`` (None: nothing). The claims must
    be well formed (:func:`effect` checks a deduction's; chains measure a checked
    deduction's claims again on each hypothetical state)."""
    masks, placed, live = state.masks, state.placed, state.live
    p = [(i, d) for i, d in place if not placed[i]]
    e = [(i, masks[i] & m & 0x1FF) for i, m in elim if masks[i] & m & 0x1FF]
    dr = []
    for r, cs in drop:
        lv = live[r]
        kept = tuple([c for c in cs if c in lv])
        if kept:
            dr.append((r, kept))
    if not (p or e or dr):
        return None
    p.sort()
    e.sort()
    dr.sort()
    return Effect(tuple(p), tuple(e), tuple(dr))


def apply(state: State, eff: Effect, log: UndoLog | None = None) -> tuple[set[int], set[int]]:
    """Make ``eff`` on ``state``: candidates removed, digits written in (:func:`write`),
    combinations dropped. Returns (cells whose candidates changed or that were written in,
    runs whose live combinations changed); with ``log``, notes there what it overwrote,
    before it does, for :func:`undo`."""
    masks, placed, live = state.masks, state.placed, state.live
    cells: set[int] = set()
    runs: set[int] = set()
    for i, m in eff.elim:
        if masks[i] & m:
            if log is not None:
                log.append((i, masks[i], placed[i]))
            masks[i] &= ~m
            cells.add(i)
    for i, d in eff.place:
        write(state, i, d, cells, runs, log)
    for r, cs in eff.drop:
        lv = live[r]
        kept = tuple([c for c in lv if c not in cs])
        if len(kept) != len(lv):
            if log is not None:
                log.append((~r, lv, False))
            live[r] = kept
            runs.add(r)
    return cells, runs


def write(state: State, i: int, d: int, cells: set[int] | None = None,
          runs: set[int] | None = None, log: UndoLog | None = None) -> None:
    """Digit ``d`` written in cell ``i``: it leaves the other cells of the cell's runs, and
    the runs' combinations without it go. The cells and runs changed join ``cells`` and
    ``runs``; ``log`` as in :func:`apply`."""
    masks, placed, live, lay = state.masks, state.placed, state.live, state.layout
    b = BIT[d]
    if log is not None:
        log.append((i, masks[i], placed[i]))
    masks[i] = b
    placed[i] = True
    if cells is not None:
        cells.add(i)
    for r in lay.cell_runs[i]:
        for j in lay.run_cells[r]:
            if j != i and masks[j] & b:
                if log is not None:
                    log.append((j, masks[j], placed[j]))
                masks[j] &= ~b
                if cells is not None:
                    cells.add(j)
        lv = live[r]
        kept = tuple([c for c in lv if c & b])
        if len(kept) != len(lv):
            if log is not None:
                log.append((~r, lv, False))
            live[r] = kept
            if runs is not None:
                runs.add(r)


def undo(state: State, log: UndoLog) -> None:
    """Put back what the changes noted in ``log`` overwrote, latest first; empties it."""
    masks, placed, live = state.masks, state.placed, state.live
    for where, was, was_placed in reversed(log):
        if where < 0:
            live[~where] = was
        else:
            masks[where], placed[where] = was, was_placed
    log.clear()


def before(log: UndoLog) -> dict[int, int]:
    """The candidates each cell noted in ``log`` had before the changes (a cell's first
    note), for saying what a step took."""
    out: dict[int, int] = {}
    for where, was, _ in log:
        if where >= 0 and where not in out:
            out[where] = was
    return out


def settle(state: State) -> None:
    """Every run's live combinations narrowed to those holding all the digits written in
    it (never widened): for a state whose digits were set rather than written with
    :func:`write`, such as a resumed walk's reopened runs."""
    masks, placed, live, lay = state.masks, state.placed, state.live, state.layout
    for r, cells in enumerate(lay.run_cells):
        written = 0
        for j in cells:
            if placed[j]:
                written |= masks[j]
        if written:
            live[r] = tuple(c for c in live[r] if c & written == written)


# ------------------------------------------------- a rule's deduction, checked
def _badnumber(v, *, whole: bool = False) -> bool:
    if isinstance(v, bool) or not isinstance(v, int | float):
        return True
    if whole:
        return not isinstance(v, int) or not 0 <= v <= 10**9
    return not number(v)


def _plainly_well_formed(ded, n_cells: int, n_runs: int) -> bool:
    """The common deduction, checked quickly: plain ints and dicts, in range, no
    combinations dropped, no weight or score of its own (anything else is checked by
    :func:`check_deduction` in full, with the same verdict). Chain searches check every
    deduction their link rules give."""
    if type(ded.placements) is not dict or type(ded.eliminations) is not dict \
            or type(ded.drop_combos) is not dict or type(ded.values) is not dict \
            or ded.drop_combos or ded.weight is not None or ded.score is not None:
        return False
    for i, d in ded.placements.items():
        if type(i) is not int or not 0 <= i < n_cells or type(d) is not int or not 1 <= d <= 9:
            return False
    for i, m in ded.eliminations.items():
        if type(i) is not int or not 0 <= i < n_cells or type(m) is not int:
            return False
    cells, runs = ded.cells, ded.runs
    if type(cells) is not tuple and type(cells) is not list or \
            type(runs) is not tuple and type(runs) is not list:
        return False
    for i in cells:
        if type(i) is not int or not 0 <= i < n_cells:
            return False
    for r in runs:
        if type(r) is not int or not 0 <= r < n_runs:
            return False
    for k in ded.values:
        if type(k) is not str:
            return False
    return ded.text is None or type(ded.text) is str


def check_deduction(rule: Rule, ded, n_cells: int, n_runs: int) -> None:
    """Refuse a malformed :class:`~deducer.engine.state.Deduction` from a rule with a
    one-line :class:`RuleError` naming the rule and its file (not a crash somewhere later,
    not NaN in the JSON)."""
    if type(ded) is Deduction and _plainly_well_formed(ded, n_cells, n_runs):
        return

    def bad(what: str):
        raise RuleError(f"rule {rule.id!r} ({rule.implementation}) yielded a deduction with "
                        f"{what}", path=rule.source)

    def cell_ok(i) -> bool:
        return isinstance(i, int) and not isinstance(i, bool) and 0 <= i < n_cells

    def run_ok(r) -> bool:
        return isinstance(r, int) and not isinstance(r, bool) and 0 <= r < n_runs

    if not isinstance(ded, Deduction):
        raise RuleError(f"rule {rule.id!r} yielded {type(ded).__name__}, not a Deduction",
                        path=rule.source)
    for key in ("placements", "eliminations", "drop_combos", "values"):
        if not isinstance(getattr(ded, key), dict):
            bad(f"{key} that is not a dict ({short(getattr(ded, key))})")
    for i, d in ded.placements.items():
        if not (cell_ok(i) and isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 9):
            bad(f"a placement outside the grid or not a digit 1..9 ({short(i)}, {short(d)}) "
                f"(cells are 0..{n_cells - 1})")
    for i, m in ded.eliminations.items():
        if not (cell_ok(i) and isinstance(m, int) and not isinstance(m, bool)):
            bad(f"an elimination outside the grid or not a digit mask ({short(i)}, "
                f"{short(m)}) (cells are 0..{n_cells - 1})")
    for r, cs in ded.drop_combos.items():
        if not run_ok(r):
            bad(f"drop_combos for run {short(r)}, which is not a run (runs are "
                f"0..{n_runs - 1})")
        if not isinstance(cs, tuple | list | set | frozenset) or not all(
                isinstance(c, int) and not isinstance(c, bool) for c in cs):
            bad(f"drop_combos for run {r} that are not digit masks ({short(cs)})")
    for key, ok, kind in (("cells", cell_ok, "cell"), ("runs", run_ok, "run")):
        seq = getattr(ded, key)
        if not isinstance(seq, tuple | list):
            bad(f"{key} that is not a tuple ({short(seq)})")
        for x in seq:
            if not ok(x):
                top = (n_cells if kind == "cell" else n_runs) - 1
                bad(f"{key} naming {short(x)}, which is not a {kind} ({kind}s are 0..{top})")
    if not all(isinstance(k, str) for k in ded.values):
        bad("values whose keys are not all text")
    if ded.weight is not None and _badnumber(ded.weight):
        bad(f"weight {short(ded.weight)} (a finite number >= 0, or None)")
    if ded.score is not None and _badnumber(ded.score, whole=True):
        bad(f"score {short(ded.score)} (a whole number 0..10**9, or None)")
    if ded.text is not None and not isinstance(ded.text, str):
        bad(f"text {short(ded.text)} (a sentence, or None)")

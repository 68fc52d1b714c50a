"""Fixture helpers for rule tests: build a position, call one rule, read what it found.

A position is a puzzle in seed 002's ``|`` format plus chosen candidates, written-in
digits and (optionally) live combinations::

    p = puzzle(r'''
        \\  |4\\ |\\
        \\3 |    |
        \\  |    |\\
    ''')
    v = position(p, cands={"r2c2": "13"}, placed={"r2c3": 2})
    found = fire("unique-intersection", v, run(p, "r2c1>"))

Cells are named ``r2c3`` (1-based, as in the sentences); runs by their clue square and an
arrow, ``r2c1>`` (across) or ``r1c2v`` (down); the unicode arrows work too.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from functools import lru_cache

from deducer.engine import registry
from deducer.engine.sentences import effect_text, worded
from deducer.engine.state import Context, Deduction, State, View
from deducer.puzzle import formats
from deducer.puzzle.combos import BIT, DIGITS, combos, mask_of
from deducer.puzzle.model import Puzzle
from deducer.rules.fixture import sync_written

_ARROWS = {">": "→", "v": "↓", "→": "→", "↓": "↓"}


def puzzle(text: str) -> Puzzle:
    """A puzzle from ``|``-separated rows (indentation and blank lines ignored)."""
    return formats.loads(textwrap.dedent(text).strip("\n"), "pipe")


def cell(p: Puzzle, name: str) -> int:
    """White-cell index of ``r3c4`` (1-based)."""
    r, c = name[1:].split("c")
    return p.index[(int(r) - 1, int(c) - 1)]


def run(p: Puzzle, label: str) -> int:
    """Run id from ``r2c1>`` / ``r1c2v`` (clue square and direction)."""
    want = label[:-1] + _ARROWS[label[-1]]
    for r in p.runs:
        if r.label == want:
            return r.id
    raise KeyError(f"no run {label!r}; runs: {', '.join(r.label for r in p.runs)}")


def _mask(x) -> int:
    if isinstance(x, int):
        return BIT[x]
    return mask_of(int(ch) for ch in str(x) if ch.isdigit())


def combo_mask(text: str) -> int:
    """``"1+3+9"`` -> mask."""
    return mask_of(int(x) for x in text.split("+"))


def position(p: Puzzle, cands: dict | None = None, placed: dict | None = None,
             live: dict | None = None, *, sync: bool = True) -> View:
    """A read-only view of a chosen state.

    ``cands``: cell name -> digits (``"139"``) it may still hold (others keep 1..9, or
    their given). ``placed``: cell name -> digit written in. ``live``: run label ->
    combinations (``["1+9", "2+8"]``) still possible. With ``sync`` the engine's
    bookkeeping is imitated: written-in digits leave the cells of their runs and every
    combination without them dies.
    """
    masks = p.initial_masks(with_entries=True)
    for name, ds in (cands or {}).items():
        masks[cell(p, name)] = _mask(ds)
    state = State(p, masks)
    fixed = {cell(p, n): d for n, d in (placed or {}).items()}
    for rc, d in {**p.entries, **p.givens}.items():
        fixed.setdefault(p.index[rc], d)
    for i, d in fixed.items():
        masks[i] = BIT[d]
        state.placed[i] = True
    if live:
        for label, cs in live.items():
            state.live[run(p, label)] = tuple(combo_mask(c) for c in cs)
    if sync:
        sync_written(state, fixed)
    return View(state, Context(p))


@lru_cache(maxsize=1)
def _rules() -> dict:
    return {r.id: r for r in registry.all_rules()}


def rule(rule_id: str):
    return _rules()[rule_id]


@dataclass
class Found:
    """What one deduction really changes, in names: easy to compare in a test."""

    place: dict = field(default_factory=dict)  # "r2c3" -> digit
    elim: dict = field(default_factory=dict)  # "r2c3" -> "125" (digits removed)
    drop: dict = field(default_factory=dict)  # "r2c1→" -> ["1+9", ...]
    text: str = ""
    #: the whole case analysis (the rule's ``detail`` template; "" when it has none)
    detail: str = ""
    deduction: Deduction | None = None

    @property
    def full(self) -> str:
        """The sentence and its detail: everything a reader can unfold."""
        return f"{self.text} {self.detail}".strip()


def effect(view: View, ded: Deduction) -> Found | None:
    """The real change of a deduction in this position (None if it changes nothing),
    as the engine measures it."""
    p = view.puzzle
    names = {i: view.cell_name(i) for i in range(len(p.whites))}
    place = {i: d for i, d in ded.placements.items() if not view.is_placed(i)}
    elim = {i: view.mask(i) & m for i, m in ded.eliminations.items() if view.mask(i) & m}
    drop = {rid: tuple(c for c in cs if c in view.live(rid))
            for rid, cs in ded.drop_combos.items()}
    drop = {rid: cs for rid, cs in drop.items() if cs}
    if not (place or elim or drop):
        return None
    return Found(
        place={names[i]: d for i, d in place.items()},
        elim={names[i]: "".join(map(str, DIGITS[m])) for i, m in elim.items()},
        drop={p.runs[rid].label: sorted(view.combo(c) for c in cs) for rid, cs in drop.items()},
        deduction=ded,
    )


def deductions(rule_id: str, view: View, rid: int | None = None) -> list[Found]:
    """Every deduction the rule yields here that changes something (with its sentence)."""
    r = rule(rule_id)
    out = []
    for ded in r.call(view, rid) or ():
        f = effect(view, ded)
        if f is None:
            continue
        place = {i: d for i, d in ded.placements.items() if not view.is_placed(i)}
        elim = {i: view.mask(i) & m for i, m in ded.eliminations.items() if view.mask(i) & m}
        drop = {k: tuple(c for c in cs if c in view.live(k))
                for k, cs in ded.drop_combos.items()}
        eff = effect_text(view, place, elim, {k: v for k, v in drop.items() if v})
        f.text, f.detail = (ded.text, "") if ded.text else worded(r, ded, view, eff)
        out.append(f)
    return out


def fire(rule_id: str, view: View, rid: int | None = None) -> Found | None:
    """The first deduction the engine would take from this rule (None: it does not fire)."""
    found = deductions(rule_id, view, rid)
    return found[0] if found else None


def all_live(p: Puzzle, rid: int) -> tuple[int, ...]:
    r = p.runs[rid]
    return combos(r.total, r.length)

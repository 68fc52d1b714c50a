"""Fixtures for rule authors' unit tests: a position from text, and what a rule does there.

A position is written as a puzzle (any format deducer reads; the ``|`` format shows it
best): ``(1,3)`` pencil marks are the cell's candidates, a digit is written in, an empty
cell may hold 1..9. No internal classes, no bit masks::

    from deducer.rules.fixture import fire, position

    view = position(r'''
        \\|4\\|16\\|6\\
        \\12|(1,3)|(7,9)|(1,2,4,5)
        \\14|(1,3)|(7,9)|(1,2,4,5)
    ''')
    (found,) = fire(sum_parity, view, run="r2c1>")
    assert found.eliminations == {"r2c4": [1, 5]}
    assert fire(sum_parity, view, run="r1c2v") == []

Cells are named ``r2c4`` (1-based, as in the sentences); runs by their clue square and an
arrow: ``r2c1>`` (across) or ``r1c2v`` (down); ``→`` and ``↓`` work too.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.registry import RULE_MARK, Rule, load_file
from ..engine.sentences import effect_text, worded
from ..engine.state import Context, Deduction, State, View
from ..errors import DeducerError
from ..puzzle import formats
from ..puzzle.combos import BIT, DIGITS

__all__ = ["Found", "cell_id", "fire", "load_rule", "position", "run_id"]

_ARROWS = {">": "→", "v": "↓", "→": "→", "↓": "↓"}


def position(text: str, *, format: str | None = None) -> View:  # noqa: A002 (like --format)
    """The read-only view a rule function receives, for the position ``text`` describes.

    Pencil marks are the candidates of their cell; a digit (an entry or a given) is written
    in, and leaves the other cells of its runs, and every combination of its runs without
    it dies, as in the engine; any other cell may hold 1..9 (its parity, in a parity
    puzzle). A file's text works too: ``position(Path("pos.txt").read_text())``.
    """
    body = textwrap.dedent(text).strip("\n")
    p = formats.loads(body, format)
    masks = p.initial_masks(with_entries=True)
    for rc, m in p.pencil.items():
        masks[p.index[rc]] = m
    state = State(p, masks)
    fixed = {p.index[rc]: d for rc, d in {**p.entries, **p.givens}.items()}
    for i, d in fixed.items():
        masks[i] = BIT[d]
        state.placed[i] = True
    sync_written(state, fixed)
    return View(state, Context(p))


def sync_written(state: State, fixed: dict[int, int]) -> None:
    """The engine's bookkeeping for digits written in (cell index -> digit): each leaves
    the other open cells of its runs, and every combination of its runs without it dies."""
    p = state.puzzle
    for i, d in fixed.items():
        for rid in p.cell_runs[i]:
            for j in p.runs[rid].cells:
                if j != i and not state.placed[j]:
                    state.masks[j] &= ~BIT[d]
            state.live[rid] = tuple(c for c in state.live[rid] if c & BIT[d])


def cell_id(view: View, name: str) -> int:
    """The cell index of ``r3c4`` (what a Deduction's ``cells`` hold)."""
    try:
        r, c = name.lower().lstrip("r").split("c")
        return view.puzzle.index[(int(r) - 1, int(c) - 1)]
    except (ValueError, KeyError):
        raise DeducerError(f"no white cell {name!r} in this position") from None


def run_id(view: View, label: str) -> int:
    """The run id of ``r2c1>`` (across) or ``r1c2v`` (down), named by its clue square."""
    label = label.strip()
    want = label[:-1] + _ARROWS.get(label[-1:], label[-1:])
    for r in view.puzzle.runs:
        if r.label == want:
            return r.id
    raise DeducerError(f"no run {label!r}; the runs are "
                       f"{', '.join(r.label for r in view.puzzle.runs)}")


def load_rule(rule_file: str | Path, rule_id: str) -> Rule:
    """A rule of a YAML rule file, as the engine loads it (for :func:`fire`)."""
    for r in load_file(rule_file):
        if r.id == rule_id:
            return r
    raise DeducerError(f"no rule {rule_id!r} in this file", path=str(rule_file))


@dataclass
class Found:
    """What one deduction really changes in the position, in names."""

    placements: dict[str, int] = field(default_factory=dict)  # "r2c3" -> 7
    eliminations: dict[str, list[int]] = field(default_factory=dict)  # "r2c3" -> [1, 5]
    dropped: dict[str, list[str]] = field(default_factory=dict)  # "r2c1→" -> ["1+9"]
    values: dict = field(default_factory=dict)  # the template values the rule gave
    text: str = ""  # the sentence (only when fired through a Rule, which has a template)
    #: the whole case analysis (the rule's ``detail`` template; "" when it has none or it
    #: says no more than ``text``)
    detail: str = ""


def fire(rule: Callable | Rule, view: View, run: str | None = None, **params) -> list[Found]:
    """Every deduction ``rule`` yields in ``view`` that changes something, in order (the
    engine applies the first). ``rule`` is a rule function (``@rule``-marked) or a
    :class:`Rule` from :func:`load_rule`; ``run`` names the run a ``scope: run`` rule is
    asked about; ``params`` are its keyword arguments."""
    rid = None if run is None else run_id(view, run)
    if isinstance(rule, Rule):
        func = rule.func
        assert func is not None  # resolved by load_rule
        out = rule.call(view, rid) if not params else (
            func(view, **params) if rid is None else func(view, rid, **params))
    else:
        if not isinstance(getattr(rule, RULE_MARK, None), tuple):
            raise DeducerError(f"{getattr(rule, '__name__', rule)!r} is not marked with @rule")
        out = rule(view, **params) if rid is None else rule(view, rid, **params)
    found = []
    for ded in out or ():
        f = _effect(view, ded, rule if isinstance(rule, Rule) else None)
        if f is not None:
            found.append(f)
    return found


def _effect(view: View, ded: Deduction, rule: Rule | None) -> Found | None:
    if not isinstance(ded, Deduction):
        raise DeducerError(f"the rule yielded {type(ded).__name__}, not a Deduction")
    place = {i: d for i, d in ded.placements.items() if not view.is_placed(i)}
    elim = {i: view.mask(i) & m for i, m in ded.eliminations.items() if view.mask(i) & m}
    drop = {r: tuple(c for c in cs if c in view.live(r)) for r, cs in ded.drop_combos.items()}
    drop = {r: cs for r, cs in drop.items() if cs}
    if not (place or elim or drop):
        return None
    text = detail = ""
    if rule is not None:
        text, detail = (ded.text, "") if ded.text else worded(
            rule, ded, view, effect_text(view, place, elim, drop))
    return Found(
        placements={view.cell_name(i): d for i, d in place.items()},
        eliminations={view.cell_name(i): list(DIGITS[m]) for i, m in elim.items()},
        dropped={view.puzzle.runs[r].label: sorted(view.combo(c) for c in cs)
                 for r, cs in drop.items()},
        values=dict(ded.values), text=text, detail=detail)

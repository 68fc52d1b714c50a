"""Every open step: each deduction the ladder finds at a position, simplest first
(``deducer hint --all``; HoDoKu's "find all steps").

The position is the grid as the player has it, reasoned from as a hint reasons: clues,
givens and entries (pencil marks are not taken as candidates). Each deduction is given as
the step it would be if it were made next (:meth:`Engine.preview`): its sentence, its
effect and its proof, in the walkthrough's step format, so the first one listed is the
step a walkthrough from here makes. The rules are asked in ladder order, every run of a
run rule in id order; trial and guessing are left out (they are fallbacks, not things a
player spots). A deduction whose effect a deduction listed before it already has in full
(the same digit written, the same candidates gone or more) is left out and counted in
``hidden``: a harder rule seeing again what an easier one saw teaches nothing new.

Mistakes come first, as for a hint: an entry no solution has is reported instead of steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..clock import NO_LIMITS, Limits
from ..engine import registry
from ..engine.walk import Engine, WalkOptions
from ..puzzle.combos import BIT
from ..puzzle.model import Puzzle
from .checking import DEFAULT_CAP, Mistake, check
from .hints import TIMED_OUT, _capital, _several

if TYPE_CHECKING:
    from ..engine.walk import Step

#: rule kinds left out: fallbacks, not deductions a player looks for
LEFT_OUT = ("trial", "guess")


@dataclass
class AllSteps:
    """Every open step at a position. ``kind``: ``steps`` (``steps`` holds them),
    ``none`` (no rule of the ladder finds one), ``solved``, ``mistake`` (fix the entries
    first: ``mistakes``), ``conflict``, ``unsolvable``, ``timeout`` (the time ran out
    before any step was found; with steps found, ``complete`` is False instead)."""

    kind: str
    steps: list[Step] = field(default_factory=list)
    text: str = ""
    mistakes: list[Mistake] = field(default_factory=list)
    several: bool = False  # the puzzle has more than one solution
    complete: bool = True  # False: the time limit stopped the search for more
    hidden: int = 0  # deductions a simpler listed step already makes in full
    rules: list[str] = field(default_factory=list)  # the rules asked, in ladder order

    def to_json(self) -> dict:
        """``{"steps": [...]}`` (each as ``explain --json`` gives a step), with ``kind``,
        ``text``, ``complete``, ``hidden``, ``several_solutions`` and any ``mistakes``."""
        out: dict = {"kind": self.kind, "text": self.text,
                     "steps": [s.to_json() for s in self.steps],
                     "complete": self.complete, "hidden": self.hidden,
                     "several_solutions": self.several}
        if self.mistakes:
            out["mistakes"] = [m.to_json() for m in self.mistakes]
        return out


def _after(puzzle: Puzzle, start: list[int], step) -> dict[int, int]:
    """The candidates of the cells ``step`` changes, once it is made."""
    idx = puzzle.index
    out: dict[int, int] = {}
    for r, c, ds in step.eliminations:
        i = idx[(r, c)]
        m = out.get(i, start[i])
        for d in ds:
            m &= ~BIT[d]
        out[i] = m
    for r, c, d in step.placements:
        out[idx[(r, c)]] = BIT[d]
    return out


def _covers(big: tuple[dict[int, int], set], small: tuple[dict[int, int], set]) -> bool:
    """Does a step with effect ``big`` leave every cell ``small`` changes at least as
    narrow, and drop every combination it drops?"""
    cells, combos = big
    return all(i in cells and cells[i] & ~m == 0 for i, m in small[0].items()) \
        and small[1] <= combos


def _found(eng, rule, late) -> list:
    """``rule``'s deductions at the position (with their effects), until ``late()``."""
    out = []
    for k, pair in enumerate(eng.deductions(rule)):
        out.append(pair)
        if k & 15 == 15 and late():
            break
    return out


class _Kept:
    """The effects of the steps listed so far, indexed by the cells and combinations they
    touch: whether one covers a new step's effect is asked of the few that touch the same
    first cell, not of all of them (tens of thousands on a big grid: quadratic)."""

    def __init__(self) -> None:
        self.effects: list[tuple[dict[int, int], set]] = []
        self.by_cell: dict[int, list[int]] = {}
        self.by_combo: dict[tuple, list[int]] = {}

    def add(self, effect: tuple[dict[int, int], set]) -> None:
        k = len(self.effects)
        self.effects.append(effect)
        for i in effect[0]:
            self.by_cell.setdefault(i, []).append(k)
        for rc in effect[1]:
            self.by_combo.setdefault(rc, []).append(k)

    def covers(self, mine: tuple[dict[int, int], set]) -> bool:
        """Does a step listed so far make ``mine`` in full (:func:`_covers`)?"""
        near: Sequence[int]
        if mine[0]:
            near = self.by_cell.get(next(iter(mine[0])), [])
        elif mine[1]:
            near = self.by_combo.get(next(iter(mine[1])), [])
        else:
            near = range(len(self.effects))  # no effect at all: any step covers it
        return any(_covers(self.effects[k], mine) for k in near)


def all_steps(puzzle: Puzzle, rules=None, *, limits: Limits = NO_LIMITS,
              max_solutions: int = DEFAULT_CAP) -> AllSteps:
    """Every deduction ``rules`` (None: the core ladder) find at the position of
    ``puzzle``, simplest first (see the module docstring)."""

    if rules is None:
        rules = registry.load()
    # at most half the time: a check stopped by it (inconclusive) leaves the steps theirs
    verdict = check(puzzle, max_solutions=max_solutions, limits=limits.part(0.5))
    if verdict.status == "unsolvable":
        return AllSteps("unsolvable", text=_capital(verdict.message) + ".")
    warning = _several(verdict, puzzle)
    if verdict.mistakes:
        text = "; ".join(m.sentence() for m in verdict.mistakes)
        return AllSteps("mistake", text=warning + _capital(text) + ". Fix them first.",
                        mistakes=verdict.mistakes, several=bool(warning))
    if verdict.status == "conflict":
        return AllSteps("conflict", text=_capital(verdict.message) + ".")
    eng = Engine(puzzle, rules, WalkOptions(limits=limits))
    # the walk's rules: a ``walk: false`` rule's steps are a chain's links, never the board's
    asked = [r for r in eng.rules if r.kind not in LEFT_OUT]
    out = AllSteps("steps", several=bool(warning), rules=[r.id for r in asked])
    if not eng.open_count:
        out.kind, out.text = "solved", "The grid is complete and correct."
        return out
    start = list(eng.state.masks)
    # every loop looks at the clock, and each rule's steps are worded as soon as they are
    # found: a 150x150 grid holds tens of thousands of open deductions, and a limit checked
    # only between rules was overrun by a minute, or spent finding steps none of which it
    # had time left to word
    late = eng.context.stopped
    available = 0  # the easy moves open, which each step says: counted as they are found
    kept = _Kept()
    for rule in asked:
        if late():
            out.complete = False
            break
        found = _found(eng, rule, late)
        if rule.tier == 1:
            available += len(found)
        for ded, effect in found:
            if late():
                break
            step = eng.preview(rule, ded, effect)
            mine = (_after(puzzle, start, step),
                    {(run, c) for run, cs in step.combos_removed for c in cs})
            if kept.covers(mine):
                out.hidden += 1
                continue
            kept.add(mine)
            step.n = len(out.steps) + 1
            out.steps.append(step)
        if late():  # the expensive rules stop at the deadline: partial
            out.complete = False
            break
    # (a lower bound when the time ran out before every easy rule was asked)
    out.steps = [replace(step, available=available) for step in out.steps]
    n = len(out.steps)
    if n:
        out.text = (f"{n} step{'s are' if n != 1 else ' is'} open here, simplest first"
                    + (f" ({out.hidden} more that a simpler one already makes in full are "
                       "left out)" if out.hidden else "")
                    + ("; the time limit stopped the search, so there may be more"
                       if not out.complete else "") + ".")
    elif not out.complete:
        out.kind, out.text = "timeout", TIMED_OUT
    else:
        out.kind = "none"
        out.text = ("No rule of the ladder finds a deduction from here"
                    + (" (trial and guessing aside)." if len(asked) < len(eng.rules)
                       else "."))
    out.text = warning + out.text
    return out

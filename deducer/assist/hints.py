"""Hints for a partly filled grid: the next simplest deduction, in three tiers.

* ``vague``: the technique to look for, in the words of the rule's ``hint:`` (written for
  players; never the rule's description, which speaks to rule authors).
* ``concrete``: the technique and where (the runs and cells it rests on).
* ``full``: the whole sentence of the step, with what it places or removes.

Before any deduction, the player's progress is checked against *every* solution
(:mod:`deducer.assist.checking`): a wrong entry, or pencil marks that leave out the digit every
solution needs, is reported instead of a hint, since reasoning from it leads nowhere. An
entry that repeats a digit of its run or fills a run to the wrong sum is named by that
rule, which the player can see. A puzzle with several solutions is said to have them
before any hint.

Pencil marks are **not** used as candidates for the reasoning: the engine reasons from
the clues, givens and entries alone, so a hint never rests on a mark the player may have
set by mistake or by guess. They decide what the hint is about. A hint leads to the next
thing the player can *do* on the grid: write a digit, or rub out a pencil mark. Steps that
change nothing the player sees are applied silently:

* a step the marks already show in full (each cell it changes has marks, none of which it
  removes; combinations dropped from runs whose open cells all carry marks) is *skipped*;
  the hint says how many were;
* a step that only narrows cells without marks (or drops combinations) is *reasoning*:
  bookkeeping a player without pencil marks does in their head. The hint gives the
  reasoning steps its own step rests on (the dependency closure back through each step's
  proof, :func:`deducer.assist.closure.closure`), in order, before it, and no other, each
  made again on the board those steps alone leave (so no sentence names a digit a step
  left out wrote). So a player without marks gets the next digit to write with the
  reasoning that gets there, not one invisible elimination at a time.

A placement is always a hint of its own, even when the player's marks already hold that
digit alone: the cell is still empty, and later steps must not speak as if it were filled.

Kept free of argparse and printing so the CLI and a web play mode can share it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..clock import NO_LIMITS, Limits
from ..engine import registry
from ..engine.sentences import differences
from ..engine.walk import Engine, WalkOptions
from ..proofcheck import check_walkthrough
from ..puzzle.combos import BIT, combos
from ..puzzle.model import Puzzle, Run, cell_name
from ..solver.search import solve
from .checking import DEFAULT_CAP, Mistake, check
from .closure import closure, reworded

if TYPE_CHECKING:
    from ..engine.walk import Step

LEVELS = ("vague", "concrete", "full")


def look_for(rule) -> str:
    """The vague tier for a rule: its ``hint:`` (written for players), else a plain pointer
    to its name. Never the rule's description, which is written for rule authors."""
    if rule.hint:
        return rule.hint
    return f"Look for a place to use the technique “{rule.name}”."


@dataclass
class Hint:
    """A hint. ``kind``: ``mistake`` (wrong entries/marks; fix them first), ``deduction``
    (the next step), ``solved`` (nothing left to do), ``stuck`` (no rule applies: the
    puzzle has several solutions or the ladder is too weak), ``conflict`` (entries from
    different solutions), ``unsolvable`` (the puzzle has no solution)."""

    kind: str
    level: str
    vague: str
    concrete: str
    full: str
    rule: str | None = None
    rule_name: str | None = None
    cells: list[tuple[int, int]] = field(default_factory=list)
    runs: list[str] = field(default_factory=list)
    step: Step | None = None  # for a deduction
    mistakes: list[Mistake] = field(default_factory=list)
    skipped: int = 0  # deductions the player's pencil marks already showed
    already_marked: list[tuple[int, int]] = field(default_factory=list)
    #: the steps the player cannot see that ``step`` rests on, in order (engine Steps)
    reasoning: list[Step] = field(default_factory=list)
    #: the puzzle has more than one solution (the hint's text says so first)
    several: bool = False

    @property
    def text(self) -> str:
        """The tier asked for."""
        return {"vague": self.vague, "concrete": self.concrete, "full": self.full}[self.level]

    def to_json(self) -> dict:
        """What the chosen tier may reveal (a vague hint gives no cells away)."""
        obj: dict = {"kind": self.kind, "level": self.level, "text": self.text,
                     "several_solutions": self.several}
        if self.kind == "deduction":
            obj["rule"] = self.rule
            obj["rule_name"] = self.rule_name
            if self.level != "vague":
                obj["runs"] = list(self.runs)
                obj["cells"] = [list(c) for c in self.cells]
            if self.level == "full" and self.step is not None:
                obj["step"] = self.step.to_json()
                if self.step.proof is not None:  # what the step rests on (docs/json-contract.md)
                    obj["proof"] = self.step.proof
                obj["reasoning"] = [s.to_json() for s in self.reasoning]
            elif self.level == "concrete":
                obj["reasoning_rules"] = [s.rule for s in self.reasoning]
            obj["skipped"] = self.skipped
            if self.already_marked:
                obj["already_marked"] = [list(c) for c in self.already_marked]
        if self.mistakes:
            obj["mistakes"] = [m.to_json() for m in self.mistakes]
        return obj


def _capital(text: str) -> str:
    """Capitalise a sentence, but never a coordinate like r2c1."""
    if text and text[0].islower() and not (text[0] == "r" and text[1:2].isdigit()):
        return text[0].upper() + text[1:]
    return text


def _simple(kind: str, level: str, text: str, **kw) -> Hint:
    return Hint(kind, level, text, text, text, **kw)


def _known(puzzle: Puzzle, effect) -> tuple[bool, list[tuple[int, int]]]:
    """Do the player's pencil marks already show this effect? Also: cells where they do."""
    whites = puzzle.whites
    pencil = puzzle.pencil
    shown: list[tuple[int, int]] = []
    # dropping combinations changes no candidate: known when the player tracks every
    # open cell of the run with marks (entries and givens need none)
    fixed = {**puzzle.entries, **puzzle.givens}
    everything = all(whites[i] in pencil or whites[i] in fixed
                     for rid, _ in effect.drop for i in puzzle.runs[rid].cells)
    for i, d in effect.place:
        rc = whites[i]
        if pencil.get(rc) == 1 << (d - 1):
            shown.append(rc)
        everything = False  # the digit is still to be written
    for i, m in effect.elim:
        rc = whites[i]
        marks = pencil.get(rc)
        if marks and not marks & m:
            shown.append(rc)
        else:
            everything = False
    return everything, sorted(set(shown))


def _visible(puzzle: Puzzle, effect) -> bool:
    """Does the step change the player's grid: a digit to write or a pencil mark to rub out?"""
    if effect.place:
        return True
    whites, pencil = puzzle.whites, puzzle.pencil
    return any(pencil.get(whites[i], 0) & m for i, m in effect.elim)


def _support(puzzle: Puzzle, target, reasoning: list) -> list:
    """The reasoning steps ``target`` rests on, in order: the dependency closure back from
    its proof (:func:`deducer.assist.closure.closure`), so a hint is never padded with steps
    that do not lead to it."""

    steps = [step for step, _ded, _effect in reasoning]
    return closure(puzzle, [*steps, target])[:-1]


def _several(verdict, puzzle: Puzzle) -> str:
    """A warning, said before any hint, when the puzzle has more than one solution."""
    if verdict.solutions_found < 2:
        return ""

    diff = differences(puzzle, verdict.solutions)
    more = "at least " if verdict.cap_hit or not verdict.complete else ""
    return (f"This puzzle has {more}{verdict.solutions_found} solutions (they differ at "
            f"{', '.join(diff[:6])}{' …' if len(diff) > 6 else ''}), so no reasoning can "
            "settle those cells. ")


TIMED_OUT = ("No hint within the time limit: the next deduction takes longer to find "
             "(try again with more time).")


def hint(puzzle: Puzzle, level: str = "vague", *, rules=None, limits: Limits = NO_LIMITS,
         max_solutions: int = DEFAULT_CAP) -> Hint:
    """The next thing the player should do with ``puzzle`` (its entries and marks)."""

    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}")
    if rules is None:
        rules = registry.load()
    # one deadline for the whole hint: the check, the walk (through the Engine's own
    # deadline, which the expensive rules watch) and the last look at the solutions
    verdict = check(puzzle, max_solutions=max_solutions, limits=limits)
    if verdict.status == "unsolvable":
        return _simple("unsolvable", level, _capital(verdict.message) + ".")
    if verdict.status == "unknown" and limits.past():  # no time left to set up a walk
        return _simple("timeout", level, TIMED_OUT)
    warning = _several(verdict, puzzle)
    if verdict.mistakes:
        vague = ("Some of your entries or pencil marks fit no solution; check your work "
                 "before going on.")
        cells = ", ".join(m.name for m in verdict.mistakes)
        concrete = f"Check {cells}: what is there fits no solution."
        if all(m.reason for m in verdict.mistakes):  # a rule the player can see broken
            vague = ("A run on your grid holds a digit twice or adds up to the wrong sum; "
                     "find it before going on.")
            verb = "it breaks" if len(verdict.mistakes) == 1 else "they break"
            concrete = f"Check {cells}: {verb} the rule of a run (different digits, the " \
                       "clue's sum)."
        full = "; ".join(m.sentence() for m in verdict.mistakes)
        full = _capital(full) + "."
        return _warned(Hint("mistake", level, vague, concrete, full,
                            mistakes=verdict.mistakes, cells=[m.cell for m in verdict.mistakes]),
                       warning)
    if verdict.status == "conflict":
        return _simple("conflict", level, _capital(verdict.message) + ".")
    eng = Engine(puzzle, rules, WalkOptions(limits=limits))
    skipped = 0
    reasoning: list = []  # (step, deduction, effect) of steps the player cannot see
    while True:
        if not eng.open_count:  # every placement is a hint, so only a full grid gets here
            return _simple("solved", level, "The grid is complete and correct.")
        if eng.context.stopped():
            return _simple("timeout", level, TIMED_OUT, skipped=skipped)
        found = eng.next_deduction()
        if found is None:
            if eng.context.stopped():  # the expensive rules gave up at the deadline
                return _simple("timeout", level, TIMED_OUT, skipped=skipped)
            text = "No rule of the ladder finds a deduction from here."

            here = solve(puzzle, max_solutions=2, limits=limits.at_least(0.05).with_work(None))
            if len(here.solutions) > 1:
                diff = differences(puzzle, here.solutions)
                text = ("No deduction is possible: the puzzle has more than one solution "
                        f"(two of them differ at {', '.join(diff[:8])}"
                        + (" …" if len(diff) > 8 else "") + "). Pick a digit for one of "
                        "those cells.")
            return _warned(_simple("stuck", level, text, skipped=skipped),
                           "" if len(here.solutions) > 1 else warning)
        rule, ded, effect = found
        known, shown = _known(puzzle, effect)
        step = eng.step(found)
        # a step that leaves a cell one digit writes it itself (its placements, not the
        # rule's effect, say so): a digit to write is always the player's to see
        if step is not None and step.placements or _visible(puzzle, effect):
            break
        if known:
            skipped += 1
        else:
            reasoning.append((step, ded, effect))
    chain = _support(puzzle, step, reasoning)
    chain, step = _worded_alone(puzzle, rules, chain, step, limits)
    return _warned(_deduction(level, rule, step, chain, skipped, shown, rules), warning)


def _worded_alone(puzzle: Puzzle, rules, chain: list, target, limits: Limits = NO_LIMITS):
    """The supporting steps and the hint's step made again on the board the supporting
    steps alone leave (:func:`deducer.assist.closure.reworded`), so that no sentence names a
    digit a step the hint leaves out wrote; as they were if that board does not give the
    same hint (the same digits written, or at least the same ones taken), proved."""

    def same(out) -> bool:
        new = out[-1]
        if target.placements:
            if sorted(new.placements) != sorted(target.placements):
                return False
        else:
            took = {(r, c): set(ds) for r, c, ds in new.eliminations}
            if any(not set(ds) <= took.get((r, c), set())
                   for r, c, ds in target.eliminations):
                return False
        return check_walkthrough(puzzle, out) == []

    out = reworded(puzzle, rules, [*chain, target], same, limits)
    return out[:-1], out[-1]


def _warned(h: Hint, warning: str) -> Hint:
    """``h`` with the several-solutions warning before every tier."""
    if warning:
        h.vague, h.concrete, h.full = (warning + h.vague, warning + h.concrete,
                                       warning + h.full)
        h.several = True
    return h


def _deduction(level: str, rule, step, chain: list, skipped: int, shown: list,
               rules) -> Hint:
    """The hint for ``step``, after the reasoning steps ``chain`` it rests on."""
    names = {r.id: r.name for r in rules}
    first = next((r for r in rules if chain and r.id == chain[0].rule), rule)
    vague = look_for(first)
    where = ", ".join(step.runs) if step.runs else ""
    cells = ", ".join(cell_name(c) for c in step.cells)
    if where and cells:
        concrete = f"{rule.name}: look at {where} (cells {cells})."
    elif where or cells:
        concrete = f"{rule.name}: look at {where or cells}."
    else:
        concrete = f"{rule.name}."
    full = step.text
    if step.placements:
        writes = ", ".join(f"{d} in {cell_name((r, c))}" for r, c, d in step.placements)
        r, c, d = step.placements[0]
        if f"{cell_name((r, c))} = {d}" not in full:
            full += f" Write {writes}."
    if chain:
        goal = ("a digit you can write" if step.placements
                else "a pencil mark you can rub out")
        n = len(chain)
        vague += f" It is the first of {n + 1} steps that lead to {goal}."
        first_steps = "; then ".join(
            f"{names.get(s.rule, s.name).lower()} at {', '.join(s.runs) or 'the cells'}"
            for s in chain)
        concrete = f"First {first_steps}. Then {concrete[:1].lower()}{concrete[1:]}"
        full = "\n".join(f"{k}. {s.text}" for k, s in enumerate(chain, 1)) \
            + f"\n{n + 1}. {full}"
    note = ""
    if skipped:
        note = (f" ({skipped} simpler deduction{'s are' if skipped != 1 else ' is'} already "
                "in your pencil marks.)")
    placed = {(r, c) for r, c, _d in step.placements}
    if placed and placed <= set(shown):
        full += " Your pencil marks already hold only that digit there: write it in."
    elif shown:
        part = ", ".join(cell_name(c) for c in shown)
        full += f" Your pencil marks in {part} already show part of this."
    all_cells = list(dict.fromkeys([c for s in chain for c in s.cells] + list(step.cells)))
    all_runs = list(dict.fromkeys([r for s in chain for r in s.runs] + list(step.runs)))
    return Hint("deduction", level, vague + note, concrete + note, full + note, rule=rule.id,
                rule_name=rule.name, cells=all_cells, runs=all_runs, step=step,
                skipped=skipped, already_marked=shown, reasoning=chain)


def player_marks(puzzle: Puzzle) -> tuple[dict[tuple[int, int], int], Run | None]:
    """The pencil marks a player would write in every empty cell: the digits its runs'
    combinations allow once the written digits (givens, entries) are counted, and nothing
    a further deduction would remove. Returns ``(marks, None)``, or ``({}, run)`` for a run
    whose written digits fit none of its combinations."""

    fixed = {**puzzle.entries, **puzzle.givens}
    allowed = [puzzle.initial_mask(i) for i in range(len(puzzle.whites))]
    for run in puzzle.runs:
        written = 0
        for rc in run.coords:
            if rc in fixed:
                written |= BIT[fixed[rc]]
        union = 0
        for combo in combos(run.total, run.length):
            if combo & written == written:
                union |= combo
        room = union & ~written
        if not room and any(rc not in fixed for rc in run.coords):
            return {}, run
        for i in run.cells:
            allowed[i] &= room
    marks = {rc: allowed[i] for i, rc in enumerate(puzzle.whites) if rc not in fixed}
    return marks, None

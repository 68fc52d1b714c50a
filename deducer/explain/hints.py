"""Hints for a partly filled grid: the next simplest deduction, in three tiers.

* ``vague``: the technique to look for ("Look for a run whose sum has only one
  combination").
* ``concrete``: the technique and where (the runs and cells it rests on).
* ``full``: the whole sentence of the step, with what it places or removes.

Before any deduction, the player's progress is checked against *every* solution
(:mod:`deducer.checking`): a wrong entry, or pencil marks that leave out the digit every
solution needs, is reported instead of a hint, since reasoning from it leads nowhere.

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
  reasoning steps its own step rests on (traced back through the cells and runs each step
  reads), in order, before it. So a player without marks gets the next digit to write with
  the reasoning that gets there, not one invisible elimination at a time.

A placement is always a hint of its own, even when the player's marks already hold that
digit alone: the cell is still empty, and later steps must not speak as if it were filled.

Kept free of argparse and printing so the CLI and a web play mode can share it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..puzzle.model import Puzzle, cell_name
from .checking import DEFAULT_CAP, Mistake, check

LEVELS = ("vague", "concrete", "full")

#: what to look for, per rule id (the vague tier)
LOOK_FOR = {
    "lone-cell": "Look for a run with only one empty cell left.",
    "unique-combination": "Look for a run whose sum has only one combination.",
    "unique-intersection": "Look for a cell where the digits its across run allows and the "
                           "digits its down run allows have only one digit in common.",
    "naked-single": "Look for a cell with only one candidate left.",
    "combination-filter": "Look for a run where some digit appears in none of the "
                          "combinations still possible.",
    "hidden-single": "Look for a digit that every remaining combination of a run needs "
                     "and that fits in only one of its cells.",
    "pair-complement": "Look for a two-cell run: each digit in one cell needs its "
                       "complement in the other.",
    "sum-bounds": "Look at the smallest and largest sums the other cells of a run can "
                  "make: they bound the last cell.",
    "combination-elimination": "Look for a combination of a run that its cells cannot "
                               "hold.",
    "crossing-run-interaction": "Look at where a run crosses others: the crossing runs "
                                "limit which combinations it can use.",
    "region-sum-one": "Look for an area closed off by clues: its across totals minus its "
                      "down totals pin down one cell left over.",
    "region-sum-two": "Look for an area closed off by clues: its across totals minus its "
                      "down totals leave a sum or difference of two cells.",
    "naked-pair": "Look for two cells of a run that between them hold only two digits: "
                  "those digits leave the run's other cells.",
    "hidden-pair": "Look for two digits a run needs that fit in only two of its cells.",
    "naked-triple": "Look for three cells of a run that between them hold only three digits: "
                  "those digits leave the run's other cells.",
    "hidden-triple": "Look for three digits a run needs that fit in only three of its cells.",
    "naked-quad": "Look for four cells of a run that between them hold only four digits: "
                  "those digits leave the run's other cells.",
    "hidden-quad": "Look for four digits a run needs that fit in only four of its cells.",
    "permutation-check-small": "Try the arrangements of a short run's remaining "
                               "combinations in its open cells: some digit fits no "
                               "arrangement.",
    "permutation-check": "Try the arrangements of a run's remaining combinations in its "
                         "open cells: some digit fits no arrangement.",
    "trial": "No simple pattern is left: assume a candidate and follow its consequences "
             "until something breaks.",
    "backtracking": "Only guessing (trial and error, with backtracking) makes progress "
                    "here.",
}
#: prefixes for families of rules (naked-pair, naked-triple, ...)
LOOK_FOR_PREFIX = {
    "naked-": "Look for a few cells of a run that between them hold only as many digits: "
              "those digits leave the run's other cells.",
    "hidden-": "Look for a few digits a run needs that fit in only as many of its cells.",
    "region-": "Look for an area closed off by clues: its across totals minus its down "
               "totals pin down the cells left over.",
    "innie": "Look for an area closed off by clues: its across totals minus its down "
             "totals pin down the cells left over.",
}


def look_for(rule) -> str:
    """The vague tier for a rule: built in, by family, else from its name/description."""
    if rule.id in LOOK_FOR:
        return LOOK_FOR[rule.id]
    for prefix, text in LOOK_FOR_PREFIX.items():
        if rule.id.startswith(prefix):
            return text
    desc = (rule.description or "").strip()
    if desc:
        return f"Look for a place to use “{rule.name}”: {desc}"
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
    step: object = None  # engine Step for a deduction
    mistakes: list[Mistake] = field(default_factory=list)
    skipped: int = 0  # deductions the player's pencil marks already showed
    already_marked: list[tuple[int, int]] = field(default_factory=list)
    #: the steps the player cannot see that ``step`` rests on, in order (engine Steps)
    reasoning: list = field(default_factory=list)

    @property
    def text(self) -> str:
        """The tier asked for."""
        return {"vague": self.vague, "concrete": self.concrete, "full": self.full}[self.level]

    def to_json(self) -> dict:
        """What the chosen tier may reveal (a vague hint gives no cells away)."""
        obj: dict = {"kind": self.kind, "level": self.level, "text": self.text}
        if self.kind == "deduction":
            obj["rule"] = self.rule
            obj["rule_name"] = self.rule_name
            if self.level != "vague":
                obj["runs"] = list(self.runs)
                obj["cells"] = [list(c) for c in self.cells]
            if self.level == "full" and self.step is not None:
                obj["step"] = self.step.to_json()
                if self.step.proof is not None:  # what the step rests on (DESIGN.md §5b)
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
    place, elim, drop = effect
    whites = puzzle.whites
    pencil = puzzle.pencil
    shown: list[tuple[int, int]] = []
    # dropping combinations changes no candidate: known when the player tracks every
    # open cell of the run with marks (entries and givens need none)
    fixed = {**puzzle.entries, **puzzle.givens}
    everything = all(whites[i] in pencil or whites[i] in fixed
                     for rid in drop for i in puzzle.runs[rid].cells)
    for i, d in place.items():
        rc = whites[i]
        if pencil.get(rc) == 1 << (d - 1):
            shown.append(rc)
        everything = False  # the digit is still to be written
    for i, m in elim.items():
        rc = whites[i]
        marks = pencil.get(rc)
        if marks and not marks & m:
            shown.append(rc)
        else:
            everything = False
    return everything, sorted(set(shown))


def _visible(puzzle: Puzzle, effect) -> bool:
    """Does the step change the player's grid: a digit to write or a pencil mark to rub out?"""
    place, elim, _drop = effect
    if place:
        return True
    whites, pencil = puzzle.whites, puzzle.pencil
    return any(pencil.get(whites[i], 0) & m for i, m in elim.items())


def _reads(puzzle: Puzzle, ded) -> tuple[set[int], set[int]]:
    """The cells and runs a deduction rests on (its own, and every cell of its runs)."""
    cells = set(ded.cells)
    for rid in ded.runs:
        cells.update(puzzle.runs[rid].cells)
    return cells, set(ded.runs)


def _support(puzzle: Puzzle, target, reasoning: list) -> list:
    """The reasoning steps ``target`` rests on, in order: traced back from the cells and runs
    it reads to the steps that narrowed them, and from those steps on in turn."""
    cells, runs = _reads(puzzle, target)
    if not cells and not runs:  # a rule that names nothing: keep every step
        return [step for step, _ded, _effect in reasoning]
    keep = []
    for step, ded, effect in reversed(reasoning):
        _place, elim, drop = effect
        if cells.isdisjoint(elim) and runs.isdisjoint(drop):
            continue
        keep.append(step)
        more_cells, more_runs = _reads(puzzle, ded)
        cells |= more_cells
        runs |= more_runs
    return keep[::-1]


TIMED_OUT = ("No hint within the time limit: the next deduction takes longer to find "
             "(try again with more time).")


def hint(puzzle: Puzzle, level: str = "vague", *, rules=None, timeout: float | None = None,
         max_solutions: int = DEFAULT_CAP) -> Hint:
    """The next thing the player should do with ``puzzle`` (its entries and marks)."""
    from . import registry
    from .engine import Engine
    from .sentences import differences

    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}")
    if rules is None:
        rules = registry.load()
    # one deadline for the whole hint: the check, the walk (through the Engine's own
    # deadline, which the expensive rules watch) and the last look at the solutions
    deadline = None if timeout is None else time.perf_counter() + timeout
    verdict = check(puzzle, max_solutions=max_solutions, timeout=timeout)
    if verdict.status == "unsolvable":
        return _simple("unsolvable", level, _capital(verdict.message) + ".")
    if verdict.mistakes:
        vague = ("Some of your entries or pencil marks fit no solution; check your work "
                 "before going on.")
        cells = ", ".join(m.name for m in verdict.mistakes)
        concrete = f"Check {cells}: what is there fits no solution."
        full = "; ".join(m.sentence() for m in verdict.mistakes)
        full = _capital(full) + "."
        return Hint("mistake", level, vague, concrete, full, mistakes=verdict.mistakes,
                    cells=[m.cell for m in verdict.mistakes])
    if verdict.status == "conflict":
        return _simple("conflict", level, _capital(verdict.message) + ".")
    eng = Engine(puzzle, rules, use_entries=True, deadline=deadline)
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
            from ..solve.search import solve

            left = None if deadline is None else max(0.05, deadline - time.perf_counter())
            here = solve(puzzle, max_solutions=2, use_entries=True, timeout=left)
            if len(here.solutions) > 1:
                diff = differences(puzzle, here.solutions)
                text = ("No deduction is possible: the puzzle has more than one solution "
                        f"(two of them differ at {', '.join(diff[:8])}"
                        + (" …" if len(diff) > 8 else "") + "). Pick a digit for one of "
                        "those cells.")
            return _simple("stuck", level, text, skipped=skipped)
        rule, ded, effect = found
        known, shown = _known(puzzle, effect)
        step = eng.step()
        if _visible(puzzle, effect):
            break
        if known:
            skipped += 1
        else:
            reasoning.append((step, ded, effect))
    chain = _support(puzzle, ded, reasoning)
    return _deduction(level, rule, step, chain, skipped, shown, rules)


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


def player_marks(puzzle: Puzzle) -> tuple[dict[tuple[int, int], int], object]:
    """The pencil marks a player would write in every empty cell: the digits its runs'
    combinations allow once the written digits (givens, entries) are counted, and nothing
    a further deduction would remove. Returns ``(marks, None)``, or ``({}, run)`` for a run
    whose written digits fit none of its combinations."""
    from ..puzzle.combos import BIT, combos

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

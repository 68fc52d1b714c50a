"""Why is this digit not in that cell (or why must it be)? The shortest explanation the
ladder has, from the grid as given.

The ladder walks the puzzle from the clues, givens and the player's entries (pencil
marks are never used as candidates, so an answer never rests on a mark set by mistake)
until the digit leaves the cell (``must``: until the cell is down to the digit). Of the
steps on that path, only those the target step depends on are kept, checked and
shortened (:mod:`deducer.assist.closure`).

The ladder's order is the simplest step first, anywhere on the grid, so it may take the
digit out late by a long way round. So at each state along the walk the rules are also
asked about the cell's own two runs: the first state where one of them takes the digit
out at once gives a second candidate answer (the closure of the steps so far, that step
last), and the easier checked answer wins: the lighter hardest step, then the lighter
steps in all, then the fewer steps (:func:`ease`). The walkthrough's own path is always a
candidate, so an answer is never harder than the walkthrough's way to the same
elimination. An answer of more than :data:`LONG_ANSWER` steps says so; the CLI and the
play page then offer to play the walkthrough to its step ``path``.

Kept free of argparse and printing so the CLI and the play page share it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..clock import NO_LIMITS, Limits, past
from ..engine import kernel, registry
from ..engine.walk import Engine, WalkOptions
from ..errors import PuzzleError, RuleError
from ..puzzle.combos import BIT
from ..puzzle.model import Puzzle, cell_arg, cell_name
from ..solver.search import solve
from .closure import _proved, _reached, _shortest, reworded

#: what a question can come to
EXPLAINED, SOLUTION, POSSIBLE, WRITTEN, NOT_SOLUTION, UNSOLVABLE, NOT_FOUND, TIMEOUT = (
    "explained", "solution", "possible", "written", "not-solution", "unsolvable", "not-found",
    "timeout")

#: an answer of more steps than this says so and points to the walkthrough's own step
LONG_ANSWER = 20


@dataclass
class Why:
    """The answer. ``kind`` is one of ``explained`` (``steps`` remove the digit, or leave
    only it with ``must``), ``solution`` (the digit is the cell's solution digit: nothing
    removes it), ``possible`` (some solution of a puzzle with several puts it there),
    ``written`` (the cell holds a given or an entry), ``not-solution`` (``must`` asked of a
    digit that is not the cell's), ``unsolvable`` (no solution from this grid),
    ``not-found`` (the ladder stalls before it gets there) or ``timeout``."""

    kind: str
    cell: tuple[int, int]
    digit: int
    must: bool
    message: str
    steps: list = field(default_factory=list)  # engine Steps, renumbered 1..n
    #: steps the walkthrough took up to the same point (the explanation is never longer):
    #: its step ``path`` is the one that removes the digit (or leaves only it)
    path: int = 0
    #: the weight of the hardest step on the walkthrough's path (the answer's is never more)
    path_weight: float = 0.0
    #: step numbers (1..n) whose effect the player's pencil marks already show in full
    in_marks: list[int] = field(default_factory=list)
    #: the last line: what the steps come to for the cell
    closing: str = ""
    #: False: the time limit (or Ctrl-C) stopped the trimming of an ``explained`` answer,
    #: whose steps then prove it but may be more than a trimmed answer's
    complete: bool = True

    @property
    def text(self) -> str:
        """The answer in words, steps numbered."""
        lines = [self.message]
        for s in self.steps:
            note = " (your pencil marks already show this)" if s.n in self.in_marks else ""
            lines.append(f"{s.n}. {s.name}: {s.text}{note}")
        if self.closing:
            lines.append(self.closing)
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {"kind": self.kind, "cell": list(self.cell), "digit": self.digit,
                "must": self.must, "message": self.message, "closing": self.closing,
                "steps": [s.to_json() for s in self.steps], "path": self.path,
                "path_weight": self.path_weight, "long": self.long,
                "in_marks": list(self.in_marks), "complete": self.complete}

    @property
    def long(self) -> bool:
        """More than :data:`LONG_ANSWER` steps: following the walkthrough to its step
        ``path`` may be easier (the CLI and the play page offer it)."""
        return len(self.steps) > LONG_ANSWER


def why(puzzle: Puzzle, cell: tuple[int, int], digit: int, *, must: bool = False,
        rules=None, limits: Limits = NO_LIMITS) -> Why:
    """Why ``digit`` cannot go in ``cell`` (``must``: why it must), from ``puzzle`` with its
    entries. Raises :class:`PuzzleError` for a cell that is not white or a digit not 1-9."""

    if isinstance(digit, bool) or not isinstance(digit, int) or not 1 <= digit <= 9:
        raise PuzzleError(f"{digit!r} is not a digit 1-9")
    cell = cell_arg(cell)
    i = puzzle.index.get(cell)
    if i is None:
        raise PuzzleError(f"{cell_name(cell)} is not a white cell of the puzzle")
    name = cell_name(cell)
    # one deadline for the whole answer: the solve, the walk, and the trimming after it
    # (each search, and the walk, given a little however late it starts: limits.at_least)

    if rules is None:
        rules = registry.load()

    def answer(kind: str, message: str, **kw) -> Why:
        return Why(kind, cell, digit, must, message, **kw)

    head = f"Why {name} must be {digit}" if must else f"Why {digit} cannot go in {name}"

    def from_the_grid() -> Why:
        """The answer the digits written in the cell's runs give, with no step."""
        return answer(EXPLAINED, f"{head}: the grid as given shows it, before any step.",
                      steps=[], path=0, in_marks=[],
                      closing=_at_start(puzzle, cell, digit, must))

    written = puzzle.givens.get(cell, puzzle.entries.get(cell))
    if written is not None:
        what = "given" if cell in puzzle.givens else "written in"
        return answer(WRITTEN, f"{name} holds {written} ({what}).")
    if not must and _holder(puzzle, cell, digit) is not None:
        # the rule of a run answers it, whatever else the grid holds (even a grid whose
        # entries leave no solution)
        return from_the_grid()
    res = solve(puzzle, max_solutions=2, limits=limits.at_least(0.05))
    if not res.solutions:
        if res.status == "none":
            return answer(UNSOLVABLE, "The grid as given has no solution; check the entries "
                          "first (deducer check).")
        return answer(TIMEOUT, "The time ran out before the grid was solved.")
    seen = {s[i] for s in res.solutions}
    if len(res.solutions) > 1 and (digit not in seen or (must and seen == {digit})):
        # several solutions, and the two found may not show what a third does: ask for one
        # that puts the digit there (or, for --must, another): else a --must answer walked,
        # stalled on the cells the solutions differ in, and said "stall", not why
        seen |= _other_digits(puzzle, i, digit, digit in seen, limits.at_least(0.05))
    if must and seen != {digit}:
        if digit in seen:
            return answer(POSSIBLE, f"The puzzle has more than one solution, and they put "
                          f"different digits in {name}: no reasoning makes it {digit}.")
        return answer(NOT_SOLUTION, f"{name} is not {digit}: its solution digit is "
                      f"{res.solutions[0][i]}.")
    if not must and digit in seen:
        if len(res.solutions) > 1:
            return answer(POSSIBLE, f"The puzzle has more than one solution, and one of them "
                          f"puts {digit} in {name}: nothing rules it out.")
        return answer(SOLUTION, f"{digit} is {name}'s solution digit: nothing rules it out.")
    walked = _walk(puzzle, rules, i, digit, must, limits.at_least(0.1))
    if walked is None or isinstance(walked, str):
        goal = f"{name} down to {digit}" if must else f"{digit} out of {name}"
        if walked == TIMEOUT:
            return answer(TIMEOUT, f"The time ran out before the rules got {goal}.")
        return answer(NOT_FOUND, f"The rules of the ladder stall before they get {goal}.")
    path, shortcut = walked
    if not path:  # the digits written in the cell's runs settle it before any step
        return from_the_grid()
    return _explained(puzzle, rules, Target(cell, i, digit, must, head), path, shortcut, limits)


@dataclass(frozen=True, slots=True)
class Target:
    """What a question asks of the grid: ``digit`` out of ``cell`` (``must``: ``cell`` down
    to ``digit``); ``i`` is the cell's index among the white cells, ``head`` the answer's
    first words (``Why 4 cannot go in r4c3``)."""

    cell: tuple[int, int]
    i: int
    digit: int
    must: bool
    head: str


def _explained(puzzle: Puzzle, rules, target: Target, path: list, shortcut: list | None,
               limits: Limits) -> Why:
    """The ``explained`` answer to ``target`` from the walkthrough's ``path`` there (and the
    ``shortcut``, if the walk found one): the easier of their shortened closures, made
    again when that is no harder, its steps counted and numbered, in words."""
    cell, i, digit, must, head = target.cell, target.i, target.digit, target.must, target.head
    ceiling = hardest(path)
    kept = _shortest(puzzle, path, i, digit, must, limits)
    if shortcut is not None and len(shortcut) <= len(path):
        other = _shortest(puzzle, shortcut, i, digit, must, limits)
        if ease(other) < ease(kept):
            kept = other
    if _rewordable(kept, path):
        again = reworded(puzzle, rules, kept, lambda out: _proved(puzzle, out, i, digit, must),
                         limits)
        if hardest(again) <= ceiling + 1e-9 and ease(again) <= ease(kept):
            kept = again  # made again on a board with more candidates: never harder
    # past the deadline, the trimming stopped where it was: the answer proves the target,
    # but another run, with more time, may trim it further, so it says so
    cut = past(limits.deadline)
    kept = _counted(puzzle, rules, path, kept)
    steps = [_renumbered(s, n) for n, s in enumerate(kept, 1)]
    in_marks = [s.n for s in steps if _in_marks(puzzle, s)]
    count = f"{len(steps)} step{'s' if len(steps) != 1 else ''}"
    message = f"{head}: {count} (the walkthrough takes {len(path)} to get there)."
    if len(steps) > LONG_ANSWER:
        message = (f"{head}: a long answer, {count} (the walkthrough takes {len(path)}; "
                   f"its step {len(path)} removes it).")
    if cut:
        message += (" The time limit stopped the trimming of this answer: a shorter one may "
                    "exist (give it more time).")
    return Why(EXPLAINED, cell, digit, must, message, steps=steps, path=len(path),
               path_weight=ceiling, in_marks=in_marks,
               closing=_closing(puzzle, steps[-1], cell, digit, must), complete=not cut)


def hardest(steps: list) -> float:
    """The weight of the hardest of ``steps`` (0 for none)."""
    return max((float(s.weight) for s in steps), default=0.0)


def ease(steps: list) -> tuple[float, float, int]:
    """How hard an answer is to follow, the easiest least: its hardest step's weight, then
    the weights of all its steps together, then how many steps (a reader stuck on one hard
    step is worse off than one reading two easy ones more)."""
    return (round(hardest(steps), 6), round(sum(float(s.weight) for s in steps), 6),
            len(steps))


def _counted(puzzle: Puzzle, rules, path: list, kept: list) -> list:
    """The kept steps that come from the walk with the count of open easy moves the walk
    would have given them (it walks without counting: :meth:`Engine.recount` replays the
    path, far cheaper than counting at every step when no kept step is the walk's own)."""

    mine = {id(s) for s in path}
    if not any(id(s) in mine for s in kept):
        return kept
    counted = Engine(puzzle, rules).recount(path)
    available = {id(s): c.available for s, c in zip(path, counted, strict=True)}
    return [replace(s, available=available[id(s)]) if id(s) in available else s for s in kept]


def _closing(puzzle: Puzzle, last, cell: tuple[int, int], digit: int, must: bool) -> str:
    """``So 4 cannot go in r4c3: r3c3, in the same run r1c3↓ 34/5, holds it.``"""
    name = cell_name(cell)
    if must:
        return f"So {name} must be {digit}."
    for r, c, d in last.placements:
        if d == digit and (r, c) != cell:
            shared = [run.name for run in puzzle.runs if cell in run.coords
                      and (r, c) in run.coords]
            if shared:
                return (f"So {digit} cannot go in {name}: {cell_name((r, c))}, in the same "
                        f"run {shared[0]}, holds it.")
    return f"So {digit} cannot go in {name}."


def _at_start(puzzle: Puzzle, cell: tuple[int, int], digit: int, must: bool) -> str:
    """The closing of an answer the grid as given settles: a digit written in one of the
    cell's runs (or the cell's parity, in a parity puzzle)."""
    name = cell_name(cell)
    written = {**puzzle.entries, **puzzle.givens}
    runs = [run for run in puzzle.runs if cell in run.coords]
    if must:
        held = sorted({written[rc] for run in runs for rc in run.coords
                       if rc != cell and rc in written})
        return (f"So {name} must be {digit}: its runs already hold "
                f"{', '.join(map(str, held))}, which leaves it only {digit}.")
    held_by = _holder(puzzle, cell, digit)
    if held_by is not None:
        rc, run_name = held_by
        return (f"So {digit} cannot go in {name}: {cell_name(rc)}, in the same run "
                f"{run_name}, holds it.")
    if puzzle.even is not None:
        kind = "an even" if cell in puzzle.even else "an odd"
        return f"So {digit} cannot go in {name}: it is {kind} cell."
    return f"So {digit} cannot go in {name}."


def _holder(puzzle: Puzzle, cell: tuple[int, int], digit: int):
    """(cell, run name) of a given or entered ``digit`` in one of ``cell``'s runs, or None."""
    written = {**puzzle.entries, **puzzle.givens}
    for run in puzzle.runs:
        if cell in run.coords:
            for rc in run.coords:
                if rc != cell and written.get(rc) == digit:
                    return rc, run.name
    return None


def _walk(puzzle: Puzzle, rules, i: int, digit: int, must: bool,
          limits: Limits) -> tuple[list, list | None] | str | None:
    """The ladder's steps up to the one that reaches the target (None if the ladder stalls
    first, :data:`TIMEOUT` if the time runs out),
    and a shortcut: the steps before the first state where a rule on the cell's own runs
    takes the digit out at once, that step last (None if none is found first)."""

    eng = Engine(puzzle, rules, WalkOptions(limits=limits, count=False))
    if _reached(eng.state.masks, i, digit, must):
        return [], None
    shortcut = None
    asked: dict = {}  # _direct's memory: what the board near each (rule, run) was when asked
    while not eng.context.stopped():
        if shortcut is None and not must:
            hit = _direct(eng, puzzle, rules, i, digit, asked)
            if hit is not None:
                shortcut = [*eng.steps, hit]
        step = eng.step()
        if step is None:
            return TIMEOUT if eng.context.stopped() else None
        if _reached(eng.state.masks, i, digit, must):
            return eng.steps, shortcut
        # the engine keeps watch near each change (a scan of the whole grid at every step
        # was most of a 150x150 answer's time)
        if eng._broken is not None:
            return None
    return TIMEOUT


def _near(layout, rid: int) -> tuple[list[int], list[int]]:
    """(the runs, the cells) a run rule asked about run ``rid`` may read: the run and the
    runs crossing it, and their cells (the engine's own notion of where a change makes a
    run worth asking again: Engine._mark_dirty)."""
    runs = sorted({q for j in layout.run_cells[rid] for q in layout.cell_runs[j]} | {rid})
    cells = sorted({j for q in runs for j in layout.run_cells[q]})
    return runs, cells


def _direct(eng, puzzle: Puzzle, rules, i: int, digit: int, asked: dict | None = None):
    """A step, in a copy of the engine's state, by which a rule on the runs of cell ``i``
    takes ``digit`` out of it now (out of the ladder's order); None if none does. Only the
    cell's runs are asked, so this costs a few rule calls per step. ``asked`` (kept by the
    caller from step to step) remembers the board near each run when its rules found
    nothing: a rule is asked again only where the board changed since."""

    state = eng.state
    runs = state.layout.cell_runs[i]
    peers = {j for rid in runs for j in state.layout.run_cells[rid]}
    seen = {}
    if asked is not None:
        for rid in runs:
            if ("near", rid) not in asked:
                asked["near", rid] = _near(state.layout, rid)
            qs, cs = asked["near", rid]
            seen[rid] = (tuple(state.masks[j] for j in cs), tuple(state.placed[j] for j in cs),
                         tuple(state.live[q] for q in qs))
    for rule in eng.rules:
        if rule.scope != "run":
            continue
        for rid in runs:
            if asked is not None:
                if asked.get((rule.id, rid)) == seen[rid]:
                    continue  # nothing it reads has changed since it found nothing here
                asked[rule.id, rid] = seen[rid]
            try:
                found = list(rule.call(eng.view, rid) or ())
            except RuleError:
                raise
            except Exception:  # the walk itself reports a failing rule; no shortcut here
                continue
            for ded in found:
                effect = kernel.effect(eng.state, rule, ded)
                if effect is None:
                    continue
                place, elim = dict(effect.place), dict(effect.elim)
                if not (elim.get(i, 0) & BIT[digit]
                        or place.get(i, digit) != digit
                        or any(place.get(j) == digit for j in peers if j != i)):
                    continue
                # applied at once, in a copy: a proof built late reads the view it was
                # found in, which must not have moved on
                fork = Engine(puzzle, rules, state=eng.state.copy())
                return fork._apply(rule, ded, effect, 0)
    return None


def _other_digits(puzzle: Puzzle, i: int, digit: int, must: bool,
                  limits: Limits) -> set[int]:
    """Cell ``i``'s digit in a solution that puts another digit there than ``digit``
    (``must``) or ``digit`` itself (not ``must``): a set of one, or empty when there is
    none (or ``limits`` stopped the search before one was found)."""

    # the grid as given (givens and entries: a solution they rule out is no answer), the
    # cell narrowed to the digits asked about; the solver takes these masks as they are
    masks = puzzle.initial_masks(with_entries=True)
    masks[i] &= ~BIT[digit] if must else BIT[digit]
    res = solve(puzzle, max_solutions=1, masks=masks, limits=limits)
    return {s[i] for s in res.solutions}


def _rewordable(kept: list, path: list) -> bool:
    """Are the kept steps worth making again (:func:`reworded`)? Making a step again costs
    what walking it did, and the check after it a replay: a short answer always is, a long
    one only when it keeps at most half the walkthrough's steps to it (else the answer
    would cost more than the walkthrough, and a long answer points to it anyway)."""
    return len(kept) <= LONG_ANSWER or 2 * len(kept) <= len(path)


def _renumbered(step, n: int):
    return replace(step, n=n)


def _in_marks(puzzle: Puzzle, step) -> bool:
    """Do the player's pencil marks already show the step's eliminations in full (and it
    writes no digit)?"""
    if step.placements or not step.eliminations:
        return False
    for r, c, ds in step.eliminations:
        marks = puzzle.pencil.get((r, c))
        if not marks or any(marks & BIT[d] for d in ds):
            return False
    return True

"""Why is this digit not in that cell (or why must it be)? The shortest explanation the
ladder has, from the grid as given.

The ladder walks the puzzle from the clues, givens and the player's entries (pencil
marks are never used as candidates, so an answer never rests on a mark set by mistake)
until the digit leaves the cell (``must``: until the cell is down to the digit). Of the
steps on that path, only those the target step depends on are kept: the dependency
closure back from it, through each kept step's proof (see docs/json-contract.md, "proof").
A simple proof reads the board in three ways only, so a step before it matters only if it

* narrowed a cell the proof states a fact about (the fact must be true),
* wrote a digit in a cell of the proof's runs (written digits are part of the local
  problem), or
* ruled out a combination of a run the proof states a fact about (or narrowed one of its
  cells: a run fact lists every combination the run's cells can still hold).

A proof by assumption or by cases reads, besides its links' facts, the candidates of the
cells it assumes digits in and of the cells whose digits it removes; those are added too.
The kept steps are then replayed by the independent proof checker
(:mod:`deducer.proofcheck`); should any fail there, the whole path is given
instead. Last, steps are dropped one at a time while the rest still checks and still
removes the digit (shortening within a small budget).

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

from .. import proofcheck
from ..clock import NO_LIMITS, Limits, past
from ..engine import kernel, registry
from ..engine.walk import Engine, WalkOptions
from ..errors import PuzzleError, RuleError
from ..puzzle.combos import BIT
from ..puzzle.model import Puzzle, cell_arg, cell_name
from ..solver.search import solve

#: what a question can come to
EXPLAINED, SOLUTION, POSSIBLE, WRITTEN, NOT_SOLUTION, UNSOLVABLE, NOT_FOUND, TIMEOUT = (
    "explained", "solution", "possible", "written", "not-solution", "unsolvable", "not-found",
    "timeout")

#: an answer of more steps than this says so and points to the walkthrough's own step
LONG_ANSWER = 20

#: proof checks spent trying to shorten a closure (each replays the kept steps after the
#: step it drops), and the steps all of them may replay together: at least
#: SHORTEN_FEEDS, or as many as the walkthrough took to get there (a replayed step costs
#: about a fifth of a walked one). Shortening is a bonus, the closure already answers; it
#: is bounded by work, not by the clock, so an answer is the same on any machine
SHORTEN_BUDGET, SHORTEN_FEEDS = 40, 2_000


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
    deadline = limits.deadline
    left = limits.left

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
    res = solve(puzzle, max_solutions=2, timeout=left(0.05))
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
        seen |= _other_digits(puzzle, i, digit, digit in seen, left(0.05))
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
    walked = _walk(puzzle, rules, i, digit, must, Limits.within(left(0.1)))
    if walked is None or isinstance(walked, str):
        goal = f"{name} down to {digit}" if must else f"{digit} out of {name}"
        if walked == TIMEOUT:
            return answer(TIMEOUT, f"The time ran out before the rules got {goal}.")
        return answer(NOT_FOUND, f"The rules of the ladder stall before they get {goal}.")
    path, shortcut = walked
    if not path:  # the digits written in the cell's runs settle it before any step
        return from_the_grid()
    ceiling = hardest(path)
    kept = _shortest(puzzle, path, i, digit, must, deadline)
    if shortcut is not None and len(shortcut) <= len(path):
        other = _shortest(puzzle, shortcut, i, digit, must, deadline)
        if ease(other) < ease(kept):
            kept = other
    if _rewordable(kept, path):
        again = reworded(puzzle, rules, kept, lambda out: _proved(puzzle, out, i, digit, must),
                         deadline)
        if hardest(again) <= ceiling + 1e-9 and ease(again) <= ease(kept):
            kept = again  # made again on a board with more candidates: never harder
    # past the deadline, the trimming stopped where it was: the answer proves the target,
    # but another run, with more time, may trim it further, so it says so
    cut = past(deadline)
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
    return answer(EXPLAINED, message, steps=steps, path=len(path), path_weight=ceiling,
                  in_marks=in_marks, closing=_closing(puzzle, steps[-1], cell, digit, must),
                  complete=not cut)


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


def _reached(masks: list[int], i: int, digit: int, must: bool) -> bool:
    return masks[i] == BIT[digit] if must else not masks[i] & BIT[digit]


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


# ---------------------------------------------------------------------------- closure
def _reads(puzzle: Puzzle, proof: dict | None,
           by_ref: dict | None = None) -> tuple[set[int], set[int], set[int]]:
    """(cells whose candidates the proof reads, cells whose written digit it reads, runs
    whose ruled-out combinations it reads); None proof: everything. ``by_ref``: the runs
    by reference, when the caller has built it once for many steps."""
    if proof is None:
        every = set(range(len(puzzle.whites)))
        return every, every, set(range(len(puzzle.runs)))
    if by_ref is None:
        by_ref = {tuple(r.ref): r for r in puzzle.runs}
    masks: set[int] = set()
    written: set[int] = set()
    runs: set[int] = set()
    parts = [proof]
    while parts:
        part = parts.pop()
        for case in part.get("cases", ()):
            parts.append(case)
        if "assume" in part:
            r, c, _d = part["assume"]
            masks.add(puzzle.index[(r, c)])
        for link in part.get("links", ()):
            parts.append(link)
            for r, c, *_ in [*link.get("placements", ()), *link.get("eliminations", ())]:
                masks.add(puzzle.index[(r, c)])
        for f in part.get("facts", ()):
            if "cell" in f:
                masks.add(puzzle.index[tuple(f["cell"])])
            else:
                run = by_ref[tuple(f["run"])]
                runs.add(run.id)
                masks.update(run.cells)
                written.update(run.cells)
        for ref in part.get("runs", ()):
            written.update(by_ref[tuple(ref)].cells)
    written |= masks
    return masks, written, runs


def _touched_by(puzzle: Puzzle, js: dict,
                by_name: dict | None = None) -> tuple[set[int], set[int], set[int]]:
    """(cells narrowed, cells written, runs with combinations ruled out) by a step.
    ``by_name``: run ids by name, when the caller has built it once for many steps."""
    idx = puzzle.index
    narrowed = {idx[(r, c)] for r, c, _ds in js.get("eliminations", ())}
    placed = {idx[(r, c)] for r, c, _d in js.get("placements", ())}
    if by_name is None:
        by_name = {r.name: r.id for r in puzzle.runs}
    runs = {by_name[name] for name, cs in js.get("combos_removed", ()) if cs}
    return narrowed | placed, placed, runs


def closure(puzzle: Puzzle, steps: list, seeds: set[int] | None = None) -> list:
    """The steps that the steps numbered ``seeds`` (indices into ``steps``; default: the
    last) depend on, in order, the seeds included."""
    if not steps:
        return []
    js = [s.to_json() for s in steps]
    seeds = {len(steps) - 1} if seeds is None else set(seeds)
    # built once: a run's name is formatted anew each time it is read (1.2 M times for one
    # answer on a large grid, when each step built its own map)
    by_name = {r.name: r.id for r in puzzle.runs}
    by_ref = {tuple(r.ref): r for r in puzzle.runs}
    masks: set[int] = set()
    written: set[int] = set()
    runs: set[int] = set()
    keep = []
    for k in range(len(steps) - 1, -1, -1):
        narrowed, placed, dropped = _touched_by(puzzle, js[k], by_name)
        if k not in seeds and masks.isdisjoint(narrowed) and written.isdisjoint(placed) \
                and runs.isdisjoint(dropped):
            continue
        keep.append(k)
        proof = js[k].get("proof")
        more = _reads(puzzle, proof, by_ref)
        masks |= more[0]
        written |= more[1]
        runs |= more[2]
        # an assumption's effect is checked against the cells' candidates themselves
        if proof and ("assume" in proof or "cases" in proof):
            masks |= narrowed
    return [steps[k] for k in sorted(keep)]


def _proved(puzzle: Puzzle, steps: list, i: int, digit: int, must: bool) -> bool:
    """Do the steps pass the proof checker, one after another from the grid as given, and
    reach the target?"""
    rp = proofcheck.Replay(puzzle)
    for s in steps:
        if rp.feed(s):
            return False
    return _reached(rp.board.masks, i, digit, must)


def _proved_after(rp, board, rest: list, i: int, digit: int, must: bool) -> bool:
    """:func:`_proved` of a list whose first steps are known to pass, leaving ``board`` (on
    ``rp``'s geometry): only the ``rest`` is replayed, on a copy."""
    rp.board = board.copy()
    for s in rest:
        if rp.feed(s):
            return False
    return _reached(rp.board.masks, i, digit, must)


def _other_digits(puzzle: Puzzle, i: int, digit: int, must: bool,
                  timeout: float | None) -> set[int]:
    """Cell ``i``'s digit in a solution that puts another digit there than ``digit``
    (``must``) or ``digit`` itself (not ``must``): a set of one, or empty when there is
    none (or the time ran out before one was found)."""

    # the grid as given (givens and entries: a solution they rule out is no answer), the
    # cell narrowed to the digits asked about; the solver takes these masks as they are
    masks = puzzle.initial_masks(with_entries=True)
    masks[i] &= ~BIT[digit] if must else BIT[digit]
    res = solve(puzzle, max_solutions=1, timeout=timeout, masks=masks)
    return {s[i] for s in res.solutions}


def _shortest(puzzle: Puzzle, path: list, i: int, digit: int, must: bool,
              deadline: float | None = None) -> list:
    """The closure of ``path`` (the whole path if the closure fails the checker), then
    steps dropped one at a time, earliest first, while the rest still proves the target;
    after a pass that dropped some, the closure of what is left, and another pass (within
    a budget, and before ``deadline``: past it, the whole path, which proves the target
    as the walkthrough made it)."""
    if past(deadline):
        return list(path)
    name = cell_name(puzzle.whites[i])

    def closed(steps: list) -> list:
        seeds = {len(steps) - 1}
        if must:  # every step that took another digit out of the cell
            seeds |= {k for k, s in enumerate(steps)
                      if any(cell_name((r, c)) == name for r, c, _ in s.eliminations)}
        return closure(puzzle, steps, seeds)

    kept = closed(path)
    if not _proved(puzzle, kept, i, digit, must):
        return list(path)
    budget = SHORTEN_BUDGET
    feeds = max(SHORTEN_FEEDS, len(path))
    rp = proofcheck.Replay(puzzle)  # the geometry, built once
    start = rp.board
    # a step only an unneeded later step rested on leaves the closure once that later
    # step has gone (one pass left 23 steps of a --must answer that 10 make)
    while True:
        k, before = 0, len(kept)
        # the board after kept[:k], which every trial at k shares: replayed once, not
        # again for each trial (the prefix of a proved list passes, so checking it again
        # could only say yes)
        prefix = start.copy()
        while k < len(kept) - 1 and budget > 0 and len(kept) - k - 1 <= feeds:
            if past(deadline):
                return kept  # the closure as shortened so far: it proves the target
            trial = kept[:k] + kept[k + 1:]
            budget -= 1
            feeds -= len(kept) - k - 1
            if _proved_after(rp, prefix, kept[k + 1:], i, digit, must):
                kept = trial
            else:
                rp.board = prefix
                rp.feed(kept[k])
                k += 1
        if len(kept) == before:
            return kept
        tighter = closed(kept)
        if len(tighter) < len(kept) and _proved(puzzle, tighter, i, digit, must):
            kept = tighter


def _rewordable(kept: list, path: list) -> bool:
    """Are the kept steps worth making again (:func:`reworded`)? Making a step again costs
    what walking it did, and the check after it a replay: a short answer always is, a long
    one only when it keeps at most half the walkthrough's steps to it (else the answer
    would cost more than the walkthrough, and a long answer points to it anyway)."""
    return len(kept) <= LONG_ANSWER or 2 * len(kept) <= len(path)


def reworded(puzzle: Puzzle, rules, kept: list, ok, deadline: float | None = None) -> list:
    """The kept steps made again, each by its rule on the board the kept steps before it
    leave, so that a sentence mentions only what the answer has shown (a step's sentence
    from the walkthrough could say "3 and 8 written in" of a digit a dropped step wrote).
    A step made again may take more than it did (the board holds more candidates); the
    kept steps as they were when a step cannot be made again (or the chain is a search's
    step) or ``ok`` (the steps made again: do they still show what they must?) says no,
    or once ``deadline`` (a ``time.perf_counter()`` reading) has passed."""

    def late() -> bool:
        return past(deadline)

    by_id = {r.id: r for r in rules}
    if late() or any(by_id.get(s.rule) is None or by_id[s.rule].scope != "run"
                     for s in kept):
        return kept
    run_id = {run.name: k for k, run in enumerate(puzzle.runs)}
    index = puzzle.index
    runs_at: dict[tuple[int, int], list[int]] = {}  # built once, not a scan per step
    for k, run in enumerate(puzzle.runs):
        for rc in run.coords:
            runs_at.setdefault(rc, []).append(k)
    eng = Engine(puzzle, rules)
    out = []
    for step in kept:
        if late():
            return kept
        rule = by_id[step.rule]
        place = {index[(r, c)]: d for r, c, d in step.placements}
        elim = {index[(r, c)]: sum(BIT[d] for d in ds) for r, c, ds in step.eliminations}
        made = None
        # the runs the step names, then those through its cells (a single names none)
        named = [run_id[n] for n in step.runs if n in run_id]
        where = {(r, c) for r, c, _ in (*step.placements, *step.eliminations)}
        where.update(tuple(rc) for rc in step.cells)
        near = sorted({k for rc in where for k in runs_at.get(rc, ()) if k not in named})
        for rid in named + near:
            for ded, effect in eng._deductions(rule, rid):
                got_place, got_elim = dict(effect.place), dict(effect.elim)
                # a step that writes digits is the same step when it writes the same
                # ones (what it took from their runs follows); else, when it takes at
                # least what it took
                if (all(got_place.get(j) == d for j, d in place.items()) if place else
                        all(got_elim.get(j, 0) & m == m for j, m in elim.items())):
                    made = eng._apply(rule, ded, effect, 0)
                    break
            if made is not None:
                break
        if made is None:
            return kept
        out.append(made)
    return out if not late() and ok(out) else kept


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

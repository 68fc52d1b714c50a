"""The steps an answer keeps (:mod:`deducer.assist.why`, :mod:`deducer.assist.hints`): of
the steps on a walkthrough's path, only those the target step depends on, the dependency
closure back from it through each kept step's proof (see docs/json-contract.md, "proof").
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
removes the digit (shortening within a small budget), and the kept steps may be made
again on the board they leave (:func:`reworded`), so that their sentences mention only
what the answer has shown.
"""

from __future__ import annotations

from .. import proofcheck
from ..clock import NO_LIMITS, Limits
from ..engine.walk import Engine
from ..puzzle.combos import BIT
from ..puzzle.model import Puzzle, cell_name

#: proof checks spent trying to shorten a closure (each replays the kept steps after the
#: step it drops), and the steps all of them may replay together: at least
#: SHORTEN_FEEDS, or as many as the walkthrough took to get there (a replayed step costs
#: about a fifth of a walked one). Shortening is a bonus, the closure already answers; it
#: is bounded by work, not by the clock, so an answer is the same on any machine
SHORTEN_BUDGET, SHORTEN_FEEDS = 40, 2_000


def _reached(masks: list[int], i: int, digit: int, must: bool) -> bool:
    return masks[i] == BIT[digit] if must else not masks[i] & BIT[digit]


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


def _shortest(puzzle: Puzzle, path: list, i: int, digit: int, must: bool,
              limits: Limits = NO_LIMITS) -> list:
    """The closure of ``path`` (the whole path if the closure fails the checker), then
    steps dropped one at a time, earliest first, while the rest still proves the target;
    after a pass that dropped some, the closure of what is left, and another pass (within
    a budget, and within ``limits``' time: past their deadline, the whole path, which
    proves the target as the walkthrough made it)."""
    if limits.past():
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
            if limits.past():
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


def reworded(puzzle: Puzzle, rules, kept: list, ok, limits: Limits = NO_LIMITS) -> list:
    """The kept steps made again, each by its rule on the board the kept steps before it
    leave, so that a sentence mentions only what the answer has shown (a step's sentence
    from the walkthrough could say "3 and 8 written in" of a digit a dropped step wrote).
    A step made again may take more than it did (the board holds more candidates); the
    kept steps as they were when a step cannot be made again (or the chain is a search's
    step) or ``ok`` (the steps made again: do they still show what they must?) says no,
    or once the deadline of ``limits`` has passed."""

    late = limits.past

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

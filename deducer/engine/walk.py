"""Explain mode: one deduction at a time, simplest rule first, every step logged.

After any change the engine restarts at the top of the ladder (as Sudoku Explainer and
HoDoKu do). With the ladder's ``order:`` section (docs/rule-contract.md) the simplest rules
work in *rounds*, as a person does: every deduction of the round's rules open on the board
is queued, and the queue is made step by step (each re-checked against the grid as it then
is; one that no longer changes anything is dropped); the next round is collected on the new
board when the queue is empty, and the other rules are asked, in ladder order, only when a
round finds nothing. Run-scoped rules are only re-asked about runs near a change, which is what
keeps a 990-cell walkthrough in seconds; the order of deductions is the same as a full
rescan would give, because runs are always visited in id order.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import InitVar, dataclass, field, replace

from ..clock import NO_LIMITS, Limits, past, stop_asked
from ..errors import RuleError
from ..puzzle.combos import ALL, BIT, DIGITS, POP, SINGLE, mask_of
from ..puzzle.model import Puzzle, cell_name, check_solution, solution_grid
from ..solver.propagate import run_filter
from ..solver.search import ENTRY_BLAME, entries_to_blame, solve
from ..solver.status import ExplainStatus, SolveStatus
from . import collector, kernel, registry
from .chainpick import shortest_chain
from .kernel import Effect, UndoLog
from .rating import Rating, rate_steps, search_floor
from .registry import Rule
from .sentences import differences, effect_text, worded
from .state import Context, Deduction, Link, Proof, State, View, resolve_proof

SOLVED, MULTIPLE, NONE, STALLED, TIMEOUT, OVER = ExplainStatus


@dataclass(slots=True)  # a walk of thousands of steps: no dict per step
class Step:
    """One logged deduction. Coordinates are 0-based ``(row, col)``."""

    n: int
    rule: str
    name: str
    text: str
    placements: list[tuple[int, int, int]]
    eliminations: list[tuple[int, int, list[int]]]
    cells: list[tuple[int, int]]
    runs: list[str]
    weight: float
    score: int
    available: int  # simplest-tier moves open before this step (bottleneck measure)
    combos_removed: list[tuple[str, list[str]]] = field(default_factory=list)
    proof: dict | None = None  # docs/json-contract.md, "Proofs": already in JSON form
    #: links of the step's proof by assumption (its longest case); kept in lean walks,
    #: which drop the proof, so their rating still measures chains (not in the JSON)
    chain: int = 0
    #: "whip" or "braid": the shape of that proof by assumption ("" for none)
    chain_kind: str = ""
    #: the whole case analysis behind ``text`` (the deciding fact); "" when the sentence
    #: says it all
    detail: str = ""
    #: rounds of the ladder's ``order:`` collected before this step (0: none; not in the
    #: JSON): the steps of one round share it
    round: int = 0

    def to_json(self) -> dict:
        return {
            "n": self.n,
            "rule": self.rule,
            "name": self.name,
            "text": self.text,
            **({"detail": self.detail} if self.detail else {}),
            "placements": [list(p) for p in self.placements],
            "eliminations": [[r, c, list(ds)] for r, c, ds in self.eliminations],
            "cells": [list(c) for c in self.cells],
            "runs": list(self.runs),
            "combos_removed": [[run, list(cs)] for run, cs in self.combos_removed],
            "weight": self.weight,
            "score": self.score,
            "available": self.available,
            **({"proof": self.proof} if self.proof is not None else {}),
        }


def _chain_links(proof: Proof | None) -> int:
    """Links of a proof by assumption, the longest case of a proof by cases (what
    :func:`rating.chain_length` reads from the proof's JSON)."""
    if proof is None:
        return 0
    if proof.cases:
        return max((len(c.links) for c in proof.cases
                    if not c.cases and c.assume is not None), default=0)
    return len(proof.links) if proof.assume is not None else 0


def proof_json(puzzle: Puzzle, proof: Proof) -> dict:
    """A :class:`Proof` in its JSON shape (docs/json-contract.md, "Proofs"; 0-based coordinates)."""
    whites, runs = puzzle.whites, puzzle.runs
    if proof.cases:
        return {"cases": [proof_json(puzzle, case) for case in proof.cases]}
    if proof.assume is not None:
        cell, digit = proof.assume
        return {"assume": [*whites[cell], digit],
                **({"kind": proof.kind} if proof.kind else {}),
                "links": [_link_json(puzzle, link) for link in proof.links]}
    facts: list[dict] = [{"cell": list(whites[i]), "candidates": digits_of(m)}
                         for i, m in sorted(proof.cells.items())]
    facts += [{"run": runs[r].ref, "combos": [digits_of(c) for c in cs]}
              for r, cs in sorted(proof.combos.items())]
    out = {"facts": facts, "runs": [runs[r].ref for r in proof.runs]}
    if proof.bound is not None:
        b = proof.bound
        out["bound"] = {"cell": list(whites[b["cell"]]), "run": runs[b["run"]].ref,
                        **{side: {"sum": b[side][0],
                                  "digits": [[*whites[j], d] for j, d in (
                                      b[side][1]() if callable(b[side][1]) else b[side][1])]}
                           for side in ("least", "most") if side in b}}
    return out


def link_json(puzzle: Puzzle, link: Link) -> dict:
    """A chain's :class:`Link` in its JSON shape (a proof's ``links``, docs/json-contract.md)."""
    return _link_json(puzzle, link)


def _link_json(puzzle: Puzzle, link: Link) -> dict:
    whites = puzzle.whites
    out = {"text": link.text,
           "placements": [[*whites[i], d] for i, d in sorted(link.placements.items())],
           "eliminations": [[*whites[i], digits_of(m)]
                            for i, m in sorted(link.eliminations.items())],
           **proof_json(puzzle, link.proof)}
    if link.contradiction:
        out["contradiction"] = True
    if link.after:
        out["after"] = list(link.after)
    if link.rule:
        out["rule"] = link.rule
    return out


def _proof_cost(ded: Deduction) -> int:
    """Facts and runs of a deduction's proof (what a reader checks): the ``cost`` order
    of a round. A proof built late is built here (the step needs it anyway if it is made)."""
    proof = resolve_proof(ded)
    if proof is None:
        return 0
    return len(proof.cells) + len(proof.combos) + len(proof.runs)


def digits_of(mask: int) -> list[int]:
    return list(DIGITS[mask & 0x1FF])


@dataclass
class Explanation:
    """A walkthrough: the steps, how it ended, and the rating of the path."""

    puzzle: Puzzle
    status: ExplainStatus
    steps: list[Step]
    masks: list[int]  # candidates at the end
    message: str = ""
    solutions: list[list[int]] = field(default_factory=list)  # for multiple: a few
    rating: Rating = field(init=False)  # of the path, rated on construction
    #: the ladder the walk used (None: the core one): its rating section rates the path
    rules: InitVar[list[Rule] | None] = None

    #: that ladder, kept for renderers that say what its techniques are (not in the JSON)
    ladder: list[Rule] | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self, rules: list[Rule] | None) -> None:
        self.rating = rate_steps(self.steps, self.status, rules, len(self.puzzle.whites),
                                 self.puzzle)
        self.ladder = rules

    @property
    def solution(self) -> list[int] | None:
        if self.status != SOLVED:
            return None
        return [SINGLE[m] for m in self.masks]

    def to_json(self) -> dict:
        """docs/json-contract.md ``explain --json``: status, steps, rating, solution (and
        rows, cols, message; for several solutions, a few of them)."""
        puzzle, sol = self.puzzle, self.solution
        obj: dict = {
            "status": self.status,
            "steps": [s.to_json() for s in self.steps],
            "rating": self.rating.to_json() if self.rating is not None else None,
            "solution": solution_grid(puzzle, sol) if sol is not None else None,
            "rows": puzzle.rows,
            "cols": puzzle.cols,
            "message": self.message,
        }
        if self.solutions:
            obj["solutions"] = [solution_grid(puzzle, s) for s in self.solutions]
        return obj


@dataclass(frozen=True)
class WalkOptions:
    """How one walk runs (everything but the puzzle, the ladder and where it resumes)."""

    #: the deadline at which the walk ends as TIMEOUT, and the units the expensive rules
    #: may spend (Context.spend) before it ends as TIMEOUT too, but at the same point on
    #: any machine
    limits: Limits = NO_LIMITS
    #: steps after which the walk ends as STALLED (a walkthrough cut short)
    max_steps: int | None = None
    #: steps for rating only (no sentences, no proofs in JSON, no count of open easy
    #: moves), for the generator, which rates hundreds of drafts and shows none of them
    lean: bool = False
    #: end as OVER at the first step that weighs more (the generator's early exit)
    stop_above: float | None = None
    #: count the open easy moves before each step (a step's ``available``, which only the
    #: rating reads): ``why`` walks without and counts for the few steps it shows
    #: (:meth:`Engine.recount`), half of its walk's time on a large grid
    count: bool = True


def _walked(rules: list[Rule]) -> list[Rule]:
    """The rules a walk asks on the board: all but the ``walk: false`` ones (link rules
    only chains use); a :class:`~deducer.engine.registry.Ladder` keeps its sections."""
    if all(r.walk for r in rules):
        return rules
    kept = [r for r in rules if r.walk]
    part = getattr(rules, "part", None)
    return part(kept) if part is not None else kept


class Engine:
    """Runs a ladder of rules over a state until solved, stuck or broken."""

    def __init__(self, puzzle: Puzzle, rules: list[Rule], options: WalkOptions = WalkOptions(),
                 *, state: State | None = None, dirty: dict[str, set[int]] | None = None):
        self.puzzle = puzzle
        self.options = options
        #: the whole ladder (chains find their link rules in it, ``walk: false`` ones too)
        self.ladder = rules
        #: the rules the walk asks on the board: a ``walk: false`` rule only serves chains
        self.rules = _walked(rules)
        self.context = Context(puzzle, options.limits)
        self.context.rules = rules
        if not options.lean:  # only a walk that words its steps says what took digits
            self.context.taken = {}
        if state is None:
            state = State(puzzle, puzzle.initial_masks(with_entries=True))
        self.state = state
        #: what each step changes, for rules that track the grid
        self.journal: list[int] = []
        state.journal = self.journal
        self.view = View(self.state, self.context)
        self.steps: list[Step] = []
        self._run_names: dict[int, str] = {}
        nruns = len(puzzle.runs)
        # every run id as one set of int objects, which the sets below share: made anew
        # for each set, 20 rules' ints were 2 MB of a 3,960-cell walk (most rules are never
        # asked, so their sets stay full)
        every = tuple(range(nruns))
        # ``dirty``: where a walk of the same ladder left off, the runs each run rule must
        # look at again (:meth:`touched` adds a change's); the rest are known to hold no
        # deduction, so a walk resumed after a small change does not rescan the grid
        self.dirty = {r.id: set(every) if dirty is None else set(dirty.get(r.id, ()))
                      for r in self.rules if r.scope == "run"}
        order = getattr(rules, "order", None)  # a Ladder's section; a plain list has none
        ids = set(order["round"]) if order else set()
        first = set(order["first"]) if order else set()
        #: the round's rules and the ones asked before each of its steps (ladder order)
        self.round_rules = [r for r in self.rules if r.id in ids and r.scope == "run"]
        self.first_rules = [r for r in self.rules if r.id in first and r.scope == "run"]
        ordered = self.round_rules + self.first_rules
        top = min((r.priority for r in ordered), default=0)
        # a rule placed above every ordered one (a user's at priority 1) keeps its place:
        # asked before them; the rest only when no round or first step is open
        self.before_rules = [r for r in self.rules if r not in ordered and r.priority < top]
        self.later_rules = [r for r in self.rules if r not in ordered and r.priority >= top]
        self.within = order["within"] if order else "found"
        #: the round's deductions not made yet, in the order they are to be made
        self.queue: deque[tuple[Rule, Deduction]] = deque()
        #: rounds collected so far (``Step.round``)
        self.rounds = 0
        self.tier1 = [r for r in self.rules if r.tier == 1 and r.scope == "run"]
        self.avail: dict[str, dict[int, int]] = {r.id: {} for r in self.tier1}
        self.avail_dirty = {r.id: set(every) for r in self.tier1}
        self._placed = self.state.placed
        # givens and entries (a bare walk is of ``puzzle.without_progress()``) are written
        # in from the start; a state passed in may hold runs reopened since its digits
        # were written: settled again
        for rc, d in {**puzzle.givens, **puzzle.entries}.items():
            i = puzzle.index[rc]
            if state.masks[i] == BIT[d]:  # else: a state passed in that dropped them
                kernel.write(state, i, d)
        kernel.settle(state)
        # bookkeeping kept up to date from the cells each step touches (no grid scan per
        # step): how many cells are still open, where the grid broke, open easy moves
        self._open = self._placed.count(False)
        self._broken = self.state.broken()
        self._avail_total = {r.id: 0 for r in self.tier1}

    @property
    def open_count(self) -> int:
        """Cells whose digit is not written in yet (kept from step to step, no grid scan)."""
        return self._open

    # ---- the loop -------------------------------------------------------------
    def run(self) -> ExplainStatus:
        """Step to the end; returns the status."""
        with collector.eased():  # a walk's caches, not its garbage, fill the collector
            return self._run()

    def _run(self) -> ExplainStatus:
        while True:
            # broken first: a grid can be filled in and still break a run's sum
            if self._broken is not None:
                return NONE
            if not self._open:
                return SOLVED
            if self.context.stopped():  # the deadline or the work budget
                return TIMEOUT
            if self.options.max_steps is not None and len(self.steps) >= self.options.max_steps:
                return STALLED
            step = self.step()
            if step is None:
                # the expensive rules give up when time or work runs out: not a stall
                if self.context.stopped():
                    return TIMEOUT
                return STALLED
            cap = self.options.stop_above
            if cap is not None and step.weight > cap + 1e-9:
                return OVER

    def _late(self) -> bool:
        """Past the deadline? (Seconds only: a work budget is counted where work is done, so
        that it stops a walk at the same point on any machine.)"""
        deadline = self.context.deadline
        return past(deadline)

    def step(self, found: tuple[Rule, Deduction, Effect] | None = None) -> Step | None:
        """Find and apply the next deduction of the simplest rule that has one (``found``:
        the one :meth:`next_deduction` gave, applied without asking the rules again: past
        the deadline they would not answer)."""
        available = (self._count_available() if self.options.count and not self.options.lean
                     else 0)
        if found is None:
            found = self.next_deduction()
        if found is None:
            return None
        rule, ded, effect = found
        if self.queue and self.queue[0][1] is ded:
            self.queue.popleft()
        return self._apply(rule, ded, effect, available)

    def next_deduction(self) -> tuple[Rule, Deduction, Effect] | None:
        """The deduction the next step would apply, without applying it (for hints)."""
        rules = self.rules
        if self.round_rules or self.first_rules:
            for rule in self.before_rules:
                found = self._ask(rule)
                if found is not None:
                    return rule, found[0], found[1]
            for rule in self.first_rules:
                found = self._ask(rule)
                if found is not None:
                    return rule, found[0], found[1]
            head = self._round_head()
            if head is not None:
                return head
            rules = self.later_rules
        for k, rule in enumerate(rules):
            if self._late():
                return None
            found = self._ask(rule)
            if found is not None:
                if rule.kind == "chain":  # the shortest chain any chain rule offers
                    return shortest_chain((rule, *found), rules[k + 1:], self._ask)
                return rule, found[0], found[1]
        return None

    def _round_head(self) -> tuple[Rule, Deduction, Effect] | None:
        """The queue's first deduction that still changes something (a new round collected
        when the queue runs out); None when a new round finds nothing."""
        queue = self.queue
        while True:
            while queue:
                rule, ded = queue[0]
                effect = kernel.effect(self.state, rule, ded)
                if effect is not None:
                    return rule, ded, effect
                queue.popleft()  # an earlier step of the round made it already
            if not self._collect_round():
                return None

    def _collect_round(self) -> bool:
        """Queue every deduction of the round's rules open on the board, in the order the
        ``within:`` setting gives. Only runs changed since a rule last looked are asked
        (its dirty set): a round costs what changed, not the grid."""
        found: list[tuple[int, int, int, Rule, Deduction]] = []
        for k, rule in enumerate(self.round_rules):
            ds = self.dirty[rule.id]
            for n, rid in enumerate(sorted(ds)):
                if n & 63 == 63 and self._late():
                    return False
                got = [ded for ded, _effect in self._deductions(rule, rid)]
                if not got:
                    ds.discard(rid)  # runs with deductions stay dirty until they are made
                found += [(rid, k, len(found), rule, ded) for ded in got]
        if not found:
            return False
        if self.within == "run":
            found.sort(key=lambda t: (t[0], t[1], t[2]))
        elif self.within == "cost":
            found.sort(key=lambda t: (_proof_cost(t[4]), t[2]))
        self.rounds += 1
        self.queue.extend((rule, ded) for *_, rule, ded in found)
        return True

    def deductions(self, rule: Rule) -> Iterator[tuple[Deduction, Effect]]:
        """Every deduction of ``rule`` on the grid as it stands that changes something,
        each with its effect, none applied (``hint --all``): a run rule over every run, in
        id order, until the deadline (a scan of a 200x200 grid's runs that finds nothing
        took seconds past ``hint --all --timeout``)."""
        if rule.scope != "run":
            yield from self._deductions(rule)
            return
        for rid in range(len(self.puzzle.runs)):
            if rid & 63 == 63 and self._late():
                return
            yield from self._deductions(rule, rid)

    def preview(self, rule: Rule, ded: Deduction, effect: Effect, available: int = 0) -> Step:
        """The step ``ded`` would be if it were made next, as the walk would log it
        (sentence, effect, proof), made on a copy of the grid: this engine is unchanged."""
        # no run to scan again (``dirty`` empty): the twin makes this one step, asks no rule
        # (a set of every run for each of 20 rules was half of a preview on a 150x150 grid)
        twin = Engine(self.puzzle, self.ladder, WalkOptions(), state=self.state.copy(),
                      dirty={})
        twin.steps = list(self.steps)  # the step's number follows this walk's
        if self.context.taken is not None:  # so that a naked single names what took digits
            twin.context.taken = {i: list(v) for i, v in self.context.taken.items()}
        return twin._apply(rule, ded, effect, available)

    def offer(self, rule: Rule) -> tuple[Deduction, Effect] | None:
        """What ``rule`` offers on the board as it stands (its first deduction that changes
        something, and what it changes), whether or not the walk would take it: for
        technique examples and audits, which ask one rule at a time."""
        return self._ask(rule)

    def _ask(self, rule: Rule) -> tuple[Deduction, Effect] | None:
        """The rule's first deduction that changes something, and what it changes."""
        if rule.scope == "run":
            ds = self.dirty[rule.id]
            for k, rid in enumerate(sorted(ds)):
                if k & 63 == 63 and self._late():  # a big grid's scan adds up to seconds
                    return None
                for found in self._deductions(rule, rid):
                    return found
                ds.discard(rid)
            return None
        return next(self._deductions(rule), None)

    def _deductions(self, rule: Rule, rid: int | None = None) -> Iterator[tuple[Deduction, Effect]]:
        """The rule's deductions (over run ``rid`` for a run rule) that change something,
        each with its effect. Whatever the rule's own code raises becomes one
        :class:`RuleError` naming the rule (a user's rule may fail in any way)."""
        try:
            for ded in rule.call(self.view, rid) or ():
                effect = kernel.effect(self.state, rule, ded)
                if effect is not None:
                    yield ded, effect
        except RuleError as e:
            if e.rule is None:
                e.rule = rule.id
            raise
        except (Exception, SystemExit) as e:
            err = RuleError(f"rule {rule.id!r} ({rule.implementation}) raised "
                            f"{type(e).__name__}: {e}", path=rule.source)
            err.rule = rule.id
            raise err from e

    def _count_available(self) -> int:
        total = 0
        for rule in self.tier1:
            cache = self.avail[rule.id]
            dirty = self.avail_dirty[rule.id]
            for rid in dirty:
                n = sum(1 for _ in self._deductions(rule, rid))
                self._avail_total[rule.id] += n - cache.get(rid, 0)
                cache[rid] = n
            dirty.clear()
            total += self._avail_total[rule.id]
        return total

    # ---- applying -------------------------------------------------------------
    def _apply(self, rule: Rule, ded: Deduction, effect: Effect, available: int) -> Step:
        masks = self.state.masks
        self._check_possible(rule, effect)
        if callable(ded.proof) and self.options.lean:
            # a proof built late is for showing (see Deduction.proof), and a lean walk
            # shows nothing: region sums' proofs, trimmed by a local search, were a fifth
            # of the generator's rating walks
            ded.proof = None
        elif callable(ded.proof):
            self._late_proof(rule, resolve_proof(ded))
        proof = resolve_proof(ded)  # built by now (or dropped)
        floor = self._proof_floor(proof)  # on the board the step is made on
        effect, forced = self._forced(effect, proof)
        before = self._commit(effect)
        place, drop = dict(effect.place), effect.drop
        whites = self.puzzle.whites
        placements = [(*whites[i], d) for i, d in effect.place]
        eliminations = []
        for i in sorted(before):
            removed = before[i] & ~masks[i]
            if i in place:
                continue
            if removed:
                eliminations.append((*whites[i], list(DIGITS[removed])))
        combos_removed = [
            (self._run_name(rid), [View.combo(c) for c in cs])
            for rid, cs in drop
        ]
        if self.options.lean:
            text = detail = ""
        else:
            self._note_taken(rule, ded, before, place)
            effect_sentence = effect_text(self.view, place, dict(effect.elim), dict(drop),
                                          forced)
            text, detail = (ded.text, "") if ded.text else worded(rule, ded, self.view,
                                                                  effect_sentence)
        step = Step(
            n=len(self.steps) + 1,
            rule=rule.id,
            name=rule.name,
            text=text,
            placements=placements,
            eliminations=eliminations,
            cells=[whites[i] for i in ded.cells],
            runs=[self._run_name(r) for r in ded.runs],
            weight=max(rule.weight_of(ded), floor),
            score=rule.score_of(ded),
            available=available,
            combos_removed=combos_removed,
            proof=None if proof is None or self.options.lean else proof_json(self.puzzle, proof),
            chain=_chain_links(proof),
            chain_kind=getattr(proof, "kind", "") or "",
            detail=detail,
            round=self.rounds,
        )
        self.steps.append(step)
        return step

    def _forced(self, effect: Effect, proof: Proof | None
                ) -> tuple[Effect, dict[int, int]]:
        """One deduction, one step: a cell the step's eliminations leave with one digit is
        written in by the same step, not by a naked single after it that would tell the
        reader again what this step just showed. Returns the effect with those placements
        and the digits each such cell lost (for its sentence, "1 and 3 leave r3c3, so r3c3
        = 5"). A simple proof gets the cell's candidates as a fact where the local problem
        needs them to decide the cell (the digits it lost alone do not)."""
        masks, placed = self.state.masks, self.state.placed
        have = {i for i, _ in effect.place}
        forced: dict[int, int] = {}
        add = []
        if not effect.elim:
            return effect, forced
        # what the step's own eliminations and the digits it writes leave each cell
        left = {i: masks[i] & ~m for i, m in effect.elim}
        lay = self.state.layout
        for j, d in effect.place:
            for r in lay.cell_runs[j]:
                for k in lay.run_cells[r]:
                    if k in left:
                        left[k] &= ~BIT[d]
        more = True
        while more:  # a cell written in so may leave another of the step's cells one digit
            more = False
            for i, _m in effect.elim:
                if i in have or placed[i] or i in forced:
                    continue
                d = SINGLE[left[i]]
                if d:
                    forced[i] = masks[i] & ~BIT[d]
                    add.append((i, d))
                    more = True
                    for r in lay.cell_runs[i]:
                        for k in lay.run_cells[r]:
                            if k in left and k != i:
                                left[k] &= ~BIT[d]
        if not add:
            return effect, forced
        if proof is not None and proof.assume is None and not proof.cases:
            for i, d in add:
                if i in proof.cells:
                    proof.cells[i] &= masks[i]
                elif not self._decided(proof, i, d):
                    proof.cells[i] = masks[i]
        place = tuple(sorted((*effect.place, *add)))
        return Effect(place, effect.elim, effect.drop), forced

    def _decided(self, proof: Proof, i: int, d: int) -> bool:
        """Does one run of ``proof``, with its facts, leave cell ``i`` only ``d`` (so that
        writing it in needs no fact about the cell)?"""
        masks, placed, lay = self.state.masks, self.state.placed, self.state.layout
        for r in proof.runs:
            cells = lay.run_cells[r]
            if i not in cells:
                continue
            free = ALL
            for j in cells:
                if placed[j]:
                    free &= ~masks[j]
            got = tuple([masks[j] if placed[j] else proof.cells.get(j, free) for j in cells])
            total = lay.run_total[r]
            reach = 0
            for c in proof.combos.get(r, (ALL,)):
                fit = run_filter(total, tuple([m & c for m in got]))
                if fit is not None:
                    reach |= fit[cells.index(i)]
            if reach == BIT[d]:
                return True
        return False

    def _run_name(self, rid: int) -> str:
        """A run's name, made once a walk: the steps share it (a 3,960-cell walk named
        runs 4,776 times, 2,224 of them)."""
        name = self._run_names.get(rid)
        if name is None:
            name = self._run_names[rid] = self.puzzle.runs[rid].name
        return name

    def _note_taken(self, rule: Rule, ded: Deduction, before: dict[int, int],
                    placed: dict[int, int]) -> None:
        """Which step took which digits from which cells (Context.taken), so that a
        naked single can say what took its cell's other digits. A cell the step writes
        in is forgotten: its digit is told, and the walk's end held a record of every
        digit it ever took (a megabyte at 3,960 cells)."""
        taken = self.context.taken
        if taken is None:
            return
        masks = self.state.masks
        n = len(self.steps) + 1
        runs = tuple(ded.runs)  # one tuple for the step's cells
        for i, m in before.items():
            gone = m & ~masks[i]
            if gone and i not in placed:
                taken.setdefault(i, []).append((gone, n, rule.name, runs))
        for i in placed:
            taken.pop(i, None)

    def _commit(self, effect: Effect) -> dict[int, int]:
        """Make a step's effect on the grid (:func:`kernel.apply`) and keep the walk's
        bookkeeping; returns the candidates of the cells it changed as they were before."""
        placed = self._placed
        self._open -= sum(1 for i, _ in effect.place if not placed[i])
        log: UndoLog = []
        cells, runs = kernel.apply(self.state, effect, log)
        self._mark_dirty(cells, runs)
        self.journal.extend(sorted(cells))
        if self._broken is None:
            self._broken = self._broken_near(cells, runs)
        return kernel.before(log)

    def recount(self, steps: list[Step]) -> list[Step]:
        """``steps``, a lean walk of this puzzle from the start, with what a full walk
        adds to the rating: the count of open easy moves before each step. The walk is
        replayed on this (fresh) engine's grid, no rule asked for a deduction, so this
        costs a small part of walking again (the generator's final rating)."""
        index = self.puzzle.index
        run_id = {run.name: run.id for run in self.puzzle.runs}
        out = []
        for step in steps:
            available = self._count_available()
            place = sorted((index[(r, c)], d) for r, c, d in step.placements)
            elim = sorted((index[(r, c)], mask_of(ds)) for r, c, ds in step.eliminations)
            drop = sorted((run_id[name], tuple(mask_of(map(int, c.split("+"))) for c in cs))
                          for name, cs in step.combos_removed)
            self._commit(Effect(tuple(place), tuple(elim), tuple(drop)))
            out.append(replace(step, available=available))
        return out

    @staticmethod
    def _late_proof(rule: Rule, proof: Proof | None) -> None:
        """A proof built late is skipped by lean walks, so it may not carry what the rating
        reads (runs a reader must search, an assumption's links): a lean walk's rating
        would differ from this one."""
        if proof is not None and (proof.search or proof.assume is not None or proof.cases):
            raise RuleError(f"rule {rule.id!r} ({rule.implementation}) built a proof late "
                            "that the rating reads (search runs or an assumption); give "
                            "such a proof at once, not as a function", path=rule.source)

    def _proof_floor(self, proof: Proof | None) -> float:
        """The least weight of a step whose proof asks a reader to try the arrangements
        of runs (:func:`rating.search_floor`), measured on the board the step was made on."""
        if proof is None or not proof.search:
            return 0.0

        masks = self.state.masks
        floor = 0.0
        for rid in proof.search:
            open_cells, arrangements = 0, 1
            for j in self.state.layout.run_cells[rid]:
                if not self._placed[j]:
                    open_cells += 1
                    arrangements *= POP[masks[j]]
            floor = max(floor, search_floor(open_cells, arrangements, self.ladder))
        return floor

    def _check_possible(self, rule: Rule, effect: Effect) -> None:
        """A deduction that empties a cell or places a non-candidate is either a true
        contradiction (the puzzle has no solution) or a faulty rule: tell which."""
        masks = self.state.masks
        bad = None
        for i, m in effect.elim:
            if masks[i] & ~m == 0:
                bad = f"it removes every candidate of {cell_name(self.puzzle.whites[i])}"
        for i, d in effect.place:
            if not masks[i] & BIT[d]:
                bad = (f"it places {d} in {cell_name(self.puzzle.whites[i])}, which no longer "
                       "has that candidate")
        if bad is None:
            return

        if solve(self.puzzle, max_solutions=1).solutions:
            # an earlier false step (a user rule's) is the cause more often than this one
            _blame_false_step(self.puzzle, self.steps, self.ladder, last_resort=False)
            raise RuleError(f"rule {rule.id!r} made an impossible deduction: {bad}, yet the "
                            "puzzle has a solution", path=rule.source)

    def _broken_near(self, cells: set[int], runs: set[int]) -> tuple[str, int] | None:
        """``State.broken`` restricted to what a step touched (the rest did not change)."""
        masks, live = self.state.masks, self.state.live
        for i in sorted(cells):
            if masks[i] == 0:
                return ("cell", i)
        for rid in sorted(runs):
            if not live[rid]:
                return ("run", rid)
        return None

    def touched(self, cells, runs) -> None:
        """Cells and runs changed from outside (a resumed walk's): their rules look again."""
        self._mark_dirty(set(cells), set(runs))

    def _mark_dirty(self, cells: set[int], runs: set[int]) -> None:
        layout = self.state.layout
        near: set[int] = set(runs)
        for i in cells:
            near.update(layout.cell_runs[i])
        wide = set(near)
        for rid in near:
            for j in layout.run_cells[rid]:
                wide.update(layout.cell_runs[j])
        for ds in self.dirty.values():
            ds |= wide
        for ds in self.avail_dirty.values():
            ds |= wide


def explain(puzzle: Puzzle, rules: list[Rule] | None = None, *, limits: Limits = NO_LIMITS,
            max_steps: int | None = None) -> Explanation:
    """Solve ``puzzle`` step by step with the ladder and rate the path (from its givens and
    the player's entries: the bare walk is of ``puzzle.without_progress()``)."""

    if rules is None:
        rules = registry.load()
    # the solver's look for a second solution gets at most a quarter of a time limit: the
    # walk keeps the rest (when the look runs out, the walk decides as it always did)
    several = _several_solutions(puzzle, limits.part(0.25))
    if several is not None:
        return several
    eng = Engine(puzzle, rules, WalkOptions(limits=limits, max_steps=max_steps))
    status = eng.run()
    masks = eng.state.masks
    message = ""
    sols: list[list[int]] = []
    if status == SOLVED:
        values = [SINGLE[m] for m in masks]
        bad = check_solution(puzzle, values)
        if bad is not None and entries_to_blame(puzzle, limits.left(0.05)):
            # the player's entries filled a run wrongly (a mistake, not a faulty rule)
            status, message = NONE, f"{bad}{ENTRY_BLAME}"
        elif bad is not None:  # a faulty user rule must never pass a wrong grid off as right
            raise RuleError(f"the rules reached a grid that breaks the puzzle ({bad}); one of "
                            "the active rules made a false deduction (try 'deducer rules test')")
    elif status == NONE:
        _blame_false_step(puzzle, eng.steps, rules)
        kind, where = eng.state.broken() or ("", 0)  # NONE: something is broken
        if kind == "cell":
            message = f"cell {cell_name(puzzle.whites[where])} has no digit left"
        else:
            message = f"run {puzzle.runs[where].name} has no combination left"
        if entries_to_blame(puzzle):
            message += ENTRY_BLAME
    elif status == TIMEOUT:
        message = ("interrupted (Ctrl-C): the walkthrough so far" if stop_asked()
                   else "the time limit stopped the walkthrough")
    elif status == STALLED:
        # why did the rules stop? Several solutions, none, or only a weaker ladder
        res = solve(puzzle, max_solutions=2, masks=masks, timeout=limits.left(0.5))
        stopped = max_steps is not None and len(eng.steps) >= max_steps
        if res.status == SolveStatus.NONE:
            # the grid reached has no solution: if the puzzle has one, a step was false,
            # and that is said as when the walk breaks the grid (--max-steps or not)
            _blame_false_step(puzzle, eng.steps, rules)
            status, message = NONE, str(res.reason)
        elif len(res.solutions) > 1:
            status, sols = MULTIPLE, res.solutions
            message = _several_message(puzzle, sols)
        elif stopped:
            message = f"stopped after {len(eng.steps)} steps (the most steps asked for)"
        else:
            message = "the active rules found no further deduction"
    return Explanation(puzzle, status, eng.steps, masks, message, sols, rules)


def _several_message(puzzle: Puzzle, sols: list[list[int]]) -> str:
    diff = differences(puzzle, sols)
    return (f"the puzzle has more than one solution; two of them differ at "
            f"{len(diff)} cells: {', '.join(diff[:12])}" + (" …" if len(diff) > 12 else ""))


def _several_solutions(puzzle: Puzzle, limits: Limits) -> Explanation | None:
    """The walkthrough of a puzzle the solver finds two solutions for, before any step.

    A walk over such a puzzle only stalls somewhere (on a large grid after tens of seconds
    and hundreds of megabytes of steps, where the solver takes one second), and its steps
    lead to no solution: say so at once. Anything else (one solution, none, or a solver the
    time limit stopped) is left to the walk, which reports it with its reasons.
    """

    res = solve(puzzle, max_solutions=2, timeout=limits.left(), work=limits.work)
    if len(res.solutions) < 2:
        return None
    return Explanation(puzzle, MULTIPLE, [], puzzle.initial_masks(with_entries=True),
                       _several_message(puzzle, res.solutions), res.solutions)


def _false_step(puzzle: Puzzle, steps: list[Step]) -> Step | None:
    """The first step after which the puzzle, which has a solution, has none (None: no
    step is to blame)."""

    masks = puzzle.initial_masks(with_entries=True)
    index = puzzle.index
    for step in steps:
        for r, c, d in step.placements:
            masks[index[(r, c)]] = BIT[d]
        for r, c, ds in step.eliminations:
            for d in ds:
                masks[index[(r, c)]] &= ~BIT[d]
        if not solve(puzzle, max_solutions=1, masks=masks, timeout=30).solutions:
            return step
    return None


def _blame_false_step(puzzle: Puzzle, steps: list[Step], rules: list[Rule], *,
                      last_resort: bool = True) -> None:
    """The rules ran the grid into a contradiction. If the puzzle has a solution after
    all, some step was false: name the first one (and its rule's file) instead of
    reporting a solvable puzzle as unsolvable. Without ``last_resort``, return when no
    logged step is to blame (the caller blames the step being made)."""

    res = solve(puzzle, max_solutions=1, timeout=30)
    if not res.solutions:
        return  # a real contradiction: the puzzle has no solution
    step = _false_step(puzzle, steps)
    if step is not None:
        source = next((r.source for r in rules if r.id == step.rule), None)
        raise RuleError(f"rule {step.rule!r} made a false deduction at step {step.n} "
                        f"({step.text}); the puzzle has a solution it rules out",
                        path=source)
    if not last_resort:
        return
    raise RuleError("the rules reported a contradiction, yet the puzzle has a solution; one "
                    "of the active rules is faulty (try 'deducer rules test')")


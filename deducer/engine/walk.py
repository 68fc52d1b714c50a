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

What a walk records (:class:`Step`, :class:`Explanation`) is in ``record.py``, how one step
writes in the cells its eliminations decide in ``forced.py``, and how a walk's ending is
told (and a false step blamed) in ``ending.py``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, replace

from ..clock import NO_LIMITS, Limits, past
from ..errors import RuleError
from ..puzzle.combos import BIT, DIGITS, POP, mask_of
from ..puzzle.model import Puzzle, cell_name
from ..solver.search import solve
from ..solver.status import ExplainStatus
from . import collector, kernel, registry
from .chainpick import shortest_chain
from .ending import blame_false_step, ending, several_solutions
from .forced import with_forced
from .kernel import Effect, UndoLog
from .rating import search_floor
from .record import Explanation, Step, chain_links, proof_json
from .registry import Rule
from .sentences import effect_text, worded
from .state import Context, Deduction, Proof, State, View, resolve_proof

SOLVED, MULTIPLE, NONE, STALLED, TIMEOUT, OVER = ExplainStatus


def _proof_cost(ded: Deduction) -> int:
    """Facts and runs of a deduction's proof (what a reader checks): the ``cost`` order
    of a round. A proof built late is built here (the step needs it anyway if it is made)."""
    proof = resolve_proof(ded)
    if proof is None:
        return 0
    return len(proof.cells) + len(proof.combos) + len(proof.runs)


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
        effect, forced = with_forced(self.state, effect, proof)
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
            chain=chain_links(proof),
            chain_kind=getattr(proof, "kind", "") or "",
            detail=detail,
            round=self.rounds,
        )
        self.steps.append(step)
        return step


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
            blame_false_step(self.puzzle, self.steps, self.ladder, last_resort=False)
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
    several = several_solutions(puzzle, limits.part(0.25))
    if several is not None:
        return several
    eng = Engine(puzzle, rules, WalkOptions(limits=limits, max_steps=max_steps))
    status = eng.run()
    status, message, sols = ending(puzzle, status, eng.steps, eng.state, rules, limits,
                                   max_steps)
    return Explanation(puzzle, status, eng.steps, eng.state.masks, message, sols, rules)

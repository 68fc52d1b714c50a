"""Audit a ladder against known solutions (``deducer rules test``).

The ladder walks a puzzle whose unique solution is known, and every deduction is checked
against that solution before it is applied: the first false one (or a rule that raises)
ends the puzzle's audit as its :class:`Finding`. The steps of the watched rules (the rule
file under test) are also replayed by the independent proof checker
(:mod:`deducer.proofcheck`, docs/json-contract.md, "Proofs"): a step that is true but
not proved by the proof it carries is recorded as unproved. :class:`RulesTest` gathers
the audits of a run; renderers print it (:mod:`deducer.render`).

Kept free of argparse and printing, as the other assist modules are.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field

from ..clock import NO_LIMITS, Limits
from ..engine.rating import rate_steps
from ..engine.walk import Engine, WalkOptions
from ..errors import DeducerError, RuleError
from ..proofcheck import Replay
from ..puzzle.combos import BIT, fmt_combo, mask_of
from ..puzzle.model import Puzzle, cell_name
from ..solver.status import ExplainStatus


@dataclass
class Finding:
    """A step the audit found false or unproved, and why."""

    puzzle: str
    step: int
    rule: str
    source: str
    problems: list[str]
    text: str = ""  # the step's sentence (for a true but unproved step)

    def to_json(self) -> dict:
        out = {"puzzle": self.puzzle, "step": self.step, "rule": self.rule,
               "source": self.source, "problems": self.problems}
        if self.text:
            out["text"] = self.text
        return out


@dataclass
class Audit:
    """The audit of one walkthrough: how it ended and what it found."""

    label: str
    status: str  # solved | stalled | false | error | timeout | skipped
    steps: int = 0
    fired: dict = field(default_factory=dict)
    finding: Finding | None = None
    note: str = ""
    unproved: list[Finding] = field(default_factory=list)  # true steps their proof misses
    #: rule id -> the numbers of the steps it made (the watched rules'), as explain numbers
    fired_at: dict = field(default_factory=dict)
    #: the walk's rating (level, score), when it solved the puzzle
    level: str | None = None
    score: float | None = None

    def to_json(self) -> dict:
        return {"puzzle": self.label, "status": self.status, "steps": self.steps,
                "fired": self.fired, "fired_at": self.fired_at, "note": self.note,
                "level": self.level, "score": self.score,
                "finding": self.finding.to_json() if self.finding else None,
                "unproved": [u.to_json() for u in self.unproved]}


#: a hard stop around a walk: given the time limit, a context manager that ends a rule that
#: never returns and swallows its own exception (the CLI's ``--timeout`` backstop)
Guard = Callable[[float | None], AbstractContextManager]


def audit(puzzle: Puzzle, solution: list[int], rules, *, label: str = "",
          limits: Limits = NO_LIMITS, watch: frozenset[str] = frozenset(),
          guard: Guard | None = None) -> Audit:
    """Step through ``puzzle`` with ``rules``, checking each deduction before applying it.

    The steps of the rules in ``watch`` are also checked against their proofs
    (docs/json-contract.md, proofs) by the independent checker; a true step its proof does
    not prove is recorded in ``Audit.unproved``. The walk stops at the deadline of
    ``limits``; one that ``guard`` (given the seconds left) stops is reported as timed out,
    with what it had found so far."""
    out = Audit(label, "solved")
    if guard is None:
        return _audit(out, puzzle, solution, rules, limits, watch)
    with guard(limits.left()):  # a rule that loops forever stops here too
        return _audit(out, puzzle, solution, rules, limits, watch)
    out.status, out.note = "timeout", "the time limit stopped the audit"  # the guard stopped it
    return out


def _audit(out: Audit, puzzle, solution: list[int], rules, limits: Limits,
           watch: frozenset[str]) -> Audit:
    """The walk ``explain`` makes (the same :class:`Engine` loop: the ``order:`` rounds,
    the shortest chain), each deduction checked against ``solution`` before it is made.
    Whatever goes wrong in a rule (an exception, a malformed deduction, a template value
    missing, the state written behind the view) ends this puzzle's audit as a finding
    that names the rule: the next puzzle is audited all the same."""
    label = out.label
    eng = Engine(puzzle, _guarded(rules, watch), WalkOptions(limits=limits))
    replay = Replay(puzzle)
    sources = {r.id: r.source for r in rules}

    def error(rid: str, msg: str) -> Audit:
        out.status, out.note, out.steps = "error", msg, len(eng.steps)
        out.finding = Finding(label, len(eng.steps) + 1, rid, sources.get(rid, ""), [msg])
        return out

    while eng.open_count:
        if eng.context.stopped():
            out.status, out.note = "timeout", "the time limit stopped the audit"
            break
        try:
            found = eng.next_deduction()
        except DeducerError as e:
            return error(getattr(e, "rule", None) or _blamed(str(e), rules), str(e))
        except Exception as e:  # a user rule may fail in any way: name it
            rid = _blamed(str(e), rules)
            return error(rid, f"rule {rid!r} raised {type(e).__name__}: {e}")
        if found is None:
            if eng.context.stopped():
                out.status, out.note = "timeout", "the time limit stopped the audit"
            else:
                out.status = "stalled"
                out.note = "no rule applies (the ladder has no fallback?)"
            break
        rule, ded, effect = found
        problems = _against(effect, puzzle, solution)
        n = len(eng.steps) + 1
        if problems:
            out.status = "false"
            out.steps = n - 1
            out.finding = Finding(label, n, rule.id, rule.source, problems)
            return out
        try:
            step = eng.step(found)  # worded here: a template value missing fails here
        except DeducerError as e:
            return error(rule.id, str(e))
        except Exception as e:
            return error(rule.id, f"rule {rule.id!r} raised {type(e).__name__}: {e}")
        if step is None:  # pragma: no cover - step(found) always applies found
            break
        proof_problems = replay.feed(step)
        if rule.id in watch and proof_problems:
            out.unproved.append(Finding(label, n, rule.id, rule.source,
                                        [_proof_problem(p) for p in proof_problems], step.text))
        out.fired[rule.id] = out.fired.get(rule.id, 0) + 1
        if rule.id in watch:
            out.fired_at.setdefault(rule.id, []).append(n)
    out.steps = len(eng.steps)
    if out.status == "solved":
        rating = rate_steps(eng.steps, ExplainStatus.SOLVED, rules, len(puzzle.whites))
        out.level, out.score = rating.level, rating.score
    return out


class _BehindView(RuleError):
    """A watched rule changed the grid itself instead of yielding a deduction."""


def _against(effect, puzzle, solution: list[int]) -> list[str]:
    """What a deduction's effect does against the known ``solution`` (empty: nothing)."""
    name = puzzle.whites
    problems = []
    for i, d in effect.place:
        if solution[i] != d:
            problems.append(f"places {d} in {_cell(name[i])}, but the solution has "
                            f"{solution[i]} there")
    for i, m in effect.elim:
        if m & BIT[solution[i]]:
            problems.append(f"removes {solution[i]} from {_cell(name[i])}, but the "
                            f"solution has {solution[i]} there")
    for r, cs in effect.drop:
        run = puzzle.runs[r]
        used = mask_of(solution[i] for i in run.cells)
        if used in cs:
            problems.append(f"rules out {fmt_combo(used)} for {run.name}, the "
                            "combination the solution uses")
    return problems


def _blamed(message: str, rules) -> str:
    """The rule an error message names (``rule 'x' ...``), else ``?``."""

    m = re.search(r"rule '([^']+)'", message)
    ids = {r.id for r in rules}
    return m.group(1) if m and m.group(1) in ids else "?"


def _guarded(rules, watch: frozenset[str]):
    """``rules`` with the watched (the tested file's) rules' functions wrapped so that a
    rule which writes the grid behind the read-only view is caught at once and named,
    not blamed on the core rule that next runs into the damage. A copy of the grid is
    taken around each call of those rules only: an audit's cost, never a walk's."""

    out = []
    for r in rules:
        if r.id in watch and r.func is not None:
            r = dataclasses.replace(r, func=_watching(r.id, r.source, r.func))
        out.append(r)
    part = getattr(rules, "part", None)
    return part(out) if part is not None else out


def _watching(rid: str, source: str, func):
    def snapshot(view):
        s = view._s
        return list(s.masks), list(s.live), list(s.placed)

    def check(view, before) -> None:
        if snapshot(view) != before:
            err = _BehindView(f"rule {rid!r} changed the grid behind the read-only view "
                              "(a rule yields Deductions and never writes the state: "
                              "docs/rule-contract.md)", path=source)
            err.rule = rid
            raise err

    def watched(view, *args, **kwargs):
        before = snapshot(view)
        got = func(view, *args, **kwargs)
        check(view, before)
        for ded in got or ():
            check(view, before)
            yield ded
        check(view, before)

    for attr in ("__name__", "__qualname__", "__module__"):
        setattr(watched, attr, getattr(func, attr, "rule"))
    watched.__dict__.update(getattr(func, "__dict__", {}))  # its @rule marks
    return watched


def _proof_problem(p) -> str:
    at = f" ({p.where})" if p.where else ""
    return f"{p.kind}{at}: {p.message}"


def _cell(rc) -> str:
    return cell_name(rc)


def first_by_rule(unproved: list[Finding]) -> dict[str, Finding]:
    """The first true-but-unproved step of each rule (the example shown)."""
    out: dict[str, Finding] = {}
    for u in unproved:
        out.setdefault(u.rule, u)
    return out


@dataclass
class RulesTest:
    """A ``rules test`` run: the rule file's rules (``user_ids``; ``active`` those the
    ladder of ``ladder_size`` rules kept enabled) audited on puzzles, one :class:`Audit`
    each. ``replay`` gives, by puzzle label, how to name the puzzle of a finding on the
    command line, and ``extra`` the rule files to load with it; ``strict`` counts an
    unproved step as a failure."""

    rule_file: str
    user_ids: list[str]
    active: list[str]
    ladder_size: int
    audits: list[Audit]
    replay: dict[str, str] = field(default_factory=dict)
    extra: list[str] = field(default_factory=list)
    strict: bool = False
    #: the options the replay line repeats besides the rule files (``--disable``,
    #: ``--priority ID=P``): the walk replayed is the walk audited
    options: list[str] = field(default_factory=list)
    #: by puzzle label, the walk without the rule file (``--impact``): None when not asked
    baseline: dict[str, Baseline] | None = None
    #: the file's rules' weights (for the impact's warnings) and the ladder's Easy threshold
    weights: dict[str, float] = field(default_factory=dict)
    easy: float = 0.0
    #: what stopped the run early ("" when it ran to the end): Ctrl-C keeps the report
    interrupted: str = ""
    #: by puzzle label, the files ``--save-fired`` wrote
    saved_fired: dict[str, str] = field(default_factory=dict)
    #: the fixture files checked (:class:`deducer.rules.fixture.FixtureResult`)
    fixtures: list = field(default_factory=list)

    @property
    def findings(self) -> list[Finding]:
        return [a.finding for a in self.audits if a.finding is not None]

    @property
    def unproved(self) -> list[Finding]:
        return [u for a in self.audits for u in a.unproved]

    @property
    def tested(self) -> list[Audit]:
        return [a for a in self.audits if a.status != "skipped"]

    @property
    def fired(self) -> dict[str, int]:
        """How often each enabled rule of the file fired (true steps), over every audit."""
        return {rid: sum(a.fired.get(rid, 0) for a in self.audits) for rid in self.active}

    @property
    def failed(self) -> bool:
        """A false deduction or a rule error (or, ``strict``, an unproved step)."""
        return (bool(self.findings) or (self.strict and bool(self.unproved))
                or any(f.problems for f in self.fixtures))

    @property
    def timed_out(self) -> bool:
        """Did a time limit cut an audit short (the rules were not fully tested)?"""
        return any(a.status == "timeout" for a in self.audits)

    def impact(self) -> Impact | None:
        """The walks with the file beside those without it (None: no baseline taken)."""
        if self.baseline is None:
            return None
        return _impact(self)

    def replay_line(self, label: str, step: int) -> str | None:
        """The ``explain`` command that walks ``label`` up to the board of its step
        ``step`` (that step not made): every rule file and option the test used."""
        if label not in self.replay:
            return None
        words = [f"deducer explain {self.replay[label]}",
                 *(f"--rules {x}" for x in self.extra), *self.options,
                 f"--max-steps {step - 1}"]
        return " ".join(words)

    def to_json(self) -> dict:
        unproved = self.unproved
        first = first_by_rule(unproved)
        impact = self.impact()
        extra: dict = {"impact": impact.to_json()} if impact is not None else {}
        if self.interrupted:
            extra["interrupted"] = self.interrupted
        if self.fixtures:
            extra["fixtures"] = [{"file": f.path, "checked": f.checked, "problems": f.problems}
                                 for f in self.fixtures]
        return {**extra, "rule_file": self.rule_file, "user_rules": self.user_ids,
                "fired": self.fired, "puzzles": len(self.tested),
                "steps": sum(a.steps for a in self.tested), "false": len(self.findings),
                "findings": [f.to_json() for f in self.findings],
                "unproved": len(unproved),
                "unproved_examples": [first[r].to_json() for r in sorted(first)],
                "results": [a.to_json() for a in self.audits]}


@dataclass
class Baseline:
    """One puzzle walked without the rule file: how it ended and its rating."""

    status: str
    steps: int
    level: str | None = None
    score: float | None = None


@dataclass
class Impact:
    """What a rule file changes: the puzzles rated with and without it, side by side."""

    compared: int  # puzzles solved both ways
    moves: dict[tuple[str, str], int]  # (level without, level with) -> puzzles, level moved
    steps_delta: int  # steps with the file less steps without, over the compared puzzles
    score_delta: float  # likewise for the scores
    raised: int  # puzzles whose score rose
    lowered: int
    #: by puzzle label: (steps without, steps with, score without, score with, level
    #: without, level with, {rule: [step numbers]}) of the puzzles where a rule fired
    rows: dict[str, tuple] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"compared": self.compared,
                "levels_moved": [{"from": a, "to": b, "puzzles": n}
                                 for (a, b), n in sorted(self.moves.items())],
                "steps_delta": self.steps_delta, "score_delta": round(self.score_delta, 2),
                "scores_raised": self.raised, "scores_lowered": self.lowered,
                "fired": [{"puzzle": k, "steps_without": r[0], "steps_with": r[1],
                           "score_without": r[2], "score_with": r[3],
                           "level_without": r[4], "level_with": r[5], "at": r[6]}
                          for k, r in self.rows.items()],
                "warnings": self.warnings}


def _impact(test: RulesTest) -> Impact:
    base = test.baseline or {}
    moves: dict[tuple[str, str], int] = {}
    compared = steps_delta = raised = lowered = 0
    score_delta = 0.0
    rows: dict[str, tuple] = {}
    raised_by: dict[str, list[float]] = {}
    for a in test.audits:
        b = base.get(a.label)
        if b is None or a.status != "solved" or b.status != "solved":
            if a.fired_at and a.status != "skipped":
                rows[a.label] = (b.steps if b else None, a.steps, b.score if b else None,
                                 a.score, b.level if b else None, a.level, a.fired_at)
            continue
        compared += 1
        steps_delta += a.steps - b.steps
        ds = (a.score or 0.0) - (b.score or 0.0)
        score_delta += ds
        raised += ds > 0.005
        lowered += ds < -0.005
        if a.level != b.level:
            key = (str(b.level), str(a.level))
            moves[key] = moves.get(key, 0) + 1
        if a.fired_at:
            rows[a.label] = (b.steps, a.steps, b.score, a.score, b.level, a.level, a.fired_at)
            for rid in a.fired_at:
                raised_by.setdefault(rid, []).append(ds)
    warnings = []
    for rid in test.active:
        w = test.weights.get(rid)
        deltas = raised_by.get(rid, [])
        up = sum(d > 0.005 for d in deltas)
        if w is not None and w <= test.easy and deltas and up * 2 > len(deltas):
            warnings.append(
                f"{rid} weighs {w:g} (an Easy step) yet raised the score of {up} of the "
                f"{len(deltas)} puzzles it fired on (mean {sum(deltas) / len(deltas):+.2f}): "
                "the steps it adds cost more effort than the harder ones it saves; check "
                "its score and priority (docs/rule-authors-guide.md, section 5b)")
        if not test.fired.get(rid):
            warnings.append(f"{rid} never fired, so it changes no rating here")
    return Impact(compared, moves, steps_delta, score_delta, raised, lowered, rows, warnings)

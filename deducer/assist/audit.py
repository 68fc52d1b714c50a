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

import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field

from ..puzzle.model import Puzzle


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

    def to_json(self) -> dict:
        return {"puzzle": self.label, "status": self.status, "steps": self.steps,
                "fired": self.fired, "note": self.note,
                "finding": self.finding.to_json() if self.finding else None,
                "unproved": [u.to_json() for u in self.unproved]}


#: a hard stop around a walk: given the time limit, a context manager that ends a rule that
#: never returns and swallows its own exception (the CLI's ``--timeout`` backstop)
Guard = Callable[[float | None], AbstractContextManager]


def audit(puzzle: Puzzle, solution: list[int], rules, *, label: str = "",
          timeout: float | None = None, watch: frozenset[str] = frozenset(),
          guard: Guard | None = None) -> Audit:
    """Step through ``puzzle`` with ``rules``, checking each deduction before applying it.

    The steps of the rules in ``watch`` are also checked against their proofs
    (docs/json-contract.md, proofs) by the independent checker; a true step its proof does
    not prove is recorded in ``Audit.unproved``. A walk that ``guard`` stops is reported
    as timed out, with what it had found so far."""
    out = Audit(label, "solved")
    if guard is None:
        return _audit(out, puzzle, solution, rules, timeout, watch)
    with guard(timeout):  # a rule that loops forever stops here too
        return _audit(out, puzzle, solution, rules, timeout, watch)
    out.status, out.note = "timeout", "the time limit stopped the audit"  # the guard stopped it
    return out


def _audit(out: Audit, puzzle, solution: list[int], rules, timeout: float | None,
           watch: frozenset[str]) -> Audit:
    from ..engine.walk import Engine
    from ..errors import DeducerError
    from ..proofcheck import Replay
    from ..puzzle.combos import BIT, fmt_combo, mask_of

    label = out.label
    eng = Engine(puzzle, rules)
    replay = Replay(puzzle, use_entries=True)
    deadline = None if timeout is None else time.perf_counter() + timeout
    name = puzzle.whites
    while eng.open_count:
        if deadline is not None and time.perf_counter() > deadline:
            out.status, out.note = "timeout", "the time limit stopped the audit"
            break
        found = None
        for rule in eng.rules:
            try:
                f = eng.offer(rule)
            except DeducerError as e:
                out.status, out.note = "error", str(e)
                out.finding = Finding(label, len(eng.steps) + 1, rule.id, rule.source, [str(e)])
                return out
            except Exception as e:  # a user rule may fail in any way: name it
                msg = f"rule {rule.id!r} raised {type(e).__name__}: {e}"
                out.status, out.note = "error", msg
                out.finding = Finding(label, len(eng.steps) + 1, rule.id, rule.source, [msg])
                return out
            if f is not None:
                found = (rule, *f)
                break
        if found is None:
            out.status = "stalled"
            out.note = "no rule applies (the ladder has no fallback?)"
            break
        rule, ded, effect = found
        problems = []
        for i, d in effect.place:
            if solution[i] != d:
                problems.append(f"places {d} in {_cell(name[i])}, but the solution has "
                                f"{solution[i]} there")
        for i, m in effect.elim:
            if m & BIT[solution[i]]:
                problems.append(f"removes {solution[i]} from {_cell(name[i])}, but the "
                                f"solution has {solution[i]} there")
        for rid, cs in effect.drop:
            run = puzzle.runs[rid]
            used = mask_of(solution[i] for i in run.cells)
            if used in cs:
                problems.append(f"rules out {fmt_combo(used)} for {run.name}, the "
                                "combination the solution uses")
        n = len(eng.steps) + 1
        if problems:
            out.status = "false"
            out.steps = n - 1
            out.finding = Finding(label, n, rule.id, rule.source, problems)
            return out
        step = eng._apply(rule, ded, effect, 0)
        proof_problems = replay.feed(step)
        if rule.id in watch and proof_problems:
            out.unproved.append(Finding(label, n, rule.id, rule.source,
                                        [_proof_problem(p) for p in proof_problems], step.text))
        out.fired[rule.id] = out.fired.get(rule.id, 0) + 1
    out.steps = len(eng.steps)
    return out


def _proof_problem(p) -> str:
    at = f" ({p.where})" if p.where else ""
    return f"{p.kind}{at}: {p.message}"


def _cell(rc) -> str:
    from ..puzzle.model import cell_name

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
        return bool(self.findings) or (self.strict and bool(self.unproved))

    @property
    def timed_out(self) -> bool:
        """Did a time limit cut an audit short (the rules were not fully tested)?"""
        return any(a.status == "timeout" for a in self.audits)

    def to_json(self) -> dict:
        unproved = self.unproved
        first = first_by_rule(unproved)
        return {"rule_file": self.rule_file, "user_rules": self.user_ids,
                "fired": self.fired, "puzzles": len(self.tested),
                "steps": sum(a.steps for a in self.tested), "false": len(self.findings),
                "findings": [f.to_json() for f in self.findings],
                "unproved": len(unproved),
                "unproved_examples": [first[r].to_json() for r in sorted(first)],
                "results": [a.to_json() for a in self.audits]}

"""``deducer rules``: list the active ladder; ``deducer rules test``: audit rules for soundness.

``rules test`` runs the ladder with the user's rule file over puzzles whose unique solution
is known (given files, else the bundled unique puzzles plus seeded generated ones) and
reports every deduction that contradicts the solution, by puzzle, step and rule id. The
steps of the tested file's rules are also run through the independent proof checker
(``deducer.proofcheck``, docs/json-contract.md#proofs): a deduction that is true but
not proved by the proof its step carries (or that carries none) is reported as "true but
unproved".
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from ...generator.seeded import generated
from ..cli import EXIT_NO_SOLUTION, EXIT_OK, EXIT_UNDECIDED, emit
from .explain import add_rule_args, check_timeout

# the repository's puzzles/ (deducer/data/puzzles links to it; a wheel carries the files
# themselves, so `rules test` works after a plain, non-editable install too)
BUNDLED = Path(__file__).resolve().parents[2] / "data" / "puzzles"
#: rate and rules test limit each puzzle, not the whole command (see cli.time_limit)
PER_PUZZLE_TIMEOUT = True
DEFAULT_COUNT = 20


def add_parser(sub) -> None:
    import argparse

    p = sub.add_parser(
        "rules", help="list the rule ladder, or test rules for soundness",
        description="Without an action: list the active ladder (id, priority, weight, score, "
                    "name, enabled, source file); --rules and --disable apply.\n\n"
                    "'deducer rules test FILE.yaml [PUZZLE...]': run the ladder with the "
                    "rules of FILE.yaml over puzzles with a known unique solution and report "
                    "every deduction that is false for the solution (exit code 1 if any), "
                    "and every one of its deductions that is true but not proved by the "
                    "proof its step carries (docs/json-contract.md, proofs).",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_rule_args(p, timeout=False)
    p.add_argument("--json", action="store_true", help="print the ladder as JSON")
    acts = p.add_subparsers(dest="action", metavar="ACTION", parser_class=type(p))
    t = acts.add_parser(
        "test", help="check a rule file's deductions against known solutions",
        description="Run the ladder, with the rules of FILE.yaml added, over puzzles whose "
                    "unique solution is known, checking every placement, elimination and "
                    "dropped combination of every step against the solution. Puzzles: the "
                    "PUZZLE files given (each must have a unique solution; others are "
                    "skipped), else the bundled unique puzzles of puzzles/expected.json; plus "
                    "--count generated puzzles (seeded: the same every run). Exit code 1 if "
                    "any deduction is false (or a rule raised; or, with --strict, a step is "
                    "true but unproved), 2 on bad input, 4 if the time limit cut a puzzle's "
                    "audit short, else 0. The steps of FILE.yaml's rules are also checked "
                    "against their proofs: a step whose placements and eliminations do not "
                    "follow from its proof's facts and runs (or that has no proof) is reported "
                    "as true but unproved, with an example.")
    t.add_argument("rule_file", metavar="FILE.yaml", help="the rule file to test")
    t.add_argument("puzzles", nargs="*", default=[], metavar="PUZZLE",
                   help="puzzle files to test on")
    t.add_argument("--count", type=int, metavar="N",
                   help=f"also test on N generated puzzles (default {DEFAULT_COUNT} without "
                        "PUZZLE files, 0 with them)")
    t.add_argument("--seed", type=int, default=1, help="seed of the generated puzzles "
                   "(default 1)")
    t.add_argument("--rules", dest="test_rules", action="append", default=[], metavar="FILE",
                   help="more rule files to load before FILE.yaml (repeatable)")
    t.add_argument("--disable", dest="test_disable", action="append", default=[],
                   metavar="ID", help="leave a rule out (repeatable)")
    t.add_argument("--timeout", type=float, metavar="SECONDS",
                   help="time limit per puzzle")
    t.add_argument("--priority", type=float, metavar="P",
                   help="test the file's rules at priority P instead of their own (to find "
                        "where on the ladder they can still fire)")
    t.add_argument("--json", dest="test_json", action="store_true",
                   help="print the report as JSON")
    t.add_argument("--save-failing", metavar="DIR",
                   help="write each generated puzzle with a finding to DIR (| format), to "
                        "replay it with 'deducer explain'")
    t.add_argument("--strict", action="store_true",
                   help="exit 1 also when a deduction is true but unproved")
    t.add_argument("-v", "--verbose", action="store_true",
                   help="list every puzzle, not only those with findings")


# ---------------------------------------------------------------------------- listing
def _source(path: str) -> str:
    from ..cli import is_url

    if is_url(path):
        import shlex

        return shlex.quote(path)
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return path


def _list(args) -> int:
    from ...engine import registry
    from ...render.jsonout import dumps

    rules = registry.all_rules(extra=args.rules, disable=args.disable)
    known = {r.id for r in rules}
    for rid in args.disable:
        if rid not in known:
            from ...errors import RuleError

            raise RuleError(f"--disable {rid}: no rule has that id")
    from ...engine.rating import carried

    ladder = registry.load(extra=args.rules, disable=args.disable)  # its rating section
    weights = {r.id: carried(r, ladder) for r in rules}
    if args.json:
        emit(dumps({"rules": [
            {"id": r.id, "priority": r.priority, "weight": r.weight, "score": r.score,
             "name": r.name, "enabled": r.enabled, "scope": r.scope, "source": r.source,
             "implementation": r.implementation, "kind": r.kind,
             "weights": list(weights[r.id])} for r in rules]}))
        return EXIT_OK
    heads = ["id", "priority", "weight", "score", "name", "enabled", "source"]
    body = [[r.id, f"{r.priority:g}", _weights(*weights[r.id]), str(r.score), r.name,
             "yes" if r.enabled else "no", _source(r.source)] for r in rules]
    widths = [max(len(x) for x in col) for col in zip(heads, *body, strict=True)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip()
             for line in [heads] + body]
    n_on = sum(r.enabled for r in rules)
    note = ""
    if any(lo != hi for lo, hi in weights.values()):
        note = ("a range of weights: a step weighs more the more runs it adds up or links it "
                "follows (growth), or when it tries a long run's arrangements (the search "
                "floor); steps carry these weights in walkthroughs and ratings "
                "(docs/rating.md)\n")
    emit("\n".join(lines) + f"\n{n_on} of {len(rules)} rules enabled\n" + note)
    return EXIT_OK


def _weights(low: float, high: float) -> str:
    """``4.2``, or ``4.2-5.8`` for a rule whose steps weigh more with their size."""
    return f"{low:g}" if low == high else f"{low:g}-{high:g}"


# ---------------------------------------------------------------------------- auditing
@dataclass
class Finding:
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


def audit(label: str, puzzle, solution: list[int], rules, timeout: float | None = None,
          watch: frozenset[str] = frozenset()) -> Audit:
    """Step through ``puzzle`` with ``rules``, checking each deduction before applying it.

    The steps of the rules in ``watch`` are also checked against their proofs
    (docs/json-contract.md, proofs) by the independent checker; a true step its proof does
    not prove is recorded in ``Audit.unproved``."""
    from ..cli import TimeLimit, time_limit

    out = Audit(label, "solved")
    try:
        with time_limit(timeout):  # a rule that loops forever stops here too
            return _audit(out, puzzle, solution, rules, timeout, watch)
    except TimeLimit:
        out.status, out.note = "timeout", "the time limit stopped the audit"
        return out


def _audit(out: Audit, puzzle, solution: list[int], rules, timeout: float | None,
           watch: frozenset[str]) -> Audit:
    from ...engine.walk import Engine
    from ...errors import DeducerError
    from ...proofcheck import Replay
    from ...puzzle.combos import BIT, fmt_combo, mask_of

    label = out.label
    eng = Engine(puzzle, rules, use_entries=True)
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
                f = eng._ask(rule)
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
        place, elim, drop = effect
        problems = []
        for i, d in sorted(place.items()):
            if solution[i] != d:
                problems.append(f"places {d} in {_cell(name[i])}, but the solution has "
                                f"{solution[i]} there")
        for i, m in sorted(elim.items()):
            if m & BIT[solution[i]]:
                problems.append(f"removes {solution[i]} from {_cell(name[i])}, but the "
                                f"solution has {solution[i]} there")
        for rid, cs in sorted(drop.items()):
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
    from ...puzzle.model import cell_name

    return cell_name(rc)


def _bundled():
    """(label, puzzle) of every bundled puzzle expected.json lists as unique."""
    import json

    from ...errors import DeducerError
    from ...puzzle import formats

    meta = BUNDLED / "expected.json"
    try:
        data = json.loads(meta.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise DeducerError(f"cannot read the bundled puzzle list: {e}", path=str(meta)) from None
    for entry in data.get("puzzles", []):
        if entry.get("solutions") != 1:
            continue
        path = BUNDLED / entry["file"]
        name = entry.get("name")
        label = f"puzzles/{entry['file']}" + (f":{name}" if name else "")
        yield label, formats.load(path, entry.get("format"), name=name), (path, name)


def _files(paths):
    from ...errors import DeducerError
    from ..batch.inputs import expand, load

    for task in expand(paths):  # the same files, folders and globs as 'deducer rate' reads
        if task.error is not None:
            raise DeducerError(task.error)
        yield task.label, load(task, None), (task.path, task.name) if task.path else None


def _test(args) -> int:
    from ...engine import registry
    from ...errors import DeducerError
    from ...render.jsonout import dumps
    from ...solver.search import solve

    check_timeout(args)
    count = args.count
    if count is None:
        count = 0 if args.puzzles else DEFAULT_COUNT
    if count < 0:
        raise DeducerError("--count must be 0 or more")
    user = registry.load_file(args.rule_file)
    user_ids = [r.id for r in user]
    extra = [*args.rules, *args.test_rules, args.rule_file]
    rules = registry.load(extra=extra, disable=[*args.disable, *args.test_disable])
    if args.priority is not None:
        if not (args.priority >= 0 and args.priority != float("inf")):
            raise DeducerError("--priority must be a finite number >= 0")
        for r in rules:
            if r.id in user_ids and r.source == str(Path(args.rule_file)):
                r.priority = args.priority
        rules.sort(key=lambda r: (r.priority, r.id))
    active_user = [rid for rid in user_ids if any(r.id == rid for r in rules)]
    cases = []
    source = _files(args.puzzles) if args.puzzles else _bundled()
    audits: list[Audit] = []
    for label, puzzle, where in source:
        res = solve(puzzle.without_progress(), max_solutions=2, timeout=args.timeout)
        if len(res.solutions) != 1 or not res.complete:
            why = "no solution" if not res.solutions else (
                "time limit" if res.timed_out else "more than one solution")
            audits.append(Audit(label, "skipped", note=f"not a unique puzzle ({why})"))
            continue
        cases.append((label, puzzle.without_progress(), res.solutions[0], where))
    cases += [(*g, None) for g in generated(count, args.seed)]
    replay: dict[str, str] = {}
    for k, (label, puzzle, sol, where) in enumerate(cases):
        a = audit(label, puzzle, sol, rules, timeout=args.timeout, watch=frozenset(user_ids))
        audits.append(a)
        if a.finding is None:
            continue
        if where is not None:
            path, name = where
            replay[label] = _source(str(path)) + (f" --name {name}" if name else "")
        elif args.save_failing:
            from ...puzzle.fileio import write_output
            from ...puzzle.formats import dumps as write_puzzle

            number = k + 1 - (len(cases) - count)
            folder = Path(args.save_failing)
            folder.mkdir(parents=True, exist_ok=True)
            out = folder / f"generated-seed{args.seed}-{number}.txt"
            if not out.exists():  # same seed and number: the same puzzle, already saved
                write_output(out, f"# {label}\n" + write_puzzle(puzzle, "pipe"))
            replay[label] = str(out)
    findings = [a.finding for a in audits if a.finding is not None]
    unproved = [u for a in audits for u in a.unproved]
    failed = bool(findings) or (args.strict and bool(unproved))
    fired = {rid: sum(a.fired.get(rid, 0) for a in audits) for rid in active_user}
    tested = [a for a in audits if a.status != "skipped"]
    if args.test_json:
        emit(dumps({"rule_file": args.rule_file, "user_rules": user_ids, "fired": fired,
                    "puzzles": len(tested), "steps": sum(a.steps for a in tested),
                    "false": len(findings), "findings": [f.to_json() for f in findings],
                    "unproved": len(unproved),
                    "unproved_examples": [_first_by_rule(unproved)[r].to_json()
                                          for r in sorted(_first_by_rule(unproved))],
                    "results": [a.to_json() for a in audits]}))
        return _exit(failed, audits)
    lines = [f"testing {args.rule_file}: {len(user_ids)} rule(s) "
             f"({', '.join(user_ids)}) in a ladder of {len(rules)}"]
    for rid in user_ids:
        if rid not in active_user:
            lines.append(f"  note: {rid} is disabled, so it was not tested")
    for a in audits:
        if a.finding is None and not args.verbose and a.status in ("solved", "stalled"):
            continue
        if a.finding is not None:
            f = a.finding
            mark = "FALSE" if a.status == "false" else "ERROR"
            lines.append(f"{mark} {a.label}: step {f.step}, rule {f.rule} "
                         f"({_source(f.source)})")
            lines += [f"    {p}" for p in f.problems]
            if a.label in replay:
                # the walk up to the board the false step was made on (a walk that takes
                # the false step itself ends in the error that names it)
                files = " ".join(f"--rules {x}" for x in extra)
                lines.append(f"    replay: deducer explain {replay[a.label]} {files} "
                             f"--max-steps {f.step - 1}")
        else:
            note = f" ({a.note})" if a.note else ""
            lines.append(f"{a.status:<8} {a.label}: {a.steps} steps{note}")
    first = _first_by_rule(unproved)
    for rid in user_ids:
        if rid not in first:
            continue
        u = first[rid]
        n = sum(x.rule == rid for x in unproved)
        lines.append(f"UNPROVED {rid}: {n} of {fired.get(rid, 0)} step(s) true but unproved "
                     f"({_source(u.source)})")
        lines.append(f"    e.g. {u.puzzle}, step {u.step}: {u.text}")
        lines += [f"    {p}" for p in u.problems[:4]]
    # a false step or an error ends its puzzle's audit: it fired but was not applied, so
    # it is counted beside the applied (true) steps, and the counts add up
    wrong = {rid: [a.status for a in audits if a.finding is not None and a.finding.rule == rid]
             for rid in fired}

    def fired_text(rid: str, n: int) -> str:
        bad = wrong.get(rid, [])
        if not bad:
            return f"{rid} x{n}" + (" (all true)" if n else "")
        n_false, n_err = bad.count("false"), bad.count("error")
        parts = [f"{n} true"] + ([f"{n_false} false"] if n_false else []) + \
            ([f"{n_err} raised"] if n_err else [])
        return f"{rid} x{n + len(bad)} ({', '.join(parts)})"

    used = ", ".join(fired_text(rid, n) for rid, n in fired.items()) or "none"
    lines.append(f"{len(tested)} puzzles, {sum(a.steps for a in tested)} steps checked; "
                 f"user rules fired: {used}")
    # a rule that raised did run: it is reported as an error above, not as idle
    raised = {g.rule for a in audits if a.status == "error" and (g := a.finding)}
    if any(n == 0 and rid not in raised for rid, n in fired.items()):
        idle = ", ".join(rid for rid, n in fired.items() if n == 0 and rid not in raised)
        lines.append(f"warning: {idle} never fired, so this run says nothing about it "
                     "(try more puzzles: --count)")
    if any(f.puzzle not in replay for f in findings):
        lines.append("(--save-failing DIR writes the generated puzzles with findings to DIR, "
                     "to replay them)")
    if findings:
        bad = sorted({f.rule for f in findings})
        n_false = sum(a.status == "false" for a in audits if a.finding is not None)
        kinds = [f"{n_false} false deduction(s)"] if n_false else []
        if len(findings) - n_false:
            kinds.append(f"{len(findings) - n_false} rule error(s)")
        lines.append(f"{' and '.join(kinds)}, in {len(findings)} of {len(tested)} puzzles "
                     f"(each ends its puzzle's audit), by rule(s): {', '.join(bad)}")
    else:
        lines.append("no false deductions")
    if unproved:
        lines.append(f"{len(unproved)} true but unproved step(s), by rule(s): "
                     f"{', '.join(sorted(first))} (each step's proof must prove it: "
                     "docs/json-contract.md, proofs)")
    elif any(fired.values()):
        lines.append("every true step of the tested rules is proved by its proof")
    from ...errors import printable

    # a puzzle's name (a label from a URL list, a J block) must not steer the terminal
    emit("\n".join(printable(line) for line in lines) + "\n")
    return _exit(failed, audits)


def _exit(failed, audits) -> int:
    """1 for a false deduction or a rule error (or, with --strict, an unproved step); else
    4 if the time limit cut an audit short (the rule was not fully tested); else 0."""
    if failed:
        return EXIT_NO_SOLUTION
    return EXIT_UNDECIDED if any(a.status == "timeout" for a in audits) else EXIT_OK


def _first_by_rule(unproved: list[Finding]) -> dict[str, Finding]:
    """The first true-but-unproved step of each rule (the example shown)."""
    out: dict[str, Finding] = {}
    for u in unproved:
        out.setdefault(u.rule, u)
    return out


def run(args) -> int:
    if args.action == "test":
        return _test(args)
    return _list(args)

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

import argparse
import contextlib
import os
import re
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path

from ...api import (
    Audit,
    RulesTest,
    audit,
    audit_puzzles,
    baseline,
    bundled_puzzles,
    carried_weights,
    fixture_file,
    is_core_rule,
    ladder,
    level_thresholds,
    load_rules,
    rule_fixtures,
    solve,
    technique_pages,
)
from ...errors import DeducerError, RuleError
from ...puzzle.fileio import check_name, check_outputs, open_output, write_output
from ...puzzle.formats import dumps as write_puzzle
from ...render import get
from ...render.text import shown_path
from ..backstop import TimeLimit, time_limit
from ..batch.inputs import expand, load
from ..cli import emit, is_url, number, whole
from ..exits import EXIT_NO_SOLUTION, EXIT_OK, EXIT_UNDECIDED
from .explain import add_rule_args, check_timeout, moved

# the repository's puzzles/ (deducer/data/puzzles links to it; a wheel carries the files
# themselves, so `rules test` works after a plain, non-editable install too)
#: rate and rules test limit each puzzle, not the whole command (see backstop.time_limit)
PER_PUZZLE_TIMEOUT = True
DEFAULT_COUNT = 20


def add_parser(sub) -> None:
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
    p.add_argument("--pages", metavar="DIR", help="write a page per technique (with a worked, "
                   "proved example), and index.html, into DIR (docs/user-guide.md)")
    p.add_argument("--force", action="store_true", help="with --pages: write over old pages")
    p.add_argument("--seconds", type=number, default=120.0, metavar="S", help="with --pages: "
                   "time to generate an example no stored puzzle has, per rule (default 120; "
                   "0: none generated); each walk of the search may take this long, 10 s at "
                   "least, and a rule that runs past it is named")
    acts = p.add_subparsers(dest="action", metavar="ACTION", parser_class=type(p))
    n = acts.add_parser(
        "new", help="write a starter rule: ID.yaml, its Python and its fixtures",
        description="Write a starter rule named ID into DIR (default: the current folder): "
                    "ID.yaml (the YAML entry), ID.py (the function: a two-cell run with an "
                    "even sum cannot hold half of it) and ID.fixtures.yaml (where it must "
                    "and must not fire), with - in ID written as _ in the file names. They "
                    "pass 'deducer rules test ID.yaml' as written: change them into your "
                    "technique (docs/rule-authors-guide.md).")
    n.add_argument("new_id", metavar="ID", help="the rule's id (letters, digits and -)")
    n.add_argument("--dir", dest="new_dir", default=".", metavar="DIR",
                   help="the folder to write the files in (default: the current one)")
    n.add_argument("--force", dest="new_force", action="store_true",
                   help="write over files of the same names")
    _add_test_parser(acts)


def _add_test_parser(acts) -> None:
    """``deducer rules test``: its options."""
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
    t.add_argument("--count", type=whole, metavar="N",
                   help=f"also test on N generated puzzles (default {DEFAULT_COUNT} without "
                        "PUZZLE files, 0 with them)")
    t.add_argument("--seed", type=whole, default=1, help="seed of the generated puzzles "
                   "(default 1)")
    t.add_argument("--rules", dest="test_rules", action="append", default=[], metavar="FILE",
                   help="more rule files to load before FILE.yaml (repeatable)")
    t.add_argument("--disable", dest="test_disable", action="append", default=[],
                   metavar="ID", help="leave a rule out (repeatable)")
    t.add_argument("--timeout", type=number, metavar="SECONDS",
                   help="time limit per puzzle")
    t.add_argument("--priority", type=number, metavar="P",
                   help="test the file's rules at priority P instead of their own (to find "
                        "where on the ladder they can still fire)")
    t.add_argument("--json", dest="test_json", action="store_true",
                   help="print the report as JSON")
    t.add_argument("--save-failing", metavar="DIR",
                   help="write each generated puzzle with a finding to DIR (| format), to "
                        "replay it with 'deducer explain'")
    t.add_argument("--impact", action="store_true",
                   help="list every puzzle the file's rules fired on, rated with and without "
                        "the file (the default report sums it up: levels moved, step and "
                        "score deltas)")
    t.add_argument("--no-impact", action="store_true",
                   help="skip the walks without the file (half the time; no impact section)")
    t.add_argument("--save-fired", metavar="DIR",
                   help="write each puzzle where the file's rules fired to DIR, with the "
                        "step numbers, and DIR/fired.txt: the explain command that ends on "
                        "the rule's first step in each")
    t.add_argument("--fixtures", action="append", default=[], metavar="FILE",
                   help="a fixture file to check (repeatable; default: FILE.fixtures.yaml "
                        "beside FILE.yaml, if there is one; docs/rule-authors-guide.md)")
    t.add_argument("--strict", action="store_true",
                   help="exit 1 also when a deduction is true but unproved")
    t.add_argument("-v", "--verbose", action="store_true",
                   help="list every puzzle, not only those with findings")


# ---------------------------------------------------------------------------- listing
def _source(path: str) -> str:
    """A puzzle's file as the replay command line names it (a URL quoted for the shell)."""

    if is_url(path):
        return shlex.quote(path)
    return shown_path(path)


def _list(args) -> int:
    rules = ladder(args.rules, args.disable, every=True)
    known = {r.id for r in rules}
    for rid in args.disable:
        if rid not in known:
            raise RuleError(f"--disable {rid}: no rule has that id")

    # the active ladder's rating: section sets the search floor a step may carry
    weights = carried_weights(rules, ladder(args.rules, args.disable))
    emit(get("json" if args.json else "text").ladder(rules, weights=weights))
    return EXIT_OK


# ---------------------------------------------------------------------------- auditing
@contextlib.contextmanager
def _backstop(seconds: float | None) -> Iterator[None]:
    """The ``--timeout`` backstop around one puzzle's audit (``api.audit``'s ``guard``): a
    rule that loops forever is stopped too, and the audit reports the time limit."""
    try:
        with time_limit(seconds):
            yield
    except TimeLimit:
        pass  # swallowed: the audit says it timed out


@contextlib.contextmanager
def _example_guard(seconds: float) -> Iterator[dict]:
    """The backstop around one walk of ``rules --pages``'s example search: a rule that
    never looks at the clock is stopped too, and the traceback says which rule it was."""
    caught: dict = {}
    try:
        with time_limit(seconds):
            yield caught
    except TimeLimit as e:
        caught["traceback"] = e.__traceback__


def _bundled():
    """(label, puzzle, (path, name)) of every bundled puzzle expected.json lists as unique."""

    for b in bundled_puzzles():
        yield b.label, b.puzzle, (b.path, b.name)


def _files(paths):
    for task in expand(paths):  # the same files, folders and globs as 'deducer rate' reads
        if task.error is not None:
            raise DeducerError(task.error)
        yield task.label, load(task, None), (task.path, task.name) if task.path else None


#: the most generated puzzles one ``rules test`` makes (as ``generate --count``)
MAX_COUNT = 1_000_000


def _check_folder(path: str, flag: str) -> None:
    """Refuse, before any work, a folder ``flag`` could not write into: an existing file,
    a name the file system refuses, a missing or unwritable parent (docs/bad-input.md:
    every output is checked before any is written)."""

    check_name(path)
    folder = Path(path)
    try:
        if folder.exists() and not folder.is_dir():
            raise DeducerError(f"{flag} names a folder to write into, and this is a file",
                               path=path)
        near = folder
        while not near.exists():  # the nearest folder that exists must take new files
            if near.parent == near:
                break
            near = near.parent
        if not os.access(near, os.W_OK | os.X_OK):
            raise DeducerError(f"{flag}: cannot write into {str(near)!r} (permission "
                               "denied)", path=path)
    except OSError as e:
        raise DeducerError(f"{flag}: {e.strerror or e}", path=path) from None


def _test(args) -> int:
    check_timeout(args)
    count = args.count
    if count is None:
        count = 0 if args.puzzles else DEFAULT_COUNT
    if not 0 <= count <= MAX_COUNT:
        raise DeducerError(f"--count must be 0..{MAX_COUNT}")
    for flag, folder in (("--save-failing", args.save_failing),
                         ("--save-fired", args.save_fired)):
        if folder:
            _check_folder(folder, flag)
    if args.priority is not None and not (args.priority >= 0
                                          and args.priority != float("inf")):
        raise DeducerError("--priority must be a finite number >= 0")
    user = load_rules(args.rule_file)
    user_ids = [r.id for r in user]
    extra = [*args.rules, *args.test_rules, args.rule_file]
    disabled = [*args.disable, *args.test_disable]
    rules = ladder(extra, disabled)
    mine = [r for r in rules if r.id in user_ids and r.source == str(Path(args.rule_file))]
    options = [f"--disable {x}" for x in disabled]
    if args.priority is not None:
        moves = [(r.id, args.priority) for r in mine]
        rules = moved(rules, moves)
        options += [f"--priority {rid}={p:g}" for rid, p in moves]
    active_user = [rid for rid in user_ids if any(r.id == rid for r in rules)]
    base = None
    if not args.no_impact:
        # the same ladder without the file: what the file changes (--impact)
        base = ladder([*args.rules, *args.test_rules], disabled)

    levels = level_thresholds(rules)
    report = RulesTest(args.rule_file, user_ids, active_user, len(rules), [], {}, extra,
                       strict=args.strict, options=options,
                       baseline=None if base is None else {},
                       weights={r.id: r.weight for r in mine},
                       easy=levels[0][1] if levels else 0.0)

    for fx in args.fixtures or ([fixture_file(args.rule_file)]
                                if fixture_file(args.rule_file).is_file() else []):
        report.fixtures.append(rule_fixtures(fx, mine))
    try:
        _audit_all(args, count, rules, base, user_ids, report)
    except KeyboardInterrupt:
        if report.audits and report.audits[-1].status == "running":
            report.audits.pop()  # the puzzle Ctrl-C cut short says nothing
        done = sum(a.status != "skipped" for a in report.audits)
        report.interrupted = (f"interrupted (Ctrl-C): the report covers the {done} "
                              "puzzle(s) audited before it")
    _emit_report(args, report)
    if report.interrupted:
        print(f"deducer: {report.interrupted}", file=sys.stderr)
        return 130
    return _exit(report)


def _emit_report(args, report) -> None:
    emit(get("json" if args.test_json else "text").rules_test(
        report, verbose=args.verbose, impact=args.impact))


def _audit_all(args, count: int, rules, base, user_ids, report) -> None:
    """Audit every puzzle into ``report`` as it goes (so that Ctrl-C keeps what is done)."""

    audits = report.audits
    cases = []
    source = _files(args.puzzles) if args.puzzles else _bundled()
    for label, puzzle, where in source:
        res = solve(puzzle.without_progress(), max_solutions=2, timeout=args.timeout)
        if len(res.solutions) != 1 or not res.complete:
            why = "no solution" if not res.solutions else (
                "time limit" if res.timed_out else "more than one solution")
            audits.append(Audit(label, "skipped", note=f"not a unique puzzle ({why})"))
            continue
        cases.append((label, puzzle.without_progress(), res.solutions[0], where))
    given = len(cases)
    cases += [(*g, None) for g in audit_puzzles(count, args.seed)]
    for k, (label, puzzle, sol, where) in enumerate(cases):
        audits.append(Audit(label, "running"))  # taken back if Ctrl-C comes now
        a = audit(puzzle, sol, rules, label=label, timeout=args.timeout, watch=user_ids,
                  guard=_backstop)
        audits[-1] = a
        if base is not None and a.status != "skipped":
            report.baseline[label] = baseline(puzzle, base, timeout=args.timeout)
        if a.finding is None and not (a.fired_at and args.save_fired):
            continue
        if where is not None:
            path, name = where
            report.replay[label] = _source(str(path)) + (f" --name {name}" if name else "")
        number = k + 1 - given
        if a.finding is not None and where is None and args.save_failing:
            report.replay[label] = _save(args.save_failing, args.seed, number, label, puzzle)
        if a.fired_at and args.save_fired:
            report.saved_fired[label] = _save_fired(args, report, label, puzzle, a, number)


def _save(folder: str, seed: int, number: int, label: str, puzzle) -> str:
    """A generated puzzle written to ``folder`` (same seed and number: the same puzzle,
    kept if already there); the name to replay it by."""

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"generated-seed{seed}-{number}.txt"
    if not path.exists():
        write_output(path, f"# {label}\n" + write_puzzle(puzzle, "pipe"))
    return _source(str(path))


def _save_fired(args, report, label: str, puzzle, a, number: int) -> str:
    """``--save-fired``: the puzzle ``label``, where a rule of the file fired, written to
    the folder with a first line saying at which steps, and a line of the folder's
    ``fired.txt`` with the ``explain`` command that ends on its first such step."""

    out = Path(args.save_fired)
    out.mkdir(parents=True, exist_ok=True)
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", label).strip("-.")[:80].removesuffix(".txt") \
        or f"puzzle-{number}"
    path = out / f"{stem}.txt"
    at = "; ".join(f"{rid} at step(s) {', '.join(map(str, ns))}"
                   for rid, ns in a.fired_at.items())
    write_output(path, f"# {label}: {at}\n" + write_puzzle(puzzle, "pipe"), force=True)
    first = min(n for ns in a.fired_at.values() for n in ns)
    shown = _source(str(path))
    words = [f"deducer explain {shown}", *(f"--rules {x}" for x in report.extra),
             *report.options, f"--max-steps {first}"]
    index = out / "fired.txt"
    with open_output(index, append=bool(report.saved_fired)) as fh:  # a new run: a new list
        fh.write(f"{' '.join(words)}   # {at}\n")
    return shown


def _exit(report) -> int:
    """1 for a false deduction or a rule error (or, with --strict, an unproved step); else
    4 if the time limit cut an audit short (the rule was not fully tested); else 0."""
    if report.failed:
        return EXIT_NO_SOLUTION
    return EXIT_UNDECIDED if report.timed_out else EXIT_OK


def run(args) -> int:
    if args.pages:
        return _pages(args)
    if args.action == "new":
        return _new(args)
    if args.action == "test":
        return _test(args)
    return _list(args)


def _pages(args) -> int:
    """``rules --pages DIR``: the technique pages (exit 1 when a page has no example)."""

    if args.action is not None or args.json:
        raise DeducerError("--pages goes without an action and without --json")
    if not (args.seconds >= 0 and args.seconds < 1e8):
        raise DeducerError("--seconds must be 0 or more seconds")
    made = technique_pages(args.pages, args.rules, disable=args.disable, force=args.force,
                           seconds=args.seconds, progress=lambda m: print(
                               f"deducer: {m}", file=sys.stderr) if sys.stderr.isatty() else None,
                           guard=_example_guard)
    for rid, why in made.missing.items():
        print(f"deducer: no example for {rid}: {why}", file=sys.stderr)
    emit(f"wrote {len(made.files)} files to {made.directory}\n")
    return EXIT_NO_SOLUTION if made.missing else EXIT_OK


def _new(args) -> int:
    """``rules new ID``: a starter rule (YAML, Python, fixtures) that passes ``rules test``."""

    rid = args.new_id
    if not rid or not rid.replace("-", "").isalnum() or not rid.isascii() or len(rid) > 80:
        raise DeducerError(f"rules new {rid!r}: an id is a word of letters, digits and - "
                           "(like my-rule), at most 80 characters")
    if is_core_rule(rid):
        raise DeducerError(f"rules new {rid}: a core rule has that id, and a rule file's rule "
                           "with it would replace it; pick another id")
    stem = rid.replace("-", "_")
    func = stem if stem[0].isalpha() else f"rule_{stem}"
    name = rid.replace("-", " ").capitalize()
    folder = Path(args.new_dir)
    if not folder.is_dir():
        raise DeducerError("is not a folder (--dir names the folder the files go in)",
                           path=str(folder))
    data = Path(__file__).resolve().parents[2] / "data" / "starter"
    files = {f"{stem}.yaml": "rule.yaml", f"{stem}.py": "rule.py.txt",
             fixture_file(f"{stem}.yaml").name: "rule.fixtures.yaml"}
    check_outputs({f"rules new {n}": str(folder / n) for n in files}, force=args.new_force)
    for out, template in files.items():
        text = (data / template).read_text(encoding="utf-8")
        write_output(folder / out, text.format(id=rid, name=name, func=func, stem=stem),
                     force=args.new_force)
    yaml = _source(str(folder / f"{stem}.yaml"))
    emit(f"wrote {', '.join(_source(str(folder / n)) for n in files)}\n"
         f"next: deducer rules test {yaml}\n")
    return EXIT_OK

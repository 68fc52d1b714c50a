"""The public Python API: ``load``, ``solve``, ``explain``, ``rate``, ``hint``, ``why``,
``check``, ``what_if``, ``generate`` (also at ``import deducer``; docs/api.md shows them).

It is also the front door of every ``deducer`` command: a command reads files, calls these
functions and hands the results to a renderer (:mod:`deducer.render`); it never reaches
into the engine, solver, generator, assist or rule packages itself (tests/test_layers.py).

>>> import deducer
>>> p = deducer.load("\\\\|5\\\\|16\\\\\\n\\\\| | \\n\\\\12| | \\n")
>>> deducer.solve(p).status == deducer.SolveStatus.UNIQUE
True
>>> deducer.rate(p).level in ("Easy", "Medium", "Hard", "Expert", "Extreme", "Unreasonable")
True

Every function takes and returns dataclasses: :class:`~deducer.puzzle.model.Puzzle`,
:class:`~deducer.solver.search.SolveResult`, :class:`~deducer.engine.walk.Explanation`
(with its :class:`~deducer.engine.walk.Step` list),
:class:`~deducer.engine.rating.Rating`, :class:`~deducer.assist.hints.Hint`,
:class:`~deducer.assist.why.Why`, :class:`~deducer.assist.checking.CheckResult`,
:class:`~deducer.generator.core.Result` (``GenerateResult`` here) and
:class:`~deducer.assist.audit.Audit`; each has ``to_json()``, the JSON of
docs/json-contract.md. Statuses are the ``StrEnum``s :class:`SolveStatus`,
:class:`ExplainStatus` and :class:`CheckStatus`. Errors are
:class:`~deducer.errors.DeducerError` (bad input, unreadable rule files, requests no
puzzle can meet).

A call imports only what it runs: ``solve`` never loads the explain engine, and the
result types of the other calls are loaded on first use (module ``__getattr__``).
"""

from __future__ import annotations

import importlib
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from .clock import Limits
from .errors import DeducerError
from .puzzle import formats
from .puzzle.fileio import check_name, check_outputs, write_output
from .puzzle.model import Puzzle
from .solver.search import ENTRY_BLAME, NONE, SolveResult, entries_to_blame, iter_solutions
from .solver.search import solve as _solve
from .solver.status import SolveStatus

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing on solve's start-up
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from contextlib import AbstractContextManager
    from typing import Any

    from .assist.allsteps import AllSteps
    from .assist.audit import Audit, RulesTest
    from .assist.checking import CheckResult, Mistake
    from .assist.combos import RunCombos
    from .assist.hints import LEVELS as HINT_LEVELS
    from .assist.hints import Hint
    from .assist.replay import Replay
    from .assist.whatif import WhatIf
    from .assist.why import Why
    from .engine.rating import LEVELS, RATER_VERSION, Rating
    from .engine.registry import Rule
    from .engine.teaching import Technique
    from .engine.walk import Explanation, Step
    from .generator.core import Result as GenerateResult
    from .generator.examples import Search as ExampleSearch
    from .generator.layout import SYMMETRIES
    from .generator.request import GenerateError
    from .generator.request import Request as GenerateRequest
    from .puzzle.bundled import Bundled
    from .puzzle.model import Run
    from .solver.search import MAX_SOLUTIONS_CAP, SolveResult
    from .solver.verdicts import CheckStatus, ExplainStatus

__all__ = [
    "Audit", "Bundled", "CheckResult", "CheckStatus", "DeducerError", "ExplainStatus",
    "Explanation",
    "GenerateError", "GenerateRequest", "GenerateResult", "Hint", "Mistake", "Puzzle",
    "Rating", "Rule", "RulesTest", "SolveResult", "SolveStatus", "Step", "WhatIf", "Why",
    "HINT_LEVELS", "LEVELS", "MAX_SOLUTIONS_CAP", "RATER_VERSION", "SYMMETRIES",
    "audit", "audit_puzzles", "bundled_puzzles", "check", "explain", "generate", "generate_one",
    "generate_request", "hint", "ladder", "load", "load_rules", "pencil_marks", "rate",
    "solve", "what_if", "why",
    "AllSteps", "Technique", "TechniquePages", "all_steps", "technique_examples",
    "technique_pages", "techniques",
    "Replay", "RunCombos", "combinations", "replay",
]

#: result types and constants loaded on first use: name -> (module, attribute)
_LAZY = {
    "Audit": ("deducer.assist.audit", "Audit"),
    "Bundled": ("deducer.puzzle.bundled", "Bundled"),
    "RulesTest": ("deducer.assist.audit", "RulesTest"),
    "Why": ("deducer.assist.why", "Why"),
    "GenerateRequest": ("deducer.generator.request", "Request"),
    #: the difficulty levels, easiest first (docs/rating.md)
    "LEVELS": ("deducer.engine.rating", "LEVELS"),
    #: the rater's version: ratings of different versions do not compare
    "RATER_VERSION": ("deducer.engine.rating", "RATER_VERSION"),
    #: the most solutions ``solve`` and ``check`` enumerate
    "MAX_SOLUTIONS_CAP": ("deducer.solver.search", "MAX_SOLUTIONS_CAP"),
    #: the symmetries ``generate`` gives the black squares
    "SYMMETRIES": ("deducer.generator.layout", "SYMMETRIES"),
    #: ``hint``'s tiers, vaguest first
    "HINT_LEVELS": ("deducer.assist.hints", "LEVELS"),
    "CheckResult": ("deducer.assist.checking", "CheckResult"),
    "Mistake": ("deducer.assist.checking", "Mistake"),
    # built when first used: a first solve needs neither (deducer.solver.verdicts)
    "ExplainStatus": ("deducer.solver.verdicts", "ExplainStatus"),
    "CheckStatus": ("deducer.solver.verdicts", "CheckStatus"),
    "Explanation": ("deducer.engine.walk", "Explanation"),
    "Step": ("deducer.engine.walk", "Step"),
    "Hint": ("deducer.assist.hints", "Hint"),
    "WhatIf": ("deducer.assist.whatif", "WhatIf"),
    "Rating": ("deducer.engine.rating", "Rating"),
    "Rule": ("deducer.engine.registry", "Rule"),
    "GenerateResult": ("deducer.generator.core", "Result"),
    "GenerateError": ("deducer.generator.request", "GenerateError"),
    "SolveResult": ("deducer.solver.search", "SolveResult"),
    "AllSteps": ("deducer.assist.allsteps", "AllSteps"),
    "Technique": ("deducer.engine.teaching", "Technique"),
    "Replay": ("deducer.assist.replay", "Replay"),
    "RunCombos": ("deducer.assist.combos", "RunCombos"),
}

#: rule files (paths), or rules already loaded (:func:`ladder`)
RulesArg = Sequence["str | Path | Rule"] | None


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        module, attr = _LAZY[name]
        value = getattr(importlib.import_module(module), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'deducer.api' has no attribute {name!r}")


def load(path_or_text: str | Path, format: str | None = None,
         name: str | None = None) -> Puzzle:
    """A puzzle from a file path or from the puzzle text itself (format detected unless
    given). A ``str`` holding a line break (or a JSON object, or a puzz.link URL) is taken
    as the text, any other ``str`` as a path."""

    if isinstance(path_or_text, Path):
        return formats.load(path_or_text, format, name=name)
    if not isinstance(path_or_text, str):
        raise TypeError("load() takes a path or the puzzle text")
    text = path_or_text
    if "\n" in text or text.lstrip().startswith(("{", "http:", "https:")):
        return formats.loads(text, format, name=name)
    return formats.load(text, format, name=name)  # one line: a path


def ladder(rules: RulesArg = None, disable: Sequence[str] = (), *,
           every: bool = False) -> list[Rule]:
    """The active ladder: core rules plus ``rules`` (YAML file paths), minus ``disable``.

    ``rules`` may also be a list of already loaded :class:`~deducer.engine.registry.Rule`
    (taken as the whole ladder; a ladder loaded here keeps its files' ``rating:`` section).
    ``every``: every declared rule instead, the disabled ones too (``enabled`` False), in
    ladder order, as ``deducer rules`` lists them; an unknown id in ``disable`` is then
    passed over.
    """
    from .engine import registry

    if every:
        paths = [r for r in rules or () if not isinstance(r, registry.Rule)]
        return registry.all_rules(extra=paths, disable=list(disable))
    if rules and all(isinstance(r, registry.Rule) for r in rules):
        off = set(disable)
        out = [r for r in rules if isinstance(r, registry.Rule) and r.enabled
               and r.id not in off]
        out.sort(key=lambda r: (r.priority, r.id))
        if isinstance(rules, registry.Ladder):
            if len(out) == len(rules) and all(a is b for a, b in zip(out, rules, strict=True)):
                return rules  # already the ladder (its rating model stays cached)
            return rules.part(out)  # the rating: section of its files rates the walk
        return out
    paths = [r for r in rules or () if not isinstance(r, registry.Rule)]
    return registry.load(extra=paths, disable=list(disable))


def fixture_file(rule_file: str | Path) -> Path:
    """Where a rule file's fixture file lives: ``NAME.fixtures.yaml`` beside ``NAME.yaml``
    (docs/rule-contract.md, "Fixture files"; it may not exist)."""
    from .rules.fixture import fixture_path

    return fixture_path(rule_file)


def rule_fixtures(path: str | Path, rules: Sequence[Rule] = ()) -> Any:
    """Check the cases of the fixture file ``path`` with ``rules`` (a rule file's, by id;
    a built-in rule is found by its id): a ``FixtureResult`` with ``checked`` and
    ``problems`` (one line each)."""
    from .rules.fixture import run_fixtures

    return run_fixtures(path, {r.id: r for r in rules})


def is_core_rule(rule_id: str) -> bool:
    """Does the core ladder (rules/core.yaml) declare a rule with this id?"""
    from .engine import registry

    return any(r.id == rule_id for r in registry.all_rules())


def baseline(puzzle: Puzzle, rules: RulesArg = None, *, timeout: float | None = None) -> Any:
    """How the walkthrough of ``puzzle`` with ``rules`` ends and rates (``rules test``'s
    walk without the tested file): a ``Baseline`` (status, steps, level, score)."""
    from .assist.audit import Baseline

    try:
        e = explain(puzzle, rules, timeout=timeout)
    except DeducerError:
        return Baseline("error", 0)
    return Baseline(e.status.value, len(e.steps), e.rating.level, e.rating.score)


def replaced_rules() -> list[tuple[str, str, str]]:
    """(id, the file of the rule that replaced it, the file of the rule it replaced) of each
    rule a rule file replaced since the last call (ladders loaded with ``--rules`` files
    that reuse an id): the CLI says so once a command."""
    from .engine import registry

    out = list(dict.fromkeys(registry.REPLACED))
    registry.REPLACED.clear()
    return out


def level_thresholds(rules: RulesArg = None) -> list[tuple[str, float]]:
    """The ladder's levels, each with the most weight its hardest step may have (the
    ``rating: levels:`` section), easiest first."""
    from .engine.rating import model_for

    return list(model_for(ladder(rules) if rules is not None else None).levels)


def carried_weights(rules: Sequence[Rule], active: Sequence[Rule] | None = None
                    ) -> dict[str, tuple[float, float]]:
    """Per rule id, the least and the most weight its steps carry in walkthroughs (its
    growth and, for a rule that may try a run's arrangements, the search floor of the
    ``active`` ladder's rating model): what ``deducer rules`` shows."""
    from .engine.rating import carried

    return {r.id: carried(r, active) for r in rules}


def load_rules(path: str | Path) -> list[Rule]:
    """The rules one YAML file declares, read and checked (not a ladder: see :func:`ladder`)."""
    from .engine import registry

    return registry.load_file(path)


def solve(puzzle: Puzzle, max_solutions: int = 2, *, timeout: float | None = None,
          use_entries: bool = True, spool: bool = False,
          blame_entries: bool = False) -> SolveResult:
    """Every solution up to ``max_solutions`` (2 proves uniqueness).

    ``status`` is :class:`SolveStatus`: ``NONE`` only when the search was exhausted,
    ``UNDECIDED`` when ``timeout`` stopped it before any solution. ``spool``: keep the
    solutions in a :class:`~deducer.solver.spool.SolutionSpool` (a byte a cell, on disk past
    16 MiB) for a large ``max_solutions``; close it (``result.solutions.close()``) when
    done. ``blame_entries``: when the player's entries leave no solution but the bare
    puzzle has one (looked for in what is left of ``timeout``), ``reason`` says an entry
    is wrong."""

    start = time.perf_counter()
    bare = puzzle if use_entries else puzzle.without_progress()  # entries dropped once, here
    if spool:
        result = _spooled(bare, max_solutions, timeout)
    else:
        result = _solve(bare, max_solutions=max_solutions, timeout=_limit(timeout))
    if blame_entries and result.status == NONE:
        # the second look (are the entries to blame?) gets what is left of the time limit
        limit = _limit(timeout)
        left = None if limit is None else max(0.05, limit - (time.perf_counter() - start))
        if entries_to_blame(bare, left):
            result.reason = f"{result.reason}{ENTRY_BLAME}"
    return result


def _spooled(puzzle: Puzzle, max_solutions: int, timeout: float | None) -> SolveResult:
    """Solve with the solutions streamed into a :class:`SolutionSpool` (bounded memory)."""
    from .solver.spool import SolutionSpool

    stream = iter_solutions(puzzle, max_solutions=max_solutions, timeout=_limit(timeout))
    spool = SolutionSpool(len(puzzle.whites))
    for values in stream:
        spool.append(values)
    return SolveResult(stream.status, spool,  # type: ignore[arg-type]  # reads as the list
                       stream.complete, nodes=stream.nodes,
                       reason=stream.reason, timed_out=stream.timed_out, stats=stream.stats)


def _limit(timeout: object) -> float | None:
    """A ``timeout`` given to the API, checked: a number of seconds (None: no limit); one
    too large for a float (``2**2000``) is no limit, where it raised OverflowError deep in
    the solver; not a number, or NaN, is a :class:`DeducerError`."""
    if timeout is None:
        return None
    import numbers

    if isinstance(timeout, bool) or not isinstance(timeout, numbers.Real):
        raise DeducerError(f"timeout {timeout!r:.40} is not a number of seconds")
    try:
        seconds = float(timeout)
    except OverflowError:
        return None
    if seconds != seconds:
        raise DeducerError("timeout NaN is not a number of seconds")
    return None if seconds == float("inf") else seconds


def _after_rules(started: float, timeout: float | None) -> float | None:
    """What is left of ``timeout`` once the ladder is loaded: a call's time limit counts
    from the call (a ladder with rule files takes a while to load)."""
    if timeout is None:
        return None
    return max(min(0.05, timeout), timeout - (time.perf_counter() - started))


def _limits(started: float, timeout: object) -> Limits:
    """The one :class:`~deducer.clock.Limits` a call carries down, made from its
    ``timeout`` once its ladder is loaded (what is left of the time since ``started``)."""
    return Limits.within(_after_rules(started, _limit(timeout)))


def explain(puzzle: Puzzle, rules: RulesArg = None, *, disable: Sequence[str] = (),
            timeout: float | None = None, max_steps: int | None = None,
            use_entries: bool = True) -> Explanation:
    """The step-by-step walkthrough (``.steps``, ``.status``, ``.rating``, ``.solution``);
    ``use_entries`` False walks the bare puzzle, ``puzzle.without_progress()`` (the one
    place entries are dropped: the explanation's ``puzzle`` is then that bare puzzle)."""
    from .engine.walk import explain as _explain

    started = time.perf_counter()
    active = ladder(rules, disable)
    bare = puzzle if use_entries else puzzle.without_progress()  # entries dropped once, here
    return _explain(bare, active, limits=_limits(started, timeout), max_steps=max_steps)


def rate(puzzle: Puzzle, rules: RulesArg = None, *, disable: Sequence[str] = (),
         timeout: float | None = None) -> Rating:
    """The difficulty rating of the walkthrough."""
    return explain(puzzle, rules, disable=disable, timeout=_limit(timeout)).rating


def hint(puzzle: Puzzle, level: str = "vague", rules: RulesArg = None, *,
         disable: Sequence[str] = (), timeout: float | None = None) -> Hint:
    """The next simplest deduction for a partly filled grid (or the mistakes to fix first).

    ``level``: ``vague`` | ``concrete`` | ``full``; the :class:`Hint` holds all three texts.
    """
    from .assist.hints import hint as _hint

    started = time.perf_counter()
    active = ladder(rules, disable)
    return _hint(puzzle, level, rules=active, limits=_limits(started, timeout))


def what_if(puzzle: Puzzle, cell: tuple[int, int], digit: int, rules: RulesArg = None, *,
            disable: Sequence[str] = (), max_links: int = 60,
            timeout: float | None = None) -> WhatIf:
    """What follows from writing ``digit`` in ``cell`` (0-based ``(row, col)``) on the grid
    as the player has it: the ladder's link rules followed from there, like a chain.

    Returns a :class:`WhatIf`: ``status`` (``contradiction``, ``solved``, ``open``,
    ``budget``, ``broken``), ``message``, ``links`` (a proof's links, each with its
    sentence) and ``proof`` (``{"assume": [row, col, digit], "links": [...]}``). The puzzle
    is not changed. Raises :class:`DeducerError` for a cell that is not white or holds a
    given, or a digit not 1-9.
    """
    from .assist.whatif import what_if as _what_if

    return _what_if(puzzle, cell, digit, ladder(rules, disable), max_links=max_links,
                    limits=Limits.within(_limit(timeout)))


def why(puzzle: Puzzle, cell: tuple[int, int], digit: int, *, must: bool = False,
        rules: RulesArg = None, disable: Sequence[str] = (),
        timeout: float | None = None) -> Why:
    """Why ``digit`` cannot go in ``cell`` (0-based (row, col); ``must``: why the cell must
    hold it), from the grid as given: the walkthrough's steps that lead there, and only
    those. Raises :class:`~deducer.errors.PuzzleError` for a cell that is not white."""
    from .assist.why import why as _why

    started = time.perf_counter()
    active = ladder(rules, disable)
    return _why(puzzle, cell, digit, must=must, rules=active,
                limits=_limits(started, timeout))


def combinations(total: int | None, length: int,
                 cells: Sequence[tuple[int | None, int, str]] = (), *, allow: int = 0x1FF,
                 need: int = 0) -> RunCombos:
    """The combinations of a run of ``length`` cells summing to ``total`` (None: a run
    without a clue), those using a digit outside the mask ``allow`` or missing one of
    ``need`` left out; with ``cells`` (each ``(digit or None, pencil-mark mask, name)``) each
    is struck, with its reason, where the digits and marks shown rule it out. Raises
    :class:`DeducerError` for a sum ``length`` digits cannot make."""
    from .assist.combos import check_sum, run_combos

    try:
        if total is not None:
            check_sum(total, length)
        return run_combos(total, length, cells, allow=allow, need=need)
    except ValueError as e:
        raise DeducerError(str(e)) from None


def replay(text: str, label: str = "record", *, name: str | None = None,
           rules: RulesArg = None, disable: Sequence[str] = (),
           timeout: float | None = None) -> Replay:
    """A solving record (janko.at's ``x-janko`` data with its ``moves``: a saved solve of
    the play page, a janko.at page or JSON record; ``name`` picks one of several) set
    beside the walkthrough of its puzzle: each move, where the orders part ways, the cells
    the solver took longest over (docs/play.md, "Replay"). Bad input raises one
    :class:`DeducerError` naming ``label``."""
    from .assist import replay as _replay

    timeout = _limit(timeout)
    started = time.perf_counter()
    puzzle, record, solver = _replay.read(text, label, name=name)
    walk = explain(puzzle, rules, disable=disable, timeout=timeout)
    solution = None
    if walk.solution is None:  # the walkthrough stopped short: the solver still knows it
        left = None if timeout is None else max(0.05, timeout - (time.perf_counter() - started))
        found = solve(puzzle, max_solutions=1, timeout=left)
        solution = found.solutions[0] if found.solutions else None
    rep = _replay.compare(puzzle, record, walk, solver, solution=solution)
    rep.label = label
    return rep


def pencil_marks(puzzle: Puzzle) -> tuple[dict[tuple[int, int], int], Run | None]:
    """The pencil marks a player would write in every empty cell (9-bit masks by (row,
    col)): the digits its runs' combinations allow beside the digits written. ``({}, run)``
    for a run whose written digits fit none of its combinations."""
    from .assist.hints import player_marks

    return player_marks(puzzle)


def bundled_puzzles(unique_only: bool = True) -> Iterator[Bundled]:
    """The puzzles shipped with the package (``.label``, ``.puzzle``, ``.path``, ``.name``),
    in the order of their list; with ``unique_only``, those with exactly one solution."""
    from .puzzle.bundled import bundled_puzzles as _bundled

    return _bundled(unique_only)


def check(puzzle: Puzzle, *, max_solutions: int = 50, timeout: float | None = None,
          pencil: bool = True) -> CheckResult:
    """The player's entries (and pencil marks) that fit no solution of the puzzle."""
    from .assist.checking import check as _check

    return _check(puzzle, max_solutions=max_solutions, limits=Limits.within(_limit(timeout)),
                  pencil=pencil)


def generate(size: str | tuple[int, int] = "12x12", level: str | None = None, *,
             count: int = 1, seed: int = 0, symmetry: str = "rot180",
             density: float | None = None,
             needs: str | None = None, max_chain: int | None = None,
             timeout: float | None = None,
             score: tuple[float | None, float | None] | str | None = None
             ) -> list[GenerateResult]:
    """New puzzles with a unique solution, rated exactly ``level`` (None: the published
    mix of levels, docs/rating.md) and, with ``score`` (low, high), scored in that range.

    Returns up to ``count`` results (``.puzzle``, ``.rating``, ``.solution``, ``.seed``);
    fewer when ``timeout`` (seconds for the whole call) ran out. The same ``seed`` gives
    the same puzzles. Raises :class:`GenerateError` for a request no puzzle can meet.
    """
    req = generate_request(size, level, seed=seed, symmetry=symmetry, density=density,
                           needs=needs, max_chain=max_chain, timeout=_limit(timeout), score=score)
    out = []
    for k in range(count):
        res = generate_one(req, k)
        if res.puzzle is None:
            break
        out.append(res)
    return out


def generate_request(size: str | tuple[int, int] = "12x12", level: str | None = None, *,
                     seed: int = 0, symmetry: str = "rot180", density: float | None = None,
                     needs: str | None = None, max_chain: int | None = None,
                     timeout: float | None = None,
                     score: tuple[float | None, float | None] | str | None = None,
                     rules: RulesArg = None) -> GenerateRequest:
    """The checked request :func:`generate` makes puzzles for (its arguments), for a
    caller that makes them one at a time (:func:`generate_one`, in worker processes:
    the request pickles). ``score`` may be given as text, ``"3-6"``, ``"5-"`` or ``"-4"``;
    ``timeout`` is the whole batch's, counted from now; ``rules``: the ladder the puzzles
    are made for (default the core one: ``needs`` may name a rule of a user's file).
    Raises :class:`GenerateError` for a request no puzzle can meet."""
    from .generator.request import check_request, make_request, parse_score

    if isinstance(score, str):
        score = parse_score(score)
    req = make_request(size, level, seed=seed, symmetry=symmetry, density=density,
                       needs=needs, max_chain=max_chain, timeout=_limit(timeout), score=score)
    check_request(req, None if rules is None else ladder(rules))
    return req


def generate_one(request: GenerateRequest, index: int = 0, *, rules: list[Rule] | None = None,
                 progress: Callable[[Any], None] | None = None) -> GenerateResult:
    """Puzzle number ``index`` of ``request``: the same for the same request and index,
    whichever process makes it (``.puzzle`` None when the time limit came first).
    ``rules``: the core ladder already loaded (a batch worker loads it once);
    ``progress`` is called now and then with how the search goes (attempts, level, the
    scores seen so far)."""
    from .generator.core import generate_one as _one

    return _one(request, index, rules, progress)


def audit(puzzle: Puzzle, solution: list[int], rules: RulesArg = None, *,
          disable: Sequence[str] = (), label: str = "", timeout: float | None = None,
          watch: Sequence[str] = (),
          guard: Callable[[float | None], AbstractContextManager] | None = None) -> Audit:
    """Walk ``puzzle`` with the ladder, checking every deduction against ``solution`` (a
    digit per white cell) before it is applied (``deducer rules test``). The first false
    deduction, or a rule that raises, ends the walk as the :class:`Audit`'s ``finding``;
    the steps of the rules in ``watch`` are also checked against their proofs, and a true
    step its proof does not prove is listed in ``unproved``. ``guard(timeout)``, a context
    manager around the walk, may stop a rule that never returns (and swallow its own
    exception): the audit then says it timed out."""
    from .assist.audit import audit as _audit

    return _audit(puzzle, solution, ladder(rules, disable), label=label, timeout=_limit(timeout),
                  watch=frozenset(watch), guard=guard)


def audit_puzzles(count: int, seed: int) -> Iterator[tuple[str, Puzzle, list[int]]]:
    """``count`` small random puzzles with a unique solution, as (label, puzzle, solution),
    the same for the same seed: the generated part of ``deducer rules test``'s sample
    (made fast, not graded: see :func:`generate` for puzzles to play)."""
    from .generator.seeded import generated

    return generated(count, seed)
# ---------------------------------------------------------------------------- teaching
def all_steps(puzzle: Puzzle, rules: RulesArg = None, *, disable: Sequence[str] = (),
              timeout: float | None = None) -> AllSteps:
    """Every deduction the ladder finds at the position (the grid as the player has it),
    simplest first, each a :class:`Step` with its sentence, effect and proof, as if it
    were the next step (``deducer hint --all``). Mistakes in the player's entries come
    first, as for :func:`hint`.

    Returns an :class:`AllSteps`: ``kind`` (``steps``, ``mistake``, ``solved``,
    ``unsolvable``, ``conflict``, ``timeout``), ``steps``, ``text`` and ``to_json()``
    (``{"steps": [...]}`` and the rest, docs/json-contract.md)."""
    from .assist.allsteps import all_steps as _all_steps

    started = time.perf_counter()
    active = ladder(rules, disable)
    return _all_steps(puzzle, active, limits=_limits(started, timeout))


def techniques(rules: RulesArg = None, *, disable: Sequence[str] = ()) -> list[Technique]:
    """The ladder's rules as a learner sees them (:class:`Technique`: names, explanation,
    level, what each is a case of), in ladder order."""
    from .engine.teaching import techniques as _techniques

    return _techniques(ladder(rules, disable))


def technique_examples(rules: RulesArg = None, *, disable: Sequence[str] = (),
                       ids: Sequence[str] | None = None, generate: bool = True,
                       seconds: float | None = None, cached: bool = True,
                       progress: Callable[[str], None] | None = None) -> ExampleSearch:
    """A worked example of each rule of ``ids`` (default: every rule of the ladder but
    trial and backtracking): a puzzle and its walkthrough's steps up to and including
    the rule's first step, every step proved by the proof checker. From the package's
    cache, the bundled puzzles, else the generator (``generate``: at most ``seconds`` a
    rule). Returns ``.examples`` (rule id -> example, ``.to_json()``) and ``.missing``
    (rule id -> why it has none)."""
    from .generator import examples

    return examples.find(ladder(rules, disable), ids,
                         cache=examples.CACHE if cached else None, generate=generate,
                         seconds=examples.GENERATE_SECONDS if seconds is None else seconds,
                         progress=progress)


def _only_pages(flag: str, path: str) -> None:
    """``--force`` replaces a technique page, never another file that has a page's name
    (a notes.html of one's own in the folder)."""

    p = Path(path)
    if not p.exists():
        return
    try:
        with open(p, "rb") as fh:
            head = fh.read(4096).decode("utf-8", "replace")
    except OSError:
        head = ""
    if p.suffix == ".html":
        ours = '<meta name="generator" content="deducer">' in head
    else:
        ours = re.match(r'\s*\{\s*"puzzle"\s*:', head) is not None
    if not ours:
        raise DeducerError(f"{flag}: is not a technique page deducer wrote; --force "
                           "replaces pages only: move this file away or pick another folder",
                           path=path)


class TechniquePages:
    """What :func:`technique_pages` wrote: ``files`` (paths), ``missing`` (rule id -> why
    its page has no example)."""

    def __init__(self, directory: Path, files: list[Path], missing: dict[str, str]):
        self.directory, self.files, self.missing = directory, files, missing


def technique_pages(directory: str | Path, rules: RulesArg = None, *,
                    disable: Sequence[str] = (), force: bool = False, generate: bool = True,
                    seconds: float | None = None,
                    progress: Callable[[str], None] | None = None,
                    guard: Callable[[float], AbstractContextManager] | None = None
                    ) -> TechniquePages:
    """Write the technique pages into ``directory`` (made if missing): ``index.html``
    and, for every rule of the ladder but trial and backtracking, ``<id>.html`` and
    (when it has a worked example) ``<id>.json`` = ``{"puzzle": ..., "steps": [...]}`` (and
    ``"walkthrough_step"`` where the walkthrough takes another step at the last one).
    Every page name is checked before any page is written (a rule id ``index`` would be
    the index's name; one too long for the file system); no file is written over unless
    ``force``, and ``force`` replaces only pages (a file that is not one is refused);
    nothing is written when one would be refused. ``seconds`` bounds each walk and
    generation of the example search (``guard(seconds)``, a context manager yielding a
    dict, may stop a rule that never looks at the clock: see
    :func:`deducer.generator.examples.find`)."""
    from .engine.teaching import technique
    from .generator import examples
    from .render import teach
    from .render.jsonout import dumps

    lad = ladder(rules, disable)
    techs = [technique(r, lad) for r in lad]
    paged = [t for t in techs if t.kind not in examples.NO_EXAMPLE_KINDS]
    out = Path(directory)
    if out.exists() and not out.is_dir():
        raise DeducerError("is not a directory (--pages names the folder the pages go in)",
                           path=str(out))
    for t in paged:
        if t.id.lower() == "index":  # its page would be the site's index page
            raise DeducerError(f"rule {t.id!r}: 'index' names the pages' index "
                               "(index.html); give the rule another id", path=t.source)
    names = ["index.html"] + [f"{t.id}{ext}" for t in paged for ext in (".html", ".json")]
    for n in names:  # every name, in a new folder too: none fails half way through
        check_name(out / n)
    if out.is_dir():  # a new folder is made once the pages are ready
        check_outputs({f"--pages {n}": str(out / n) for n in names}, force=force,
                      guard=_only_pages if force else None)
    found = examples.find(lad, [t.id for t in paged], generate=generate,
                          seconds=examples.GENERATE_SECONDS if seconds is None else seconds,
                          progress=progress, guard=guard)
    pages: dict[str, str] = {"index.html": teach.index_page(
        paged, found.missing, no_page=[t for t in techs if t not in paged])}
    for k, t in enumerate(paged):
        ex = found.examples.get(t.id)
        pages[f"{t.id}.html"] = teach.technique_page(
            t, ex, missing=found.missing.get(t.id, ""),
            prev=paged[k - 1] if k else None,
            next_=paged[k + 1] if k + 1 < len(paged) else None, rules=lad)
        if ex is not None:
            pages[f"{t.id}.json"] = dumps(ex.to_json())
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise DeducerError(f"cannot make the folder: {e.strerror or e}", path=str(out)) from None
    written = []
    for name, text in pages.items():
        write_output(out / name, text, force=force)
        written.append(out / name)
    return TechniquePages(out, written, dict(found.missing))

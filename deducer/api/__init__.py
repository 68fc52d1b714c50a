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

The plain calls are here; the rest live by idea in this package's modules, their names
offered here too: ``ladders`` (the ladder and the rule commands' questions), ``limits``
(a ``timeout`` made into the limits a call carries), ``making`` (generate, audit) and
``teaching`` (every step at a position, the techniques and their pages).

A call imports only what it runs: ``solve`` never loads the explain engine, and the
result types of the other calls are loaded on first use (module ``__getattr__``).
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Sequence
from pathlib import Path

from ..clock import Limits
from ..errors import DeducerError
from ..puzzle import formats
from ..puzzle.model import Puzzle
from ..solver.search import ENTRY_BLAME, NONE, SolveResult, entries_to_blame, iter_solutions
from ..solver.search import solve as _solve
from ..solver.status import SolveStatus
from .ladders import (  # noqa: F401  (the rule commands' questions, offered here too)
    RulesArg,
    carried_weights,
    fixture_file,
    is_core_rule,
    ladder,
    level_thresholds,
    load_rules,
    replaced_rules,
    rule_fixtures,
)
from .limits import limits_from, seconds
from .making import audit, audit_puzzles, generate, generate_one, generate_request
from .teaching import (
    TechniquePages,
    all_steps,
    technique_examples,
    technique_pages,
    techniques,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing on solve's start-up
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from ..assist.allsteps import AllSteps
    from ..assist.audit import Audit, RulesTest
    from ..assist.checking import CheckResult, Mistake
    from ..assist.combos import RunCombos
    from ..assist.hints import LEVELS as HINT_LEVELS
    from ..assist.hints import Hint
    from ..assist.replay import Replay
    from ..assist.whatif import WhatIf
    from ..assist.why import Why
    from ..engine.rating import LEVELS, RATER_VERSION, Rating
    from ..engine.registry import Rule
    from ..engine.teaching import Technique
    from ..engine.walk import Explanation, Step
    from ..generator.core import Result as GenerateResult
    from ..generator.layout import SYMMETRIES
    from ..generator.request import GenerateError
    from ..generator.request import Request as GenerateRequest
    from ..puzzle.bundled import Bundled
    from ..puzzle.model import Run
    from ..solver.search import MAX_SOLUTIONS_CAP, SolveResult
    from ..solver.verdicts import CheckStatus, ExplainStatus

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


def baseline(puzzle: Puzzle, rules: RulesArg = None, *, timeout: float | None = None) -> Any:
    """How the walkthrough of ``puzzle`` with ``rules`` ends and rates (``rules test``'s
    walk without the tested file): a ``Baseline`` (status, steps, level, score)."""
    from ..assist.audit import Baseline

    try:
        e = explain(puzzle, rules, timeout=timeout)
    except DeducerError:
        return Baseline("error", 0)
    return Baseline(e.status.value, len(e.steps), e.rating.level, e.rating.score)


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

    limits = Limits.within(seconds(timeout))  # made once, here: the solver carries it down
    bare = puzzle if use_entries else puzzle.without_progress()  # entries dropped once, here
    if spool:
        result = _spooled(bare, max_solutions, limits)
    else:
        result = _solve(bare, max_solutions=max_solutions, limits=limits)
    if blame_entries and result.status == NONE:
        # the second look (are the entries to blame?) gets what is left of the time limit
        if entries_to_blame(bare, limits.at_least(0.05)):
            result.reason = f"{result.reason}{ENTRY_BLAME}"
    return result


def _spooled(puzzle: Puzzle, max_solutions: int, limits: Limits) -> SolveResult:
    """Solve with the solutions streamed into a :class:`SolutionSpool` (bounded memory)."""
    from ..solver.spool import SolutionSpool

    stream = iter_solutions(puzzle, max_solutions=max_solutions, limits=limits)
    spool = SolutionSpool(len(puzzle.whites))
    for values in stream:
        spool.append(values)
    return SolveResult(stream.status, spool,  # type: ignore[arg-type]  # reads as the list
                       stream.complete, nodes=stream.nodes,
                       reason=stream.reason, timed_out=stream.timed_out, stats=stream.stats)


def explain(puzzle: Puzzle, rules: RulesArg = None, *, disable: Sequence[str] = (),
            timeout: float | None = None, max_steps: int | None = None,
            use_entries: bool = True) -> Explanation:
    """The step-by-step walkthrough (``.steps``, ``.status``, ``.rating``, ``.solution``);
    ``use_entries`` False walks the bare puzzle, ``puzzle.without_progress()`` (the one
    place entries are dropped: the explanation's ``puzzle`` is then that bare puzzle)."""
    from ..engine.walk import explain as _explain

    started = time.perf_counter()
    active = ladder(rules, disable)
    bare = puzzle if use_entries else puzzle.without_progress()  # entries dropped once, here
    return _explain(bare, active, limits=limits_from(started, timeout), max_steps=max_steps)


def rate(puzzle: Puzzle, rules: RulesArg = None, *, disable: Sequence[str] = (),
         timeout: float | None = None) -> Rating:
    """The difficulty rating of the walkthrough."""
    return explain(puzzle, rules, disable=disable, timeout=seconds(timeout)).rating


def hint(puzzle: Puzzle, level: str = "vague", rules: RulesArg = None, *,
         disable: Sequence[str] = (), timeout: float | None = None) -> Hint:
    """The next simplest deduction for a partly filled grid (or the mistakes to fix first).

    ``level``: ``vague`` | ``concrete`` | ``full``; the :class:`Hint` holds all three texts.
    """
    from ..assist.hints import hint as _hint

    started = time.perf_counter()
    active = ladder(rules, disable)
    return _hint(puzzle, level, rules=active, limits=limits_from(started, timeout))


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
    from ..assist.whatif import what_if as _what_if

    return _what_if(puzzle, cell, digit, ladder(rules, disable), max_links=max_links,
                    limits=Limits.within(seconds(timeout)))


def why(puzzle: Puzzle, cell: tuple[int, int], digit: int, *, must: bool = False,
        rules: RulesArg = None, disable: Sequence[str] = (),
        timeout: float | None = None) -> Why:
    """Why ``digit`` cannot go in ``cell`` (0-based (row, col); ``must``: why the cell must
    hold it), from the grid as given: the walkthrough's steps that lead there, and only
    those. Raises :class:`~deducer.errors.PuzzleError` for a cell that is not white."""
    from ..assist.why import why as _why

    started = time.perf_counter()
    active = ladder(rules, disable)
    return _why(puzzle, cell, digit, must=must, rules=active,
                limits=limits_from(started, timeout))


def combinations(total: int | None, length: int,
                 cells: Sequence[tuple[int | None, int, str]] = (), *, allow: int = 0x1FF,
                 need: int = 0) -> RunCombos:
    """The combinations of a run of ``length`` cells summing to ``total`` (None: a run
    without a clue), those using a digit outside the mask ``allow`` or missing one of
    ``need`` left out; with ``cells`` (each ``(digit or None, pencil-mark mask, name)``) each
    is struck, with its reason, where the digits and marks shown rule it out. Raises
    :class:`DeducerError` for a sum ``length`` digits cannot make."""
    from ..assist.combos import check_sum, run_combos

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
    from ..assist import replay as _replay

    timeout = seconds(timeout)
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
    from ..assist.hints import player_marks

    return player_marks(puzzle)


def bundled_puzzles(unique_only: bool = True) -> Iterator[Bundled]:
    """The puzzles shipped with the package (``.label``, ``.puzzle``, ``.path``, ``.name``),
    in the order of their list; with ``unique_only``, those with exactly one solution."""
    from ..puzzle.bundled import bundled_puzzles as _bundled

    return _bundled(unique_only)


def check(puzzle: Puzzle, *, max_solutions: int = 50, timeout: float | None = None,
          pencil: bool = True) -> CheckResult:
    """The player's entries (and pencil marks) that fit no solution of the puzzle."""
    from ..assist.checking import check as _check

    return _check(puzzle, max_solutions=max_solutions, limits=Limits.within(seconds(timeout)),
                  pencil=pencil)


"""The public Python API: ``load``, ``solve``, ``explain``, ``rate``, ``hint``, ``check``,
``what_if``, ``generate`` (also at ``import deducer``; docs/api.md shows them).

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
:class:`~deducer.assist.checking.CheckResult` and :class:`~deducer.generator.core.Result`
(``GenerateResult`` here). Statuses are the ``StrEnum``s :class:`SolveStatus`,
:class:`ExplainStatus` and :class:`CheckStatus`. Errors are
:class:`~deducer.errors.DeducerError` (bad input, unreadable rule files, requests no
puzzle can meet).

A call imports only what it runs: ``solve`` never loads the explain engine, and the
result types of the other calls are loaded on first use (module ``__getattr__``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from pathlib import Path

from .errors import DeducerError
from .puzzle.model import Puzzle
from .solver.status import CheckStatus, ExplainStatus, SolveStatus

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing on solve's start-up
if TYPE_CHECKING:
    from typing import Any

    from .assist.allsteps import AllSteps
    from .assist.checking import CheckResult, Mistake
    from .assist.hints import Hint
    from .assist.whatif import WhatIf
    from .engine.rating import Rating
    from .engine.registry import Rule
    from .engine.teaching import Technique
    from .engine.walk import Explanation, Step
    from .generator.core import Result as GenerateResult
    from .generator.examples import Search as ExampleSearch
    from .generator.request import GenerateError
    from .solver.search import SolveResult

__all__ = [
    "CheckResult", "CheckStatus", "DeducerError", "ExplainStatus", "Explanation",
    "GenerateError", "GenerateResult", "Hint", "Mistake", "Puzzle", "Rating", "Rule",
    "SolveResult", "SolveStatus", "Step", "WhatIf",
    "check", "explain", "generate", "hint", "ladder", "load", "rate", "solve", "what_if",
    "AllSteps", "Technique", "TechniquePages", "all_steps", "technique_examples",
    "technique_pages", "techniques",
    # "why": the reason a digit can or cannot go in a cell (deducer/assist/why.py),
    # a function beside hint below once that module lands
]

#: result types loaded on first use: name -> (module, attribute)
_LAZY = {
    "CheckResult": ("deducer.assist.checking", "CheckResult"),
    "Mistake": ("deducer.assist.checking", "Mistake"),
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
    from .puzzle import formats

    if isinstance(path_or_text, Path):
        return formats.load(path_or_text, format, name=name)
    if not isinstance(path_or_text, str):
        raise TypeError("load() takes a path or the puzzle text")
    text = path_or_text
    if "\n" in text or text.lstrip().startswith(("{", "http:", "https:")):
        return formats.loads(text, format, name=name)
    return formats.load(text, format, name=name)  # one line: a path


def ladder(rules: RulesArg = None, disable: Sequence[str] = ()) -> list[Rule]:
    """The active ladder: core rules plus ``rules`` (YAML file paths), minus ``disable``.

    ``rules`` may also be a list of already loaded :class:`~deducer.engine.registry.Rule`
    (taken as the whole ladder).
    """
    from .engine import registry

    if rules and all(isinstance(r, registry.Rule) for r in rules):
        off = set(disable)
        out = [r for r in rules if isinstance(r, registry.Rule) and r.enabled
               and r.id not in off]
        return sorted(out, key=lambda r: (r.priority, r.id))
    paths = [r for r in rules or () if not isinstance(r, registry.Rule)]
    return registry.load(extra=paths, disable=list(disable))


def solve(puzzle: Puzzle, max_solutions: int = 2, *, timeout: float | None = None,
          use_entries: bool = True) -> SolveResult:
    """Every solution up to ``max_solutions`` (2 proves uniqueness).

    ``status`` is :class:`SolveStatus`: ``NONE`` only when the search was exhausted,
    ``UNDECIDED`` when ``timeout`` stopped it before any solution."""
    from .solver.search import solve as _solve

    return _solve(puzzle, max_solutions=max_solutions, timeout=timeout,
                  use_entries=use_entries)


def explain(puzzle: Puzzle, rules: RulesArg = None, *, disable: Sequence[str] = (),
            timeout: float | None = None, max_steps: int | None = None) -> Explanation:
    """The step-by-step walkthrough (``.steps``, ``.status``, ``.rating``, ``.solution``)."""
    from .engine.walk import explain as _explain

    return _explain(puzzle, ladder(rules, disable), timeout=timeout,
                    max_steps=max_steps)


def rate(puzzle: Puzzle, rules: RulesArg = None, *, disable: Sequence[str] = (),
         timeout: float | None = None) -> Rating:
    """The difficulty rating of the walkthrough."""
    return explain(puzzle, rules, disable=disable, timeout=timeout).rating


def hint(puzzle: Puzzle, level: str = "vague", rules: RulesArg = None, *,
         disable: Sequence[str] = (), timeout: float | None = None) -> Hint:
    """The next simplest deduction for a partly filled grid (or the mistakes to fix first).

    ``level``: ``vague`` | ``concrete`` | ``full``; the :class:`Hint` holds all three texts.
    """
    from .assist.hints import hint as _hint

    return _hint(puzzle, level, rules=ladder(rules, disable), timeout=timeout)


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
                    timeout=timeout)


def check(puzzle: Puzzle, *, max_solutions: int = 50, timeout: float | None = None,
          pencil: bool = True) -> CheckResult:
    """The player's entries (and pencil marks) that fit no solution of the puzzle."""
    from .assist.checking import check as _check

    return _check(puzzle, max_solutions=max_solutions, timeout=timeout, pencil=pencil)


def generate(size: str | tuple[int, int] = "12x12", level: str | None = None, *,
             count: int = 1, seed: int = 0, symmetry: str = "rot180",
             density: float | None = None,
             needs: str | None = None, max_chain: int | None = None,
             timeout: float | None = None,
             score: tuple[float | None, float | None] | None = None) -> list[GenerateResult]:
    """New puzzles with a unique solution, rated exactly ``level`` (None: the published
    mix of levels, docs/rating.md) and, with ``score`` (low, high), scored in that range.

    Returns up to ``count`` results (``.puzzle``, ``.rating``, ``.solution``, ``.seed``);
    fewer when ``timeout`` (seconds for the whole call) ran out. The same ``seed`` gives
    the same puzzles. Raises :class:`GenerateError` for a request no puzzle can meet.
    """
    from .generator.core import generate_one
    from .generator.request import check_request, make_request

    req = make_request(size, level, seed=seed, symmetry=symmetry, density=density,
                       needs=needs, max_chain=max_chain, timeout=timeout, score=score)
    check_request(req)
    out = []
    for k in range(count):
        res = generate_one(req, k)
        if res.puzzle is None:
            break
        out.append(res)
    return out


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

    return _all_steps(puzzle, ladder(rules, disable), timeout=timeout)


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


class TechniquePages:
    """What :func:`technique_pages` wrote: ``files`` (paths), ``missing`` (rule id -> why
    its page has no example)."""

    def __init__(self, directory: Path, files: list[Path], missing: dict[str, str]):
        self.directory, self.files, self.missing = directory, files, missing


def technique_pages(directory: str | Path, rules: RulesArg = None, *,
                    disable: Sequence[str] = (), force: bool = False, generate: bool = True,
                    seconds: float | None = None,
                    progress: Callable[[str], None] | None = None) -> TechniquePages:
    """Write the technique pages into ``directory`` (made if missing): ``index.html``
    and, for every rule of the ladder but trial and backtracking, ``<id>.html`` and
    (when it has a worked example) ``<id>.json`` = ``{"puzzle": ..., "steps": [...]}``.
    No file is written over unless ``force``; nothing is written when one would be."""
    from .engine.teaching import technique
    from .generator import examples
    from .puzzle.fileio import check_outputs, write_output
    from .render import teach
    from .render.jsonout import dumps

    lad = ladder(rules, disable)
    techs = [technique(r, lad) for r in lad]
    paged = [t for t in techs if t.kind not in examples.NO_EXAMPLE_KINDS]
    out = Path(directory)
    if out.exists() and not out.is_dir():
        raise DeducerError("is not a directory (--pages names the folder the pages go in)",
                           path=str(out))
    names = ["index.html"] + [f"{t.id}{ext}" for t in paged for ext in (".html", ".json")]
    if out.is_dir():  # a new folder is made once the pages are ready
        check_outputs({f"--pages {n}": str(out / n) for n in names}, force=force)
    found = technique_examples(lad, ids=[t.id for t in paged], generate=generate,
                               seconds=seconds, progress=progress)
    pages: dict[str, str] = {"index.html": teach.index_page(
        paged, found.missing, no_page=[t for t in techs if t not in paged])}
    for k, t in enumerate(paged):
        ex = found.examples.get(t.id)
        pages[f"{t.id}.html"] = teach.technique_page(
            t, ex, missing=found.missing.get(t.id, ""),
            prev=paged[k - 1] if k else None,
            next_=paged[k + 1] if k + 1 < len(paged) else None)
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

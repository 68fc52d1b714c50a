"""A small Python API over the engine: load, solve, explain, rate, hint, check.

>>> from deducer import api
>>> p = api.load("\\\\|5\\\\|16\\\\\\n\\\\| | \\n\\\\12| | \\n")
>>> api.solve(p).status
'unique'
>>> api.rate(p).level in ("Easy", "Medium", "Hard", "Expert", "Extreme", "Unreasonable")
True

Every function takes and returns plain dataclasses (:class:`~deducer.model.Puzzle`,
:class:`~deducer.search.SolveResult`, :class:`~deducer.engine.Explanation`,
:class:`~deducer.rating.Rating`, :class:`~deducer.hints.Hint`,
:class:`~deducer.checking.CheckResult`). Errors are :class:`~deducer.errors.DeducerError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .explain.checking import CheckResult, Mistake
from .explain.engine import Explanation, Step
from .explain.hints import Hint
from .explain.rating import Rating
from .puzzle.model import Puzzle
from .solve.search import SolveResult

__all__ = [
    "CheckResult", "Explanation", "Hint", "Mistake", "Puzzle", "Rating", "SolveResult", "Step",
    "check", "explain", "generate", "hint", "ladder", "load", "rate", "solve",
]

RulesArg = Sequence | None


def load(path_or_text: str | Path, format: str | None = None, name: str | None = None) -> Puzzle:
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


def ladder(rules: RulesArg = None, disable: Sequence[str] = ()) -> list:
    """The active ladder: core rules plus ``rules`` (YAML file paths), minus ``disable``.

    ``rules`` may also be a list of already loaded :class:`~deducer.registry.Rule`.
    """
    from .explain import registry

    if rules and all(isinstance(r, registry.Rule) for r in rules):
        out = [r for r in rules if r.enabled and r.id not in set(disable)]
        return sorted(out, key=lambda r: (r.priority, r.id))
    return registry.load(extra=list(rules or ()), disable=list(disable))


def solve(puzzle: Puzzle, max_solutions: int = 2, *, timeout: float | None = None,
          use_entries: bool = True) -> SolveResult:
    """Every solution up to ``max_solutions`` (2 proves uniqueness)."""
    from .solve.search import solve as _solve

    return _solve(puzzle, max_solutions=max_solutions, timeout=timeout,
                  use_entries=use_entries)


def explain(puzzle: Puzzle, rules: RulesArg = None, *, disable: Sequence[str] = (),
            timeout: float | None = None, max_steps: int | None = None) -> Explanation:
    """The step-by-step walkthrough (``.steps``, ``.status``, ``.rating``, ``.solution``)."""
    from .explain.engine import explain as _explain

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
    from .explain.hints import hint as _hint

    return _hint(puzzle, level, rules=ladder(rules, disable), timeout=timeout)


def check(puzzle: Puzzle, *, max_solutions: int = 50, timeout: float | None = None,
          pencil: bool = True) -> CheckResult:
    """The player's entries (and pencil marks) that fit no solution of the puzzle."""
    from .explain.checking import check as _check

    return _check(puzzle, max_solutions=max_solutions, timeout=timeout, pencil=pencil)


def generate(size: str | tuple[int, int] = "12x12", level: str | None = None, *,
             count: int = 1, seed: int = 0, symmetry: str = "rot180",
             density: float | None = None,
             needs: str | None = None, max_chain: int | None = None,
             timeout: float | None = None,
             score: tuple[float | None, float | None] | None = None) -> list:
    """New puzzles with a unique solution, rated exactly ``level`` (None: the published
    mix of levels, docs/rating.md) and, with ``score`` (low, high), scored in that range.

    Returns up to ``count`` :class:`~deducer.generate.core.Result` (``.puzzle``,
    ``.rating``, ``.solution``, ``.seed``); fewer when ``timeout`` (seconds for the whole
    call) ran out. The same ``seed`` gives the same puzzles. Raises
    :class:`~deducer.generate.core.GenerateError` for a request no puzzle can meet.
    """
    import time

    from .generate.core import Request, check_request, generate_one, level_name, parse_size

    rows, cols = parse_size(size) if isinstance(size, str) else size
    req = Request(rows, cols, level_name(level), seed, symmetry, density, needs, max_chain,
                  timeout, None if timeout is None else time.time() + timeout, score)
    check_request(req)
    out = []
    for k in range(count):
        res = generate_one(req, k)
        if res.puzzle is None:
            break
        out.append(res)
    return out

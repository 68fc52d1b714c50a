"""Puzzles made (``generate``, one at a time for a batch) and rules audited against known
solutions (``deducer rules test``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..clock import Limits
from .ladders import RulesArg, ladder
from .limits import seconds

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing on solve's start-up
if TYPE_CHECKING:
    from collections.abc import Iterator
    from contextlib import AbstractContextManager
    from typing import Any

    from ..assist.audit import Audit
    from ..engine.registry import Rule
    from ..generator.core import Result as GenerateResult
    from ..generator.request import Request as GenerateRequest
    from ..puzzle.model import Puzzle


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
                           needs=needs, max_chain=max_chain, timeout=seconds(timeout), score=score)
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
    from ..generator.request import check_request, make_request, parse_score

    if isinstance(score, str):
        score = parse_score(score)
    req = make_request(size, level, seed=seed, symmetry=symmetry, density=density,
                       needs=needs, max_chain=max_chain, timeout=seconds(timeout), score=score)
    check_request(req, None if rules is None else ladder(rules))
    return req


def generate_one(request: GenerateRequest, index: int = 0, *, rules: list[Rule] | None = None,
                 progress: Callable[[Any], None] | None = None) -> GenerateResult:
    """Puzzle number ``index`` of ``request``: the same for the same request and index,
    whichever process makes it (``.puzzle`` None when the time limit came first).
    ``rules``: the core ladder already loaded (a batch worker loads it once);
    ``progress`` is called now and then with how the search goes (attempts, level, the
    scores seen so far)."""
    from ..generator.core import generate_one as _one

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
    from ..assist.audit import audit as _audit

    # the time limit counts from here, the ladder loaded (a rule file takes a while)
    active = ladder(rules, disable)
    return _audit(puzzle, solution, active, label=label, limits=Limits.within(seconds(timeout)),
                  watch=frozenset(watch), guard=guard)


def audit_puzzles(count: int, seed: int) -> Iterator[tuple[str, Puzzle, list[int]]]:
    """``count`` small random puzzles with a unique solution, as (label, puzzle, solution),
    the same for the same seed: the generated part of ``deducer rules test``'s sample
    (made fast, not graded: see :func:`generate` for puzzles to play)."""
    from ..generator.seeded import generated

    return generated(count, seed)


"""How a solve and a walkthrough end: one vocabulary for both, as ``StrEnum``s.

The members are strings (``SolveStatus.NONE == "none"``), so the JSON output and code that
compares with plain strings read them unchanged (docs/json-contract.md).
"""

from __future__ import annotations

from enum import StrEnum


class SolveStatus(StrEnum):
    """The outcome of :func:`deducer.solver.search.solve`."""

    UNIQUE = "unique"  # one solution (proved unique when ``complete``)
    MULTIPLE = "multiple"  # two or more
    NONE = "none"  # the search was exhausted: the puzzle has no solution
    #: the time or work limit stopped the search before it found any solution: nothing is
    #: decided (never reported as NONE; the JSON contract writes it as ``none`` with
    #: ``complete: false`` and ``timed_out: true``)
    UNDECIDED = "undecided"


class ExplainStatus(StrEnum):
    """How a walkthrough ended (:func:`deducer.engine.walk.explain`)."""

    SOLVED = "solved"
    MULTIPLE = "multiple"  # the rules stalled and the puzzle has several solutions
    NONE = "none"  # the puzzle has no solution
    STALLED = "stalled"  # the active rules found nothing more
    TIMEOUT = "timeout"  # the time limit stopped it: undecided
    #: a step weighed more than ``Engine.stop_above`` (the generator's early exit; never
    #: the status of a finished walkthrough)
    OVER = "over"


class CheckStatus(StrEnum):
    """The verdict on a player's entries (:func:`deducer.assist.checking.check`)."""

    OK = "ok"
    WRONG = "wrong"  # some entry or mark fits no solution
    CONFLICT = "conflict"  # each entry fits some solution, but not all of them together
    UNSOLVABLE = "unsolvable"  # the puzzle itself has no solution
    UNKNOWN = "unknown"  # the time limit stopped the check: undecided

"""How a walkthrough and a check end, as ``StrEnum``s (see :mod:`deducer.solver.status`).

Apart from :class:`~deducer.solver.status.SolveStatus` so that a first solve does not build
them (an enum class costs about 0.2 ms, issue 40); :mod:`deducer.solver.status` offers them
too, loading this module on first use.
"""

from __future__ import annotations

from enum import StrEnum


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

"""How a solve, a walkthrough and a check end: one vocabulary for all, as ``StrEnum``s.

The members are strings (``SolveStatus.NONE == "none"``), so the JSON output and code that
compares with plain strings read them unchanged (docs/json-contract.md). ``ExplainStatus``
and ``CheckStatus`` live in :mod:`deducer.solver.verdicts`, loaded when first asked for here.
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


TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from .verdicts import CheckStatus, ExplainStatus  # noqa: F401  (what __getattr__ offers)


def __getattr__(name: str):
    """``ExplainStatus`` and ``CheckStatus``, from :mod:`deducer.solver.verdicts` (PEP 562):
    built when first asked for, not by every solve."""
    if name in ("ExplainStatus", "CheckStatus"):
        from . import verdicts

        return getattr(verdicts, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

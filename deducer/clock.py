"""A stop asked for from outside the work (Ctrl-C), which every deadline check honours.

The commands that answer about one puzzle stop at ``--timeout`` with the answer so far:
each loop under the limit compares ``time.perf_counter()`` with its deadline. Ctrl-C asks
for the same stop at once (``deducer.app.cli`` sets the flag from its SIGINT handler), so
those loops ask :func:`past` rather than the clock alone: an interrupted command prints
what a timed-out one would, instead of nothing. Below every other module (it imports
none of them), so that the solver, the engine and the assistants all see one flag. Here
too :class:`Limits`, the time limit and work budget one call carries down.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

#: [asked]: a list, so that the flag is shared by every module that imported it
STOP = [False]


def ask_stop() -> None:
    """Ask the work under way to stop as if its deadline had come (signal-handler safe)."""
    STOP[0] = True


def clear_stop() -> None:
    """Forget a stop asked for (a command starting afresh)."""
    STOP[0] = False


def stop_asked() -> bool:
    """Has a stop been asked for (Ctrl-C)?"""
    return STOP[0]


def past(deadline: float | None) -> bool:
    """Is ``deadline`` (a ``time.perf_counter()`` reading; None: no limit) past, or a stop
    asked for?"""
    return STOP[0] or (deadline is not None and time.perf_counter() > deadline)


@dataclass(frozen=True, slots=True)
class Limits:
    """How long one piece of work may go on, made once where a time limit comes in (the
    API, a command, the generator) and carried down by the walk's options and the
    solver's and generator's calls: the one way a limit is passed. ``deadline``: a
    ``time.perf_counter()`` reading (None: no time limit); ``work``: units of counted work
    (chain links, search nodes: the same on any machine, so a reproducible caller limits
    work, not time; None: no budget). Immutable: a part of the work gets new limits
    (:meth:`with_work`, :meth:`part`, :meth:`at_least`), never changes its caller's."""

    deadline: float | None = None
    work: int | None = None

    @classmethod
    def within(cls, seconds: float | None) -> Limits:
        """Limits ``seconds`` from now (None: no time limit), with no work budget."""
        return cls(None if seconds is None else time.perf_counter() + seconds)

    def with_work(self, units: int | None) -> Limits:
        """The same deadline with a work budget of ``units`` (None: none)."""
        return Limits(self.deadline, units)

    def left(self, least: float = 0.0) -> float | None:
        """Seconds until the deadline, at least ``least`` (None: no time limit)."""
        if self.deadline is None:
            return None
        return max(least, self.deadline - time.perf_counter())

    def at_least(self, seconds: float) -> Limits:
        """The same limits, the deadline moved to ``seconds`` from now if it comes sooner
        (a last look that must be given a little time however late it starts)."""
        left = self.left(seconds)
        return self if left is None else Limits(time.perf_counter() + left, self.work)

    def part(self, fraction: float) -> Limits:
        """The same limits with a deadline ``fraction`` of the time left from now (a first
        look that must leave the rest of the time to the work after it)."""
        left = self.left()
        return self if left is None else Limits(time.perf_counter() + left * fraction, self.work)

    def past(self) -> bool:
        """Is the deadline past, or a stop asked for (:func:`past`)?"""
        return past(self.deadline)


#: no limit at all
NO_LIMITS = Limits()

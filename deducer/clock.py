"""A stop asked for from outside the work (Ctrl-C), which every deadline check honours.

The commands that answer about one puzzle stop at ``--timeout`` with the answer so far:
each loop under the limit compares ``time.perf_counter()`` with its deadline. Ctrl-C asks
for the same stop at once (``deducer.app.cli`` sets the flag from its SIGINT handler), so
those loops ask :func:`past` rather than the clock alone: an interrupted command prints
what a timed-out one would, instead of nothing. Below every other module (it imports
none of them), so that the solver, the engine and the assistants all see one flag.
"""

from __future__ import annotations

import time

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

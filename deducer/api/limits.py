"""How a call's ``timeout`` becomes the limits it carries down: checked once (a number of
seconds, or none), counted from the call (what loading its ladder left)."""

from __future__ import annotations

import time

from ..clock import Limits
from ..errors import DeducerError


def seconds(timeout: object) -> float | None:
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


def after_rules(started: float, timeout: float | None) -> float | None:
    """What is left of ``timeout`` once the ladder is loaded: a call's time limit counts
    from the call (a ladder with rule files takes a while to load)."""
    if timeout is None:
        return None
    return max(min(0.05, timeout), timeout - (time.perf_counter() - started))


def limits_from(started: float, timeout: object) -> Limits:
    """The one :class:`~deducer.clock.Limits` a call carries down, made from its
    ``timeout`` once its ladder is loaded (what is left of the time since ``started``)."""
    return Limits.within(after_rules(started, seconds(timeout)))

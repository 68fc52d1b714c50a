"""clock.Limits: the one value a call's time limit and work budget travel in."""

from __future__ import annotations

import time

from deducer.clock import NO_LIMITS, Limits


def test_no_limits_never_run_out():
    assert NO_LIMITS == Limits() and NO_LIMITS.left() is None and not NO_LIMITS.past()
    assert NO_LIMITS.part(0.25) is NO_LIMITS


def test_a_time_limit_becomes_one_deadline_and_its_parts_are_of_what_is_left():
    before = time.perf_counter()
    lim = Limits.within(8.0).with_work(100)
    assert before + 8.0 <= lim.deadline <= time.perf_counter() + 8.0
    left = lim.left()
    assert left is not None and 7.0 < left <= 8.0
    quarter = lim.part(0.25)
    assert quarter.work == 100 and quarter.deadline < lim.deadline
    assert 1.5 < quarter.left() <= 2.0
    gone = Limits.within(-1.0)
    assert gone.past() and gone.left() == 0.0 and gone.left(0.5) == 0.5

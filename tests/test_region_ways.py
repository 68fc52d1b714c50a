"""Region sums' enumeration of the ways to make a signed sum (deducer/rules/regions.py
``_ways``): the pruned walk lists exactly what trying every digit of every cell lists, in
the same order, and gives up past the same cap; asked again (kept answers), the same."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from deducer.puzzle.combos import DIGITS
from deducer.rules.regions import _walk_ways, _ways


def _every_way(doms, sign, apart, k, cap):
    ways = []
    for pick in itertools.product(*(DIGITS[m] for m in doms)):
        if any(pick[a] == pick[b] for a, b, _ in apart):
            continue
        if sum(s * d for s, d in zip(sign, pick, strict=True)) == k:
            ways.append(pick)
            if len(ways) > cap:
                return None
    return ways


@st.composite
def problems(draw):
    n = draw(st.integers(1, 5))
    doms = [draw(st.integers(0, 0x1FF)) for _ in range(n)]
    sign = [draw(st.sampled_from((1, -1))) for _ in range(n)]
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    apart = [(a, b, 0) for a, b in pairs if draw(st.booleans())]
    k = draw(st.integers(-30, 45))
    cap = draw(st.integers(1, 60))
    return doms, sign, apart, k, cap


@settings(max_examples=300, deadline=None)
@given(problems())
def test_the_pruned_walk_lists_every_way(problem):
    doms, sign, apart, k, cap = problem
    every = _every_way(doms, sign, apart, k, cap)
    expected = None if every is None else tuple(every)
    assert _walk_ways(doms, sign, apart, k, cap) == expected
    assert _ways(doms, sign, apart, k, cap) == expected
    assert _ways(list(doms), list(sign), list(apart), k, cap) == expected  # kept: the same

"""Digit masks and the (sum, length) combination tables.

A candidate mask is a 9-bit int: bit ``d - 1`` set means digit ``d`` is possible.
Everything here is precomputed once at import; the solver's hot path only indexes tables.
"""

from __future__ import annotations

ALL = 0x1FF
EVEN = sum(1 << (d - 1) for d in (2, 4, 6, 8))
ODD = ALL & ~EVEN

#: bit(d) for d in 0..9 (index 0 unused, kept so ``BIT[d]`` reads naturally).
BIT = (0,) + tuple(1 << (d - 1) for d in range(1, 10))


def _tables():
    """The per-mask tables, built in one pass: a mask's lowest digit and the mask without
    it give its digits, count, sum and extremes. This module is on every command's
    start-up path: per-mask comprehensions made it three times dearer, and the loop runs
    in a function for its fast local names."""
    pop, sums, low, high = [0], [0], [0], [0]
    digits: list[tuple[int, ...]] = [()]
    by_size: list[list[int]] = [[0]] + [[] for _ in range(9)]
    for m in range(1, 512):
        rest = m & (m - 1)
        d = (m & -m).bit_length()
        pop.append(pop[rest] + 1)
        digits.append((d,) + digits[rest])
        sums.append(sums[rest] + d)
        low.append(d)
        high.append(high[rest] if rest else d)
        by_size[pop[m]].append(m)
    sizes = tuple(tuple(sorted(group, key=digits.__getitem__)) for group in by_size)
    table: dict[tuple[int, int], list[int]] = {}
    for k in range(1, 10):
        for m in sizes[k]:
            key = (sums[m], k)
            if key in table:
                table[key].append(m)
            else:
                table[key] = [m]
    single = [d if p == 1 else 0 for d, p in zip(low, pop, strict=True)]
    return (tuple(pop), tuple(digits), tuple(sums), tuple(low), tuple(high), tuple(single),
            sizes, {key: tuple(v) for key, v in table.items()})


#: POP: number of set bits of every 9-bit mask; DIGITS: its digits, ascending; SUM: their
#: sum; LOW / HIGH: its smallest / largest digit (0 for the empty mask); SINGLE: the single
#: digit of a one-bit mask, else 0. BY_SIZE[k]: all masks with k digits, in the order
#: ``itertools.combinations(range(1, 10), k)`` gives their digits. _TABLE[(total, k)]: the
#: masks of k digits summing to total, in that order.
POP, DIGITS, SUM, LOW, HIGH, SINGLE, BY_SIZE, _TABLE = _tables()


def mask_of(digits) -> int:
    """The mask of an iterable of digits 1..9."""
    m = 0
    for d in digits:
        m |= BIT[d]
    return m


def combos(total: int | None, length: int) -> tuple[int, ...]:
    """Every digit set of ``length`` distinct digits summing to ``total``.

    ``total=None`` is an unclued run: any ``length`` distinct digits.
    """
    if not 1 <= length <= 9:
        return ()
    if total is None:
        return BY_SIZE[length]
    return _TABLE.get((total, length), ())


def sum_range(length: int) -> tuple[int, int]:
    """Smallest and largest total a run of ``length`` distinct digits can have."""
    return length * (length + 1) // 2, length * (19 - length) // 2


def fmt_mask(mask: int, sep: str = "") -> str:
    """Digits of a mask as text: ``fmt_mask(0b101) == '13'``."""
    return sep.join(str(d) for d in DIGITS[mask])


def alts_of(items: list[str]) -> str:
    """``a``; ``a or b``; ``a, b or c``: alternatives as a list of digits is said (and
    combinations, pairs and ways, by the sentences)."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def fmt_combo(mask: int) -> str:
    """A combination as a sum: ``7+9``."""
    return "+".join(str(d) for d in DIGITS[mask])

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
# The per-mask tables, built in one pass: a mask's lowest digit and the mask without it
# give its digits, count and sum (this module is on every command's start-up path, and
# per-mask comprehensions made it about three times dearer)
_pop: list[int] = [0]
_digits: list[tuple[int, ...]] = [()]
_sum: list[int] = [0]
for _m in range(1, 512):
    _rest = _m & (_m - 1)
    _low = (_m & -_m).bit_length()
    _pop.append(_pop[_rest] + 1)
    _digits.append((_low,) + _digits[_rest])
    _sum.append(_sum[_rest] + _low)
#: number of set bits of every 9-bit mask
POP: tuple[int, ...] = tuple(_pop)
#: digits of every mask, ascending
DIGITS: tuple[tuple[int, ...], ...] = tuple(_digits)
#: sum of the digits of every mask
SUM: tuple[int, ...] = tuple(_sum)
#: smallest / largest digit of every mask (0 for the empty mask)
LOW = tuple(d[0] if d else 0 for d in DIGITS)
HIGH = tuple(d[-1] if d else 0 for d in DIGITS)
#: the single digit of a one-bit mask, else 0
SINGLE = tuple(d[0] if len(d) == 1 else 0 for d in DIGITS)

#: masks of every size: BY_SIZE[k] = all masks with k digits, in the order
#: ``itertools.combinations(range(1, 10), k)`` gives their digits
BY_SIZE: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted((m for m in range(512) if POP[m] == k), key=DIGITS.__getitem__))
    for k in range(10)
)

_TABLE: dict[tuple[int, int], tuple[int, ...]] = {}
for _k in range(1, 10):
    for _m in BY_SIZE[_k]:
        _TABLE.setdefault((SUM[_m], _k), ())
        _TABLE[(SUM[_m], _k)] += (_m,)
del _pop, _digits, _sum, _m, _rest, _low, _k


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


def fmt_combo(mask: int) -> str:
    """A combination as a sum: ``7+9``."""
    return "+".join(str(d) for d in DIGITS[mask])

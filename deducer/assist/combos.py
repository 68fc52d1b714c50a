"""The combination helper: a run's combinations, and which the board still allows.

What a player asks of a run (``deducer combos SUM LEN``, and the play page's helper for the
run under the cursor): every set of distinct digits of its length that makes its sum (the
engine's tables, :mod:`deducer.puzzle.combos`), each struck with the reason when the
digits written in the run or its cells' pencil marks rule it out, and, over the
combinations still alive, the digits every one of them has and the digits none has.

A cell's digits are what the player shows: its digit when it holds one, else its pencil
marks when it has any, else any digit. Nothing here solves the puzzle: a combination
alive here may still be ruled out by harder reasoning (that is the hints' business).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..puzzle.combos import ALL, BIT, DIGITS, combos, fmt_combo, sum_range
from ..rules.facts import matchable

#: a cell as the helper sees it: (its digit or None, its pencil-mark mask, its name)
Cell = tuple[int | None, int, str]


@dataclass(frozen=True)
class Combination:
    """One combination of a run: its digits (a 9-bit mask), alive or struck, and why."""

    mask: int
    live: bool
    reason: str = ""  # why it is struck ("" when alive)

    @property
    def text(self) -> str:
        return fmt_combo(self.mask)

    def to_json(self) -> dict:
        return {"digits": list(DIGITS[self.mask]), "text": self.text, "live": self.live,
                "reason": self.reason}


@dataclass(frozen=True)
class RunCombos:
    """A run's combinations (sum ``total`` in ``length`` cells; ``total`` None: unclued)."""

    total: int | None
    length: int
    combos: tuple[Combination, ...]

    @property
    def live(self) -> tuple[Combination, ...]:
        return tuple(c for c in self.combos if c.live)

    @property
    def needed(self) -> int:
        """Digits every live combination has (0 when none is alive)."""
        live = self.live
        if not live:
            return 0
        m = ALL
        for c in live:
            m &= c.mask
        return m

    @property
    def unused(self) -> int:
        """Digits no live combination has."""
        m = 0
        for c in self.live:
            m |= c.mask
        return ALL & ~m

    def to_json(self) -> dict:
        return {"total": self.total, "length": self.length,
                "combos": [c.to_json() for c in self.combos],
                "live": len(self.live), "needed": list(DIGITS[self.needed]),
                "unused": list(DIGITS[self.unused])}


def _why_not(mask: int, cells: Sequence[Cell]) -> str:
    """Why the board rules combination ``mask`` out ("" when it does not)."""
    written = [(d, name) for d, _m, name in cells if d]
    for d, name in written:
        if not mask & BIT[d]:
            return f"{name} holds {d}"
    seen: dict[int, str] = {}
    for d, name in written:
        if d in seen:
            return f"{seen[d]} and {name} both hold {d}"
        seen[d] = name
    allowed: list[int] = [BIT[d] if d else (m or ALL) for d, m, _ in cells]
    for (held, marks, where), a in zip(cells, allowed, strict=True):
        if not held and marks and not a & mask:
            return f"the marks of {where} have none of its digits"
    for d in DIGITS[mask]:
        if not any(a & BIT[d] for a in allowed):
            return f"no cell is marked {d}"
    if not matchable(mask, allowed):  # one digit of the combination a cell
        return "its digits do not fit the cells' marks"
    return ""


def run_combos(total: int | None, length: int, cells: Sequence[Cell] = (), *,
               allow: int = ALL, need: int = 0) -> RunCombos:
    """The combinations of a run of ``length`` cells summing to ``total``, those using a
    digit outside ``allow`` or missing one of ``need`` left out, each struck (with its
    reason) where ``cells`` (digit or None, pencil marks, name; as many as ``length``, or
    none) rule it out."""
    if cells and len(cells) != length:
        raise ValueError(f"a run of {length} cells, not {len(cells)}")
    out = []
    for mask in combos(total, length):
        if mask & ~allow or need & ~mask:
            continue
        reason = _why_not(mask, cells) if cells else ""
        out.append(Combination(mask, not reason, reason))
    return RunCombos(total, length, tuple(out))


def check_sum(total: int, length: int) -> None:
    """A clear ValueError when no run of ``length`` distinct digits can make ``total``."""
    if not 1 <= length <= 9:
        raise ValueError(f"a run has 1 to 9 cells, not {length}")
    lo, hi = sum_range(length)
    if not lo <= total <= hi:
        raise ValueError(f"{length} distinct digits sum to {lo}..{hi}, not {total}")

"""The walks the report scripts cache, read back as the rater reads steps.

A module of its own so that scripts/fit_rating.py and scripts/human.py both read cached
paths without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class PathStep:
    """What the rater reads of a cached step."""

    rule: str
    weight: float
    score: int
    available: int
    chain: int
    n: int = 0
    placements: tuple = ()
    proof: None = None
    round: int = 0


def path_steps(row: dict) -> list[PathStep]:
    """A cached path's steps as the rater reads them (the 6th field: placements made; the
    7th: the step's round)."""
    return [PathStep(*s[:5], n=k, placements=(None,) * (s[5] if len(s) > 5 else 0),
                     round=s[6] if len(s) > 6 else 0)
            for k, s in enumerate(row["steps"], 1)]

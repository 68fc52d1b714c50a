"""What a walk records: each :class:`Step` (its rule, effect, sentence and proof in JSON
form) and the :class:`Explanation` that holds them, rated on construction.

Both are what every caller of a walk reads (renderers, the JSON contract, the proof checker
through ``Step.to_json``); the :class:`~deducer.engine.walk.Engine` that makes them lives in
``walk.py``.
"""

from __future__ import annotations

from dataclasses import InitVar, dataclass, field

from ..puzzle.combos import DIGITS, SINGLE
from ..puzzle.model import Puzzle, solution_grid
from ..solver.status import ExplainStatus
from .rating import Rating, rate_steps
from .registry import Rule
from .state import Link, Proof

SOLVED = ExplainStatus.SOLVED


@dataclass(slots=True)  # a walk of thousands of steps: no dict per step
class Step:
    """One logged deduction. Coordinates are 0-based ``(row, col)``."""

    n: int
    rule: str
    name: str
    text: str
    placements: list[tuple[int, int, int]]
    eliminations: list[tuple[int, int, list[int]]]
    cells: list[tuple[int, int]]
    runs: list[str]
    weight: float
    score: int
    available: int  # simplest-tier moves open before this step (bottleneck measure)
    combos_removed: list[tuple[str, list[str]]] = field(default_factory=list)
    proof: dict | None = None  # docs/json-contract.md, "Proofs": already in JSON form
    #: links of the step's proof by assumption (its longest case); kept in lean walks,
    #: which drop the proof, so their rating still measures chains (not in the JSON)
    chain: int = 0
    #: "whip" or "braid": the shape of that proof by assumption ("" for none)
    chain_kind: str = ""
    #: the whole case analysis behind ``text`` (the deciding fact); "" when the sentence
    #: says it all
    detail: str = ""
    #: rounds of the ladder's ``order:`` collected before this step (0: none; not in the
    #: JSON): the steps of one round share it
    round: int = 0

    def to_json(self) -> dict:
        return {
            "n": self.n,
            "rule": self.rule,
            "name": self.name,
            "text": self.text,
            **({"detail": self.detail} if self.detail else {}),
            "placements": [list(p) for p in self.placements],
            "eliminations": [[r, c, list(ds)] for r, c, ds in self.eliminations],
            "cells": [list(c) for c in self.cells],
            "runs": list(self.runs),
            "combos_removed": [[run, list(cs)] for run, cs in self.combos_removed],
            "weight": self.weight,
            "score": self.score,
            "available": self.available,
            **({"proof": self.proof} if self.proof is not None else {}),
        }



def chain_links(proof: Proof | None) -> int:
    """Links of a proof by assumption, the longest case of a proof by cases (what
    :func:`rating.chain_length` reads from the proof's JSON)."""
    if proof is None:
        return 0
    if proof.cases:
        return max((len(c.links) for c in proof.cases
                    if not c.cases and c.assume is not None), default=0)
    return len(proof.links) if proof.assume is not None else 0



def proof_json(puzzle: Puzzle, proof: Proof) -> dict:
    """A :class:`Proof` in its JSON shape (docs/json-contract.md, "Proofs"; 0-based coordinates)."""
    whites, runs = puzzle.whites, puzzle.runs
    if proof.cases:
        return {"cases": [proof_json(puzzle, case) for case in proof.cases]}
    if proof.assume is not None:
        cell, digit = proof.assume
        return {"assume": [*whites[cell], digit],
                **({"kind": proof.kind} if proof.kind else {}),
                "links": [_link_json(puzzle, link) for link in proof.links]}
    facts: list[dict] = [{"cell": list(whites[i]), "candidates": digits_of(m)}
                         for i, m in sorted(proof.cells.items())]
    facts += [{"run": runs[r].ref, "combos": [digits_of(c) for c in cs]}
              for r, cs in sorted(proof.combos.items())]
    out = {"facts": facts, "runs": [runs[r].ref for r in proof.runs]}
    if proof.bound is not None:
        b = proof.bound
        out["bound"] = {"cell": list(whites[b["cell"]]), "run": runs[b["run"]].ref,
                        **{side: {"sum": b[side][0],
                                  "digits": [[*whites[j], d] for j, d in (
                                      b[side][1]() if callable(b[side][1]) else b[side][1])]}
                           for side in ("least", "most") if side in b}}
    return out


def link_json(puzzle: Puzzle, link: Link) -> dict:
    """A chain's :class:`Link` in its JSON shape (a proof's ``links``, docs/json-contract.md)."""
    return _link_json(puzzle, link)


def _link_json(puzzle: Puzzle, link: Link) -> dict:
    whites = puzzle.whites
    out = {"text": link.text,
           "placements": [[*whites[i], d] for i, d in sorted(link.placements.items())],
           "eliminations": [[*whites[i], digits_of(m)]
                            for i, m in sorted(link.eliminations.items())],
           **proof_json(puzzle, link.proof)}
    if link.contradiction:
        out["contradiction"] = True
    if link.after:
        out["after"] = list(link.after)
    if link.rule:
        out["rule"] = link.rule
    return out



def digits_of(mask: int) -> list[int]:
    return list(DIGITS[mask & 0x1FF])



@dataclass
class Explanation:
    """A walkthrough: the steps, how it ended, and the rating of the path."""

    puzzle: Puzzle
    status: ExplainStatus
    steps: list[Step]
    masks: list[int]  # candidates at the end
    message: str = ""
    solutions: list[list[int]] = field(default_factory=list)  # for multiple: a few
    rating: Rating = field(init=False)  # of the path, rated on construction
    #: the ladder the walk used (None: the core one): its rating section rates the path
    rules: InitVar[list[Rule] | None] = None

    #: that ladder, kept for renderers that say what its techniques are (not in the JSON)
    ladder: list[Rule] | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self, rules: list[Rule] | None) -> None:
        self.rating = rate_steps(self.steps, self.status, rules, len(self.puzzle.whites),
                                 self.puzzle)
        self.ladder = rules

    @property
    def solution(self) -> list[int] | None:
        if self.status != SOLVED:
            return None
        return [SINGLE[m] for m in self.masks]

    def to_json(self) -> dict:
        """docs/json-contract.md ``explain --json``: status, steps, rating, solution (and
        rows, cols, message; for several solutions, a few of them)."""
        puzzle, sol = self.puzzle, self.solution
        obj: dict = {
            "status": self.status,
            "steps": [s.to_json() for s in self.steps],
            "rating": self.rating.to_json() if self.rating is not None else None,
            "solution": solution_grid(puzzle, sol) if sol is not None else None,
            "rows": puzzle.rows,
            "cols": puzzle.cols,
            "message": self.message,
        }
        if self.solutions:
            obj["solutions"] = [solution_grid(puzzle, s) for s in self.solutions]
        return obj


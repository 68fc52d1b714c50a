"""JSON renderer: the machine contract of docs/json-contract.md (extend, never break)."""

from __future__ import annotations

import json

from ..puzzle.model import solution_grid
from . import Renderer


def dumps(obj) -> str:
    # sort_keys off: the contract's key order is the documented one; separators fixed for
    # byte-identical output across runs
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": ")) + "\n"


def solve_obj(puzzle, result) -> dict:
    obj = {
        "rows": puzzle.rows,
        "cols": puzzle.cols,
        # the contract knows no "undecided": it is "none" with complete false and timed_out
        "status": "none" if result.status == "undecided" else str(result.status),
        "complete": result.complete,
        "solution_count": getattr(result, "count", None) or len(result.solutions),
        "solutions": [solution_grid(puzzle, s) for s in result.solutions],
    }
    if result.reason:
        obj["reason"] = result.reason
    if result.timed_out:
        obj["timed_out"] = True
    return obj


def walkthrough_obj(puzzle, explanation) -> dict:
    """docs/json-contract.md ``explain --json``: status, steps, rating, solution (+ extras)."""
    sol = explanation.solution
    obj = {
        "status": explanation.status,
        "steps": [s.to_json() for s in explanation.steps],
        "rating": explanation.rating.to_json() if explanation.rating is not None else None,
        "solution": solution_grid(puzzle, sol) if sol is not None else None,
        "rows": puzzle.rows,
        "cols": puzzle.cols,
        "message": explanation.message,
    }
    if explanation.solutions:
        obj["solutions"] = [solution_grid(puzzle, s) for s in explanation.solutions]
    return obj


def write_solve(puzzle, result, write) -> None:
    """The same text as ``dumps(solve_obj(...))``, written piece by piece: one solution at a
    time, so a spooled result of 100,000 grids never becomes one string."""
    obj = solve_obj(puzzle, _Empty(result))
    head = dumps(obj)
    cut = head.index('"solutions": []') + len('"solutions": [')
    write(head[:cut])
    # a row template with a slot per white cell: one str.format per solution
    rows = []
    for r in range(puzzle.rows):
        rows.append("[" + ", ".join("{}" if sq.white else "null"
                                    for sq in puzzle.squares[r]) + "]")
    template = "[" + ", ".join(rows) + "]"
    first = True
    for values in result.solutions:
        write(("" if first else ", ") + template.format(*values))
        first = False
    write(head[cut:])


class _Empty:
    """A result's fields with no solutions but their count (for the streamed header)."""

    def __init__(self, result):
        self.status, self.complete = result.status, result.complete
        self.reason, self.timed_out = result.reason, result.timed_out
        self.solutions: list = []
        self.count = len(result.solutions)


class JsonRenderer(Renderer):
    name = "json"

    def solve(self, puzzle, result) -> str:
        return dumps(solve_obj(puzzle, result))

    def walkthrough(self, puzzle, explanation) -> str:
        return dumps(walkthrough_obj(puzzle, explanation))


RENDERER = JsonRenderer()

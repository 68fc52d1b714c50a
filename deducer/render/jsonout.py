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
        "status": result.status,
        "complete": result.complete,
        "solution_count": len(result.solutions),
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


class JsonRenderer(Renderer):
    name = "json"

    def solve(self, puzzle, result) -> str:
        return dumps(solve_obj(puzzle, result))

    def walkthrough(self, puzzle, explanation) -> str:
        return dumps(walkthrough_obj(puzzle, explanation))


RENDERER = JsonRenderer()

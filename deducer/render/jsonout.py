"""JSON renderer: the machine contract of DESIGN.md §5 (extend, never break)."""

from __future__ import annotations

import json

from ..model import solution_grid
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


class JsonRenderer(Renderer):
    name = "json"

    def solve(self, puzzle, result) -> str:
        return dumps(solve_obj(puzzle, result))


RENDERER = JsonRenderer()

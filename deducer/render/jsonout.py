"""JSON renderer: the machine contract of docs/json-contract.md (extend, never break).

Every object printed is a result's own ``to_json()``; this module only writes it.
:func:`dumps` is the one JSON writer: one object on one line, so it also writes JSON
lines (``generate --jsonl``, ``rate --out``).
"""

from __future__ import annotations

import json

from ..engine.rating import RATER_VERSION
from . import Renderer


def dumps(obj) -> str:
    """``obj`` as one line of JSON and a line break (a JSON-lines row, or a whole answer)."""
    # sort_keys off: the contract's key order is the documented one; separators fixed for
    # byte-identical output across runs
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": ")) + "\n"


class JsonRenderer(Renderer):
    name = "json"

    def solve(self, puzzle, result) -> str:
        return dumps(result.to_json(puzzle))

    def write_solve(self, puzzle, result, write) -> None:
        """The same text as :meth:`solve`, written piece by piece: one solution at a time,
        so a spooled result of 100,000 grids never becomes one string."""
        head = dumps(result.to_json(puzzle, grids=False))
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

    def walkthrough(self, puzzle, explanation) -> str:
        return dumps(explanation.to_json())

    def hint(self, puzzle, hint) -> str:
        return dumps(hint.to_json())

    def all_steps(self, puzzle, found) -> str:
        return dumps(found.to_json())

    def why(self, puzzle, answer) -> str:
        return dumps(answer.to_json())

    def check(self, puzzle, result) -> str:
        return dumps(result.to_json())

    def rate_rows(self, rows: list[dict], *, why: bool = False) -> str:
        out = []
        for r in rows:
            d = {k: v for k, v in r.items() if k != "seconds"}  # stdout stays byte-identical
            if d["error"] is None:
                del d["error"]
            out.append(d)
        return dumps({"version": RATER_VERSION, "puzzles": out})

    def ladder(self, rules, *, weights: dict | None = None) -> str:
        weights = weights or {}
        return dumps({"rules": [{**r.to_json(),
                                 "weights": list(weights.get(r.id, (r.weight, r.weight)))}
                                for r in rules]})

    def rules_test(self, report, *, verbose: bool = False, impact: bool = False) -> str:
        return dumps(report.to_json())

    def generated(self, result, *, format: str = "pipe") -> str:
        return dumps(result.to_json())


RENDERER = JsonRenderer()

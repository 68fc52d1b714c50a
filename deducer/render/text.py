"""Plain-text renderer: aligned grids for terminals, logs and diffs."""

from __future__ import annotations

from ..model import Puzzle, cell_name
from . import Renderer


def clue_text(sq) -> str:
    if not sq.is_clue:
        return "#"
    return f"{sq.down or ''}\\{sq.across or ''}"


def draw_grid(puzzle: Puzzle, values: list[int] | None = None, *, fixed: dict | None = None) -> str:
    """The grid with clues as ``d\\a``, blanks as ``#``, digits where known, ``.`` where not."""
    known: dict = {}
    if values is not None:
        known = {rc: v for rc, v in zip(puzzle.whites, values, strict=True) if v}
    if fixed:
        known.update(fixed)
    cells = []
    for r, row in enumerate(puzzle.squares):
        line = []
        for c, sq in enumerate(row):
            line.append(str(known.get((r, c), ".")) if sq.white else clue_text(sq))
        cells.append(line)
    width = max(len(t) for line in cells for t in line)
    return "\n".join(" ".join(t.rjust(width) for t in line).rstrip() for line in cells)


def differences(puzzle: Puzzle, solutions: list[list[int]]) -> list[str]:
    """Cells whose digit is not the same in every solution, with the digits seen."""
    out = []
    for i, rc in enumerate(puzzle.whites):
        seen = sorted({s[i] for s in solutions})
        if len(seen) > 1:
            out.append(f"{cell_name(rc)} ({'/'.join(map(str, seen))})")
    return out


def verdict(result) -> str:
    n = len(result.solutions)
    if result.status == "none":
        if result.timed_out:
            return f"no solution found before the time limit ({result.reason})"
        return f"no solution: {result.reason}"
    if n == 1 and result.complete:
        return "unique solution"
    if n == 1:
        why = "time limit" if result.timed_out else "--max-solutions 1"
        return f"1 solution found; uniqueness not checked ({why} stopped the search)"
    if result.complete:
        return f"{n} solutions (all of them)"
    why = "the time limit" if result.timed_out else f"the cap (--max-solutions {n})"
    return f"at least {n} solutions ({why} stopped the search)"


class TextRenderer(Renderer):
    name = "text"

    def solve(self, puzzle, result) -> str:
        parts = [verdict(result)]
        for k, sol in enumerate(result.solutions, start=1):
            if len(result.solutions) > 1:
                parts.append(f"\nsolution {k}:")
            parts.append(draw_grid(puzzle, sol))
        if len(result.solutions) > 1:
            diff = differences(puzzle, result.solutions)
            parts.append(f"\nthe solutions differ at {len(diff)} cells: " + ", ".join(diff))
        return "\n".join(parts) + "\n"


RENDERER = TextRenderer()

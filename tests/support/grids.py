"""Synthetic grids for tests and benchmarks: dense clued blocks, random layouts filled and
clued (usually with several solutions), and big unclued boards. Seeded: same seed, same grid.
"""

from __future__ import annotations

import random

from deducer.puzzle.model import Puzzle, clued_from_fill


def _clued(white: list[list[bool]], values: dict) -> Puzzle:
    """Squares with the run sums of ``values`` as clues (unclued where values is empty)."""
    return clued_from_fill(white, values)


def dense_block(h: int, w: int, seed: int = 1) -> Puzzle:
    """An ``h`` x ``w`` block of white cells, clued from a shuffled cyclic fill (an editor
    draft: every run long, many combinations per clue)."""
    rng = random.Random(seed)
    perm = list(range(1, 10))
    rng.shuffle(perm)
    rs, cs = list(range(h)), list(range(w))
    rng.shuffle(rs)
    rng.shuffle(cs)
    white = [[r > 0 and c > 0 for c in range(w + 1)] for r in range(h + 1)]
    values = {(r + 1, c + 1): perm[(rs[r] + 2 * cs[c]) % 9] for r in range(h) for c in range(w)}
    return _clued(white, values)


def layout(rows: int, cols: int, rng: random.Random, black: float = 0.2) -> list[list[bool]]:
    """A random white/black pattern: row and column 0 black, runs of 2..9 cells."""
    white = [[r > 0 and c > 0 and rng.random() > black for c in range(cols)]
             for r in range(rows)]
    changed = True
    while changed:
        changed = False
        for r in range(rows):
            for c in range(cols):
                if not white[r][c]:
                    continue
                horiz = (c > 0 and white[r][c - 1]) or (c + 1 < cols and white[r][c + 1])
                vert = (r > 0 and white[r - 1][c]) or (r + 1 < rows and white[r + 1][c])
                if not (horiz and vert):
                    white[r][c] = False
                    changed = True
        for r in range(rows):  # no run longer than 9
            n = 0
            for c in range(cols):
                n = n + 1 if white[r][c] else 0
                if n > 9:
                    white[r][c], n, changed = False, 0, True
        for c in range(cols):
            n = 0
            for r in range(rows):
                n = n + 1 if white[r][c] else 0
                if n > 9:
                    white[r][c], n, changed = False, 0, True
    return white


def unclued(white: list[list[bool]]) -> Puzzle:
    return _clued(white, {})


def random_clued(rows: int, cols: int, seed: int = 1, black: float = 0.2) -> Puzzle:
    """A random layout filled by the solver (digits then shuffled) and clued from the fill.
    Nothing forces uniqueness, so big ones usually have several solutions."""
    from deducer.solve.search import solve

    rng = random.Random(seed)
    white = layout(rows, cols, rng, black)
    bare = unclued(white)
    fill = solve(bare, max_solutions=1, timeout=60).solutions[0]
    perm = list(range(1, 10))
    rng.shuffle(perm)
    values = {rc: perm[v - 1] for rc, v in zip(bare.whites, fill, strict=True)}
    return _clued(white, values)


def shifted_unclued(side: int, period: int = 9, shift: int = 2) -> Puzzle:
    """A ``side`` x ``side`` board of unclued runs that is one connected island: blacks where
    ``(r + shift * c) % period == 0`` (and row/column 0), so runs are at most period - 1."""
    white = [[r > 0 and c > 0 and (r + shift * c) % period != 0 for c in range(side)]
             for r in range(side)]
    return unclued(white)

"""Random puzzles with a unique solution, for soundness audits (`deducer rules test`, tests).

Seeded: the same seed gives the same puzzles. A random black/white layout without one-cell
runs, a random fill with distinct digits per run, clues from the fill, then givens added
where two solutions differ until the solution is unique.
"""

from __future__ import annotations

import random

from ..puzzle.model import Puzzle, clued_from_fill
from ..solver.search import solve


def _runs_ok(white: list[list[bool]]) -> bool:
    """Blacken cells of length-1 runs until none is left; True if anything changed."""
    rows, cols = len(white), len(white[0])
    changed = False
    for r in range(rows):
        for c in range(cols):
            if not white[r][c]:
                continue
            left = c > 0 and white[r][c - 1]
            right = c + 1 < cols and white[r][c + 1]
            up = r > 0 and white[r - 1][c]
            down = r + 1 < rows and white[r + 1][c]
            if not (left or right) or not (up or down):
                white[r][c] = False
                changed = True
    return changed


#: cells one fill may place (backtracking included) before it is given up
FILL_STEPS = 20000


def _fill(white, rng: random.Random) -> dict | None:
    """Digits for every white cell, all distinct in each run (randomised backtracking)."""
    cells = [(r, c) for r in range(len(white)) for c in range(len(white[0])) if white[r][c]]
    run_of: dict = {}
    for r, c in cells:
        a = c
        while a > 0 and white[r][a - 1]:
            a -= 1
        d = r
        while d > 0 and white[d - 1][c]:
            d -= 1
        run_of[(r, c)] = (("A", r, a), ("D", d, c))
    used: dict = {}
    values: dict = {}
    count = [0]

    def go(k: int) -> bool:
        if k == len(cells):
            return True
        count[0] += 1
        if count[0] > FILL_STEPS:
            return False
        rc = cells[k]
        ra, rd = run_of[rc]
        taken = used.get(ra, set()) | used.get(rd, set())
        digits = [d for d in range(1, 10) if d not in taken]
        rng.shuffle(digits)
        for d in digits:
            values[rc] = d
            used.setdefault(ra, set()).add(d)
            used.setdefault(rd, set()).add(d)
            if go(k + 1):
                return True
            used[ra].discard(d)
            used[rd].discard(d)
        values.pop(rc, None)
        return False

    return dict(values) if go(0) else None


def generate(rng: random.Random, rows: int, cols: int, black: float = 0.18):
    """One puzzle with a unique solution (givens added where needed) and that solution."""
    while True:
        white = [[r > 0 and c > 0 and rng.random() > black for c in range(cols)]
                 for r in range(rows)]
        while _runs_ok(white):
            pass
        if sum(map(sum, white)) < 0.5 * (rows - 1) * (cols - 1):
            continue
        values = _fill(white, rng)
        if values is None:
            continue
        bare = clued_from_fill(white, values)
        givens: dict = {}
        while True:
            puzzle = Puzzle(bare.squares, givens=dict(givens)).validate()
            res = solve(puzzle, max_solutions=2)
            if len(res.solutions) == 1 and res.complete:
                return puzzle, res.solutions[0]
            a, b = res.solutions[0], res.solutions[1]
            diff = [i for i in range(len(a)) if a[i] != b[i]]
            rc = puzzle.whites[rng.choice(diff)]
            givens[rc] = values[rc]


def generated(count: int, seed: int):
    """``count`` (label, puzzle, solution) triples, the same for the same seed."""
    rng = random.Random(seed)
    for k in range(count):
        rows, cols = rng.randint(5, 9), rng.randint(5, 9)
        puzzle, sol = generate(rng, rows, cols)
        yield f"generated #{k + 1} ({rows}x{cols}, seed {seed})", puzzle, sol

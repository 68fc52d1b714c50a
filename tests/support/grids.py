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


def bridged_blocks(h: int, w: int, seed: int = 1, spoil: int = 0) -> Puzzle:
    """Two ``h`` x ``w`` blocks of white cells meeting corner to corner through one bridge
    cell (below the first block's last column, left of the second block's first row), so
    the puzzle falls into two independent halves once the bridge is decided. Clued from a
    random fill; ``spoil`` is added to the second block's last column clue (a nonzero
    ``spoil`` usually leaves that half without a solution)."""
    assert 2 <= h <= 8 and 2 <= w <= 8
    rng = random.Random(seed)
    rows, cols = 2 * h + 1, 2 * w + 1
    white = [[False] * cols for _ in range(rows)]
    for r in range(1, h + 1):
        for c in range(1, w + 1):
            white[r][c] = True
            white[r + h][c + w] = True
    white[h + 1][w] = True
    cells = [(r, c) for r in range(rows) for c in range(cols) if white[r][c]]
    while True:  # a random fill with distinct digits in every run (retry on a dead end)
        values: dict = {}
        for r, c in cells:
            used = set()
            k = c - 1
            while white[r][k]:
                used.add(values[(r, k)])
                k -= 1
            k = r - 1
            while white[k][c]:
                used.add(values[(k, c)])
                k -= 1
            free = [d for d in range(1, 10) if d not in used]
            if not free:
                break
            values[(r, c)] = rng.choice(free)
        else:
            break
    p = _clued(white, values)
    if spoil:
        from dataclasses import replace

        squares = [list(row) for row in p.squares]
        clue = squares[h][2 * w]  # above the second block's last column
        squares[h][2 * w] = replace(clue, down=clue.down + spoil)
        p = Puzzle(tuple(tuple(row) for row in squares)).validate()
    return p


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
    from deducer.clock import Limits
    from deducer.solver.search import solve

    rng = random.Random(seed)
    white = layout(rows, cols, rng, black)
    bare = unclued(white)
    fill = solve(bare, max_solutions=1, limits=Limits.within(60)).solutions[0]
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


#: the rules a no-trial grid must not need: trial and guessing
TRIAL_RULES = ("trial", "backtracking")


def no_trial(rows: int, cols: int, seed: int = 1, *, below: float = 150) -> Puzzle:
    """A published-style layout, randomly filled and clued, plus givens from the fill until
    the core rules of priority under ``below`` solve it: a unique puzzle whose walkthrough
    needs no trial. Wherever those rules stall, a few random open cells become givens and
    the same walkthrough goes on (no restart), so building costs about one explain.

    The default stops below the region sums: their proofs cost up to a second a step to
    trim, which would make big grids slow to build (``below=180`` builds grids that need
    region sums and permutation checks but no chain; 1,600 cells then take minutes)."""
    from dataclasses import replace

    from deducer.engine import kernel, registry
    from deducer.engine.state import Deduction
    from deducer.engine.walk import SOLVED, Engine
    from deducer.generator.draft import fill
    from deducer.generator.layout import make_layout

    rng = random.Random(seed)
    white = make_layout(rng, rows, cols)
    if white is None:
        raise ValueError(f"no layout for {rows}x{cols}")
    values = fill(white, rng)
    if values is None:
        raise ValueError(f"no fill for {rows}x{cols}")
    bare = clued_from_fill(white, values)
    solution = [values[rc] for rc in bare.whites]
    rules = [r for r in registry.load() if r.priority < below and r.id not in TRIAL_RULES]
    # a given written in mid-walk goes through the engine's own placement path, as a step
    # of a rule of its own (the steps are thrown away; only the givens are kept)
    given = registry.Rule(id="given", name="Given", priority=0, weight=0.0, score=0,
                          implementation="", explain="")
    eng = Engine(bare, rules)
    givens: dict[tuple[int, int], int] = {}
    while eng.run() != SOLVED:  # stalled (the rules are sound, so it never breaks)
        open_cells = [i for i, done in enumerate(eng.state.placed) if not done]
        for i in rng.sample(open_cells, 1 + len(open_cells) // 200):
            givens[bare.whites[i]] = solution[i]
            ded = Deduction(placements={i: solution[i]}, text="given")
            eng._apply(given, ded, kernel.effect(eng.state, given, ded), 0)
    return replace(bare, givens=givens).validate()


def tiled(p: Puzzle, down: int, across: int) -> Puzzle:
    """``down`` x ``across`` copies of ``p`` side by side (givens too): independent islands,
    so a big grid whose every part needs what ``p`` needs (chains, say)."""
    from dataclasses import replace

    squares = tuple(tuple(row * across) for _ in range(down) for row in p.squares)
    givens = {(r + a * p.rows, c + b * p.cols): d
              for a in range(down) for b in range(across) for (r, c), d in p.givens.items()}
    return replace(p, squares=squares, givens=givens, entries={}, pencil={},
                   row_lines=None).validate()

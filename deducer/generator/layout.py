"""Black/white layouts that look like published Kakuro grids.

A layout is a ``rows x cols`` grid of booleans (True = white) over the whole puzzle, clue
row and column included (row 0 and column 0 are always black). The rules, checked by
:func:`layout_problems` and kept by :func:`make_layout` at every move:

- every white cell lies in an across run and a down run of 2 to 9 cells;
- the white cells are connected and no single white cell disconnects them (no cut cell);
- no 2x2 block of black squares inside the grid (the clue row and column excepted);
- the inner grid (rows 1.. and columns 1..) has the requested symmetry.

Construction starts all white, breaks runs longer than 9, then blackens random cells (with
their symmetric partner) while the rules still hold, until the black share is reached.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

SYMMETRIES = ("rot180", "mirror", "none")
MIN_RUN, MAX_RUN = 2, 9

Grid = list[list[bool]]


def partner(rows: int, cols: int, r: int, c: int, symmetry: str) -> tuple[int, int]:
    """The square that mirrors (r, c) inside the inner grid (itself when there is none)."""
    if symmetry == "rot180":
        return rows - r, cols - c
    if symmetry == "mirror":  # left-right
        return r, cols - c
    return r, c


def runs_of(white: Grid):
    """Every maximal run as ``(direction, cells)``: across runs first, then down runs."""
    rows, cols = len(white), len(white[0])
    out = []
    for r in range(rows):
        c = 0
        while c < cols:
            if white[r][c]:
                s = c
                while c < cols and white[r][c]:
                    c += 1
                out.append(("A", [(r, k) for k in range(s, c)]))
            else:
                c += 1
    for c in range(cols):
        r = 0
        while r < rows:
            if white[r][c]:
                s = r
                while r < rows and white[r][c]:
                    r += 1
                out.append(("D", [(k, c) for k in range(s, r)]))
            else:
                r += 1
    return out


def cut_cells(white: Grid) -> tuple[bool, list[tuple[int, int]]]:
    """(connected, articulation points) of the white cells (4-neighbour graph)."""
    rows, cols = len(white), len(white[0])
    nodes = [(r, c) for r in range(rows) for c in range(cols) if white[r][c]]
    if not nodes:
        return True, []
    disc: dict = {}
    low: dict = {}
    cuts = set()
    root = nodes[0]
    disc[root] = low[root] = 0
    counter = 1
    root_children = 0
    # iterative DFS: stack of (node, parent, neighbour iterator)
    stack: list[tuple[tuple[int, int], tuple[int, int] | None, Iterator]] = [
        (root, None, iter(_nbrs(white, root)))]
    while stack:
        node, parent, it = stack[-1]
        advanced = False
        for nb in it:
            if nb == parent:
                continue
            if nb in disc:
                if disc[nb] < low[node]:
                    low[node] = disc[nb]
                continue
            disc[nb] = low[nb] = counter
            counter += 1
            if node == root:
                root_children += 1
            stack.append((nb, node, iter(_nbrs(white, nb))))
            advanced = True
            break
        if advanced:
            continue
        stack.pop()
        if parent is not None:
            if low[node] < low[parent]:
                low[parent] = low[node]
            if parent != root and low[node] >= disc[parent]:
                cuts.add(parent)
    if root_children > 1:
        cuts.add(root)
    return len(disc) == len(nodes), sorted(cuts)


def _nbrs(white: Grid, rc):
    r, c = rc
    for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= nr < len(white) and 0 <= nc < len(white[0]) and white[nr][nc]:
            yield nr, nc


def layout_problems(white: Grid, symmetry: str = "none") -> list[str]:
    """What breaks the layout rules (empty when none does), one phrase per problem."""
    rows, cols = len(white), len(white[0])
    out = []
    if any(white[0]) or any(white[r][0] for r in range(rows)):
        out.append("a white square in the clue row or column")
    for direction, cells in runs_of(white):
        if not MIN_RUN <= len(cells) <= MAX_RUN:
            r, c = cells[0]
            out.append(f"{direction} run at r{r + 1}c{c + 1} has {len(cells)} cells")
    for r in range(1, rows - 1):
        for c in range(1, cols - 1):
            if not (white[r][c] or white[r + 1][c] or white[r][c + 1] or white[r + 1][c + 1]):
                out.append(f"2x2 black block at r{r + 1}c{c + 1}")
    connected, cuts = cut_cells(white)
    if not connected:
        out.append("the white cells are not connected")
    out += [f"cut cell r{r + 1}c{c + 1}" for r, c in cuts]
    if symmetry != "none":
        for r in range(1, rows):
            for c in range(1, cols):
                pr, pc = partner(rows, cols, r, c, symmetry)
                if white[r][c] != white[pr][pc]:
                    out.append(f"r{r + 1}c{c + 1} breaks {symmetry} symmetry")
    return out


def _piece(white: Grid, r: int, c: int, dr: int, dc: int) -> int:
    """Length of the white stretch starting next to (r, c) in direction (dr, dc)."""
    n = 0
    r, c = r + dr, c + dc
    while 0 <= r < len(white) and 0 <= c < len(white[0]) and white[r][c]:
        n += 1
        r, c = r + dr, c + dc
    return n


def _local_ok(white: Grid, cells) -> bool:
    """After blackening ``cells``: no one-cell run next to them, no 2x2 black block."""
    rows, cols = len(white), len(white[0])
    for r, c in cells:
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            if _piece(white, r, c, dr, dc) == 1:
                return False
        for br in (r - 1, r):
            for bc in (c - 1, c):
                if br >= 1 and bc >= 1 and br + 1 < rows and bc + 1 < cols and not (
                        white[br][bc] or white[br + 1][bc] or white[br][bc + 1]
                        or white[br + 1][bc + 1]):
                    return False
    return True


def try_blacken(white: Grid, r: int, c: int, symmetry: str, extra=()) -> bool:
    """Blacken (r, c) (and ``extra`` squares) with their partners if every rule but the
    run maximum still holds."""
    rows, cols = len(white), len(white[0])
    cells = {(r, c), partner(rows, cols, r, c, symmetry)}
    for a, b in extra:
        cells |= {(a, b), partner(rows, cols, a, b, symmetry)}
    if any(a < 1 or b < 1 or a >= rows or b >= cols for a, b in cells):
        return False
    if not all(white[a][b] for a, b in cells):
        return False
    for a, b in cells:
        white[a][b] = False
    ok = _local_ok(white, cells)
    if ok:
        connected, cuts = cut_cells(white)
        ok = connected and not cuts
    if not ok:
        for a, b in cells:
            white[a][b] = True
    return ok


def _long_run(white: Grid):
    for _, cells in runs_of(white):
        if len(cells) > MAX_RUN:
            return cells
    return None


def make_layout(rng: random.Random, rows: int, cols: int, symmetry: str = "rot180",
                density: float = 0.27, tries: int = 200) -> Grid | None:
    """A layout obeying every rule with about ``density`` of the inner squares black."""
    inner = (rows - 1) * (cols - 1)
    target = round(density * inner)
    for _ in range(tries):
        white = [[r > 0 and c > 0 for c in range(cols)] for r in range(rows)]
        ok = True
        while ok:
            cells = _long_run(white)
            if cells is None:
                break
            # break it where both pieces keep at least two cells, nearer the middle first
            choices = cells[MIN_RUN:-MIN_RUN]
            rng.shuffle(choices)
            ok = any(try_blacken(white, r, c, symmetry) for r, c in choices)
            if not ok:  # near an edge one square leaves a one-cell run: try a domino
                across = cells[0][0] == cells[-1][0]
                steps = ((1, 0), (-1, 0)) if across else ((0, 1), (0, -1))
                ok = any(try_blacken(white, r, c, symmetry, [(r + dr, c + dc)])
                         for r, c in choices for dr, dc in steps)
        if not ok:
            continue
        order = [(r, c) for r in range(1, rows) for c in range(1, cols)]
        rng.shuffle(order)
        black = inner - sum(map(sum, white))
        for r, c in order:
            if black >= target:
                break
            if white[r][c] and try_blacken(white, r, c, symmetry):
                black = inner - sum(map(sum, white))
        if not layout_problems(white, symmetry):
            return white
    return None

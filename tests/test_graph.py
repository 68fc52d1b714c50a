"""The run/cell graph: networkx structure, and the solver's islands agreeing with it."""

from hypothesis import given, settings
from hypothesis import strategies as st

from deducer.puzzle.combos import ALL
from deducer.puzzle.formats import loads
from deducer.puzzle.model import BLANK, WHITE, Puzzle, Square
from deducer.solver.graph import build, open_islands
from deducer.solver.propagate import Layout


def components(p: Puzzle) -> tuple[tuple[int, ...], ...]:
    """The solver's islands with every cell open: the puzzle's connected parts."""
    layout = Layout.of(p)
    return tuple(open_islands(layout.run_cells, layout.cell_runs, [ALL] * len(p.whites)))


def components_nx(p: Puzzle) -> tuple[tuple[int, ...], ...]:
    """The same parts found by networkx on the run/cell graph (the reference answer)."""
    import networkx as nx

    comps = [tuple(sorted(n[1] for n in comp if n[0] == "cell"))
             for comp in nx.connected_components(build(p))]
    return tuple(sorted(c for c in comps if c))


TWO_ISLANDS = "\\|\\|3\\|4\\\n\\|\\3||\n\\|\\4||\n\\|3\\|\\|\\\n\\3|||\\\n"


def test_graph_is_bipartite_membership():
    p = loads(TWO_ISLANDS, "pipe")
    g = build(p)
    runs = [n for n, k in g.nodes(data="kind") if k == "run"]
    cells = [n for n, k in g.nodes(data="kind") if k == "cell"]
    assert len(runs) == len(p.runs) and len(cells) == len(p.whites)
    # every white cell sits in exactly one across and one down run
    assert all(g.degree(c) == 2 for c in cells)
    assert g.number_of_edges() == sum(r.length for r in p.runs)


def test_two_islands_found_by_both():
    p = loads(TWO_ISLANDS, "pipe")
    assert len(components(p)) == 2
    assert components(p) == components_nx(p)


@st.composite
def layouts(draw):
    rows, cols = draw(st.integers(2, 7)), draw(st.integers(2, 7))
    grid = [[BLANK] * cols for _ in range(rows)]
    for r in range(1, rows):
        for c in range(1, cols):
            if draw(st.booleans()):
                grid[r][c] = WHITE
    # clue every run so the grid is a valid puzzle shape (sums are irrelevant here)
    for r in range(rows):
        for c in range(cols):
            if grid[r][c].white:
                continue
            right = c + 1 < cols and grid[r][c + 1].white
            below = r + 1 < rows and grid[r + 1][c].white
            if right or below:
                grid[r][c] = Square(False, None, None)
    return Puzzle(tuple(tuple(r) for r in grid))


@settings(max_examples=200, deadline=None)
@given(layouts())
def test_union_find_matches_networkx(p):
    if not p.whites:
        return
    assert components(p) == components_nx(p)

"""The run/cell graph: networkx structure, and the solver's union-find islands agreeing with it."""

from hypothesis import given, settings
from hypothesis import strategies as st

from deducer.puzzle.formats import loads
from deducer.puzzle.model import BLANK, WHITE, Puzzle, Square
from deducer.solve.graph import build, components, components_nx

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

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


def test_regions_from_the_runs_equal_those_from_the_graph():
    """The region-sum rules' areas are found from the runs themselves, as from the
    networkx graph (which a caller may still pass), and without importing networkx: its
    11 MB stayed in every rate worker that met a region sum (issue 40, item 5)."""
    from pathlib import Path

    from deducer.rules.regionfind import _find_regions
    from tests.support import grids
    from tests.support.fresh import fresh_python

    root = Path(__file__).resolve().parents[1]
    puzzles = [loads((root / "puzzles" / name).read_text(encoding="utf-8"))
               for name in ("deducer-trial.txt", "seed000-k2.j")]
    puzzles += [grids.random_clued(12, 12, seed=s, black=0.3) for s in range(3)]
    for p in puzzles:
        fast = _find_regions(p)
        assert fast and fast == _find_regions(p, build(p))
        assert _find_regions(p, max_size=2, grow_size=3) == \
            _find_regions(p, build(p), max_size=2, grow_size=3)
    code = ("import sys; from deducer.puzzle import formats; "
            "from deducer.rules.regionfind import find_regions; "
            "p = formats.load('puzzles/deducer-trial.txt'); print(len(find_regions(p)) > 0, "
            "'networkx' in sys.modules)")
    assert fresh_python(code, root) == ["True False"]

"""The run/cell constraint graph (networkx): run nodes and cell nodes, an edge per membership.

:func:`build` makes it once per puzzle, for structure analysis (the region-sum rules'
areas); it is never consulted per deduction. :func:`open_islands` is the one routine for
connected parts: the solver's islands (open cells that share runs, searched apart) and
their re-splits below a decision. It walks run membership directly rather than the graph,
so the solver never pays networkx's import; a test checks it against networkx's answer.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..puzzle.model import Puzzle

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing on solve's start-up
if TYPE_CHECKING:
    import networkx as nx


def cell_node(i: int) -> tuple[str, int]:
    return ("cell", i)


def run_node(r: int) -> tuple[str, int]:
    return ("run", r)


def build(puzzle: Puzzle) -> nx.Graph:
    """Bipartite graph: ``("run", id)`` and ``("cell", index)`` nodes."""
    import networkx as nx

    g = nx.Graph()
    for i, rc in enumerate(puzzle.whites):
        g.add_node(cell_node(i), kind="cell", coord=rc)
    for run in puzzle.runs:
        g.add_node(run_node(run.id), kind="run", direction=run.direction, total=run.total)
        g.add_edges_from((run_node(run.id), cell_node(i)) for i in run.cells)
    return g


def open_islands(run_cells, cell_runs, masks: list[int],
                 cells: Iterable[int] | None = None) -> list[tuple[int, ...]]:
    """The open cells (more than one candidate) among ``cells`` (default: every cell),
    grouped into islands that share no run, each sorted, ordered by their first cell.

    Decided cells are fixed, so two open cells depend on each other only through a run
    holding both: the islands are the components of "shares a run" over open cells. With
    every mask open, they are the puzzle's connected parts. ``cells`` must be closed under
    shared runs between open cells (a whole island, or every cell).
    """
    left = {i for i in (range(len(masks)) if cells is None else cells)
            if masks[i] & (masks[i] - 1)}
    seen_runs: set[int] = set()
    out = []
    while left:
        start = left.pop()
        comp = [start]
        todo = [start]
        while todo:
            i = todo.pop()
            for r in cell_runs[i]:
                if r in seen_runs:
                    continue
                seen_runs.add(r)
                for j in run_cells[r]:
                    if j in left:
                        left.remove(j)
                        comp.append(j)
                        todo.append(j)
        comp.sort()
        out.append(tuple(comp))
    out.sort()
    return out

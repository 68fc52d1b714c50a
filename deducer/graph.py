"""The run/cell constraint graph (networkx): run nodes and cell nodes, an edge per membership.

Built once per puzzle to analyse structure (connected components, regions for sum rules);
never consulted per deduction.
"""

from __future__ import annotations

import networkx as nx

from .model import Puzzle


def cell_node(i: int) -> tuple[str, int]:
    return ("cell", i)


def run_node(r: int) -> tuple[str, int]:
    return ("run", r)


def build(puzzle: Puzzle) -> nx.Graph:
    """Bipartite graph: ``("run", id)`` and ``("cell", index)`` nodes."""
    g = nx.Graph()
    for i, rc in enumerate(puzzle.whites):
        g.add_node(cell_node(i), kind="cell", coord=rc)
    for run in puzzle.runs:
        g.add_node(run_node(run.id), kind="run", direction=run.direction, total=run.total)
        g.add_edges_from((run_node(run.id), cell_node(i)) for i in run.cells)
    return g


def components(puzzle: Puzzle) -> tuple[tuple[int, ...], ...]:
    """White-cell indices of each connected component, ordered by their first cell."""
    g = build(puzzle)
    comps = []
    for comp in nx.connected_components(g):
        cells = sorted(n[1] for n in comp if n[0] == "cell")
        if cells:
            comps.append(tuple(cells))
    comps.sort()
    return tuple(comps)

"""The run/cell constraint graph (networkx): run nodes and cell nodes, an edge per membership.

Built once per puzzle to analyse structure (regions for sum rules, `deducer` analyses);
never consulted per deduction. ``components`` is the exception: ``solve`` needs only the
islands, and a union-find over run membership gives them without paying networkx's import
(0.19 s, half the command's budget); a test checks it against networkx's answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..puzzle.model import Puzzle

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


def components(puzzle: Puzzle) -> tuple[tuple[int, ...], ...]:
    """White-cell indices of each connected component, ordered by their first cell."""
    parent = list(range(len(puzzle.whites)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for run in puzzle.runs:
        root = find(run.cells[0])
        for i in run.cells[1:]:
            other = find(i)
            if other != root:
                parent[other] = root
    groups: dict[int, list[int]] = {}
    for i in range(len(parent)):
        groups.setdefault(find(i), []).append(i)
    return tuple(sorted(tuple(g) for g in groups.values()))


def components_nx(puzzle: Puzzle) -> tuple[tuple[int, ...], ...]:
    """The same islands found by networkx on the run/cell graph (the reference answer)."""
    import networkx as nx

    comps = []
    for comp in nx.connected_components(build(puzzle)):
        cells = sorted(n[1] for n in comp if n[0] == "cell")
        if cells:
            comps.append(tuple(cells))
    return tuple(sorted(comps))

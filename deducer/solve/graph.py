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


def open_islands(run_cells, cell_runs, masks: list[int]) -> list[tuple[int, ...]]:
    """The cells still open (more than one candidate), grouped into independent islands.

    Decided cells are fixed, so two open cells depend on each other only through a run
    holding both: the islands are the components of "shares a run" over open cells.
    Ordered by their first cell.
    """
    parent: dict[int, int] = {}

    def find(i: int) -> int:
        root = i
        while parent[root] != root:
            root = parent[root]
        while parent[i] != root:
            parent[i], i = root, parent[i]
        return root

    for i, m in enumerate(masks):
        if m & (m - 1):
            parent[i] = i
    if not parent:
        return []
    seen_runs: set[int] = set()
    for i in parent:
        for r in cell_runs[i]:
            if r in seen_runs:
                continue
            seen_runs.add(r)
            root = None
            for j in run_cells[r]:
                if j in parent:
                    rj = find(j)
                    if root is None:
                        root = rj
                    elif rj != root:
                        parent[rj] = root
    groups: dict[int, list[int]] = {}
    for i in parent:
        groups.setdefault(find(i), []).append(i)
    return sorted(tuple(sorted(g)) for g in groups.values())

"""A simple proof's local problem (the cells of its listed runs and facts, each run all
different and summing to its clue) and the small exact search that asks whether it can be
filled: the checker's own, capped at :data:`NODE_CAP` nodes per question.
"""

from __future__ import annotations

from dataclasses import dataclass

from .grid import ALL, Board, Grid, Malformed, cell_id, digit_mask, digit_sets, run_id

#: search nodes allowed per question about one local problem; real local problems need
#: a few dozen, so hitting this means the "local" problem is not one a person can check
NODE_CAP = 20_000


@dataclass
class Local:
    """A proof's local problem: cells with their domains, runs with their allowed sets."""

    cells: list[int]  # white-cell ids
    domains: list[int]
    runs: list[tuple[list[int], list[int]]]  # (positions into cells, allowed digit sets)
    pos: dict[int, int]  # white-cell id -> position
    run_ids: list[int]


def proof_parts(rp: Grid, proof: dict):
    """(cell facts, run facts, listed runs) of a simple proof, in internal ids."""
    cell_facts: dict[int, int] = {}
    run_facts: dict[int, set[int]] = {}
    for f in proof.get("facts", ()):
        if "cell" in f:
            r, c = f["cell"]
            i = cell_id(rp, r, c)
            cell_facts[i] = cell_facts.get(i, ALL) & digit_mask(f.get("candidates"))
        elif "run" in f:
            rid = run_id(rp, f["run"])
            cs = {digit_mask(c) for c in f.get("combos", ())}
            run_facts[rid] = run_facts[rid] & cs if rid in run_facts else cs
        else:
            raise Malformed(f"{f!r} is neither a cell fact nor a run fact")
    runs = []
    for ref in proof.get("runs", ()):
        rid = run_id(rp, ref)
        if rid not in runs:
            runs.append(rid)
    return cell_facts, run_facts, runs


def local_problem(rp: Grid, board: Board, cell_facts: dict[int, int],
                  run_facts: dict[int, set[int]], runs: list[int]) -> Local:
    """The cells of the listed runs (and of the cell facts), each limited by its fact or
    its written digit (else the puzzle's own marks: 1-9, or its parity); each listed run
    all different, summing to its clue, one of its listed combos if it has a run fact."""
    cells: list[int] = []
    pos: dict[int, int] = {}
    for rid in runs:
        for i in rp.runs[rid].cells:
            if i not in pos:
                pos[i] = len(cells)
                cells.append(i)
    for i in cell_facts:
        if i not in pos:
            pos[i] = len(cells)
            cells.append(i)
    domains = []
    for i in cells:
        if board.written[i]:
            domains.append(board.masks[i])
        elif i in cell_facts:
            domains.append(cell_facts[i] & rp.puzzle.initial_mask(i))
        else:
            domains.append(rp.puzzle.initial_mask(i))
    local_runs = []
    for rid in runs:
        run = rp.runs[rid]
        allowed = digit_sets(run.total, run.length)
        if rid in run_facts:
            allowed = tuple(c for c in allowed if c in run_facts[rid])
        local_runs.append(([pos[i] for i in run.cells], list(allowed)))
    return Local(cells, domains, local_runs, pos, list(runs))


class TooBig(Exception):
    """The search went past :data:`NODE_CAP`."""


def satisfiable(local: Local, domains: list[int],
                extra: tuple[list[int], list[int]] | None = None) -> bool:
    """Has the local problem (with these domains, and one extra set constraint) a filling?"""
    runs = local.runs if extra is None else [*local.runs, extra]
    of_cell: list[list[int]] = [[] for _ in domains]
    for k, (ps, _) in enumerate(runs):
        for p in ps:
            of_cell[p].append(k)
    nodes = [0]

    def search(doms: list[int]) -> bool:
        nodes[0] += 1
        if nodes[0] > NODE_CAP:
            raise TooBig
        best, best_n = -1, 10
        for p, m in enumerate(doms):
            n = bin(m).count("1")
            if n == 0:
                return False
            if 1 < n < best_n:
                best, best_n = p, n
        if best < 0:
            return True  # every cell decided and every run checked by narrow()
        m = doms[best]
        while m:
            b = m & -m
            m &= ~b
            trial = doms.copy()
            trial[best] = b
            if _narrow(runs, of_cell, trial, set(of_cell[best])) and search(trial):
                return True
        return False

    doms = domains.copy()
    if not _narrow(runs, of_cell, doms, set(range(len(runs)))):
        return False
    return search(doms)


def _narrow(runs: list, of_cell: list[list[int]], doms: list[int], todo: set[int]) -> bool:
    """Forward checking to a fixpoint over the runs in ``todo`` (indices into ``runs``,
    ``of_cell``: each cell's runs); False on a wipe-out."""
    while todo:
        k = todo.pop()
        ps, allowed = runs[k]
        fixed = 0
        open_ps = []
        for p in ps:
            m = doms[p]
            if m & (m - 1) == 0:
                if m == 0 or fixed & m:
                    return False  # an empty cell, or a digit twice in the run
                fixed |= m
            else:
                open_ps.append(p)
        union_open = 0
        for p in open_ps:
            union_open |= doms[p]
        reach = 0
        for c in allowed:
            if c & fixed != fixed:
                continue
            rest = c & ~fixed
            if rest & ~union_open:
                continue
            if any(not doms[p] & rest for p in open_ps):
                continue
            reach |= rest
            if not open_ps:
                break
        if not reach and open_ps:
            return False
        if not open_ps:
            if not any(c == fixed for c in allowed):
                return False
            continue
        for p in open_ps:
            m = doms[p] & reach
            if m != doms[p]:
                if not m:
                    return False
                doms[p] = m
                todo.update(of_cell[p])
    return True

"""Simple proofs: every fact true on the board the earlier steps left, and every claim of
the step (or link) true in every filling of the proof's local problem (for a link that
ends a chain: no filling at all).
"""

from __future__ import annotations

from ..puzzle.model import cell_name
from .grid import Board, Effects, Grid, bit, digits_of
from .local import NODE_CAP, Local, TooBig, local_problem, proof_parts, satisfiable


def _false_facts(rp: Grid, board: Board, cell_facts, run_facts) -> list[str]:
    out = []
    names = rp.puzzle.whites
    for i, m in cell_facts.items():
        extra = board.masks[i] & ~m
        if extra:
            out.append(f"{cell_name(names[i])} can still hold "
                       f"{','.join(map(str, digits_of(extra)))}, which its fact leaves out")
    for rid, cs in run_facts.items():
        missing = [c for c in rp.possible_combos(board, rid) if c not in cs]
        if missing:
            shown = " or ".join("+".join(map(str, digits_of(c))) for c in missing[:3])
            out.append(f"{rp.runs[rid].name} can still be {shown}, which its fact leaves out")
    return out


def _unproved(rp: Grid, local: Local, eff: Effects, exempt: dict[int, int]
              ) -> list[tuple[str, str]]:
    """(kind, message) for each claim of ``eff`` some filling of ``local`` breaks."""
    out: list[tuple[str, str]] = []
    names = rp.puzzle.whites
    doms = local.domains
    for i, d in sorted(eff.places.items()):
        p = local.pos.get(i)
        if p is None:
            out.append(("outside", f"{cell_name(names[i])} = {d}: the cell is outside the "
                        "local problem"))
            continue
        other = doms.copy()
        other[p] &= ~bit(d)
        if satisfiable(local, other):
            out.append(("unproved", f"{cell_name(names[i])} = {d} does not follow: the local "
                        "problem can be filled with another digit there"))
    for i, m in sorted(eff.elims.items()):
        m &= ~exempt.get(i, 0)
        if not m:
            continue
        p = local.pos.get(i)
        if p is None:
            out.append(("outside", f"{','.join(map(str, digits_of(m)))} leaving "
                        f"{cell_name(names[i])}: the cell is outside the local problem"))
            continue
        other = doms.copy()
        other[p] &= m
        if other[p] and satisfiable(local, other):
            out.append(("unproved", f"{','.join(map(str, digits_of(m)))} leaving "
                        f"{cell_name(names[i])} does not follow: some filling of the local "
                        "problem puts one there"))
    for rid, cs in sorted(eff.combos.items()):
        run = rp.runs[rid]
        if any(i not in local.pos for i in run.cells):
            out.append(("outside", f"ruling out combinations of {run.name}: the run is "
                        "outside the local problem"))
            continue
        ps = [local.pos[i] for i in run.cells]
        for c in sorted(cs):
            other = doms.copy()
            for p in ps:
                other[p] &= c
            if satisfiable(local, other, (ps, [c])):
                out.append(("unproved", f"ruling out {'+'.join(map(str, digits_of(c)))} for "
                            f"{run.name} does not follow: some filling uses it"))
    return out


def check_simple(rp: Grid, board: Board, proof: dict, eff: Effects, exempt: dict[int, int],
                 contradiction: bool = False) -> list[tuple[str, str]]:
    """Facts true on ``board``; every claim (or, for a contradiction, no filling at all)."""
    cell_facts, run_facts, runs = proof_parts(rp, proof)
    out = [("false-fact", m) for m in _false_facts(rp, board, cell_facts, run_facts)]
    local = local_problem(rp, board, cell_facts, run_facts, runs)
    try:
        if contradiction:
            if satisfiable(local, local.domains):
                out.append(("no-contradiction", "the last link's local problem can still be "
                            "filled"))
        else:
            out += _unproved(rp, local, eff, exempt)
    except TooBig:
        out.append(("too-big", f"more than {NODE_CAP} search nodes over {len(local.cells)} "
                    f"cells and {len(local.runs)} runs"))
    return out

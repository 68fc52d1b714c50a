"""A stated sum bound (docs/json-contract.md, "Proofs"): the least (most) sum the other
cells of a run can make, worked out again, and the digits of the cell it leaves.
"""

from __future__ import annotations

from ..puzzle.model import cell_name
from .grid import ALL, Board, Effects, Grid, bit, cell_id, digits_of, mask_of, run_id
from .local import proof_parts


def _sum_range(domains: list[int]) -> tuple[int, int] | None:
    """Least and most sum of different digits, one from each domain (None: none fit): the
    sets of digits the cells so far can take, one cell at a time."""
    sets = {0}
    for dom in domains:
        sets = {s | bit(d) for s in sets for d in digits_of(dom) if not s & bit(d)}
        if not sets:
            return None
    sums = [sum(digits_of(s)) for s in sets]
    return min(sums), max(sums)


def check_bound(rp: Grid, board: Board, proof: dict, eff: Effects) -> list[str]:
    """A stated sum bound (docs/json-contract.md, "Proofs"): the digits it adds are
    different, one from each other open cell of its run and within that cell's fact (else
    any digit not written in the run); their sum is the least (most) such digits make,
    worked out here again; and the step takes from the cell exactly the digits the bound
    excludes (a digit written in: the one the bound leaves it)."""
    b = proof["bound"]
    i = cell_id(rp, *b["cell"])
    rid = run_id(rp, b["run"])
    cell_facts, _run_facts, runs = proof_parts(rp, proof)
    run = rp.runs[rid]
    name = cell_name(rp.puzzle.whites[i])
    if rid not in runs or i not in run.cells or board.written[i] or run.total is None:
        return [f"the bound on {name} is not about an open cell of a listed run"]
    written = [j for j in run.cells if board.written[j]]
    used = mask_of(digits_of(board.masks[j])[0] for j in written)
    need = run.total - sum(digits_of(used))
    others = [j for j in run.cells if j != i and not board.written[j]]
    doms = {j: cell_facts.get(j, ALL) & ~used for j in others}
    got = _sum_range([doms[j] for j in others])
    if got is None:
        return [f"the other cells of {run.name} cannot all be filled"]
    out = []
    lo, hi = 1, 9
    for side, best in (("least", got[0]), ("most", got[1])):
        if side not in b:
            continue
        total = b[side]["sum"]
        digits = {cell_id(rp, r, c): d for r, c, d in b[side]["digits"]}
        if sorted(digits) != sorted(others) or len(b[side]["digits"]) != len(others):
            out.append(f"the {side} sum does not take one digit from each other open cell "
                       f"of {run.name}")
        elif len(set(digits.values())) != len(digits) or \
                any(not doms[j] & bit(d) for j, d in digits.items()):
            out.append(f"the {side} sum's digits are not different digits of the cells' lists")
        elif sum(digits.values()) != total:
            out.append(f"the {side} sum's digits do not add up to {total}")
        elif total != best:
            out.append(f"the {side} sum is {total}, but the cells' lists make {best}")
        if side == "least":
            hi = need - total
        else:
            lo = need - total
    inside = mask_of(d for d in digits_of(board.masks[i]) if lo <= d <= hi)
    if i in eff.places:
        if inside != bit(eff.places[i]):
            out.append(f"{name} = {eff.places[i]} is not what the bound leaves it")
    else:
        gone = eff.elims.get(i, 0) & board.masks[i]
        if gone != board.masks[i] & ~inside:
            out.append(f"the step does not take from {name} exactly the digits outside "
                       f"{lo} to {hi}")
    return out

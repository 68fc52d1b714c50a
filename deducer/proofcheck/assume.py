"""Proofs by assumption and by cases: a digit assumed, its links checked one by one on the
board they leave (each a simple proof), the last a contradiction; the cases of a cell each
end in a contradiction or show the step's claims.
"""

from __future__ import annotations

from ..puzzle.model import cell_name
from .grid import Board, Effects, Grid, Malformed, bit, cell_id, digits_of, effects_of, peer_elims
from .simple import check_simple


def _check_chain(rp: Grid, board: Board, proof: dict, where: str
                 ) -> tuple[list[tuple[str, str, str]], Board | None, tuple[int, int]]:
    """Check a proof by assumption on ``board``. Returns (problems as (where, kind, msg),
    the board after the links if no contradiction was reached, (cell, digit) assumed)."""
    r, c, d = proof["assume"]
    i = cell_id(rp, r, c)
    if not (isinstance(d, int) and 1 <= d <= 9):
        raise Malformed(f"assumed digit {d!r}")
    hyp = board.copy()
    rp.write(hyp, i, d)
    out: list[tuple[str, str, str]] = []
    links = proof.get("links", ())
    for k, link in enumerate(links, 1):
        at = f"{where}link {k}"
        eff = effects_of(rp, link)
        last = bool(link.get("contradiction"))
        for kind, msg in check_simple(rp, hyp, link, eff, peer_elims(rp, eff.places), last):
            out.append((at, kind, msg))
        if last:
            if k != len(links):
                out.append((at, "malformed", "links follow the contradiction"))
            return out, None, (i, d)
        rp.apply(hyp, eff)
    return out, hyp, (i, d)


def _holds(rp: Grid, board: Board, eff: Effects, exempt: dict[int, int]) -> list[str]:
    """Claims of ``eff`` that ``board`` (a case's end state) does not already show."""
    out = []
    names = rp.puzzle.whites
    for i, d in eff.places.items():
        if board.masks[i] != bit(d):
            out.append(f"{cell_name(names[i])} = {d}")
    for i, m in eff.elims.items():
        m &= ~exempt.get(i, 0)
        if board.masks[i] & m:
            out.append(f"{','.join(map(str, digits_of(board.masks[i] & m)))} leaving "
                       f"{cell_name(names[i])}")
    for rid, cs in eff.combos.items():
        live = rp.possible_combos(board, rid)
        for c in cs:
            if c in live:
                out.append(f"ruling out {'+'.join(map(str, digits_of(c)))} for "
                           f"{rp.runs[rid].name}")
    return out


def check_assumption(rp: Grid, board: Board, proof: dict, eff: Effects,
                     exempt: dict[int, int]) -> list[tuple[str, str, str]]:
    out, end, (i, d) = _check_chain(rp, board, proof, "")
    if end is not None:
        out.append(("", "no-contradiction", "the last link is not marked as a contradiction"))
    # what a contradiction proves: d leaves i (and, with one candidate left, i is decided)
    names = rp.puzzle.whites
    for j, m in eff.elims.items():
        m &= ~exempt.get(j, 0)
        if m and (j != i or m & ~bit(d)):
            out.append(("", "unproved", f"{','.join(map(str, digits_of(m)))} leaving "
                        f"{cell_name(names[j])} is not what the assumption refutes"))
    for j, e in eff.places.items():
        if j != i or board.masks[i] & ~bit(d) != bit(e):
            out.append(("", "unproved", f"{cell_name(names[j])} = {e} is not what the "
                        "assumption refutes"))
    for rid in eff.combos:
        out.append(("", "unproved", f"ruling out combinations of {rp.runs[rid].name} is not "
                    "what the assumption refutes"))
    return out


def check_cases(rp: Grid, board: Board, proof: dict, eff: Effects,
                exempt: dict[int, int]) -> list[tuple[str, str, str]]:
    out: list[tuple[str, str, str]] = []
    cells = set()
    seen = 0
    for k, case in enumerate(proof["cases"], 1):
        where = f"case {k} "
        probs, end, (i, d) = _check_chain(rp, board, case, where)
        out += probs
        cells.add(i)
        seen |= bit(d)
        if end is not None:
            out += [(where.strip(), "unproved", f"{m} does not follow in this case")
                    for m in _holds(rp, end, eff, exempt)]
    if len(cells) != 1:
        out.append(("", "missing-case", "the cases do not assume digits of one cell"))
    else:
        (i,) = cells
        left = board.masks[i] & ~seen
        if left:
            out.append(("", "missing-case", f"no case for {','.join(map(str, digits_of(left)))} "
                        f"in {cell_name(rp.puzzle.whites[i])}"))
    return out

"""Settled run: a run whose open cells can be filled only one way, written in at once.

Inside a chain, an assumption often leaves a run a single arrangement (one way to put
digits in its open cells); a strong solver writes the whole run down in one breath ("r3c4
= 5 leaves r3c3→ 12/3 one way: 4 + 8"), where naked singles, lone cells and filters would
spell it out cell by cell, a link each (issue 37, item 4). The rule is declared ``kind:
link`` and ``walk: false`` in rules/core.yaml: chains use it, the walkthrough does not
(there its cell-by-cell steps are the easier ones, and the ratings stay as fitted).

The proof is the run and the fewest of its open cells' candidates that leave it one
arrangement (each kept fact is needed: dropping it lets a second arrangement in).
"""

from __future__ import annotations

from collections.abc import Iterator

from ..engine.state import Deduction
from ..puzzle.combos import BIT, DIGITS, POP
from . import rule
from .api import View
from .facts import cell_facts, facts_brief, free_mask, proof


def _arrangements(masks: list[int], need: int, cap: int = 2) -> list[tuple[int, ...]]:
    """Ways (at most ``cap``) to give each cell a digit of its mask, all different, adding
    up to ``need``; cells with fewer candidates are tried first."""
    n = len(masks)
    order = sorted(range(n), key=lambda k: (POP[masks[k]], k))
    found: list[tuple[int, ...]] = []
    digits: list[int] = [0] * n

    def go(k: int, used: int, left: int) -> None:
        if len(found) >= cap:
            return
        if k == n:
            if left == 0:
                found.append(tuple(digits))
            return
        rest = n - k - 1  # cells after this one: at least 1 + 2 + ... each, at most 9 + 8 ...
        for d in DIGITS[masks[order[k]] & ~used]:
            after = left - d
            if after < rest * (rest + 1) // 2 or after > rest * (19 - rest) // 2:
                continue
            digits[order[k]] = d
            go(k + 1, used | BIT[d], after)

    go(0, 0, need)
    return found


@rule(values=("way", "facts", "filled"))
def settled_run(view: View, rid: int) -> Iterator[Deduction]:
    """A clued run with two or more open cells, one of them not yet down to one digit,
    that its open cells' candidates and the sum still needed leave one arrangement: every
    open cell gets its digit in one step."""
    need = view.remaining(rid)
    if need is None:
        return
    open_ = list(view.open_cells(rid))
    if len(open_) < 2:
        return  # a lone cell says it
    placed = view.placed_mask(rid)
    masks = [view.mask(i) & ~placed for i in open_]
    if all(POP[m] <= 1 for m in masks):
        return  # naked singles say it, a cell at a time, each as short
    ways = _arrangements(masks, need)
    if len(ways) != 1:
        return
    way = ways[0]
    # the fewest facts that keep it one way: a fact whose cell, left free, lets no second
    # arrangement in is dropped (what is kept is then irreducible: freeing a kept cell from
    # a smaller set lets in at least what it let in before)
    facts = cell_facts(view, open_, (rid,))
    for i in list(facts):
        trial = [facts.get(j, free_mask(view, j, (rid,))) & ~placed if j != i
                 else free_mask(view, j, (rid,)) & ~placed
                 for j in open_]
        if len(_arrangements(trial, need)) == 1:
            del facts[i]
    said = " + ".join(str(d) for d in way)
    # the cells by name, as later links of a chain refer to them ("9 went in (1)"), in a
    # plain list: the chain parts its links with semicolons
    filled = ", ".join(f"{view.cell_name(i)} = {d}" for i, d in zip(open_, way, strict=True))
    yield Deduction(placements=dict(zip(open_, way, strict=True)),
                    cells=tuple(view.layout.run_cells[rid]), runs=(rid,),
                    values={"way": said, "filled": filled,
                            "facts": f" with {facts_brief(view, facts)}" if facts else ""},
                    proof=proof(view, (rid,), facts))

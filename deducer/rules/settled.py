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

import functools
from collections.abc import Iterator

from ..engine.state import Deduction
from ..puzzle.combos import ALL, DIGITS, POP
from ..solver.propagate import run_filter
from . import rule
from .api import View
from .facts import clue, facts_brief, minus, proof


def _one_way(masks: list[int], need: int) -> tuple[int, ...] | None:
    """The digits of the one arrangement of cells with candidate ``masks``, different and
    adding up to ``need``; None when there are none or several. The solver's run filter
    keeps a cell's digit when some arrangement puts it there, so one arrangement in all is
    every cell kept to one digit."""
    fit = run_filter(need, tuple(masks))
    if fit is None or any(POP[m] != 1 for m in fit):
        return None
    return tuple(DIGITS[m][0] for m in fit)


@rule(values=("way", "facts", "filled", "need"))
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
    way = _one_way(masks, need)
    if way is None:
        return
    # the fewest facts that keep it one way: a fact whose cell, left free, lets no second
    # arrangement in is dropped (what is kept is then irreducible: freeing a kept cell from
    # a smaller set lets in at least what it let in before); worked out when the proof is
    # asked for (a chain search measures many links and keeps few), from what is read now
    # (the open cells are this run's: free_mask of the run alone is the same for each)
    free = ALL & ~placed
    stated = {i: m for i in open_ if (m := view.mask(i)) != free}  # cell_facts of the run

    @functools.cache
    def fewest() -> dict[int, int]:
        facts = dict(stated)
        for i in list(facts):
            trial = [facts.get(j, free) & ~placed if j != i else free for j in open_]
            if _one_way(trial, need) is not None:
                del facts[i]
        return facts

    said = " + ".join(str(d) for d in way)

    def filled() -> str:
        """The cells by name, as later links of a chain refer to them ("9 went in (1)"), in a
        plain list (the chain parts its links with semicolons). Of four or more cells, whose
        sum names none, the one cell no fact is stated for comes last with the arithmetic
        that leaves it its digit ("r9c8 = 24 - 17 = 7"): a learner read it bare and had to
        work out why. Two such cells could swap, so there is at most one."""
        named = [(i, d) for i, d in zip(open_, way, strict=True)]
        bare = [(i, d) for i, d in named if i not in fewest()] if len(open_) > 3 else []
        if not bare:
            return ", ".join(f"{view.cell_name(i)} = {d}" for i, d in named)
        ((last, d),) = bare
        said_ = ", ".join(f"{view.cell_name(i)} = {e}" for i, e in named if i != last)
        return f"{said_} and {view.cell_name(last)} = {need} - {need - d} = {d}"

    def need_said() -> str:
        """``r10c11 + r11c11 = 7 - 4 = 3``; ``its 5 empty cells make 37 - 8 = 29``: the
        sum the open cells must make, which their lists leave one way to make."""
        made = minus(clue(view, rid), placed)
        if len(open_) <= 3:
            return f"{' + '.join(view.cell_name(i) for i in open_)} = {made}"
        return f"its {len(open_)} empty cells make {made}"

    yield Deduction(placements=dict(zip(open_, way, strict=True)),
                    cells=tuple(view.layout.run_cells[rid]), runs=(rid,),
                    values={"way": said, "filled": filled, "need": need_said,
                            "facts": lambda: (f", with {facts_brief(view, fewest())}"
                                              if fewest() else "")},
                    proof=lambda: proof(view, (rid,), fewest()))

"""{name}: a starter rule written by `deducer rules new {id}` (docs/rule-authors-guide.md).

A two-cell run whose clue is even cannot hold half of it: the other cell would need the same
digit, and a run's digits differ. Change it into your technique, keeping what a rule must do:
yield Deductions (never change the view), name in ``cells`` and ``runs`` what the step rests
on, give the template's values, and a Proof a reader can check.
"""

from __future__ import annotations

from collections.abc import Iterator

from deducer.rules.api import BIT, Deduction, Proof, View, rule


@rule(values=("total",))  # the template values this function gives
def {func}(view: View, rid: int) -> Iterator[Deduction]:
    run = view.run(rid)
    if run.total is None or run.length != 2 or run.total % 2:
        return  # an unclued run, a longer one, or an odd sum: nothing to say
    half = run.total // 2
    if not 1 <= half <= 9:
        return
    for i in view.open_cells(rid):
        if view.mask(i) & BIT[half]:
            yield Deduction(
                eliminations={{i: BIT[half]}},
                cells=(i,),
                runs=(rid,),
                values={{"total": run.total}},
                # the run's sum and all-different alone prove it: no facts needed
                proof=Proof(runs=(rid,)),
            )

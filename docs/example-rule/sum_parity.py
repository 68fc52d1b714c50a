"""Example rule for the rule authors' guide: *sum parity*.

The idea: the open cells of a clued run must add up to what the clue still needs. If
every open cell but one is known to be odd or known to be even (all its candidates share
one parity), the parity of the last cell is forced: it is the parity of the remaining
sum minus the others. The digits of the wrong parity leave that cell.

Example: a run still needs 12 from three cells; two of them hold only {1, 3} and {7, 9}
(odd + odd = even), so the third must be even: 1, 3, 5, 7 and 9 leave it.
"""

from collections.abc import Iterator

from deducer.rules.api import EVEN, ODD, Deduction, Proof, View, rule

#: the template values both functions provide (declared, so a typo in a template is
#: reported when the rule file is loaded)
VALUES = ("need", "need_parity", "others", "others_parity", "parity")


def _parity(mask):
    """0 if every candidate is even, 1 if every one is odd, None if mixed (or empty)."""
    if mask and mask & ODD == 0:
        return 0
    if mask and mask & EVEN == 0:
        return 1
    return None


def _word(parity):
    return "odd" if parity else "even"


def _values(view, target, others, parities, need, odd):
    """The facts the explain template of the YAML entry uses."""
    return {
        "need": need,
        "need_parity": _word(need % 2),
        "cell": view.cell_name(target),
        "others": ", ".join(f"{view.cell_name(i)} ({_word(p)})"
                            for i, p in zip(others, parities, strict=True)),
        "others_parity": _word(sum(parities) % 2),
        "parity": _word(odd),
    }


@rule(values=VALUES)
def sum_parity(view: View, rid: int) -> Iterator[Deduction]:
    """Called as f(view, run_id) for every run touched since last time (scope: run)."""
    need = view.remaining(rid)  # the clue minus the digits already written in
    if need is None:  # an unclued run has no sum to reason with
        return
    open_cells = view.open_cells(rid)
    if len(open_cells) < 2:  # one open cell: that is the lone-cell rule's job
        return
    for target in open_cells:
        others = [i for i in open_cells if i != target]
        parities = [_parity(view.mask(i)) for i in others]
        if None in parities:
            continue
        odd = (need - sum(parities)) % 2  # the parity the target must have
        wrong = view.mask(target) & (EVEN if odd else ODD)
        if wrong:
            yield Deduction(
                eliminations={target: wrong},
                cells=tuple(open_cells),
                runs=(rid,),
                values=_values(view, target, others, parities, need, odd),
                # what the step rests on (docs/json-contract.md#proofs): the other open
                # cells' candidates and the run's sum; 'deducer rules test' checks that they
                # prove the step
                proof=Proof(cells={i: view.mask(i) for i in others}, runs=(rid,)),
            )


@rule(values=VALUES)
def sum_parity_unsound(view: View, rid: int) -> Iterator[Deduction]:
    """The same idea with a classic slip: it uses the clue instead of what the clue still
    needs, forgetting the digits already written in. Kept to show 'deducer rules test'
    catching it."""
    run = view.run(rid)
    if run.total is None:
        return
    open_cells = view.open_cells(rid)
    if len(open_cells) < 2:
        return
    for target in open_cells:
        others = [i for i in open_cells if i != target]
        parities = [_parity(view.mask(i)) for i in others]
        if None in parities:
            continue
        odd = (run.total - sum(parities)) % 2  # BUG: should be view.remaining(rid)
        wrong = view.mask(target) & (EVEN if odd else ODD)
        if wrong:
            yield Deduction(eliminations={target: wrong}, cells=tuple(open_cells),
                            runs=(rid,),
                            values=_values(view, target, others, parities, run.total, odd),
                            proof=Proof(cells={i: view.mask(i) for i in others}, runs=(rid,)))

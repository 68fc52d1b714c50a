"""Shared helpers for the proofs (docs/json-contract.md) and sentences of the built-in rules.

A proof lists the runs whose rules a step applies and the facts it rests on: the cells'
candidates and the runs' combinations that earlier steps narrowed. A fact that says no
more than the listed runs and the written digits already say is left out (a reader needs
no reminder of a clue), and every fact a proof keeps is named in the step's sentence.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..engine.state import Proof
from ..puzzle.combos import ALL, BIT, DIGITS, POP, alts_of, combos
from ..solver.propagate import run_filter
from .api import View


def clue_combos(view: View, rid: int) -> tuple[int, ...]:
    """The run's combinations its clue and written digits allow (what a listed run with
    no run fact stands for in a proof)."""
    run = view.run(rid)
    placed = view.placed_mask(rid)
    return tuple(c for c in combos(run.total, run.length) if c & placed == placed)


def run_fact(view: View, rid: int) -> tuple[int, ...] | None:
    """The run's live combinations when earlier steps narrowed them, else None."""
    live = view.live(rid)
    if set(live) == set(clue_combos(view, rid)):
        return None
    return live


def stated_combos(view: View, rid: int, shown: Iterable[int],
                  facts: dict[int, int]) -> tuple[int, ...]:
    """Those of the combinations ``shown`` that the run's open cells can still hold given
    only what the step states (``facts``; a cell without one may hold any digit not written
    in the run): a list a sentence can give without naming a dead combination the reader
    would have to rule out for themselves."""
    return combos_fitting(view.placed_mask(rid), view.open_cells(rid), shown, facts)


def combos_fitting(placed: int, open_: Iterable[int], shown: Iterable[int],
                   facts: dict[int, int]) -> tuple[int, ...]:
    """:func:`stated_combos` of a run whose written digits are ``placed`` and open cells
    ``open_`` (read from the board beforehand: this reads nothing else, so it may be worked
    out later, when a sentence is asked for). An open cell without a fact may hold any
    digit not written in the run (its :func:`free_mask`)."""
    free = ALL & ~placed
    masks = [facts.get(j, free) for j in open_]
    return tuple(c for c in shown if c & placed == placed and matchable(c & ~placed, masks))


def free_mask(view: View, i: int, runs: Iterable[int]) -> int:
    """What cell ``i`` may hold in a local problem of ``runs`` without a fact about it:
    any digit not written in one of those runs."""
    m = ALL
    for rid in runs:
        if i in view.layout.run_cells[rid]:
            m &= ~view.placed_mask(rid)
    return m


def cell_facts(view: View, cells: Iterable[int], runs: Iterable[int]) -> dict[int, int]:
    """Cell facts for those of ``cells`` whose candidates say more than ``runs`` do."""
    out = {}
    for i in cells:
        if view.is_placed(i):
            continue
        m = view.mask(i)
        if m != free_mask(view, i, runs):
            out[i] = m
    return out


def proof(view: View, runs: Iterable[int], cells: dict[int, int] | None = None,
          run_facts: dict[int, tuple[int, ...]] | None = None, search: Iterable[int] = (),
          values: dict | None = None) -> Proof:
    """A local proof over ``runs`` (ordered, first the step's own run); ``search`` are
    the runs whose arrangements a reader must try to check it; ``values`` are sentence
    values that only a proof built late (see ``Deduction.proof``) can give.

    Shorthand only (runs without repeats, the dicts copied): the result is the public kit's
    :class:`Proof`, the one a user rule builds as ``Proof(cells=..., runs=...)``."""
    return Proof(cells=dict(cells or {}), combos=dict(run_facts or {}),
                 runs=tuple(dict.fromkeys(runs)), search=tuple(search),
                 values=dict(values or {}))


def combo_fits(total: int | None, ways: Iterable[int], masks: tuple[int, ...]
               ) -> Iterator[tuple[int, tuple[int, ...]]]:
    """Each of the combinations ``ways`` that some arrangement of the run's cells
    (``masks``) makes, with the candidates such arrangements leave each cell."""
    union = 0
    for m in masks:
        union |= m
    for c in ways:
        if c & union != c:
            continue  # a digit of it no cell can hold
        # with every cell inside ``c``, an arrangement of len(masks) different digits uses
        # all of ``c``: the solver's run filter over the narrowed cells keeps exactly c's
        fit = run_filter(total, tuple([m & c for m in masks]))
        if fit is not None:
            yield c, fit


def run_follows(view: View, rid: int, facts: dict[int, int],
                combos: Iterable[int] | None = None, *, elims: dict[int, int] | None = None,
                places: dict[int, int] | None = None, drops: Iterable[int] = ()) -> bool:
    """Does a step on run ``rid`` hold in every arrangement of the run, its open cells
    held to ``facts`` (a cell without one: any digit not written in the run) and its
    digits one of ``combos`` (None: any its clue allows)? ``elims`` are digits leaving
    cells, ``places`` digits written in, ``drops`` combinations ruled out: the question
    the proof checker asks of a proof of this run and these facts."""
    cells = view.layout.run_cells[rid]
    total = view.layout.run_total[rid]
    masks = tuple(BIT[view.value(i)] if view.is_placed(i)
                  else facts.get(i, free_mask(view, i, (rid,))) for i in cells)
    drops = set(drops)
    reach = [0] * len(cells)
    for c, fit in combo_fits(total, clue_combos(view, rid) if combos is None else combos,
                             masks):
        if c in drops:
            return False
        for k, m in enumerate(fit):
            reach[k] |= m
    elims, places = elims or {}, places or {}
    return all(not reach[k] & elims.get(i, 0) and
               (i not in places or not reach[k] & ~BIT[places[i]])
               for k, i in enumerate(cells))


def run_trim(view: View, rid: int, facts: dict[int, int],
             combos: Iterable[int] | None = None, *, elims: dict[int, int] | None = None,
             places: dict[int, int] | None = None, drops: Iterable[int] = ()
             ) -> dict[int, int]:
    """``facts`` without each cell fact that a step on run ``rid`` alone still follows
    without (:func:`run_follows`, the run's arrangements deciding): what is left is
    needed, each fact in turn (dropping a kept one lets some arrangement break the step).

    A rule trims by its own argument first; this finds the cheaper argument the proof
    checker would find, so that a proof carries no fact a reader need not check. A rule
    whose sentence argued from a dropped fact must reword it."""
    combos = None if combos is None else tuple(combos)
    drops = tuple(drops)
    kept = dict(facts)
    if not run_follows(view, rid, kept, combos, elims=elims, places=places, drops=drops):
        return kept  # not a step of this run alone: keep what the rule says
    for i in list(kept):
        trial = {j: m for j, m in kept.items() if j != i}
        if run_follows(view, rid, trial, combos, elims=elims, places=places, drops=drops):
            kept = trial
    return kept


def puts(view: View, elims: dict[int, int]) -> str:
    """``6 in r10c6 or 1/2/6/7 in r10c7``; ``7 in r3c10 or r5c10``: digits leaving
    cells, as what no arrangement puts there (cells losing the same digits said once)."""
    groups: dict[int, list[int]] = {}
    for i, m in elims.items():
        groups.setdefault(m, []).append(i)
    return " or ".join(f"{'/'.join(map(str, DIGITS[m]))} in "
                       f"{' or '.join(view.cell_name(i) for i in cells)}"
                       for m, cells in groups.items())


# ---- words ---------------------------------------------------------------------------
def alts(mask: int) -> str:
    """``7 or 9``; ``1, 2 or 3``; ``nothing``."""
    ds = [str(d) for d in DIGITS[mask]]
    if not ds:
        return "nothing"
    if len(ds) == 1:
        return ds[0]
    return ", ".join(ds[:-1]) + " or " + ds[-1]


def both(items: list[str]) -> str:
    """``a``; ``a and b``; ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def digits_and(mask: int) -> str:
    """``5``; ``1 and 2``; ``1, 2 and 6``."""
    return both([str(d) for d in DIGITS[mask]])


def holds(view: View, facts: dict[int, int]) -> str:
    """One clause per cell fact, cells with the same candidates grouped:
    ``r2c2 and r2c4 can only hold 2 or 3, r2c5 only 1 or 4``."""
    groups: dict[int, list[int]] = {}
    for i, m in facts.items():
        groups.setdefault(m, []).append(i)
    parts = []
    for k, (m, cells) in enumerate(groups.items()):
        names = both([view.cell_name(i) for i in cells])
        parts.append(f"{names} can only hold {alts(m)}" if k == 0 else f"{names} only {alts(m)}")
    return ", ".join(parts)


def named(view: View, i: int, facts: dict[int, int]) -> str:
    """``r2c2 (1 or 2)`` for a cell with a fact, else ``r2c2``."""
    name = view.cell_name(i)
    return f"{name} ({alts(facts[i])})" if i in facts else name


def clue(view: View, rid: int) -> int:
    """The sum a clued run must make (every rule that words a sum reads a clued run)."""
    total = view.layout.run_total[rid]
    if total is None:
        raise ValueError(f"run {rid} has no clue")
    return total


def minus(total: int, placed_mask: int) -> str:
    """``24 - (9 + 8) = 7``: what a run's open cells still need, as arithmetic with one
    minus sign (``24 - 9 = 15``; ``24`` when nothing is written in)."""
    written = sorted(DIGITS[placed_mask], reverse=True)
    if not written:
        return str(total)
    need = total - sum(written)
    taken = str(written[0]) if len(written) == 1 else f"({' + '.join(map(str, written))})"
    return f"{total} - {taken} = {need}"


def span(mask: int) -> str:
    """A digit list said briefly: ``7 or 9``; ``1 to 6 or 8`` (three or more digits in a
    row as a range); ``nothing``."""
    ds = DIGITS[mask]
    if not ds:
        return "nothing"
    groups: list[list[int]] = []
    for d in ds:
        if groups and d == groups[-1][-1] + 1:
            groups[-1].append(d)
        else:
            groups.append([d])
    parts: list[str] = []
    for g in groups:
        if len(g) >= 3:
            parts.append(f"{g[0]} to {g[-1]}")
        else:
            parts += [str(d) for d in g]
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " or " + parts[-1]


def cells_and(view: View, cells: Iterable[int]) -> str:
    """``r2c2``; ``r2c2 and r2c4``; ``r2c2, r2c4 and r2c5``."""
    return both([view.cell_name(i) for i in cells])


def facts_brief(view: View, facts: dict[int, int]) -> str:
    """``r9c2 (5, 8 or 9) and r9c5 (8 or 9)``: cells with their candidates, briefly, each
    with its own list (a list after two cells would read as both cells')."""
    return both([f"{view.cell_name(i)} ({span(m)})" for i, m in facts.items()])


def matchable(digits: int, masks: Iterable[int]) -> bool:
    """Can each cell get its own digit of ``digits``, every digit used exactly once?

    (A perfect matching of cells to digits; ``len(masks)`` must equal the digit count.)
    """
    ms = sorted((m & digits for m in masks), key=lambda m: POP[m])
    if len(ms) != POP[digits]:
        return False
    states = {0}
    for m in ms:
        nxt = set()
        for s in states:
            avail = m & ~s
            while avail:
                b = avail & -avail
                avail ^= b
                nxt.add(s | b)
        if not nxt:
            return False
        states = nxt
    return digits in states


def pairs_said(pairs: list[tuple[int, int]]) -> tuple[str, int]:
    """The pairs of digits that fit two cells, each unordered pair once: ``5 + 7`` for one
    order, ``5 and 7`` where either cell may take either digit (never ``5 + 7 or 7 + 5``);
    with how many there are said (for "fits" or "fit")."""
    said: list[str] = []
    seen: set[tuple[int, int]] = set()
    for a, b in pairs:
        if (a, b) in seen:
            continue
        if (b, a) in pairs and a != b:
            seen.add((b, a))
            said.append(f"{min(a, b)} and {max(a, b)}")
        else:
            said.append(f"{a} + {b}")
        seen.add((a, b))
    if any(" and " in x for x in said) and len(said) > 1:
        return ", or ".join(said), len(said)  # "3 and 9, or 5 and 7": each pair apart
    return alts_of(said), len(said)  # "4 + 8, 7 + 5 or 9 + 3"

"""Crossing-run interaction: a run's combinations checked against what its crossing runs
can really put in the shared cells."""

from __future__ import annotations

from ..explain.state import Deduction
from ..solve.propagate import run_filter
from . import rule
from .combination import matchable


def _crossing_allows(view, rid, i) -> tuple[int | None, int]:
    """(crossing run, the digits of cell ``i`` that fit some full arrangement of it)."""
    other = view.crossing(rid, i)
    if other is None:
        return None, view.mask(i)
    cells = view.layout.run_cells[other]
    fit = run_filter(view.layout.run_total[other], tuple(view.mask(j) for j in cells))
    if fit is None:
        return other, 0
    return other, fit[cells.index(i)]


@rule(values=("combos", "crossing", "limits", "why"))
def crossing_run_interaction(view, rid):
    """Drop a live combination of the run that cannot be arranged in its empty cells once
    each cell is limited to the digits its crossing run can really put there."""
    live = view.live(rid)
    open_ = view.open_cells(rid)
    if len(live) < 2 or not open_:
        return
    placed = view.placed_mask(rid)
    masks = [view.mask(i) & ~placed for i in open_]
    limited = []
    narrowed = []  # (cell, crossing run, digits it cannot put there, digits it can)
    for i, m in zip(open_, masks, strict=True):
        other, fit = _crossing_allows(view, rid, i)
        if other is not None and not fit:
            return  # the crossing run is already impossible: other rules report it
        limited.append(m & fit)
        if m & ~fit:
            narrowed.append((i, other, m & ~fit, m & fit))
    if not narrowed:
        return
    dropped = []
    reasons = []
    blamed: dict[int, None] = {}
    for c in live:
        if c & placed != placed:
            continue  # combination elimination's business, not this rule's
        rest = c & ~placed
        if matchable(rest, masks) and not matchable(rest, limited):
            dropped.append(c)
            why = [(i, other, ok) for i, other, gone, ok in narrowed if gone & rest]
            blamed.update((other, None) for _, other, _ in why)
            by = ", and ".join(f"{view.run_name(other)} can only put {view.digits(ok) or 'nothing'}"
                               f" in {view.cell_name(i)}" for i, other, ok in why)
            reasons.append(f"{view.combo(c)} cannot be placed, as {by}")
    if not dropped or len(dropped) == len(live):
        return
    runs = (rid,) + tuple(blamed)
    cells = tuple(open_)
    yield Deduction(drop_combos={rid: tuple(dropped)}, cells=cells, runs=runs,
                    values={"combos": view.combos_text(live), "why": "; ".join(reasons),
                            "limits": ", ".join(f"{view.cell_name(i)} ({view.digits(m)})"
                                                for i, m in zip(open_, limited, strict=True)),
                            "crossing": ", ".join(view.run_name(r) for r in runs[1:])})

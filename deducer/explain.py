"""Step -> sentence: fill a rule's YAML template with the facts of its deduction."""

from __future__ import annotations

import string

from .combos import DIGITS
from .errors import RuleError


class _Values(dict):
    def __init__(self, rule, data):
        super().__init__(data)
        self.rule = rule

    def __missing__(self, key):
        raise RuleError(f"rule {self.rule.id!r}: explain template uses {{{key}}}, which the "
                        f"rule does not provide (it provides: {', '.join(sorted(self))})",
                        path=self.rule.source)


def _digits(mask: int) -> str:
    ds = [str(d) for d in DIGITS[mask]]
    if len(ds) <= 1:
        return "".join(ds)
    return ", ".join(ds[:-1]) + " and " + ds[-1]


def effect_text(view, place: dict, elim: dict, drop: dict) -> str:
    """``r3c4 = 7``; ``1 and 2 leave r3c5``; ``8+9 is ruled out for r2c1→ 17/2``."""
    parts = []
    for i, d in sorted(place.items()):
        parts.append(f"{view.cell_name(i)} = {d}")
    by_mask: dict[int, list[int]] = {}
    for i, m in sorted(elim.items()):
        by_mask.setdefault(m, []).append(i)
    for m, cells in by_mask.items():
        verb = "leaves" if len(DIGITS[m]) == 1 else "leave"
        parts.append(f"{_digits(m)} {verb} {view.cells_name(cells)}")
    for rid, cs in sorted(drop.items()):
        what = " and ".join(view.combo(c) for c in cs)
        verb = "is" if len(cs) == 1 else "are"
        parts.append(f"{what} {verb} ruled out for {view.run_name(rid)}")
    if not parts:
        return "nothing changes"
    if len(parts) == 1:
        return parts[0]
    return "; ".join(parts[:-1]) + "; and " + parts[-1]


def sentence(rule, ded, view, effect: str) -> str:
    """The step's sentence from the rule's template."""
    values = {
        "effect": effect,
        "cells": view.cells_name(ded.cells),
        "cell": view.cell_name(ded.cells[0]) if ded.cells else "",
        "run": view.run_name(ded.runs[0]) if ded.runs else "",
        "runs": ", ".join(view.run_name(r) for r in ded.runs),
    }
    if ded.runs:
        run = view.run(ded.runs[0])
        values.update(sum="?" if run.total is None else run.total, length=run.length)
    values.update(ded.values)
    try:
        text = string.Formatter().vformat(rule.explain, (), _Values(rule, values))
    except (ValueError, IndexError, AttributeError, KeyError) as e:
        raise RuleError(f"rule {rule.id!r}: explain template failed: {e}",
                        path=rule.source) from None
    text = " ".join(text.split())
    # capitalise a sentence, but never a coordinate like r2c1
    if text and text[0].islower() and not (text[0] == "r" and text[1:2].isdigit()):
        text = text[0].upper() + text[1:]
    return text

"""Step -> sentence: fill a rule's YAML template with the facts of its deduction."""

from __future__ import annotations

import string

from ..errors import RuleError
from ..puzzle.combos import BIT, DIGITS, POP, SINGLE
from ..puzzle.model import cell_name
from .registry import RULE_MARK
from .state import resolve_proof


class _Values(dict):
    def __init__(self, rule, data):
        super().__init__(data)
        self.rule = rule

    def __missing__(self, key):
        if key in (getattr(self.rule.func, RULE_MARK, None) or ()):
            # declared with @rule(values=...), but this deduction's values lack it
            raise RuleError(f"rule {self.rule.id!r}: a deduction of {self.rule.implementation}"
                            f" gave no value for {{{key}}}, which the function declares "
                            "(@rule(values=...)) and the explain template uses: put it in "
                            "every Deduction's values", path=self.rule.source)
        raise RuleError(f"rule {self.rule.id!r}: explain template uses {{{key}}}, which the "
                        f"rule does not provide (it provides: {', '.join(sorted(self))})",
                        path=self.rule.source)


def _digits(mask: int) -> str:
    ds = [str(d) for d in DIGITS[mask]]
    if len(ds) <= 1:
        return "".join(ds)
    return ", ".join(ds[:-1]) + " and " + ds[-1]


def effect_text(view, place: dict, elim: dict, drop: dict,
                lost: dict | None = None) -> str:
    """``r3c4 = 7``; ``1 and 2 leave r3c5``; ``8+9 is ruled out for r2c1→ 17/2``; a cell
    the step's eliminations leave one digit, written in by the same step (``lost``: the
    digits each such cell lost): ``1 and 2 leave r3c5, which is then 4``."""
    parts = []
    lost = lost or {}
    # a cell that lost more digits than a short list is said as written in ("r3c5 = 1"):
    # its digit is what the sentence's reason and the board's list leave
    lost = {i: m for i, m in lost.items() if POP[m] <= 3}
    for i, d in sorted(place.items()):
        name = view.cell_name(i)
        if i not in lost:
            parts.append(f"{name} = {d}")
    # called after the change: view.mask() is what is left. Say whichever list is shorter:
    # "r2c2 and r2c3 can only hold 7 or 9" reads better than seven digits leaving.
    left_groups: dict[int, list[int]] = {}
    gone_groups: dict[int, list[int]] = {}
    for i, gone in sorted(elim.items()):
        if i in place:
            continue
        left = view.mask(i)
        if left and len(DIGITS[left]) < len(DIGITS[gone]):
            left_groups.setdefault(left, []).append(i)
        else:
            gone_groups.setdefault(gone, []).append(i)
    held, leaned = _held(view, place, elim, left_groups)
    parts += held
    gone_groups = {g: [i for i in cs if i not in leaned] for g, cs in gone_groups.items()}
    _gone(view, place, lost, gone_groups, parts)
    cells_only = _joined(parts)
    for rid, cs in sorted(drop.items()):
        what = " and ".join(view.combo(c) for c in cs)
        verb = "is" if len(cs) == 1 else "are"
        parts.append(f"{what} {verb} ruled out for {view.run_name(rid)}")
    return Effect(_joined(parts), cells_only)


def _held(view, place: dict, elim: dict, left_groups: dict[int, list[int]]
          ) -> tuple[list[str], set[int]]:
    """The "can only hold" clauses of the cells grouped by what they hold, and the cells
    written in by this step that some of those lists lean on (said first, as what they hold).

    A cell this step leaves one digit is written in next (naked single): a list of a cell in
    the same run that still shows that digit would read as stale, so that list says what
    the cell holds once the forced cell is written, after the forced cell's own clause:
    "r4c2 can only hold 6; and r5c2 can then only hold 8 or 9"."""
    forced = {i: SINGLE[view.mask(i)] for i in elim
              if i not in place and SINGLE[view.mask(i)]}
    # the lists a forced cell makes stale, each without its digit; a forced cell that
    # some list leans on is said first as what it holds (otherwise as it came)
    shown: dict[tuple[int, bool], list[int]] = {}
    leaned: set[int] = set()
    for left, cells in left_groups.items():
        for i in cells:
            rest = left
            for j in forced:
                if j != i and left & BIT[forced[j]] \
                        and set(view.runs_of(j)) & set(view.runs_of(i)):
                    rest &= ~BIT[forced[j]]
                    leaned.add(j)
            shown.setdefault((rest, True) if rest and rest != left else (left, False),
                             []).append(i)
    parts = []
    by_digit: dict[int, list[int]] = {}
    for j in sorted(leaned):
        by_digit.setdefault(forced[j], []).append(j)
    for d, cells in by_digit.items():
        names = " and ".join(view.cells_name(cells).rsplit(", ", 1))
        parts.append(f"{names} can only hold {d}")
    for (left, after), cells in shown.items():
        cells = [i for i in cells if i not in leaned]
        if not cells:
            continue
        names = " and ".join(view.cells_name(cells).rsplit(", ", 1))
        alts = ", ".join(str(d) for d in DIGITS[left])
        alts = " or ".join(alts.rsplit(", ", 1))
        parts.append(f"{names} can {'then ' if after else ''}only hold {alts}")
    return parts, leaned


def _gone(view, place: dict, lost: dict, gone_groups: dict[int, list[int]],
          parts: list[str]) -> None:
    """The "leave" clauses, added to ``parts``. A cell written in because this step left it
    one digit joins the cells that lost the same digits, its digit said after them: "7 and 8
    leave r8c6 and r9c6, and r8c6 is then 6" (one list of digits, not one per cell); such a
    clause comes right after the cells written in, before the lists that read with it."""
    then: dict[int, list[int]] = {}
    for i, gone in sorted(lost.items()):
        if i in place:
            gone_groups.setdefault(gone, [])
            gone_groups[gone] = sorted([*gone_groups[gone], i])
            then.setdefault(gone, []).append(i)
    written_at = len([i for i in place if i not in lost])  # the written cells said first
    for gone, cells in gone_groups.items():
        if not cells:
            continue
        verb = "leaves" if len(DIGITS[gone]) == 1 else "leave"
        names = " and ".join(view.cells_name(cells).rsplit(", ", 1))
        said = f"{_digits(gone)} {verb} {names}"
        written = then.get(gone, [])
        if len(cells) == 1 and written:
            said += f", which is then {place[written[0]]}"
        elif written and written == cells:  # each in turn: "which are then 8 and 5"
            said += f", which are then {both(str(place[i]) for i in written)}"
        else:
            for k, i in enumerate(written):
                said += f"{',' if k == 0 else ''} and {view.cell_name(i)} is then {place[i]}"
        if gone in then:  # a digit written in first: the lists after it read with it
            parts.insert(written_at, said)
            written_at += 1
        else:
            parts.append(said)


class Effect(str):
    """A step's effect in words, which also knows the part about cells alone
    (``changes``: no combination ruled out), for a sentence that has said which
    combinations go already."""

    changes: str

    def __new__(cls, text: str, changes: str = "") -> Effect:
        out = super().__new__(cls, text)
        out.changes = changes if changes and changes != "nothing changes" else text
        return out


def both(items) -> str:
    """``a``; ``a and b``; ``a, b and c``."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _joined(parts: list[str]) -> str:
    if not parts:
        return "nothing changes"
    if len(parts) == 1:
        return parts[0]
    return "; ".join(parts[:-1]) + "; and " + parts[-1]


def sentence(rule, ded, view, effect: str) -> str:
    """The step's sentence from the rule's template."""
    return worded(rule, ded, view, effect)[0]


def worded(rule, ded, view, effect: str) -> tuple[str, str]:
    """The step's sentence (the rule's ``explain`` template: the deciding fact) and its
    detail (the ``detail`` template: the whole case analysis; "" when the rule has none or
    it says no more than the sentence)."""

    resolve_proof(ded)  # a proof built late brings sentence values with it
    values = {
        "effect": str(effect),
        "changes": getattr(effect, "changes", effect),
        "cells": view.cells_name(ded.cells),
        "cell": view.cell_name(ded.cells[0]) if ded.cells else "",
        "run": view.run_name(ded.runs[0]) if ded.runs else "",
        "runs": ", ".join(view.run_name(r) for r in ded.runs),
    }
    if ded.runs:
        run = view.run(ded.runs[0])
        values.update(sum="?" if run.total is None else run.total, length=run.length)
    values.update(ded.values)
    # a rule may give a value as a function: worded only for the step taken, not for
    # every deduction counted or skipped on the way (and only once for both templates)
    for key, value in list(values.items()):
        if callable(value):
            values[key] = value()
    # a rule whose reason names the digits and cells its effect takes already ("if r8c8
    # is 4, ...") gives that effect as said and its shorter words ("4 goes"): the
    # template's {effect_said}, the effect whole where it says more (the detail's {effect}
    # is always whole)
    if "effect_named" in values:
        named, short = values["effect_named"] or ("", "")
        values["effect_said"] = short if named and str(effect) == named else str(effect)
    text = _fill(rule, rule.explain, values)
    detail = _fill(rule, rule.detail, values) if rule.detail else ""
    return text, ("" if detail == text else detail)


def _fill(rule, template: str, values: dict) -> str:
    try:
        text = string.Formatter().vformat(template, (), _Values(rule, values))
    except RuleError:
        raise
    except Exception as e:  # a user's template can fail in any way: name the rule
        raise RuleError(f"rule {rule.id!r}: explain template failed: {e}",
                        path=rule.source) from None
    text = " ".join(text.split())
    # capitalise a sentence, but never a coordinate like r2c1
    if text and text[0].islower() and not (text[0] == "r" and text[1:2].isdigit()):
        text = text[0].upper() + text[1:]
    return text


def a_or_an(word: str) -> str:
    """``word`` with its indefinite article, by how it is said: "an Easy", "an 8x8", "an
    11x11", "a Hard", "a 12x12"."""
    w = str(word)
    if w[:1].isdigit():
        lead = w.split("x", 1)[0]
        # eight, eleven and eighteen (and eighty-...) start with a vowel sound
        vowel = lead.startswith("8") or lead in ("11", "18")
    else:
        vowel = w[:1].lower() in "aeiou"
    return f"{'an' if vowel else 'a'} {w}"


def differences(puzzle, solutions: list[list[int]]) -> list[str]:
    """Cells whose digit is not the same in every solution, with the digits seen."""
    out = []
    for i, rc in enumerate(puzzle.whites):
        seen = sorted({s[i] for s in solutions})
        if len(seen) > 1:
            out.append(f"{cell_name(rc)} ({'/'.join(map(str, seen))})")
    return out

"""Region sums in words: what a region-sum step says (:mod:`deducer.rules.regions` finds
the steps).

The two groups of runs by their short names and what each adds up to, the equation the
region leaves (one minus sign, no negative number, many written digits said as their sum
with the runs they sit in), the cells that differ, the ways that fit and the bounds that
decide; and how long each of those runs as said, which decides where a step stops
(:func:`many_words`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import cast

from ..puzzle.combos import BIT, DIGITS, alts_of
from ..puzzle.model import DOWN
from .api import View
from .bounds import sum_limits
from .facts import both, pairs_said
from .regionfind import Region, Touch

_WORD = {True: "down", False: "across"}
#: the longest equation and ways a region sum's sentence gives (its area and effect aside):
#: beyond it, which cells differ and each way are left to the detail
FITS_MAX = 90
#: the longest a region sum's sentence runs before its effect (its runs, equation and
#: reason): the ways that fit are given only within it (issue 37: a sentence near 160)
BRIEF_MAX = 125


def region_facts(view: View, region: Region, chosen: list[Touch], excluded: list[Touch]
                 ) -> tuple[dict, tuple[list[int], list[int]], tuple[list[int], list[int]]]:
    """Sentence values, and the two known sides of the identity: (base total and the
    digits written in cells only the other runs cover, chosen total and the digits written
    in cells only the base runs cover), so that open base-only cells minus open other-only
    cells make sum(first) - sum(second); and the cells of those written digits, in the same
    order."""
    chosen_total = sum(cast(int, t.total) for t in chosen)  # chosen touches are clued
    only_base = [i for t in excluded for i in t.inside]
    only_other = [i for t in chosen for i in t.outside]
    base_vals = [view.value(i) for i in only_base if view.is_placed(i)]
    other_vals = [view.value(i) for i in only_other if view.is_placed(i)]
    down = region.direction == DOWN

    apart = []
    if only_base:
        apart.append(f"{_old_named(view, only_base)} (only in the {_WORD[down]} runs)")
    if only_other:
        apart.append(f"{_old_named(view, only_other)} (only in the {_WORD[not down]} runs)")
    said = {region.direction == DOWN: region.total, region.direction != DOWN: chosen_total}
    groups = _cover_groups(view, region, chosen)
    facts = {
        "base_desc": _group(view, _WORD[down], region.base, region.total),
        "chosen_desc": _group(view, _WORD[not down], [t.run for t in chosen], chosen_total),
        "base": ", ".join(view.run_name(r) for r in region.base),
        "base_total": region.total,
        "chosen": ", ".join(view.run_name(t.run) for t in chosen),
        "chosen_total": chosen_total,
        "apart": " and ".join(apart),
        # the brief sentence: the two groups of runs, each run by its short name (its
        # clue square and direction, as a crossing run is named), and what each group adds
        # up to; each run's sum and the cells only one group covers are the detail's
        "cover": _cover(groups, said),
    }
    written = ([i for i in only_other if view.is_placed(i)],
               [i for i in only_base if view.is_placed(i)])
    return facts, ([region.total] + other_vals, [chosen_total] + base_vals), written


def run_homes(view: View, region: Region, chosen: list[Touch], excluded: list[Touch]
              ) -> dict[int, int]:
    """The run each cell only one group covers sits in, in that group: a sentence names
    the runs whose written digits it subtracts ("(42 + 19 in r1c6↓)"), not each cell."""
    out = {i: t.run for t in chosen for i in t.outside}
    base = set(region.base)
    for t in excluded:
        for i in t.inside:
            r = next((r for r in view.runs_of(i) if r in base), None)
            if r is not None:
                out[i] = r
    return out


#: a sentence names at most this many runs of one group; more are said as how many (each
#: is in the detail; issue 51: "more than four runs go to the detail")
RUNS_MAX = 4


def _labels(view: View, runs: Iterable[int], word: str = "", was: bool = False) -> str:
    """``r2c1→ r3c1→ r4c1→``: runs by their short names, in the grid's order (the arrows
    part them, so no commas are needed); more than :data:`RUNS_MAX`: ``9 across runs``.
    ``was``: the words of before, ``9 across runs r2c3→ to r9c4→``, which a learner read
    as every across run from the one to the other (the group skips some)."""
    labels = [view.puzzle.runs[r].label
              for r in sorted(runs, key=lambda r: view.puzzle.runs[r].ref[:2])]
    if word and len(labels) > RUNS_MAX:
        return (f"{len(labels)} {word} runs {labels[0]} to {labels[-1]}" if was else
                f"{len(labels)} {word} runs")
    return " ".join(labels)


def _cover_groups(view: View, region: Region, chosen: list[Touch], was: bool = False
                  ) -> dict[bool, str]:
    """Each group of runs as said, by whether it is the down group."""
    down = region.direction == DOWN
    return {down: _labels(view, region.base, _WORD[down], was),
            not down: _labels(view, [t.run for t in chosen], _WORD[not down], was)}


def _cover(groups: dict[bool, str], said: dict[bool, int]) -> str:
    """``r2c1→ r3c1→ r4c1→ (41), r1c2↓ r1c3↓ (17)``: the across group, then the down."""
    return f"{groups[False]} ({said[False]}), {groups[True]} ({said[True]})"


def _old_named(view: View, cells: Iterable[int]) -> str:
    return ", ".join(view.cell_name(i) + (f" (= {view.value(i)})" if view.is_placed(i) else "")
                     for i in sorted(cells))


#: a sentence adds up at most this many digits written in the area one by one (more: their
#: sum, "(41 + 42 written in)"; the detail gives each)
WRITTEN_MAX = 2


def _terms(view: View, xs: list[int], short: bool = False, cells: Sequence[int] = (),
           homes: dict[int, int] | None = None, was: bool = False) -> str:
    """``115``; ``(87 + 5 + 9)``; ``short``, with digits written in: ``(41 + 42 in r3c4,
    r3c5 and r4c3)``, naming the cells whose digits are subtracted, or with ``homes``
    (each cell's run) the runs they sit in where that is shorter: ``(41 + 42 in r2c4↓)``,
    ``(81 + 7 in r4c6↓)`` (issue 51: a region sum names the written cells it subtracts).
    ``was``: the words of before, which named only more than :data:`WRITTEN_MAX` digits
    so (``(81 + 7)``; where a step stops is measured on them)."""
    many = len(xs) > WRITTEN_MAX + 1 if was or not cells else len(xs) > 1
    if short and many:
        where = f" in {both([view.cell_name(i) for i in cells])}" if cells else " written in"
        if homes and cells and all(i in homes for i in cells):
            runs = list(dict.fromkeys(homes[i] for i in cells))
            by_run = f" in {both([view.puzzle.runs[r].label for r in runs])}"
            where = min(where, by_run, key=len)
        return f"({xs[0]} + {sum(xs[1:])}{where})"
    return str(xs[0]) if len(xs) == 1 else f"({' + '.join(map(str, xs))})"


def equation(view: View, plus: Sequence[int], minus: Sequence[int],
             sides: tuple[list[int], list[int]], short: bool = False,
             written: tuple[list[int], list[int]] = ([], []),
             homes: dict[int, int] | None = None, bare: bool = False, was: bool = False
             ) -> tuple[str, list[int], list[int], int]:
    """sum(plus) - sum(minus) = sum(sides[0]) - sum(sides[1]), said with no negative
    number and one minus sign: ``r5c8 + r7c8 = 115 - (87 + 5 + 9) = 14``, or for a
    difference ``r8c3 + r9c3 = r7c2 + 1, as 15 - 14 = 1``. Returns the text and the cells
    of each side as said (their sums differ by the last value, the first side larger).
    ``short``: many digits written in are said as their sum, with their cells (``written``,
    in the order of ``sides``; :func:`_terms`, ``homes`` the runs they sit in). ``bare``:
    with no digit written in, no arithmetic (``r8c3 + r9c3 = r7c2 + 1``: the sentence has
    said what each group adds up to, 15 and 14). ``was``: the words of before
    (:func:`_terms`)."""
    first, second = sides
    c_first, c_second = written
    k = sum(first) - sum(second)
    if k < 0 or not plus:
        plus, minus, first, second, k = minus, plus, second, first, -k
        c_first, c_second = c_second, c_first
    lhs = " + ".join(view.cell_name(i) for i in plus)
    rhs = " + ".join(view.cell_name(i) for i in minus)
    if bare and len(first) == len(second) == 1:
        said = f"{rhs}{f' + {k}' if k else ''}" if minus else str(k)
        return f"{lhs} = {said}", list(plus), list(minus), k
    arith = (f"{_terms(view, first, short, c_first, homes, was)} - "
             f"{_terms(view, second, short, c_second, homes, was)} = {k}")
    if not minus:
        return f"{lhs} = {arith}", list(plus), [], k
    if not k:  # "as 52 - 52 = 0" says nothing: both groups make the same
        arith = (f"{_terms(view, first, short, c_first, homes, was)} and "
                 f"{_terms(view, second, short, c_second, homes, was)} both make {sum(first)}")
    return (f"{lhs} = {rhs}{f' + {k}' if k else ''}, as {arith}", list(plus), list(minus),
            k)


def _group(view: View, word: str, runs: Sequence[int], total: int) -> str:
    names = ", ".join(view.run_name(r) for r in runs)
    if len(runs) == 1:
        return f"the {word} run {names} adds up to {total}"
    return f"the {word} runs {names} add up to {total}"


def cands_said(view: View, cells: Iterable[int]) -> str:
    """'r3c4 (1,2,4), r4c4 (6,8)': the candidates the step rests on."""
    return ", ".join(f"{view.cell_name(i)} ({view.digits(view.mask(i))})" for i in cells)


def _limits(cells: Sequence[int], masks: dict[int, int], groups: dict[int, list[int]]
            ) -> tuple[int, int]:
    """The least and most ``cells`` add up to: cells that one run makes differ are
    bounded together as different digits (:func:`sum_limits`), the rest each alone."""
    lo = hi = 0
    left = list(cells)
    for g in groups.values():
        part = [i for i in left if i in g]
        if len(part) > 1:
            a, b = sum_limits([masks[i] for i in part])
            lo, hi = lo + a, hi + b
            left = [i for i in left if i not in part]
    for i in left:
        lo, hi = lo + DIGITS[masks[i]][0], hi + DIGITS[masks[i]][-1]
    return lo, hi


def _exact_limits(cells: Sequence[int], masks: dict[int, int],
                  groups: dict[int, list[int]]) -> tuple[int, int]:
    """The least and most ``cells`` add up to, one digit from each list, every two cells
    one run of ``groups`` holds different: what a reader finds trying the lists (a
    learner, given "1 + 2 + 3 = 6, 1 + 3 + 2 = 6, 3 + 1 + 2 = 6 or 3 + 1 + 3 = 7", saw
    that the cells make at least 6). :func:`_limits` takes each run's cells apart from
    the others', which misses a cell two runs share; a region's cells are at most four,
    so every filling is tried."""
    cells = list(cells)
    apart = [[j for j in range(n) if any(cells[n] in g and cells[j] in g
                                          for g in groups.values())]
             for n in range(len(cells))]
    lo, hi = 10 * len(cells), -1
    pick: list[int] = []

    def walk(n: int, total: int) -> None:
        nonlocal lo, hi
        if n == len(cells):
            lo, hi = min(lo, total), max(hi, total)
            return
        for d in DIGITS[masks[cells[n]]]:
            if all(pick[j] != d for j in apart[n]):
                pick.append(d)
                walk(n + 1, total + d)
                pick.pop()

    walk(0, 0)
    return (lo, hi) if hi >= 0 else _limits(cells, masks, groups)


def _bound_clauses(view: View, first: list[int], second: list[int], k: int,
                   masks: dict[int, int], elim: dict[int, int], groups: dict[int, list[int]],
                   limits: Callable[..., tuple[int, int]] = _limits
                   ) -> list[tuple[int, int, str]]:
    """Per cell, the digits a bound takes and the bound said as briefly as the ``≠`` of the
    cells that differ: ``(cell, digits, "r5c3 + r6c3 ≥ 10 and r2c5 + 4 ≤ 8: r3c5 ≥ 2")``
    (the equation sum(first) = sum(second) + k); a digit no bound takes is in none.
    ``limits`` works out what each side makes (:func:`_limits`, or :func:`_exact_limits`
    where only the words change)."""
    said: list[tuple[int, int, str]] = []
    for x, gone in sorted(elim.items()):
        # x = sum(big) - sum(small) with the constant on the side it is said on
        if x in first:
            big, small, const_big = second, [i for i in first if i != x], k
        else:
            big, small, const_big = first, [i for i in second if i != x], -k
        b_lo, b_hi = limits(big, masks, groups)
        s_lo, s_hi = limits(small, masks, groups)
        lo, hi = b_lo + const_big - s_hi, b_hi + const_big - s_lo
        for side, value, b_val, s_val, taken in (
                ("least", lo, b_lo, s_hi, [d for d in DIGITS[gone] if d < lo]),
                ("most", hi, b_hi, s_lo, [d for d in DIGITS[gone] if d > hi])):
            if not taken:
                continue
            names = [view.cell_name(i) for i in big]
            small_names = [view.cell_name(i) for i in small]
            if const_big > 0:
                names.append(str(const_big))
            elif const_big < 0:
                small_names.append(str(-const_big))
            b_val += max(const_big, 0)
            s_val += max(-const_big, 0)
            x_name = view.cell_name(x)
            if not names:  # x = -(small): not an equation a region gives
                continue
            sym, other_sym = ("≥", "≤") if side == "least" else ("≤", "≥")
            if not small_names:
                text = f"{' + '.join(names)} {sym} {b_val}: {x_name} {sym} {value}"
            elif not small and const_big < 0:  # x = big - k: "≤ 24: r3c3 ≤ 24 - 17 = 7"
                text = (f"{' + '.join(names)} {sym} {b_val - s_val + (-const_big)}: "
                        f"{x_name} {sym} {b_val - s_val + (-const_big)} - {-const_big} = "
                        f"{value}")
            elif len(names) == 1 and names[0].isdigit():  # x = k - small: one minus sign
                text = (f"{' + '.join(small_names)} {other_sym} {s_val}: {x_name} {sym} "
                        f"{names[0]} - {s_val} = {value}")
            else:
                text = (f"{' + '.join(names)} {sym} {b_val} and {' + '.join(small_names)} "
                        f"{other_sym} {s_val}: {x_name} {sym} {value}")
            mask = 0
            for d in taken:
                mask |= BIT[d]
            said.append((x, mask, text))
    return said


def _bound_reason(view: View, first: list[int], second: list[int], k: int,
                  masks: dict[int, int], elim: dict[int, int], groups: dict[int, list[int]]
                  ) -> str | None:
    """Why the digits go, where bounds say it for every one (:func:`_bound_clauses`);
    None where some digit goes for another reason."""
    said = _bound_clauses(view, first, second, k, masks, elim, groups)
    took: dict[int, int] = {}
    for x, m, _ in said:
        took[x] = took.get(x, 0) | m
    return "; ".join(t for _, _, t in said) if said and took == elim else None


_LEAST = re.compile(r"^(.+) ≥ (\d+): (r\d+c\d+) ≥ (\d+)$")
_MOST = re.compile(r"^(.+) ≤ (\d+): (r\d+c\d+) ≤ (\d+)$")


def _both_ends(texts: list[str]) -> list[str]:
    """A cell's two bounds from one sum said once: ``r8c5 + r8c4 + 3 ≥ 8: r7c3 ≥ 8`` and
    ``... ≤ 9: r7c3 ≤ 9`` as ``8 ≤ r8c5 + r8c4 + 3 ≤ 9: 8 ≤ r7c3 ≤ 9``, and where both
    ends meet ``r8c5 + r8c4 + 3 = 8: r7c3 = 8``."""
    out: list[str] = []
    for t in texts:
        lo = _LEAST.match(out[-1]) if out else None
        hi = _MOST.match(t)
        if lo and hi and lo.group(1) == hi.group(1) and lo.group(3) == hi.group(3):
            expr, cell = lo.group(1), lo.group(3)
            # the cell's own bounds only where they are not those of the sum it equals
            same = lo.group(2) == lo.group(4) and hi.group(2) == hi.group(4)
            if lo.group(2) == hi.group(2):
                out[-1] = f"{expr} = {lo.group(2)}" + ("" if same else
                                                       f": {cell} = {lo.group(4)}")
            else:
                out[-1] = (f"{lo.group(2)} ≤ {expr} ≤ {hi.group(2)}" + ("" if same else
                           f": {lo.group(4)} ≤ {cell} ≤ {hi.group(4)}"))
            continue
        out.append(t)
    return out


#: the longest the bounds a region sum's sentence gives run, as said: a step whose bounds
#: run longer takes the digits of those that fit (the first always) and leaves the rest to
#: the next steps (issue 51: a sentence of about 160 characters)
BOUNDS_MAX = 60



def _differ_full(view: View, groups: dict[int, list[int]]) -> str:
    """The detail's cells that differ: ``; r3c4, r3c5 are both in ..., so they differ``."""
    if not groups:
        return ""
    said = [f"{view.cells_name(sorted(g))} are all in {view.run_name(r)}"
            if len(g) > 2 else f"{view.cells_name(sorted(g))} are both in {view.run_name(r)}"
            for r, g in sorted(groups.items())]
    return "; " + "; ".join(said) + ", so they differ"


def _way_texts(cells: Sequence[int], first: Sequence[int], second: Sequence[int], k: int,
               ways: Sequence[Sequence[int]]) -> list[str]:
    """Each way in the order the equation says its cells: ``1 + 3 + 8``; with cells on
    both sides ``8 + 5 = 1 + 12`` (the first side's digits, then the other's and ``k``)."""
    at = {i: n for n, i in enumerate(cells)}
    out = []
    for w in ways:
        text = " + ".join(str(w[at[i]]) for i in first)
        if second:
            rest = [str(w[at[i]]) for i in second] + ([str(k)] if k else [])
            text = f"{text} = {' + '.join(rest)}"
        out.append(text)
    return out


def _differ_brief(view: View, groups: dict[int, list[int]], fits_room: int) -> str:
    """The sentence's cells that differ: each pair (``r3c4 ≠ r3c5 (r3c2→)``) where that
    fits ``fits_room`` and is not much longer than naming the runs (``cells of r3c2→
    differ``), which the proof needs named."""
    differing = "; ".join((" ≠ ".join(view.cell_name(i) for i in sorted(g)) if len(g) == 2
                           else f"{both([view.cell_name(i) for i in sorted(g)])} differ")
                          + f" ({view.puzzle.runs[r].label})" for r, g in sorted(groups.items()))
    labels = [view.puzzle.runs[r].label for r in sorted(groups)]
    runs_differ = f"cells of {both(labels)} differ"
    return (differing if len(differing) <= fits_room and len(differing) <= len(runs_differ) + 8
            else runs_differ)


def _bounds_within(clauses: list[tuple[int, int, str]]) -> tuple[str, dict[int, int]]:
    """The bounds said, as many as fit :data:`BOUNDS_MAX` (the first always), and the
    digits they take."""
    kept: dict[int, int] = {}
    said_b: list[str] = []
    for x, m, text in clauses:
        if said_b and len("; ".join(_both_ends([*said_b, text]))) > BOUNDS_MAX:
            break
        said_b.append(text)
        kept[x] = kept.get(x, 0) | m
    return "; ".join(_both_ends(said_b)), kept


def _needed(groups: dict[int, list[int]], same: Callable[[dict[int, list[int]]], bool]
            ) -> dict[int, list[int]]:
    """The groups of cells that differ a fact rests on: each left out, first to last,
    where ``same`` says the fact holds without it."""
    needs = dict(groups)
    for r in sorted(groups):
        fewer = {g: cs for g, cs in needs.items() if g != r}
        if same(fewer):
            needs = fewer
    return needs


def _differ_said(view: View, groups: dict[int, list[int]], room: int) -> str:
    """The cells that differ as the sentence says them (:func:`_differ_brief`), or ""."""
    return _differ_brief(view, groups, room) if groups else ""


def _every_bound(clauses: list[tuple[int, int, str]], elim: dict[int, int]) -> str:
    """Every bound, a cell's two ends from one sum said once, where together they take
    every digit of ``elim``; else ""."""
    took: dict[int, int] = {}
    for x, m, _ in clauses:
        took[x] = took.get(x, 0) | m
    return "; ".join(_both_ends([t for _, _, t in clauses])) if clauses and took == elim \
        else ""


@dataclass(frozen=True, slots=True)
class ManyFound:
    """What a region sum of three or more open cells found, for its words: the region,
    the runs chosen and left out, the identity's sides as found (``as_found``), the
    ``cells`` with their ``masks``, the ``ways`` to make their sum, the ``groups`` of them
    one run makes differ, the digits no way uses (``elim``), and ``ways_of``: the ways were
    only some of those groups told to differ (None where too many)."""

    region: Region
    chosen: list[Touch]
    excluded: list[Touch]
    as_found: tuple[list[int], list[int]]
    cells: list[int]
    masks: list[int]
    ways: Sequence[Sequence[int]]
    groups: dict[int, list[int]]
    elim: dict[int, int]
    ways_of: Callable[[dict[int, list[int]]], Sequence[Sequence[int]] | None]


def _reason(view: View, found: ManyFound, eq: tuple[list[int], list[int], int],
            said_ways: str, ways_first: bool, fits_room: int
            ) -> tuple[list[str], dict[int, int]]:
    """The reason a region sum of three or more cells gives after its equation (``eq``:
    sum(first) = sum(second) + k), and the digits the step takes. The deciding fact is
    always said (issue 51: "cells of r9c5→ differ, so 7 leaves r4c4" left the reader the
    search): the ways (``said_ways``) where they come first (``ways_first``: they fit the
    words of before) and no bound is shorter, else the bounds (the step taking the
    digits they take, as many as fit BOUNDS_MAX, the first always), else every way."""
    first, second, k = eq
    at = dict(zip(found.cells, found.masks, strict=True))
    elim, groups, ways, ways_of = found.elim, found.groups, found.ways, found.ways_of
    clauses = _bound_clauses(view, first, second, k, at, elim, groups)
    bounds_said, kept = _bounds_within(clauses) if clauses else ("", dict(elim))

    def bounds(of: dict[int, list[int]]) -> tuple[str, dict[int, int]]:
        return _bounds_within(_bound_clauses(view, first, second, k, at, elim, of))

    def every(of: dict[int, list[int]]) -> str:
        # said in place of the ways only (the step takes what the ways take, so the steps
        # stay those the ratings are fitted on): the exact least and most, as a reader
        # trying the lists finds them
        return _every_bound(_bound_clauses(view, first, second, k, at, elim, of,
                                           _exact_limits), elim)

    def same_ways(of: dict[int, list[int]]) -> bool:
        w = ways_of(of)
        return w is not None and [tuple(x) for x in w] == [tuple(x) for x in ways]

    if ways_first and not (bounds_said and len(bounds_said) < len(said_ways)):
        decisive, needs = said_ways, _needed(groups, same_ways)
    elif bounds_said:  # the ways are the detail's: the deciding bounds say why digits go
        decisive = bounds_said
        needs = _needed(groups, lambda of: bounds(of) == (bounds_said, kept))
        elim = kept
    else:
        decisive, needs = said_ways, _needed(groups, same_ways)
    if decisive != bounds_said:
        # the ways: every bound, where together they take every digit, is the fact that
        # decides (the least or most the cells make), said where it is shorter
        all_bounds = every(groups)
        if all_bounds:
            b_needs = _needed(groups, lambda of: every(of) == all_bounds)
            if (len(all_bounds) + len(_differ_said(view, b_needs, fits_room))
                    < len(decisive) + len(_differ_said(view, needs, fits_room))):
                decisive, needs = all_bounds, b_needs
    # the cells that differ are said only where the fact said rests on it (without it
    # the ways, or the bounds, would be others), and only those it rests on
    return [r for r in (_differ_said(view, needs, fits_room), decisive) if r], elim


def many_words(view: View, found: ManyFound) -> tuple[dict, dict[int, int]]:
    """A region sum of three or more open cells in words, and the digits the step takes:
    those of the reason the words of before said (the bounds that fit, else every digit
    ``found.elim`` has)."""
    region, chosen, excluded = found.region, found.chosen, found.excluded
    as_found, cells, ways, groups = found.as_found, found.cells, found.ways, found.groups
    values, sides, written = region_facts(view, region, chosen, excluded)
    eq, first, second, k_said = equation(view, *as_found, sides)
    homes = run_homes(view, region, chosen, excluded)
    eq_said = equation(view, *as_found, sides, short=True, written=written, homes=homes,
                       bare=True)[0]
    # where the step stops is measured on the words of before (issue 51: the steps stay
    # those the ratings are fitted on): the equation with its arithmetic, and a group of
    # many runs as "the 9 across runs ..."
    eq_was = equation(view, *as_found, sides, short=True, written=written, homes=homes,
                      was=True)[0]
    down = region.direction == DOWN
    totals = {down: values["base_total"], not down: values["chosen_total"]}
    cover_was = len(_cover(_cover_groups(view, region, chosen, was=True), totals)) + len(
        "the ") * sum(len(g) > RUNS_MAX for g in (region.base, chosen))
    texts = _way_texts(cells, first, second, k_said, ways)
    shown = "; ".join(texts)
    many = len(ways) > 1
    full = (f"{eq}, with {cands_said(view, cells)}{_differ_full(view, groups)}. "
            f"The only way{'s' if many else ''} to make it: {shown}")
    fits = f"only {' or '.join(texts)} {'fit' if many else 'fits'}"
    listed = len(eq_was) + len(fits) <= FITS_MAX or len(ways) <= 2
    if not listed:
        fits = f"only {len(ways)} ways fit"  # each of them is in the detail
    # the reason after the equation, as much as fits in BRIEF_MAX with the runs and the
    # equation: which cells differ (each pair, else the runs that make them differ), then
    # the ways when they are few enough to read (a count of ways the reader cannot see
    # says nothing; the detail lists them)
    room = BRIEF_MAX - cover_was - len(eq_was)
    said_differ = ""
    ways_said = fits
    fits_room = room - 4 - (len(fits) if listed else 0)  # for the cells that differ
    if groups:
        said_differ = _differ_brief(view, groups, fits_room)
        fits = f"{said_differ}; {fits}"
    ways_first = listed and len(said_differ) + 2 * bool(said_differ) + len(ways_said) + 2 <= room
    said_ways = ways_said if listed else f"only {' or '.join(texts)} {'fit' if many else 'fits'}"
    reason, elim = _reason(view, found, (first, second, k_said), said_ways, ways_first,
                           fits_room)
    if len(texts) > 2:
        # the ways said as any list is ("3 + 9 + 4, 5 + 9 + 2 or 6 + 8 + 2"); where the step
        # stops was measured with "or" between each (the words of before: the same steps)
        was, now = " or ".join(texts), alts_of(texts)
        fits = fits.replace(was, now)
        reason = [r.replace(was, now) for r in reason]
    values.update(equation=eq_said, target=view.cells_name(cells), digit="", ways=shown,
                  fits=fits, reason="".join(f"; {r}" for r in reason), full=full)
    return values, elim


def pairs_fit(view: View, pairs: Sequence[tuple[int, int]], rel: str, total: int,
              order: Sequence[int]) -> str:
    """A region sum of two cells' pairs that fit (``rel`` "+": each unordered pair once,
    "5 and 7", never "5 + 7 or 7 + 5"; "-": said as the equation is, ``9 = 6 + 3``), or
    with more than four, the cells' lists (``order``) and the rule in words."""
    if rel == "+":
        said, count = pairs_said(list(pairs))
    else:
        said = alts_of([f"{a} = {b}" + (f" + {abs(total)}" if total else "") for a, b in pairs])
        count = len(pairs)
    return (f"only {said} {'fits' if count == 1 and ' and ' not in said else 'fit'}"
            if 1 <= len(pairs) <= 4 else
            f"with {cands_said(view, order)}, digits with no partner go")

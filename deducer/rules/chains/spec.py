"""What a whip and a braid are, said plainly: read this module first.

A chain starts from an **assumption**: write digit ``d`` in cell ``c`` on a private copy of
the board. A **link** is a step of one of the ladder's link rules (``kind: link`` in the
rule YAML, docs/rule-authors-guide.md "A link of chains") found on that copy, with a proof
of its own (docs/rule-contract.md "Chains"). The links are applied one after another with
the kernel (:mod:`deducer.engine.kernel`), as the engine applies a step, until the copy
**breaks**: a cell has no digit left, or a run's written digits fit no way to make its clue.
Then ``d`` cannot be in ``c``. A chain's **length** counts its links and the closing
contradiction (docs/walkthroughs.md).

* A **whip** (Berthier's term; docs/rule-contract.md): every link rests on the link just
  before it: it is asked only on the runs that link changed, and it is new (no earlier
  state of the search offered it). :func:`whip_from` finds the shortest whip from one
  assumption breadth first: all whips of one link, then of two... :func:`find_whip` does
  so for every assumption together, the shortest first.
* A **braid**: a link may rest on several earlier links. :func:`braid_from` follows the
  assumption with every link rule, simplest first (ladder order), as the engine walks a
  board, and keeps only the links the contradiction rests on: that is the chain.

This is the definition the fast searches (:mod:`.whip`, :mod:`.braid`) must agree with
(tests/test_chain_spec.py compares them at every chain step). It keeps nothing from step
to step, bounds nothing and caches nothing: it is slow, and meant to be read.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from ...engine import kernel
from ...engine.kernel import Effect
from ...engine.state import Proof, View, resolve_proof
from .links import _as_link, _breaks, _broken, _local, _offer, _order, _runs_near

if TYPE_CHECKING:
    from ...engine.registry import Rule
    from ...engine.state import State
    from .. import api


def _assumed(view: api.View, cell: int, digit: int, path: tuple[Effect, ...] = ()
             ) -> tuple[State, set[int]]:
    """A private copy of the board with the assumption and the links of ``path`` applied:
    (the copy, the cells the last of them changed: the assumption's own cell and those
    that lost its digit, or the cells the last link narrowed or wrote in and their peers
    that lost a digit it wrote)."""
    state = view.suppose()
    changed, _ = kernel.apply(state, Effect(place=((cell, digit),)))
    changed.add(cell)
    for eff in path:
        changed, _ = kernel.apply(state, eff)
    return state, changed


def _offers(hview: api.View, state: State, rules: list[Rule], runs: list[int]
            ) -> Iterator[tuple[int, int | None, Effect, object]]:
    """Every link the rules offer on ``state`` (seen through ``hview``): (rule index, run
    asked or None, what it changes, what it claims), rule by rule in ladder order; a run
    rule is asked about ``runs``, in order, any other rule about the whole board."""
    for k, rl in enumerate(rules):
        for rid in runs if rl.scope == "run" else [None]:
            found = rl.call(hview, rid) if rid is not None else rl.call(hview)
            for ded in found or ():
                eff = _as_link(state, rl, ded)
                if eff is not None:
                    yield k, rid, eff, _offer(state, rl, ded)


def _said_before(said: dict[tuple, tuple[dict[int, int], set]], key: tuple, eff: Effect
                 ) -> bool:
    """Had the rule on this run (``key``) claimed all of ``eff`` before, in an earlier
    state of the search? Then it does not rest on the link just made. (Notes the claim.)"""
    elims, places = said.setdefault(key, ({}, set()))
    old = not eff.drop
    for i, m in eff.elim:
        if elims.get(i, 0) & m != m:
            old, elims[i] = False, elims.get(i, 0) | m
    for p in eff.place:
        if p not in places:
            old = False
            places.add(p)
    return old


def whip_from(view: api.View, rules: list[Rule], cell: int, digit: int, max_len: int
              ) -> list[Effect] | None:
    """The shortest whip from ``digit`` in ``cell``, of at most ``max_len`` links (the
    closing contradiction counted): its links' effects, in order (``[]``: the assumption
    alone breaks the board), or None. Breadth first: level ``n`` holds every path of ``n``
    links, each link asked on the runs the link before it changed and new in the search
    (the first path in order that breaks the board ends it)."""
    state, changed = _assumed(view, cell, digit)
    if _broken(state, changed) is not None:
        return []
    seen: set = set()  # links (and rules' claims) met anywhere in the search so far
    said: dict[tuple, tuple[dict[int, int], set]] = {}
    level: list[tuple[Effect, ...]] = [()]
    for _ in range(max_len - 1):  # a path of n links is a whip of n + 1
        nxt = []
        for path in level:
            state, changed = _assumed(view, cell, digit, path)
            hview = View(state, view.context)
            for k, rid, eff, offer in _offers(hview, state, rules, _runs_near(state, changed)):
                if eff in seen or (k, offer) in seen or _said_before(said, (k, rid), eff):
                    continue
                seen.update((eff, (k, offer)))
                if _breaks(state, eff) is not None:
                    return [*path, eff]
                nxt.append((*path, eff))
        if not nxt:
            return None
        level = nxt
    return None


def find_whip(view: api.View, rules: list[Rule], max_len: int, bivalue: bool = False
              ) -> tuple[int, int, list[Effect]] | None:
    """The shortest whip over every assumption (of a two-candidate cell only, with
    ``bivalue``): (cell, digit, links), the first assumption in order on ties."""
    best: tuple[int, int, list[Effect]] | None = None
    for cell, digit in _order(view, bivalue):
        cap = max_len if best is None else len(best[2])  # only a shorter one
        got = whip_from(view, rules, cell, digit, cap)
        if got is not None and (best is None or len(got) < len(best[2])):
            best = (cell, digit, got)
    return best


def _rests_on(proof: Proof | None, removers: dict[int, set[int]], writer: dict[int, int],
              droppers: dict[int, set[int]], run_cells: Sequence[Sequence[int]]) -> set[int]:
    """The earlier links a link's proof rests on: those that took candidates of its
    cells, wrote digits in its runs, or narrowed a run whose combinations it states."""
    deps: set[int] = set()
    if proof is None:
        return deps
    for i in proof.cells:
        deps |= removers.get(i, set())
    for r in proof.combos:
        deps |= droppers.get(r, set())
        for j in run_cells[r]:
            deps |= removers.get(j, set())
    for r in (*proof.runs, *proof.combos):
        deps.update(writer[j] for j in run_cells[r] if j in writer)
    return deps


def braid_from(view: api.View, rules: list[Rule], cell: int, digit: int, max_links: int
               ) -> int | None:
    """The length of the braid from ``digit`` in ``cell`` (None: no contradiction within
    ``max_links`` links walked). The walk: the first link of the simplest rule (ladder
    order; runs in order), asked only where the walk changed what the rule reads (a run
    the assumption or a link changed; a rule that reads the runs crossing its own, any of
    those too: a link must follow from the assumption), applied, again, until the board
    breaks. The chain is the links the contradiction rests on, the closing counted."""
    state, changed = _assumed(view, cell, digit)
    hview, lay = View(state, view.context), state.layout
    local = _local(rules)
    touched = set(changed)  # every cell the walk changed
    removers: dict[int, set[int]] = {}  # cell -> links that took its candidates
    writer: dict[int, int] = {}  # cell -> the link that wrote its digit
    droppers: dict[int, set[int]] = {}  # run -> links that dropped its combinations
    deps: list[set[int]] = []  # per link, the earlier links it rests on
    broken = _broken(state, changed)
    while broken is None and len(deps) < max_links:
        near = _runs_near(state, touched)
        wide = _runs_near(state, {j for r in near for j in lay.run_cells[r]})
        hit = None
        for k, rl in enumerate(rules):
            runs = (near if k in local else wide) if rl.scope == "run" else [None]
            for rid in runs:
                found = rl.call(hview, rid) if rid is not None else rl.call(hview)
                hit = next(((d, e) for d in found or () if (e := _as_link(state, rl, d))), None)
                if hit is not None:
                    break
            if hit is not None:
                break
        if hit is None:
            return None  # no link rule has more to say
        ded, eff = hit
        n = len(deps)
        deps.append(_rests_on(resolve_proof(ded), removers, writer, droppers, lay.run_cells))
        before = list(state.masks)
        cells, _ = kernel.apply(state, eff)
        place = dict(eff.place)
        for i in place:
            writer[i] = n
        for i in cells:
            if i not in place and before[i] & ~state.masks[i]:
                removers.setdefault(i, set()).add(n)
        for r, _ in eff.drop:
            droppers.setdefault(r, set()).add(n)
        touched |= cells
        broken = _broken(state, cells)
    if broken is None:
        return None
    what, where = broken
    if what == "cell":
        todo = list(removers.get(where, ()))
    else:
        todo = [writer[j] for j in lay.run_cells[where] if j in writer]
    kept: set[int] = set()
    while todo:  # the links the contradiction rests on, and those they rest on
        k = todo.pop()
        if k not in kept:
            kept.add(k)
            todo.extend(deps[k])
    return len(kept) + 1


def find_braid(view: api.View, rules: list[Rule], max_len: int, budgets: Sequence[int]
               ) -> tuple[int, int, int] | None:
    """The braid the forcing-braid rung takes: (cell, digit, length). Every assumption is
    walked for ``budgets[0]`` links, in order; the shortest chain of at most ``max_len``
    links found wins (the first on ties); if none, every assumption again with the next
    budget (a walk's links the contradiction does not rest on are dropped, so a longer
    walk may still give a short chain)."""
    for budget in budgets:
        best: tuple[int, int, int] | None = None
        for cell, digit in _order(view, False):
            length = braid_from(view, rules, cell, digit, budget)
            if length is not None and length <= max_len and (best is None
                                                              or length < best[2]):
                best = (cell, digit, length)
        if best is not None:
            return best
    return None

"""Chains built from the ladder: assume a candidate, follow the ladder's own link rules on
the hypothetical state, reach a cell with no digit left (or a run no combination makes).

A link is a step of a rule the rule files declare ``kind: link``, found by that rule's own
function on a private copy of the state (:meth:`View.suppose`) with the assumed digit and
the earlier links written in; its sentence and proof are the rule's own (docs/rule-contract.md
"Chains"). Nothing here knows what any link rule does.

Two shapes, shortest first (Berthier's whips and braids, CSP-Rules):

* a **whip**: every link follows from the link just before it (with the board, the
  assumption and what the earlier links took, which the reader has before them: Berthier's
  t-candidates), so the chain reads as one line. Searched breadth first over all
  assumptions together (:func:`find_whip`): a node's state is the board with the
  assumption and the links of its path written in, and a node's children are the links
  that state offers and no earlier state did. The searches are kept from step to step
  and dropped near a change (:mod:`.chaincache`).
* a **braid**: a link may rest on several earlier links. The assumption is followed with
  every link rule, simplest first, and only the links the contradiction rests on are kept
  (:func:`find_braid`); the forcing-braid rung (weighted above a whip of the same length)
  and trial (no cut-off) use it, where no whip exists.

Weights, scores, cut-offs and search budgets are the rule files' (each rule's ``params``:
``max_len``, ``search_nodes``, ``work``, ``budgets``, ``reach``): a chain's deduction gives
its length as its ``size``, and the rule's ``growth:`` adds per link (Rule.weight_of).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..engine import kernel
from ..engine.kernel import Effect, UndoLog
from ..engine.registry import CORE, check_deduction
from ..engine.sentences import effect_text, sentence
from ..engine.state import Deduction, Link, Proof, View, resolve_proof
from ..puzzle.combos import BIT, DIGITS, POP, SINGLE, combos
from . import rule
from .chainbound import (
    NAKED_SINGLE,
    NEVER,
    Memo,
    bounds_for,
    fits,
    link_filter,
    reader,
    readers_for,
    rounds_on,
)
from .chaincache import ChainCache, Looks, Node, Offer, Snapshot, WhipSearch
from .facts import digits_and

if TYPE_CHECKING:
    from collections.abc import Collection, Generator, Iterable, Iterator

    from ..engine.registry import Rule
    from ..engine.state import State
    from ..solver.propagate import Layout
    from . import api

_CORE = str(CORE)


# ---------------------------------------------------------------------------- the ladder
def link_rules(view: api.View, only: Collection[str] | None = None) -> list[Rule]:
    """The ladder's rules of ``kind: link`` (those named in ``only``, if given), in
    ladder order."""
    rules = view.context.rules
    if rules is None:  # a view made outside a walk: the built-in ladder
        rules = view.context.cache("chains.ladder").get("rules")
        if rules is None:
            from ..engine import registry

            rules = view.context.cache("chains.ladder")["rules"] = registry.load()
    return [r for r in rules if r.link and (only is None or r.id in only)]


# ---------------------------------------------------------------------------- hypothetical states
def _assume(view: api.View, cell: int, digit: int) -> tuple[State, set[int]]:
    """(state, cells changed) of the board with ``digit`` written in ``cell``."""
    state = view.suppose()
    changed: set[int] = set()
    kernel.write(state, cell, digit, changed)
    return state, changed


def _linkable(ded: Deduction) -> bool:
    """May a deduction be a link? Not without a proof, nor with a proof by assumption (or
    by cases) of its own."""
    proof = ded.proof
    return proof is not None and (callable(proof) or (proof.assume is None
                                                      and not proof.cases))


def _as_link(state: State, rule: Rule, ded: Deduction) -> Effect | None:
    """What a link rule's deduction changes on ``state``, checked as an engine step is
    (:func:`kernel.effect`); None when nothing, or when it cannot be a link."""
    eff = kernel.effect(state, rule, ded)
    return eff if eff is not None and _linkable(ded) else None


def _unmakeable(state: State, r: int, written: int) -> bool:
    """Does no way to make run ``r``'s clue hold all the digits ``written`` in it?"""
    run = state.puzzle.runs[r]
    if run.total is None:
        return False
    return not _makeable(run.total, run.length) >> written & 1


@functools.cache
def _makeable(total: int, length: int) -> int:
    """A bit for every set of digits (as a mask) some way to make ``total`` in ``length``
    cells holds."""
    return fits(combos(total, length))


def _written(state: State, r: int) -> int:
    m = 0
    for j in state.layout.run_cells[r]:
        if state.placed[j]:
            m |= state.masks[j]
    return m


def _breaks(state: State, eff: Effect) -> tuple[str, int] | None:
    """Where ``eff`` would break ``state`` (not changing it): ("cell", i) left with no
    digit, or ("run", r) whose written digits no way to make its clue holds."""
    masks, lay = state.masks, state.layout
    if not eff.place:  # (most links: each cell once, in order)
        for i, m in eff.elim:
            if not masks[i] & ~m:
                return ("cell", i)
        return None
    gone: dict[int, int] = {}
    for i, m in eff.elim:
        gone[i] = gone.get(i, 0) | m
    placed = {i for i, _ in eff.place}
    runs: dict[int, int] = {}
    for i, d in eff.place:
        for r in lay.cell_runs[i]:
            runs[r] = runs.get(r, 0) | BIT[d]
            for j in lay.run_cells[r]:
                if j != i:
                    gone[j] = gone.get(j, 0) | BIT[d]
    for i in sorted(gone):
        if i not in placed and not masks[i] & ~gone[i]:
            return ("cell", i)
    for r in sorted(runs):
        if _unmakeable(state, r, _written(state, r) | runs[r]):
            return ("run", r)
    return None


def _broken(state: State, cells: Collection[int]) -> tuple[str, int] | None:
    """Where ``state`` is broken near ``cells`` (see :func:`_breaks`)."""
    for i in sorted(cells):
        if not state.masks[i]:
            return ("cell", i)
    lay = state.layout
    for r in sorted({r for i in cells if state.placed[i] for r in lay.cell_runs[i]}):
        if _unmakeable(state, r, _written(state, r)):
            return ("run", r)
    return None


def _the_cells(state: State, broken: tuple[str, int]) -> list[int]:
    """The cells to look at for ``broken`` (a cell, or a run's cells)."""
    what, where = broken
    return [where] if what == "cell" else list(state.layout.run_cells[where])


def _runs_near(state: State, cells: Iterable[int]) -> list[int]:
    """Runs through ``cells``: where a change may give a link rule something to say."""
    lay = state.layout
    return sorted({r for i in cells for r in lay.cell_runs[i]})


def _offer(state: State, rule: Rule, ded: Deduction) -> Offer | None:
    """A deduction's claims as an :class:`Offer` (None: it cannot be a link), checked as an
    engine step is (:func:`~deducer.engine.registry.check_deduction`)."""
    check_deduction(rule, ded, len(state.masks), len(state.live))
    if not _linkable(ded):
        return None
    return Offer(tuple(sorted(ded.placements.items())),
                 tuple(sorted(ded.eliminations.items())),
                 tuple(sorted((r, tuple(cs)) for r, cs in ded.drop_combos.items())))


def looks_for(view: api.View) -> Looks:
    """The looks of the built-in link rules in this walk, shared by every chain search."""
    store = view.context.cache("chains.looks")
    got = store.get("looks")
    if got is None:
        got = store["looks"] = Looks()
        got.readers = readers_for(view)
    return got


def _contents(state: State, rid: int, looks: Looks) -> tuple:
    """What a built-in run rule reads of run ``rid``: its live combinations and its cells'
    candidates and written digits: the key of its looks."""
    get = looks.readers.get(rid)
    if get is None:
        get = looks.readers[rid] = reader(state.layout.run_cells[rid])
    return (rid, state.live[rid], get(state.masks), get(state.placed))


#: a look's entry saying whether its run is quiet (:func:`_quiet`)
_QUIET = "quiet"


def _quiet(state: State, rid: int) -> bool:
    """Has no built-in link rule anything to say on run ``rid``? So when the link filter
    (chainbound) takes nothing from it and no open cell is down to one digit: each of those
    rules takes no more than that filter does, writes only a digit it leaves alone, and
    drops no combination (tests/test_chainbound.py checks the three). Most runs a search
    looks at are quiet, and the filter costs less than asking every link rule."""
    masks, placed = state.masks, state.placed
    cells = state.layout.run_cells[rid]
    now = tuple([masks[i] for i in cells])
    for i, m in zip(cells, now, strict=True):
        if not placed[i] and not m & (m - 1):
            return False
    return link_filter(state.layout.run_total[rid], state.live[rid], now) == now


def _looked(look: dict[Any, Any], state: State, view: api.View, rl: Rule, rid: int
            ) -> tuple[Offer, ...]:
    """What built-in run rule ``rl`` offers on run ``rid``, kept in ``look`` (the run's
    contents' entry in the looks): asked once per contents, and not at all where the run
    is quiet."""
    offers = look.get(rl.id)
    if offers is None:
        # (the first rule asked is asked outright: a search with one link rule, naked
        # singles, would pay more for the filter than for the rule)
        quiet = look.get(_QUIET)
        if quiet is None and look:
            quiet = look[_QUIET] = _quiet(state, rid)
        offers = look[rl.id] = () if quiet else tuple(
            o for o in (_offer(state, rl, ded) for ded in rl.call(view, rid) or ())
            if o is not None)
    return offers


def _offers(view: api.View, state: State, rules: list[Rule], runs: list[int], cache: ChainCache
            ) -> Iterator[tuple[int, int | None, Offer | None, Effect]]:
    """(rule index, run, offer, effect) of what the link rules offer on ``runs``, rule by
    rule in ladder order. The built-in rules' offers on a run are kept together by the
    run's contents (they read nothing else): one look per run and contents."""
    if cache.core is None:  # the cache's rules never change: worked out once, not per node
        cache.core = frozenset(k for k, rl in enumerate(rules)
                               if rl.scope == "run" and rl.source == _CORE)
        cache.looks = looks_for(view)
    core, looks = cache.core, cache.looks
    seen: dict[int, dict[Any, Any]] = {}
    if core:
        assert looks is not None
        seen = {rid: looks.entry(_contents(state, rid, looks)) for rid in runs}
    measure = kernel.measure
    rid: int | None  # a run, or None for a global rule
    for k, rl in enumerate(rules):
        if k in core:
            for rid in runs:
                look = seen[rid]
                offers = look.get(rl.id)
                if offers is None:
                    offers = _looked(look, state, view, rl, rid)
                for offer in offers:
                    eff = measure(state, offer.place, offer.elim, offer.drop)
                    if eff is not None:
                        yield k, rid, offer, eff
            continue
        scoped = rl.scope == "run"
        for rid in (runs if scoped else (None,)):
            for ded in (rl.call(view, rid) if scoped else rl.call(view)) or ():
                eff = _as_link(state, rl, ded)
                if eff is not None:
                    yield k, rid, _offer(state, rl, ded), eff


# ---------------------------------------------------------------------------- links
@dataclass
class _Made:
    """A link as a reader sees it, with what it changed (peers of written digits too)."""

    link: Link | None  # None until worded (a braid walk words only the links it keeps)
    place: dict[int, int]
    removed: dict[int, int]  # cell -> digits the link took from it
    drop: dict[int, tuple[int, ...]] = field(default_factory=dict)
    deps: frozenset[int] = frozenset()  # 0-based indices of earlier links it rests on
    #: (cell, digit) when the link writes in a cell's one digit left (a naked single in
    #: effect): its sentence then says which links took the cell's other digits
    last: tuple[int, int] | None = None
    #: for a link not yet worded: its rule (index), the run it was asked on, its effect
    found: tuple[int, int | None, Effect] | None = None
    #: the digits its sentence says leave each cell (its effect's eliminations; not what a
    #: digit it writes takes from its runs, which goes without saying)
    named: dict[int, int] = field(default_factory=dict)


def _make_link(state: State, view: api.View, rl: Rule, ded: Deduction) -> _Made:
    """Apply a link rule's deduction to ``state`` (seen through ``view``) and word it with
    the rule's own template, as the engine does a step."""
    proof = resolve_proof(ded)
    eff = _as_link(state, rl, ded)
    assert eff is not None  # only a deduction that changes the grid is made a link
    place, removed = _applied(state, eff)
    drop = dict(eff.drop)
    # the link says what its rule took; what a digit it wrote takes from its runs goes
    # without saying inside a chain (the closing link says which link took what)
    text = ded.text or sentence(rl, ded, view, effect_text(view, place, dict(eff.elim), drop))
    link = Link(text=text.rstrip("."), proof=proof if proof is not None else Proof(),
                placements=place,
                eliminations=dict(removed), rule=rl.id)
    return _Made(link, place, removed, drop, named={} if ded.text else dict(eff.elim))


def _unworded(state: State, eff: Effect, k: int, rid: int | None) -> _Made:
    """Apply a link's effect to ``state`` with what it changed noted, but not its sentence
    nor its Link: a braid walk makes many links and keeps few (:meth:`_Tracker.word`)."""
    place, removed = _applied(state, eff)
    return _Made(None, place, removed, dict(eff.drop), found=(k, rid, eff),
                 named=dict(eff.elim))


def _applied(state: State, eff: Effect) -> tuple[dict[int, int], dict[int, int]]:
    """Apply a link's effect to ``state``: the digits it writes, and for every other cell
    it changed, the digits it took."""
    log: UndoLog = []
    changed, _ = kernel.apply(state, eff, log)
    before = kernel.before(log)
    place = dict(eff.place)
    removed = {i: before[i] & ~state.masks[i] for i in sorted(changed)
               if i not in place and before[i] & ~state.masks[i]}
    return place, removed


def _went(why: list[tuple[int, str]]) -> str:
    """``3 went with r8c9 = 3; 4 and 5 in (2); 1 in (8)``: "went" said once (a chain says
    this for every cell it empties or leaves one digit)."""
    why = [(m, by) for m, by in why if m]
    said = [f"{digits_and(m)}{' went' if k == 0 else ''} {by}"
            for k, (m, by) in enumerate(why)]
    if len(said) <= 1:
        return "".join(said)
    # "5 and 6 in (5)" holds an "and" of its own: the groups are then set apart by ";"
    if any(POP[m] > 1 for m, _ in why):
        return "; ".join(said)
    return f"{', '.join(said[:-1])} and {said[-1]}"


def _closing(view: api.View, cell: int, why: list[tuple[int, str]],
             just_said: tuple[int, str] = (0, "")) -> Link:
    """The chain's end: a cell with no digit left (``why``: digits and what took them).
    ``just_said``: the digits of the cell the last link's own sentence says leave it
    (``1, 2, 4 and 5 leave r6c2``), and that link (``in (5)``): the closing does not
    list them again, ``r6c2 has no digit left`` where that link took them all, ``(1
    went in (4) and the rest in (5))`` where earlier links took some."""
    why = [(m, by) for m, by in why if m]
    said_mask, last = just_said
    if why and why[-1][1] == last and not why[-1][0] & ~said_mask:
        why.pop()
        said = [f"{digits_and(m)}{' went' if k == 0 else ''} {by}"
                for k, (m, by) in enumerate(why)] + [f"the rest {last}"]
        if len(said) == 1:
            said = []
        elif any(POP[m] > 1 for m, _ in why):  # "3 and 4 in (2)" has an "and" of its own
            said = ["; ".join(said)]
        else:
            said = [f"{', '.join(said[:-1])} and {said[-1]}"]
        text = "".join(said)
    else:
        text = _went(why)
    text = f"{view.cell_name(cell)} has no digit left" + (f" ({text})" if text else "")
    return Link(text=text, proof=Proof(cells={cell: 0}), contradiction=True)


def _just_said(cell: int, links: list[_Made], deps: Iterable[int],
               number: dict[int, int]) -> tuple[int, str]:
    """The digits of ``cell`` the last numbered link says leave it, if the closing rests
    on that link, with the link as the closing names it (``in (5)``)."""
    deps = [k for k in deps if k in number]
    if not deps or number[max(deps)] != max(number.values()):
        return 0, ""
    k = max(deps)
    return links[k].named.get(cell, 0), f"in ({number[k]})"


def _closing_run(view: api.View, state: State, r: int) -> Link:
    """The chain's end: a run whose written digits no way to make its clue holds: said
    as the sum a solver checks, ``no 3 different digits making 10 hold both 2 and 6``."""
    written = _written(state, r)
    said = digits_and(written)  # "2, 5 and 7"
    run = state.puzzle.runs[r]  # clued: an unclued run never breaks this way (_unmakeable)
    them = {1: said, 2: "both"}.get(POP[written], "all of them")
    text = (f"{view.run_name(r)} would hold {said}, but no {run.length} different digits "
            f"making {run.total} hold {them}")
    return Link(text=text, proof=Proof(runs=(r,)), contradiction=True)


def _by_whom(view: api.View, cell: int, assumed: tuple[int, int], links: list[_Made],
             origin: int, deps: Iterable[int], number: dict[int, int] | None = None
             ) -> list[tuple[int, str]]:
    """Which of ``origin``'s digits of ``cell`` the assumption and each link in ``deps``
    took: [(mask, 'with r1c1 = 3'), (mask, 'in (4)')]; ``number``: the number each link
    is shown with (default: its place in ``links``, from 1)."""
    left = origin
    out = []
    a, d = assumed
    if cell != a and BIT[d] & left and set(view.runs_of(cell)) & set(view.runs_of(a)):
        out.append((BIT[d], f"with {view.cell_name(a)} = {d}"))
        left &= ~BIT[d]
    for k in sorted(deps):
        m = links[k].removed.get(cell, 0) & left
        if m:
            out.append((m, f"in ({number[k] if number else k + 1})"))
            left &= ~m
    return out


# ---------------------------------------------------------------------------- whips
def _path(search: WhipSearch, n: int) -> list[Effect]:
    """The effects of node ``n``'s path, the first link first."""
    path = []
    while n >= 0:
        path.append(search.nodes[n].effect)
        n = search.nodes[n].parent
    path.reverse()
    return path


def _expand(view: api.View, search: WhipSearch, rules: list[Rule], cache: ChainCache) -> None:
    """One level of a whip search: every node of the frontier asked for the links its
    state offers that are new (that rest on its own link); a link that would empty a cell
    ends the search."""
    if search.depth < 0:  # the assumption alone: does it break the grid?
        state, log = cache.scratch(view), UndoLog()
        changed, _ = kernel.apply(state, Effect(place=((search.cell, search.digit),)), log)
        hit = _broken(state, changed)
        if hit is not None:
            search.end, search.broken = -1, hit
        # what that depends on is in the assumed cell's runs (the cells that lose the
        # digit are theirs): read at level -1, where a change drops the search; the runs
        # crossing them are read by level 0, whose links are asked there
        cache.read(search, state.layout.cell_runs[search.cell])
        kernel.undo(state, log)
        search.depth, search.frontier = 0, [-1]
        return
    state = cache.scratch(view)
    assumed: UndoLog = []
    start, _ = kernel.apply(state, Effect(place=((search.cell, search.digit),)), assumed)
    try:
        _expand_frontier(view, search, rules, cache, state, start)
    finally:
        kernel.undo(state, assumed)


def _node_states(search: WhipSearch, frontier: list[int], state: State, start: set[int]
                 ) -> Generator[tuple[int, set[int]], None, None]:
    """Each node of ``frontier`` with its state written in ``state`` (which holds the
    assumption) while the caller looks at it: (node, the cells its link changed; for the
    assumption itself, ``start``). A node's siblings follow it in the frontier: their
    parent's path is written in once for them all, and each node's own link on top of it.
    Close it (the caller's ``finally``) to leave ``state`` as it was."""
    up: UndoLog = []  # the parent's path
    log: UndoLog = []  # the node's link
    parent: int | None = None
    try:
        for n in frontier:
            if n < 0:
                yield n, start
                continue
            node = search.nodes[n]
            if node.parent != parent:
                kernel.undo(state, up)
                parent = node.parent
                for eff in _path(search, parent) if parent >= 0 else ():
                    kernel.apply(state, eff, up)
            changed, _ = kernel.apply(state, node.effect, log)
            try:
                yield n, changed
            finally:
                kernel.undo(state, log)
    finally:
        kernel.undo(state, up)


def _expand_frontier(view: api.View, search: WhipSearch, rules: list[Rule], cache: ChainCache,
                     state: State,
                     start: set[int]) -> None:
    """:func:`_expand` past the assumption, on the scratch ``state`` that holds it."""
    search.begin_level()
    frontier, search.frontier = search.frontier, []
    hview = View(state, view.context)
    nodes = _node_states(search, frontier, state, start | {search.cell})
    try:
        for n, changed in nodes:
            if _expand_node(search, rules, cache, state, hview, n, changed):
                return
            if len(search.nodes) > cache.search_nodes:
                search.done = search.gave_up = True
                return
    finally:
        nodes.close()
    search.depth += 1
    if not search.frontier:
        search.done = True


def _expand_node(search: WhipSearch, rules: list[Rule], cache: ChainCache, state: State,
                 hview: api.View, n: int,
                 changed: set[int]) -> bool:
    """Node ``n``'s children (``state`` is its state); True when one breaks the grid."""
    runs = _runs_near(state, changed)
    cache.read(search, runs)
    cell_runs = state.layout.cell_runs
    # a unit of work is about one link walked: a node asks every link rule about each
    # run near its change
    hview.context.spend(1 + len(runs))
    before = len(search.nodes)
    try:
        for k, rid, offer, eff in _offers(hview, state, rules, runs, cache):
            # what the same rule offered on the same run in an earlier state (shown
            # smaller here, the path having taken some of it) does not rest on this
            # node's link: not a child
            # (``note_offer`` notes what the rule offers there now)
            if eff in search.seen or (k, offer) in search.seen or search.note_offer(
                    ("offered", k, rid), eff):
                continue
            search.seen[eff] = None
            search.seen[(k, offer)] = None
            search.nodes.append(Node(eff, n, k, rid, search.depth + 1))
            search.frontier.append(len(search.nodes) - 1)
            cache.read(search, {r for i in eff.cells() for r in cell_runs[i]})
            hit = _breaks(state, eff)
            if hit is not None:
                search.end, search.broken = len(search.nodes) - 1, hit
                return True
        return False
    finally:
        cache.grew(search, len(search.nodes) - before)


def _frontier_soonest(view: api.View, search: WhipSearch, cache: ChainCache, memo: Memo,
                      target: int) -> tuple[int | None, bool]:
    """The least target at which ``search`` may end, by the chain bound from each node of
    its frontier (a chain through a node at depth ``d`` whose state's rounds first break
    at round ``f`` ends no sooner than at target ``d + f``): ``target`` or less as soon as
    one node may end that soon; None when no node can break the grid at all. With it,
    whether the rounds decided it (else it is only the rounds done + 1). The runs the
    rounds read are noted as the search's (it is dropped when one changes)."""
    d = search.depth
    cap = target - d
    state = cache.scratch(view)
    lay = state.layout
    assumed: UndoLog = []
    kernel.apply(state, Effect(place=((search.cell, search.digit),)), assumed)
    read: set[int] = set()
    least: int | None = None
    nodes = _node_states(search, search.frontier, state, set())
    try:
        for _, changed in nodes:
            first = rounds_on(lay, list(state.masks), view.live, changed, cap, memo,
                              read)
            if first == NEVER:
                continue
            soon = d + (cap + 1 if first is None else first)
            least = soon if least is None else min(least, soon)
            if least <= target:
                break
    finally:
        nodes.close()
        kernel.undo(state, assumed)
        cache.read(search, read)
    return least, least is not None and least <= d + cap


def _order(view: api.View, bivalue: bool) -> list[tuple[int, int]]:
    """Assumptions to try: open cells, fewest candidates first, then reading order."""
    masks, placed = tuple(view.masks), view.placed  # once a step: no call a cell
    cells = [i for i, m in enumerate(masks)
             if not placed[i] and POP[m] > 1 and (not bivalue or POP[m] == 2)]
    cells.sort(key=lambda i: (POP[masks[i]], i))
    return [(i, d) for i in cells for d in DIGITS[masks[i]]]


def find_whip(view: api.View, rules: list[Rule], *, max_len: int, search_nodes: int,
              bivalue: bool = False,
              name: str = "whips") -> WhipSearch | None:
    """The shortest whip (of at most ``max_len`` links) over every assumption, found level
    by level, the first assumption in order on ties; None when none is found. One
    assumption's search gives up beyond ``search_nodes`` nodes. Searches kept from earlier
    steps are not looked at again unless they must go deeper."""
    caches = view.context.cache("chains.whips")
    key = (name, tuple(r.id for r in rules), search_nodes)
    cache = caches.get(key)
    if cache is None or any(r.scope != "run" for r in rules):
        # a global rule may read anything: no reuse
        cache = caches[key] = ChainCache(search_nodes)
    # searches whose rules read only their own run go only where a run they asked about
    # changed (a node's state there is the board's there with its path written in)
    local = len(_local(rules)) == len(rules)
    cache.begin(view, wide=not local)
    # with built-in link rules only, an assumption is followed only once a chain from it
    # may be as short as the length looked for (chainbound: rounds of run filters that
    # take what any link takes); of naked singles alone, by a filter of singles alone
    singles = all(r.id == NAKED_SINGLE for r in rules)
    bounds = bounds_for(view, singles) if local and (singles or not bivalue) else None
    rank = {a: k for k, a in enumerate(_order(view, bivalue))}
    # by the first target a search is looked at for: past its depth and, with the bound,
    # at a length a chain from it may have (a search is not asked again at every target:
    # with thousands of assumptions on a large grid that was most of a step's cost)
    pending: dict[int, list[WhipSearch]] = {}
    ended: dict[int, list[WhipSearch]] = {}  # by length

    def wait(s: WhipSearch, target: int) -> None:
        if bounds is not None:
            soonest = bounds.soonest(s.cell, s.digit)
            if soonest is None:
                return  # no chain from it at all
            target = max(target, soonest, s.soon)
        pending.setdefault(target, []).append(s)

    for a in rank:
        s = cache.get(*a)
        if s.end is not None:
            ended.setdefault(s.length, []).append(s)
        elif not s.done:
            wait(s, s.depth + 1)
    context = view.context
    # the end node's depth: a chain of target + 1 links (a link per white cell at most)
    for target in range(min(max_len, len(view.puzzle.whites))):
        # here too, not only where a search grows: with every search ended, the loop ran
        # on through a max_len of 10**20 without looking at the clock
        if context.stopped():
            return None
        if not pending and max(ended, default=0) <= target:
            return None  # every search has ended, none in a longer chain
        todo = pending.pop(target, []) + ended.get(target + 1, [])
        todo.sort(key=lambda s: rank[(s.cell, s.digit)])
        for s in todo:
            # the bound as each search's turn comes (those after the one returned are not
            # asked: at the last target, most are); it reads the board, not the searches
            if bounds is not None and s.end is None and not bounds.within(
                    view, s.cell, s.digit, target + 1):
                wait(s, target + 1)  # no chain of target + 1 links from it: not yet
                continue
            while not s.done and s.end is None and s.depth < target:
                if context.stopped():
                    return None
                if bounds is not None and s.depth > 0 and s.soon_at != s.depth:
                    # the bound again, from each node of the frontier: a level whose
                    # nodes cannot break the grid soon enough is not built yet (when it
                    # is, it is built as it would have been: the same chains are found)
                    soon, decided = _frontier_soonest(view, s, cache, bounds.memo, target)
                    if soon is None:
                        s.done = True
                        break
                    # (worked out again, with more rounds, where the rounds undecided)
                    s.soon, s.soon_at = soon, s.depth if decided else -1
                if s.soon > target:
                    break
                _expand(view, s, rules, cache)
            if s.end is not None:
                if not s.done:
                    cache.finished(s)
                if s.length == target + 1:
                    return s
                ended.setdefault(s.length, []).append(s)
            elif s.done:
                if s.nodes:
                    cache.finished(s)
            else:
                wait(s, s.depth + 1)
    return None


def whip_links(view: api.View, rules: list[Rule], search: WhipSearch) -> list[Link] | None:
    """The whip's links, each found again by its rule on the state the assumption and the
    links before it leave, for its sentence and proof; None if a link is no longer found
    (the caller searches afresh)."""
    state, _ = _assume(view, search.cell, search.digit)
    hview = View(state, view.context)
    track = _Tracker(view, search.cell, search.digit)
    for node in search.chain:
        rl = rules[node.rule]
        calls = rl.call(hview, node.rid) if rl.scope == "run" else rl.call(hview)
        ded = next((x for x in calls or () if _as_link(state, rl, x) == node.effect), None)
        if ded is None:
            return None
        track.add(state, hview, rl, ded)
    broken = search.broken
    if broken is None or _broken(state, _the_cells(state, broken)) != broken:
        return None
    return track.close(state, broken, keep_all=True)


# ---------------------------------------------------------------------------- braids
class _Stale(Exception):
    """A kept braid walk's link is not found again on the board as it now is (to word
    it): :func:`find_braid` searches afresh, every walk made anew."""


class _Tracker:
    """The links made on one hypothetical state, with who changed what, so that each
    link's dependencies (the earlier links its proof rests on) are known."""

    def __init__(self, view: api.View, cell: int, digit: int) -> None:
        self.view, self.cell, self.digit = view, cell, digit
        self.links: list[_Made] = []
        self.removers: dict[int, set[int]] = {}
        self.writer: dict[int, int] = {}
        self.droppers: dict[int, set[int]] = {}
        #: the link rules, when links are added unworded (``add(lazy=...)``)
        self.rules: list[Rule] | None = None

    def add(self, state: State, hview: api.View, rl: Rule, ded: Deduction,
            lazy: tuple[int, int | None, Effect] | None = None) -> set[int]:
        """Make the link on ``state``; returns the cells it changed. With ``lazy`` (the
        rule's index, the run asked, the effect), the link is not worded yet: only what
        it changed and rests on is kept, and :meth:`word` words the links kept."""
        proof = resolve_proof(ded)
        deps = self._deps(state.layout, proof)
        (i, d), = ded.placements.items() if len(ded.placements) == 1 else ((-1, 0),)
        last = (i, d) if i >= 0 and state.masks[i] == BIT[d] and not ded.eliminations else None
        if lazy is None:
            made = _make_link(state, hview, rl, ded)
        else:
            made = _unworded(state, lazy[2], lazy[0], lazy[1])
        made.deps = frozenset(deps)
        made.last = last
        n = len(self.links)
        self.links.append(made)
        for i in made.removed:
            self.removers.setdefault(i, set()).add(n)
        for i in made.place:
            self.writer[i] = n
        for r in made.drop:
            self.droppers.setdefault(r, set()).add(n)
        return set(made.removed) | set(made.place)

    def word(self, rules: list[Rule], keep: Collection[int]) -> None:
        """Word the links ``keep`` names that are not worded yet, on the board replayed
        from the assumption: each link's rule is asked again on the state the links
        before it left (a deduction's lazy values read the state it was found on, which
        the walk has since moved on from), and worded after it is applied, as
        :func:`_make_link` does."""
        todo = {k for k in keep if self.links[k].link is None}
        if not todo:
            return
        state, _ = _assume(self.view, self.cell, self.digit)
        hview = View(state, self.view.context)
        for k in range(max(todo) + 1):
            made = self.links[k]
            assert made.found is not None  # a lazy tracker's links are all unworded
            j, rid, eff = made.found
            if k not in todo:
                kernel.apply(state, eff)
                continue
            rl = rules[j]
            calls = rl.call(hview, rid) if rl.scope == "run" else rl.call(hview)
            ded = next((x for x in calls or () if _as_link(state, rl, x) == eff), None)
            if ded is None:  # the board moved on under a kept walk: searched afresh
                raise _Stale
            made.link = _make_link(state, hview, rl, ded).link

    def reword(self, k: int, number: dict[int, int]) -> None:
        """A link that writes in a cell's one digit left says which links (by their
        ``number``) and the assumption took the others, as the closing link does: inside
        a chain that is the reason, not the runs' needs (``r6c9 = 7, as 5 went in (1)
        and 2 in (3)``)."""
        made = self.links[k]
        if made.last is None:
            return
        i, d = made.last
        why = _by_whom(self.view, i, (self.cell, self.digit), self.links, self.view.mask(i),
                       [j for j in made.deps if j in number], number)
        said = _went(why)
        if said:  # else the board alone left it one digit: the rule's own words say why
            assert made.link is not None  # kept links are worded before they are numbered
            made.link.text = f"{self.view.cell_name(i)} = {d}, as {said}"

    def _deps(self, lay: Layout, proof: Proof | None) -> set[int]:
        """Earlier links a proof rests on: those that took candidates of its fact cells,
        wrote digits in its runs, or narrowed a run it states combinations of."""
        deps: set[int] = set()
        if proof is None:
            return deps
        for i in proof.cells:
            deps |= self.removers.get(i, set())
        for r in proof.combos:
            deps |= self.droppers.get(r, set())
            for j in lay.run_cells[r]:
                deps |= self.removers.get(j, set())
        for r in (*proof.runs, *proof.combos):
            for j in lay.run_cells[r]:
                if j in self.writer:
                    deps.add(self.writer[j])
        return deps

    def rested_on(self, state: State, broken: tuple[str, int], keep_all: bool = False
                  ) -> tuple[set[int], set[int]]:
        """(the links the broken cell or run rests on, all of them with ``keep_all``; the
        links the closing contradiction rests on directly)."""
        what, where = broken
        if what == "cell":
            end_deps = set(self.removers.get(where, set()))
        else:
            end_deps = {self.writer[j] for j in state.layout.run_cells[where]
                        if j in self.writer}
        keep = set(range(len(self.links))) if keep_all else set(_rested_on(self, end_deps))
        return keep, end_deps

    def close(self, state: State, broken: tuple[str, int], keep_all: bool = False) -> list[Link]:
        """The links the broken cell or run rests on (all of them with ``keep_all``),
        numbered afresh, each naming the earlier ones it rests on, and the closing link."""
        view = self.view
        what, where = broken
        keep, end_deps = self.rested_on(state, broken, keep_all)
        order = sorted(keep)
        if self.rules is not None:
            self.word(self.rules, keep)
        number = {k: n for n, k in enumerate(order, 1)}
        out = []
        for k in order:
            lk = self.links[k].link
            assert lk is not None
            lk.after = tuple(sorted(number[j] for j in self.links[k].deps))
            self.reword(k, number)
            out.append(lk)
        if what == "cell":
            # the links are numbered afresh above: the closing names them by those numbers
            end = _closing(view, where, _by_whom(view, where, (self.cell, self.digit),
                                                 self.links, view.mask(where), end_deps,
                                                 number),
                           _just_said(where, self.links, end_deps, number))
        else:
            end = _closing_run(view, state, where)
        end.after = tuple(sorted(number[j] for j in end_deps))
        out.append(end)
        return out


class _BraidWalk:
    """One assumption followed with every link rule, simplest first (as the engine walks
    the board), that can stop after some links and go on later: a walk of ``b`` links
    is the first ``b`` links of any longer one, so :func:`find_braid`'s rounds (6, 12,
    24 links...) go on from where the last one stopped instead of walking again from the
    assumption."""

    __slots__ = ("state", "hview", "track", "dirty", "local", "reads", "how", "broken",
                 "length", "_links")

    def __init__(self, view: api.View, rules: list[Rule], cell: int, digit: int,
                 reads: set[int] | None) -> None:
        state, changed = _assume(view, cell, digit)
        lay = state.layout
        self.state, self.hview = state, View(state, view.context)
        #: the runs through every cell the walk changed: with built-in rules only (each
        #: reads its own run), the only runs whose contents on the board it depends on
        self.reads = reads
        if reads is not None:
            reads.update(r for i in (*changed, cell) for r in lay.cell_runs[i])
        self.track = _Tracker(view, cell, digit)
        self.track.rules = rules  # only the links the contradiction rests on are worded
        self.dirty: dict[int, set[int]] = {k: set() for k, r in enumerate(rules)
                                           if r.scope == "run"}
        self.local = _local(rules)
        _dirty(self.dirty, lay, changed | {cell}, self.local)
        #: "budget" (may go on), "broke" (``broken``, in a chain of ``length`` links:
        #: :meth:`chain`) or "dry" (no link left)
        self.how = "budget"
        self.broken: tuple[str, int] | None = None
        self.length = 0
        self._links: list[Link] | None = None

    @property
    def walked(self) -> int:
        """Links walked so far."""
        return len(self.track.links)

    def chain(self) -> list[Link]:
        """The chain of a walk that broke the grid, worded (once: most walks' chains are
        not taken, so they are worded only when asked for)."""
        assert self.broken is not None
        if self._links is None:
            self._links = self.track.close(self.state, self.broken)
        return self._links

    def go(self, view: api.View, rules: list[Rule], budget: int,
           looks: Looks | None) -> int | None:
        """Walk on until ``budget`` links in all are walked or the walk ends; the length
        of the chain the contradiction rests on (the closing link counted), or None."""
        track, state, lay = self.track, self.state, self.state.layout
        while self.how == "budget" and len(track.links) < budget:
            hit = _next(self.hview, state, rules, self.dirty, looks)
            if hit is None:
                self.how = "dry"
                break
            k, rid, ded, eff = hit
            cells = track.add(state, self.hview, rules[k], ded, (k, rid, eff))
            view.context.spend(1)
            if self.reads is not None:
                self.reads.update(r for i in cells for r in lay.cell_runs[i])
            broken = _broken(state, cells)
            if broken is not None:
                self.how, self.broken = "broke", broken
                self.length = len(track.rested_on(state, broken)[0]) + 1
                break
            _dirty(self.dirty, lay, cells, self.local)
        return self.length if self.how == "broke" else None


def _local(rules: list[Rule]) -> set[int]:
    """Indices of the built-in run rules: they read only their run's contents and claim
    only in its cells (as the whip search relies on too), so only a change in the run
    itself gives them something new to say there."""
    return {k for k, r in enumerate(rules) if r.scope == "run" and r.source == _CORE}


def _dirty(dirty: dict[int, set[int]], lay: Layout, cells: Iterable[int],
           local: Collection[int] = ()) -> None:
    """Mark the runs each run rule must be asked about again after ``cells`` changed: the
    runs through them, and for a rule not in ``local`` (which may read the runs crossing
    its own) the runs crossing those too."""
    near = {r for i in cells for r in lay.cell_runs[i]}
    wide = set(near)
    for r in near:
        for j in lay.run_cells[r]:
            wide.update(lay.cell_runs[j])
    for k, ds in dirty.items():
        ds |= near if k in local else wide


def _next(hview: api.View, state: State, rules: list[Rule], dirty: dict[int, set[int]],
          looks: Looks | None = None
          ) -> tuple[int, int | None, Deduction, Effect] | None:
    """The first deduction of the simplest link rule that changes something: (rule index,
    run asked or None, deduction, its effect). With ``looks``, what a built-in run rule
    offers on a run is kept by the run's contents (it reads nothing else, as in
    :func:`_offers`): the rule is asked again only for the deduction it gives."""
    entries: dict[int, dict[Any, Any]] = {}  # a run's look, found once for every rule
    for k, rl in enumerate(rules):
        if rl.scope == "run":
            ds = dirty[k]
            core = looks is not None and rl.source == _CORE
            for rid in sorted(ds):
                if core:
                    assert looks is not None
                    got = entries.get(rid)
                    if got is None:
                        got = entries[rid] = looks.entry(_contents(state, rid, looks))
                    first = next(((o, e) for o in _looked(got, state, hview, rl, rid)
                                  if (e := kernel.measure(state, o.place, o.elim, o.drop))
                                  is not None), None)
                    if first is None:
                        ds.discard(rid)
                        continue
                    # the rule's first deduction that changes something is its first offer
                    # that does; with its proof kept (what a walk reads of a link: what it
                    # claims and rests on; its words are the rule's, asked again for the
                    # links kept), the rule is not asked again
                    proofs = got.setdefault((rl.id, "proofs"), {})
                    proof = proofs.get(first[0])
                    if proof is not None:
                        o = first[0]
                        return k, rid, Deduction(placements=dict(o.place),
                                                 eliminations=dict(o.elim),
                                                 drop_combos=dict(o.drop), proof=proof), first[1]
                    for ded in rl.call(hview, rid) or ():
                        eff = _as_link(state, rl, ded)
                        if eff is not None:
                            proof = resolve_proof(ded)
                            if proof is not None and eff == first[1]:
                                proofs[first[0]] = proof
                            return k, rid, ded, eff
                    ds.discard(rid)
                    continue
                for ded in rl.call(hview, rid) or ():
                    eff = _as_link(state, rl, ded)
                    if eff is not None:
                        return k, rid, ded, eff
                ds.discard(rid)
        else:
            for ded in rl.call(hview) or ():
                eff = _as_link(state, rl, ded)
                if eff is not None:
                    return k, None, ded, eff
    return None


#: the assumption, as the earlier "link" a followed link may rest on (:func:`follow`)
_ASSUMED = -1


def follow(view: api.View, rules: list[Rule], cell: int, digit: int, budget: int
           ) -> tuple[list[Link], str]:
    """What follows from writing ``digit`` in ``cell`` (the play page's "what if"): the
    link rules' steps on a private copy of the board, simplest first, as a chain does.

    Returns ``(links, status)``. ``status`` is ``"contradiction"`` (the last link, marked
    so, says what broke; the links before it are those it rests on), ``"solved"`` (every
    cell is written), ``"open"`` (no link rule says more) or ``"budget"`` (``budget``
    links were made, or the context's time or work ran out). For ``"solved"``, ``"open"``
    and ``"budget"`` the links are those that rest on the assumption, with the earlier
    links they rest on: steps the board allowed anyway, near it, are left out. Each link's
    ``after`` numbers the links it rests on (empty: the assumption and the board alone).
    The view's own state is left as it was.
    """
    state, changed = _assume(view, cell, digit)
    hview = View(state, view.context)
    lay = state.layout
    track = _Tracker(view, cell, digit)
    # what the assumption changed, as a link's changes are: links reading it rest on it
    track.writer[cell] = _ASSUMED
    for j in changed - {cell}:
        track.removers.setdefault(j, set()).add(_ASSUMED)
    for r in lay.cell_runs[cell]:
        track.droppers.setdefault(r, set()).add(_ASSUMED)
    broken = _broken(state, changed | {cell})
    dirty: dict[int, set[int]] = {k: set() for k, r in enumerate(rules) if r.scope == "run"}
    local = _local(rules)
    _dirty(dirty, lay, changed | {cell}, local)
    status = "budget"
    while broken is None:
        if all(state.placed):
            status = "solved"
            break
        if len(track.links) >= budget or view.context.stopped():
            break
        hit = _next(hview, state, rules, dirty)
        if hit is None:
            status = "open"
            break
        k, _, ded, _ = hit
        cells = track.add(state, hview, rules[k], ded)
        view.context.spend(1)
        broken = _broken(state, cells)
        _dirty(dirty, lay, cells, local)
    if broken is not None:
        what, where = broken
        if what == "cell":
            roots = set(track.removers.get(where, set()))
        else:
            roots = {track.writer[j] for j in lay.run_cells[where] if j in track.writer}
        order = _rested_on(track, roots - {_ASSUMED})
        links = _numbered(track, order)
        number = {k: n for n, k in enumerate(order, 1)}
        if what == "cell":
            end = _closing(view, where, _by_whom(view, where, (cell, digit), track.links,
                                                 view.mask(where), roots - {_ASSUMED},
                                                 number),
                           _just_said(where, track.links, roots - {_ASSUMED}, number))
        else:
            end = _closing_run(view, state, where)
        end.after = tuple(sorted(number[k] for k in roots if k in number))
        return [*links, end], "contradiction"
    following: set[int] = set()
    for k, made in enumerate(track.links):
        if _ASSUMED in made.deps or made.deps & following:
            following.add(k)
    return _numbered(track, _rested_on(track, following)), status


def _rested_on(track: _Tracker, roots: set[int]) -> list[int]:
    """``roots`` and every earlier link they rest on, in the order they were made."""
    keep: set[int] = set()
    todo = list(roots)
    while todo:
        k = todo.pop()
        if k != _ASSUMED and k not in keep:
            keep.add(k)
            todo.extend(track.links[k].deps)
    return sorted(keep)


def _numbered(track: _Tracker, order: list[int]) -> list[Link]:
    """The links ``order`` picks, numbered from 1, each naming the kept links it rests on."""
    number = {k: n for n, k in enumerate(order, 1)}
    out = []
    for k in order:
        lk = track.links[k].link
        assert lk is not None  # kept links are worded (_Tracker.word) before numbering
        lk.after = tuple(sorted(number[j] for j in track.links[k].deps if j in number))
        track.reword(k, number)
        out.append(lk)
    return out


#: a walk :func:`find_braid` keeps: (links walked, how it ended, chain length, the walk
#: itself when it may go on, else None)
_Kept = tuple[int, str, int, "_BraidWalk | None"]

#: cells (white cells x walks) the walks kept resumable may hold in all; beyond it a
#: walk's outcome is kept but not its state (memory only: such a walk is walked again)
KEPT_WALK_CELLS = 100_000


def _met(kept: tuple[int, str, int] | None, budget: int) -> tuple[int, int | None] | None:
    """What a walk kept by :func:`find_braid` comes to with ``budget`` links: (links
    walked, chain length or None), or None when that walk must be walked. ``kept``: (links
    it walked, how it ended: "broke" in a chain of the given length, "budget" spent, or
    "dry", no link rule having more to say)."""
    if kept is None:
        return None
    n, how, length = kept
    if budget < n or (budget == n and how != "broke"):
        return budget, None  # the first ``budget`` links broke nothing
    if how == "broke":
        return n, length
    if how == "dry":
        return n, None
    return None  # "budget", and more links allowed now


def find_braid(view: api.View, rules: list[Rule], *, max_len: int, work: int,
               budgets: Sequence[int], reach: int) -> tuple[int, int, list[Link]] | None:
    """The shortest chain (cell, digit, links) found by following each assumption with
    every link rule, keeping the links the contradiction rests on; each assumption is
    followed for ``budgets`` links in turn (6, 12, 24 in the core ladder), then for
    ``reach`` x ``max_len`` (links the contradiction does not rest on are dropped, so a
    walk may be longer than its chain), the first assumption in order on ties; ``work``
    caps the links walked."""
    found = _find_braid(view, rules, max_len, work, budgets, reach)
    if found is None:
        return None
    i, d, walk = found
    try:
        return i, d, walk.chain()
    except _Stale:  # a walk kept from an earlier step, not worded on the board as it is:
        view.context.cache("chains.braids").clear()  # afresh, every walk made anew
        found = _find_braid(view, rules, max_len, work, budgets, reach)
        return None if found is None else (found[0], found[1], found[2].chain())


def _whips_ruled_out(view: api.View, rules: list[Rule]) -> dict[tuple[int, int], int]:
    """What the whip searches with these link rules have shown on the board as it is:
    per assumption, the links up to which no whip from it exists (as far as those searches
    looked; empty when none searched this board)."""
    ids = tuple(r.id for r in rules)
    out: dict[tuple[int, int], int] = {}
    now: Snapshot | None = None
    for key, cache in view.context.cache("chains.whips").items():
        seen = cache.seen
        if key[1] != ids or seen is None:
            continue
        if now is None:
            now = Snapshot.of(view)
        if seen != now:  # the searches saw an earlier board
            continue
        for a, s in cache.searches.items():
            got = s.ruled_out()
            if got > out.get(a, 0):
                out[a] = got
    return out


def _find_braid(view: api.View, rules: list[Rule], max_len: int, work: int,
                budgets: Sequence[int], reach: int) -> tuple[int, int, _BraidWalk] | None:
    """:func:`find_braid`'s search: the walk of the chain found, not worded yet."""
    cap = reach * min(max_len, len(view.puzzle.whites))  # a link per white cell at most
    budgets = sorted({min(b, cap) for b in (*budgets, cap)})
    order = _order(view, False)
    # what the built-in link rules offer on a run's contents, kept across the walks and
    # steps of one walkthrough (the same hypothetical runs come back at every budget)
    caches = view.context.cache("chains.braids")
    board = caches.get("board")
    if board is None:  # (its searches unused: it tells what changed on the board)
        board = caches["board"] = ChainCache(0)
    local = _local(rules)
    looks = looks_for(view) if local else None
    # walks that came to nothing, kept until the board changes a run they read: a walk
    # reads only the runs through the cells it changed when every link rule is a
    # built-in run rule; met again, such a walk is not walked but its work is counted,
    # so that the work cap stops the search where it did
    touched = board.sync(view)
    walks: dict[tuple, _Kept] = caches.setdefault("walks", {})
    by_run: dict[int, set[tuple]] = caches.setdefault("walks by run", {})
    for r in touched:
        for key in by_run.pop(r, ()):
            walks.pop(key, None)
    reuse = len(local) == len(rules)
    bounds = bounds_for(view) if reuse else None
    whipless = _whips_ruled_out(view, rules) if bounds is not None else {}
    # without reuse from step to step, a walk still goes on from round to round
    store = walks if reuse else {}
    room = KEPT_WALK_CELLS // max(1, len(view.puzzle.whites))  # walks kept resumable
    ids = tuple(r.id for r in rules)
    best: tuple[int, int, _BraidWalk] | None = None
    spent0 = view.context.spent
    for budget in budgets:
        for i, d in order:
            if view.context.stopped() or view.context.spent - spent0 > work:
                return best
            longest = max_len if best is None else best[2].length - 1
            # a braid that is not a whip has a link off the line to its contradiction,
            # so it is at most a link shallower than it is long: where the whip search
            # has shown no whip that long from this assumption, the bound asks for one
            # round fewer (chainbound: a chain breaks the grid by its depth's round)
            if bounds is not None and not bounds.within(
                    view, i, d, longest - (whipless.get((i, d), 0) >= longest)):
                continue  # no chain from it short enough to be taken
            key = (ids, i, d)
            kept = store.get(key)
            met = _met(kept[:3] if kept is not None else None, budget)
            # (links walked, chain length or None): a walk whose chain could not be
            # taken here (none, longer than max_len, or no shorter than the best) is not
            # walked again
            if met is not None and (met[1] is None or met[1] > max_len or (
                    best is not None and met[1] >= best[2].length)):
                view.context.spend(met[0])
                continue
            walk = kept[3] if kept is not None and kept[1] == "budget" else None
            if walk is not None:
                # go on from where it stopped; the links it walked are counted again, as
                # a walk from the assumption would count them
                walk.track.view = view
                view.context.spend(walk.walked)
            else:  # a chain found is walked again, to be worded on the board as it is
                walk = _BraidWalk(view, rules, i, d, set() if reuse else None)
            before, n0 = view.context.spent, walk.walked
            length = walk.go(view, rules, budget, looks)
            n = walk.walked
            if not view.context.stopped() and view.context.spent - before == n - n0:
                store[key] = (n, walk.how, length or 0,
                              walk if walk.how == "budget" and len(store) < room else None)
                for r in walk.reads or ():
                    by_run.setdefault(r, set()).add(key)
            else:  # its walk went on past what the entry says
                store.pop(key, None)
            if length is not None and length <= max_len and (
                    best is None or length < best[2].length):
                best = (i, d, walk)
                # the first chain of at most two links ends the search (a one-link chain
                # further on is not looked for): chains that short are whips, which the
                # whip rungs above find first; only a ladder without them meets this
                if length <= 2:
                    return best
        if best is not None:
            return best
    return best


# ---------------------------------------------------------------------------- steps
def kind_of(links: list[Link]) -> str:
    """"whip" when every link after the first rests on the one just before it (and on
    what earlier links took: Berthier's t-candidates), else "braid"."""
    ok = all(k - 1 in lk.after for k, lk in enumerate(links[:-1], 1) if k > 1)
    return "whip" if ok else "braid"


def _inline(text: str) -> str:
    """A link's sentence inside the chain's one sentence: no capital after "then (1)"
    (a sentence may begin with a word, never with a cell name, which is lower case)."""
    return text[:1].lower() + text[1:] if text[:1].isupper() and text[1:2].islower() else text


def to_deduction(view: api.View, cell: int, digit: int, links: list[Link]) -> Deduction:
    """A chain as a step: its sentence names its shape and length and gives every link
    (walkthroughs print the rule's name before it)."""
    name = view.cell_name(cell)
    kind = kind_of(links)
    parts = []
    for k, lk in enumerate(links, 1):
        if lk.contradiction:  # where the links lead, not a link: said without a number
            parts.append(f"so {_inline(lk.text)}")
            continue
        # a braid names what each link rests on; a whip's link rests on the one before
        # (a link resting on none of them rests on the assumption alone: said so, as
        # the sentence has no label saying a braid's links may branch)
        braided = kind == "braid" and k > 1 and k - 1 not in lk.after
        rests = " and ".join(map(str, lk.after)) if lk.after else "the assumption"
        mark = f"{k}, from {rests}" if braided else f"{k}"
        parts.append(f"({mark}) {_inline(lk.text)}")
    # the closing contradiction is not counted: "a whip of 2 links" has two numbered links
    shown = sum(1 for lk in links if not lk.contradiction)
    # no label ("A whip of 9 links:"): every walkthrough heads the step with the rule and
    # the length, and the JSON gives both (``rule``, ``proof.kind``, the links)
    # one deduction, one step: a cell the chain leaves one digit is written in by this
    # step (the walk's rule), and the sentence says which digit goes in
    left = SINGLE[view.mask(cell) & ~BIT[digit]]
    then = f", which is then {left}" if left else ""
    text = f"If {name} were {digit}: {'; '.join(parts)}. So {digit} leaves {name}{then}."
    involved = [cell] + sorted({i for lk in links
                                for i in (*lk.placements, *lk.proof.cells)} - {cell})
    runs = tuple(sorted({r for lk in links for r in lk.proof.runs}))
    return Deduction(eliminations={cell: BIT[digit]}, cells=tuple(involved), runs=runs,
                     text=text, size=len(links),  # the rule's growth counts the closing link
                     values={"cell": name, "digit": digit, "length": shown, "kind": kind},
                     proof=Proof(assume=(cell, digit), links=tuple(links), kind=kind))


def whip_step(view: api.View, rules: list[Rule], *, max_len: int, search_nodes: int,
              bivalue: bool, name: str) -> Deduction | None:
    """The shortest whip as a step (None: no whip within ``max_len``). A chain whose
    proofs show a link not resting on the one before is a braid, and left to the braid
    rung (which weighs it as one)."""
    for _ in range(2):
        found = find_whip(view, rules, max_len=max_len, search_nodes=search_nodes,
                          bivalue=bivalue, name=name)
        if found is None:
            return None
        links = whip_links(view, rules, found)
        if links is not None:
            if kind_of(links) != "whip":
                return None
            return to_deduction(view, found.cell, found.digit, links)
        view.context.cache("chains.whips").clear()  # a kept search went stale: afresh
    return None


# The keyword defaults below are the core ladder's params (tests/test_ladder_limits.py
# holds them equal): the ladder states every limit, and a rule file written before a limit
# became a parameter still runs as it did.
@rule(values=("digit", "length", "kind"))
def bivalue_chain(view: api.View, max_len: int, links: Iterable[str] = ("naked-single",),
                  search_nodes: int = 4_000) -> Iterator[Deduction]:
    """Assume a digit of a two-candidate cell; a whip of the ``links`` rules (naked singles)
    ends in a cell with no digit left."""
    ded = whip_step(view, link_rules(view, set(links)), max_len=max_len,
                    search_nodes=search_nodes, bivalue=True, name="bivalue")
    if ded is not None:
        yield ded


@rule(values=("digit", "length", "kind"))
def forcing_chain(view: api.View, max_len: int, search_nodes: int = 4_000
                  ) -> Iterator[Deduction]:
    """Assume any candidate; the shortest whip of link rules ends in a contradiction."""
    ded = whip_step(view, link_rules(view), max_len=max_len, search_nodes=search_nodes,
                    bivalue=False, name="whips")
    if ded is not None:
        yield ded


@rule(values=("digit", "length", "kind"))
def forcing_braid(view: api.View, max_len: int, work: int = 6_000,
                  budgets: Sequence[int] = (6, 12, 24), reach: int = 3
                  ) -> Iterator[Deduction]:
    """Where no whip exists: the shortest braid of link rules (a link may rest on several
    earlier links) that ends in a contradiction."""
    found = find_braid(view, link_rules(view), max_len=max_len, work=work, budgets=budgets,
                       reach=reach)
    if found is not None:
        i, d, links = found
        yield to_deduction(view, i, d, links)

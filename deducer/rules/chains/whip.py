"""The whip search: every link follows from the one just before it. Searched breadth first
over all assumptions together (:func:`find_whip`), kept while the board stands
(:mod:`.cache`) and cut short by the bound (:mod:`.bound`). What a whip is, without the speed-ups:
:mod:`.spec`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine import kernel
from ...engine.kernel import Effect, UndoLog
from ...engine.state import Link, View
from .bound import NEVER, Bounds, Memo, bounds_for, rounds_on
from .braid import _Tracker
from .cache import Node, WhipSearch, WhipSearches
from .links import (
    _as_link,
    _assume,
    _breaks,
    _broken,
    _local,
    _offers,
    _order,
    _runs_near,
    _the_cells,
)

if TYPE_CHECKING:
    from collections.abc import Generator

    from ...engine.registry import Rule
    from ...engine.state import State
    from .. import api

# ---------------------------------------------------------------------------- whips
def _path(search: WhipSearch, n: int) -> list[Effect]:
    """The effects of node ``n``'s path, the first link first."""
    path = []
    while n >= 0:
        path.append(search.nodes[n].effect)
        n = search.nodes[n].parent
    path.reverse()
    return path


def _expand(view: api.View, search: WhipSearch, rules: list[Rule], cache: WhipSearches) -> None:
    """One level of a whip search: every node of the frontier asked for the links its
    state offers that are new (that rest on its own link); a link that would empty a cell
    ends the search."""
    if search.depth < 0:  # the assumption alone: does it break the grid?
        state, log = cache.scratch(view), UndoLog()
        changed, _ = kernel.apply(state, Effect(place=((search.cell, search.digit),)), log)
        hit = _broken(state, changed)
        if hit is not None:
            search.end, search.broken = -1, hit
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


def _expand_frontier(view: api.View, search: WhipSearch, rules: list[Rule], cache: WhipSearches,
                     state: State,
                     start: set[int]) -> None:
    """:func:`_expand` past the assumption, on the scratch ``state`` that holds it."""
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


def _expand_node(search: WhipSearch, rules: list[Rule], cache: WhipSearches, state: State,
                 hview: api.View, n: int,
                 changed: set[int]) -> bool:
    """Node ``n``'s children (``state`` is its state); True when one breaks the grid."""
    runs = _runs_near(state, changed)
    # a unit of work is about one link walked: a node asks every link rule about each
    # run near its change
    hview.context.spend(1 + len(runs))
    seen, nodes, depth = search.seen, search.nodes, search.depth + 1
    for k, rid, offer, eff in _offers(hview, state, rules, runs, cache):
        # what the same rule offered on the same run in an earlier state (shown smaller
        # here, the path having taken some of it) does not rest on this node's link: not
        # a child (``note_offer`` notes what the rule offers there now)
        if eff in seen or (k, offer) in seen or search.note_offer((k, rid), eff):
            continue
        seen.add(eff)
        seen.add((k, offer))
        nodes.append(Node(eff, n, k, rid, depth))
        search.frontier.append(len(nodes) - 1)
        hit = _breaks(state, eff)
        if hit is not None:
            search.end, search.broken = len(nodes) - 1, hit
            return True
    return False


def _frontier_soonest(view: api.View, search: WhipSearch, cache: WhipSearches, memo: Memo,
                      target: int) -> tuple[int | None, bool]:
    """The least target at which ``search`` may end, by the chain bound from each node of
    its frontier (a chain through a node at depth ``d`` whose state's rounds first break
    at round ``f`` ends no sooner than at target ``d + f``): ``target`` or less as soon as
    one node may end that soon; None when no node can break the grid at all. With it,
    whether the rounds decided it (else it is only the rounds done + 1)."""
    d = search.depth
    cap = target - d
    state = cache.scratch(view)
    lay = state.layout
    assumed: UndoLog = []
    kernel.apply(state, Effect(place=((search.cell, search.digit),)), assumed)
    read: set[int] = set()  # (the runs the rounds read: not needed here)
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
    return least, least is not None and least <= d + cap


def _grow(view: api.View, s: WhipSearch, rules: list[Rule], cache: WhipSearches,
          bounds: Bounds | None, target: int) -> bool:
    """Expand search ``s`` level by level up to depth ``target``, while the bound from its
    frontier lets a chain of it end by then; False when the walk must stop."""
    context = view.context
    while not s.done and s.end is None and s.depth < target:
        if context.stopped():
            return False
        if bounds is not None and s.depth > 0 and s.soon_at != s.depth:
            # the bound again, from each node of the frontier: a level whose nodes
            # cannot break the grid soon enough is not built yet (when it is, it is
            # built as it would have been: the same chains are found)
            soon, decided = _frontier_soonest(view, s, cache, bounds.memo, target)
            if soon is None:
                s.done = True
                break
            # (worked out again, with more rounds, where the rounds undecided)
            s.soon, s.soon_at = soon, s.depth if decided else -1
        if s.soon > target:
            break
        _expand(view, s, rules, cache)
    if s.end is not None and not s.done or s.done and s.nodes:
        s.finish()  # (its chain kept, its nodes let go)
    return True


def _searches(view: api.View, rules: list[Rule], search_nodes: int, name: str
              ) -> WhipSearches:
    """The whip searches of ``rules`` on the board ``view`` shows (those already made on
    it, by an earlier rung of the same step, kept)."""
    caches = view.context.cache("chains.whips")
    key = (name, tuple(r.id for r in rules), search_nodes)
    cache = caches.get(key)
    if cache is None or any(r.scope != "run" for r in rules):
        # a global rule may read anything: no reuse
        cache = caches[key] = WhipSearches(search_nodes)
    cache.begin(view)
    return cache


def find_whip(view: api.View, rules: list[Rule], *, max_len: int, search_nodes: int,
              bivalue: bool = False,
              name: str = "whips") -> WhipSearch | None:
    """The shortest whip (of at most ``max_len`` links) over every assumption, found level
    by level, the first assumption in order on ties; None when none is found. One
    assumption's search gives up beyond ``search_nodes`` nodes."""
    cache = _searches(view, rules, search_nodes, name)
    # with built-in link rules only, an assumption is followed only once a chain from it
    # may be as short as the length looked for (bound.py: rounds of run filters that
    # take what any link takes); of naked singles alone, by a filter of singles alone
    singles = all(r.bound == "singles" for r in rules)
    local = len(_local(rules)) == len(rules)
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
    # the end node's depth: a chain of target + 1 links (a link per white cell at most)
    for target in range(min(max_len, len(view.puzzle.whites))):
        # here too, not only where a search grows: with every search ended, the loop ran
        # on through a max_len of 10**20 without looking at the clock
        if view.context.stopped() or (not pending and max(ended, default=0) <= target):
            return None  # (or: every search has ended, none in a longer chain)
        todo = pending.pop(target, []) + ended.get(target + 1, [])
        todo.sort(key=lambda s: rank[(s.cell, s.digit)])
        for s in todo:
            # the bound as each search's turn comes (those after the one returned are not
            # asked: at the last target, most are); it reads the board, not the searches
            if bounds is not None and s.end is None and not bounds.within(
                    view, s.cell, s.digit, target + 1):
                wait(s, target + 1)  # no chain of target + 1 links from it: not yet
            elif not _grow(view, s, rules, cache, bounds, target):
                return None
            elif s.end is not None:
                if s.length == target + 1:
                    return s
                ended.setdefault(s.length, []).append(s)
            elif not s.done:
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

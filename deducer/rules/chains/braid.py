"""The braid walk: an assumption followed with every link rule, simplest first, keeping only
the links the contradiction rests on (:func:`find_braid`, :func:`follow`). What a braid is,
without the speed-ups: :mod:`.spec`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...engine import kernel
from ...engine.kernel import Effect
from ...engine.state import Deduction, Link, Proof, View, resolve_proof
from ...puzzle.combos import BIT
from .bound import (
    bounds_for,
)
from .cache import BoardWatch, Looks, Snapshot
from .links import (
    _as_link,
    _assume,
    _broken,
    _by_whom,
    _closing,
    _closing_run,
    _contents,
    _just_said,
    _local,
    _looked,
    _Made,
    _make_link,
    _order,
    _unworded,
    _went,
    looks_for,
)

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable

    from ...engine.registry import Rule
    from ...engine.state import State
    from ...solver.propagate import Layout
    from .. import api

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
            core = looks is not None and rl.bound is not None
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


def whips_ruled_out(view: api.View, rules: list[Rule]) -> dict[tuple[int, int], int]:
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


def _kept_walks(view: api.View) -> tuple[dict[tuple, _Kept], dict[int, set[tuple]]]:
    """The braid walks kept in this walkthrough, and which runs each read, those that read
    a run the board changed since the last search forgotten. A walk that came to nothing
    is kept until then: it reads only the runs through the cells it changed when every
    link rule is a built-in run rule; met again, it is not walked but its work is
    counted, so that the work cap stops the search where it did."""
    caches = view.context.cache("chains.braids")
    board = caches.get("board")
    if board is None:  # (it tells what changed on the board)
        board = caches["board"] = BoardWatch()
    walks: dict[tuple, _Kept] = caches.setdefault("walks", {})
    by_run: dict[int, set[tuple]] = caches.setdefault("walks by run", {})
    for r in board.sync(view):
        for key in by_run.pop(r, ()):
            walks.pop(key, None)
    return walks, by_run


def _find_braid(view: api.View, rules: list[Rule], max_len: int, work: int,
                budgets: Sequence[int], reach: int) -> tuple[int, int, _BraidWalk] | None:
    """:func:`find_braid`'s search: the walk of the chain found, not worded yet."""
    cap = reach * min(max_len, len(view.puzzle.whites))  # a link per white cell at most
    budgets = sorted({min(b, cap) for b in (*budgets, cap)})
    order = _order(view, False)
    # what the built-in link rules offer on a run's contents, kept across the walks and
    # steps of one walkthrough (the same hypothetical runs come back at every budget)
    local = _local(rules)
    looks = looks_for(view) if local else None
    walks, by_run = _kept_walks(view)
    reuse = len(local) == len(rules)
    bounds = bounds_for(view) if reuse else None
    whipless = whips_ruled_out(view, rules) if bounds is not None else {}
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
            # round fewer (bound.py: a chain breaks the grid by its depth's round)
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

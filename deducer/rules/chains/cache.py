"""What chain searches keep from step to step (the searching: :mod:`.whip`, :mod:`.braid`).

A whip search follows one assumption level by level. What it found depends only on the
runs its link rules were asked about (and the runs crossing them, which rules such as
cross reference read): while none of those changed, the search is reused as it stands and
goes on from the level it reached, so a walkthrough with many chain steps redoes only the
assumptions near the last step's change. When one changed, the search goes back to the
level that first read it (what a level finds depends only on the runs read up to it),
unless that is the assumption's own check. The kept searches are bounded in nodes.

How many nodes one assumption's search may hold before it gives up changes what is found:
it is the chain rule's ``search_nodes`` parameter in the ladder (rules/core.yaml), kept by
each :class:`ChainCache`. The bounds here only bound memory: a search or a look dropped is
made again, the same, when next needed (tests/test_explain_bookkeeping.py compares).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...engine.kernel import Effect

if TYPE_CHECKING:
    from ...engine.state import State
    from ..api import View

#: nodes all the kept searches of one walk may hold; the oldest go first beyond it (memory
#: only: a dropped search is redone from its assumption and finds what it found)
KEPT_NODES = 200_000


@dataclass(frozen=True, slots=True)
class Offer:
    """What a link rule's deduction claims, as it gave it (not yet measured against a
    state): placements, eliminations and combinations dropped, each sorted."""

    place: tuple[tuple[int, int], ...]
    elim: tuple[tuple[int, int], ...]
    drop: tuple[tuple[int, tuple[int, ...]], ...]


#: looks kept (what the built-in link rules offer on a run, by the run's contents); beyond
#: it the older half goes (forgetting all at once made a large grid look again at every
#: run it had just looked at). Memory only: a look forgotten is asked of the rules again.
#: A 10x10 walkthrough with 20 chain steps makes about 11,000; kept across board changes,
#: 200,000 doubled the peak memory of a 656-cell chained walk
KEPT_LOOKS = 30_000


class Looks:
    """What each built-in link rule offers on a run, by the run's contents (the rules read
    nothing else, so equal contents give equal offers), shared by all the whip searches
    and braid walks of one walk, from step to step: a change on the board leaves a look
    as true as it was (the contents it is kept by say so)."""

    def __init__(self) -> None:
        #: (run, its live combinations, its cells' contents) -> rule id -> the rule's
        #: offers there (a rule not asked yet is missing: a braid walk asks only the
        #: rules it needs); and (rule id, "proofs") -> offer -> the proof of the
        #: deduction that offer came from, once a braid walk took it as a link
        self.kept: dict[tuple, dict[Any, Any]] = {}
        #: run -> reads its cells' values from a grid's (bound.readers_for: one
        #: per walk, shared with the bounds)
        self.readers: dict[int, Any] = {}

    def entry(self, key: tuple) -> dict[Any, Any]:
        """The look kept by ``key`` (made empty when there is none), to read and fill."""
        got = self.kept.get(key)
        if got is None:
            kept = self.kept
            if len(kept) >= KEPT_LOOKS:  # the looks made longest ago go first
                for old in list(kept)[:len(kept) // 2]:
                    del kept[old]
            got = kept[key] = {}
        return got


@dataclass(slots=True)
class Node:
    """One link of a whip search: its effect, the node it follows (-1: the assumption),
    and which link rule (index into the search's rules) found it on which run."""

    effect: Effect
    parent: int
    rule: int
    rid: int | None
    depth: int


#: what :meth:`WhipSearch.ruled_out` says of a search that showed no whip of any length
NO_WHIP = 10**9


@dataclass
class WhipSearch:
    """One assumption followed breadth first: each node's state is the board with the
    assumption and the links of the node's path written in."""

    cell: int
    digit: int
    nodes: list[Node] = field(default_factory=list)
    frontier: list[int] = field(default_factory=list)  # nodes of ``depth`` to expand
    depth: int = -1  # of the frontier (-1: not started; 0: the assumption)
    #: effects and (rule index, Offer) met so far (a dict for its order: what a level
    #: added is its end, taken off by :meth:`rewind`)
    seen: dict = field(default_factory=dict)
    #: (tag, rule index, run) -> what that rule offered there so far (:meth:`note_offer`)
    seen_by: dict = field(default_factory=dict)
    #: how to undo each change to ``seen_by``, in order (:meth:`note_offer`)
    undo: list = field(default_factory=list)
    #: per level expanded: the nodes, ``seen`` and ``undo`` it started from
    marks: list[tuple[int, int, int]] = field(default_factory=list)
    #: runs its rules were asked about, each with the level that first asked (-1: the
    #: assumption itself)
    runs: dict[int, int] = field(default_factory=dict)
    end: int | None = None  # the node whose effect breaks the grid (-1: the assumption)
    broken: tuple[str, int] | None = None  # ("cell", i) left empty or ("run", r) unmakeable
    done: bool = False  # nothing more to find (frontier spent, or too many nodes)
    gave_up: bool = False  # done with too many nodes, not with its links spent
    chain: list[Node] = field(default_factory=list)  # once ended: the nodes down to it
    #: the least target it may end at, by the chain bound from its frontier at depth
    #: ``soon_at`` (chains.find_whip; 0 and -1: not worked out)
    soon: int = 0
    soon_at: int = -1

    @property
    def length(self) -> int:
        """Links of the chain found: its nodes and the closing link."""
        return len(self.chain) + 1

    def ruled_out(self) -> int:
        """Links up to which this search has shown no whip from its assumption: every
        node to its depth has been checked, its frontier's bound rules out whips ending
        before :attr:`soon`, and a search that ran out of links has shown none at all (its
        shortest whip found, less one, once it ended)."""
        if self.end is not None:
            found = self.nodes[self.end].depth + 1 if self.end >= 0 and self.nodes else \
                self.length
            return found - 1
        if self.done and not self.gave_up:
            return NO_WHIP
        # (the frontier's bound: no whip ends before target ``soon``, ``soon + 1`` links)
        return max(self.depth + 1, self.soon)

    def note_offer(self, key: tuple, eff: Effect) -> bool:
        """Had ``key`` (a rule on a run) offered all of ``eff`` before in this search?
        (What it offers now is then noted, undoably.)"""
        had: tuple[dict[int, int], set[tuple[int, int]]] | None = self.seen_by.get(key)
        undo = self.undo
        if had is None:
            had = self.seen_by[key] = ({}, set())
            undo.append((key,))
        elims, places = had
        old = not eff.drop
        for i, m in eff.elim:
            was = elims.get(i, 0)
            if was & m != m:
                old = False
                elims[i] = was | m
                undo.append((key, i, was))
        for p in eff.place:
            if p not in places:
                old = False
                places.add(p)
                undo.append((key, p))
        return old

    def begin_level(self) -> None:
        """Mark where the level about to be expanded (``depth``) starts."""
        assert len(self.marks) == self.depth
        self.marks.append((len(self.nodes), len(self.seen), len(self.undo)))

    def rewind(self, level: int) -> int:
        """Back to the search as it stood before level ``level`` (0 or more, at most its
        depth) was expanded, as a new search on the board would stand there: its nodes to
        that depth kept, what the levels after added to ``seen`` and ``seen_by`` taken
        off, the frontier's bound to work out again. Returns the nodes freed (the
        caller forgets the runs first asked at ``level`` or later)."""
        assert 0 <= level <= self.depth and self.end is None and not self.done
        self.soon, self.soon_at = 0, -1
        if level >= len(self.marks):  # not expanded yet: only its bound read the change
            return 0
        n, seen, undo = self.marks[level]
        freed = len(self.nodes) - n
        del self.nodes[n:]
        while len(self.seen) > seen:
            self.seen.popitem()
        log, offered = self.undo, self.seen_by
        while len(log) > undo:
            entry = log.pop()
            if len(entry) == 1:
                del offered[entry[0]]
            elif len(entry) == 2:
                offered[entry[0]][1].discard(entry[1])
            else:
                key, i, was = entry
                if was:
                    offered[key][0][i] = was
                else:
                    del offered[key][0][i]
        self.frontier = [-1] if level == 0 else list(range(self.marks[level - 1][0], n))
        del self.marks[level:]
        self.depth = level
        return freed

    def finish(self) -> int:
        """Keep only what a finished search needs (its chain, if any); returns the nodes
        freed."""
        if self.end is not None:
            k = self.end
            while k >= 0:
                node = self.nodes[k]
                self.chain.append(node)
                k = node.parent
            self.chain.reverse()
        self.done = True
        freed = len(self.nodes) - len(self.chain)
        self.nodes, self.frontier, self.seen, self.seen_by = [], [], {}, {}
        self.undo, self.marks = [], []
        return freed


@dataclass
class Snapshot:
    """The board as the kept searches last saw it (to tell what changed since)."""

    masks: tuple[int, ...]
    placed: tuple[bool, ...]
    live: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, view: View) -> Snapshot:
        """The board ``view`` shows, as it is now."""
        return cls(tuple(view.masks), view.placed, tuple(view.live(r) for r in view.run_ids))


class ChainCache:
    """The whip searches of one kind of chain (one set of link rules) in one walk, by
    assumption, with which searches read which run."""

    def __init__(self, search_nodes: int) -> None:
        #: nodes one assumption's search may hold before it gives up (the rule's
        #: ``search_nodes``)
        self.search_nodes = search_nodes
        self.searches: dict[tuple[int, int], WhipSearch] = {}
        self.by_run: dict[int, set[tuple[int, int]]] = {}
        self.seen: Snapshot | None = None
        self.nodes = 0
        #: indices of the built-in run rules among the cache's link rules (their offers
        #: are the looks kept), and the looks, shared (:func:`.chains.looks_for`)
        self.core: frozenset[int] | None = None
        self.looks: Looks | None = None
        self._scratch: State | None = None

    def begin(self, view: View, wide: bool = True) -> None:
        """Start a search of the board ``view`` shows: forget what a change made stale
        (:meth:`sync`) and the scratch copy of the board before it."""
        self._scratch = None
        self.sync(view, wide)

    def scratch(self, view: View) -> State:
        """A private copy of the board as of :meth:`begin`, for the searches to write a
        node's state in and undo it after (one copy a search, not one a node)."""
        if self._scratch is None:
            self._scratch = view.suppose()
        return self._scratch

    def sync(self, view: View, wide: bool = True) -> set[int]:
        """Forget the searches that read a run near a change since the last call (with
        ``wide``, a run crossing one: a rule may read the runs crossing its own; without,
        only the runs changed, for rules that read their own run alone); returns the runs
        the change touched (none on the first call)."""
        now = Snapshot.of(view)
        old, self.seen = self.seen, now
        if old is None:
            return set()
        lay = view.layout
        cells = [i for i, (a, b) in enumerate(zip(old.masks, now.masks, strict=True))
                 if a != b or old.placed[i] != now.placed[i]]
        runs = {r for i in cells for r in lay.cell_runs[i]}
        runs.update(r for r, (a, b) in enumerate(zip(old.live, now.live, strict=True))
                    if a is not b and a != b)
        near = set(runs)
        if wide:
            for r in runs:
                for j in lay.run_cells[r]:
                    near.update(lay.cell_runs[j])
        for r in near:
            for key in self.by_run.pop(r, ()):
                self._stale(key, r)
        return runs

    def _stale(self, key: tuple[int, int], r: int) -> None:
        """Run ``r``, which search ``key`` read, has changed: the search goes back to the
        level that first read it (:meth:`WhipSearch.rewind`), or is dropped when the
        assumption itself read it or the search has finished."""
        s = self.searches.get(key)
        level = None if s is None else s.runs.get(r)
        if s is None or level is None or level < 0 or s.done or s.end is not None:
            self.drop(key)
            return
        self.nodes -= s.rewind(level)
        for q in [q for q, at in s.runs.items() if at >= level]:
            del s.runs[q]
            keys = self.by_run.get(q)
            if keys is not None:
                keys.discard(key)

    def get(self, cell: int, digit: int) -> WhipSearch:
        key = (cell, digit)
        got = self.searches.get(key)
        if got is None:
            got = self.searches[key] = WhipSearch(cell, digit)
        return got

    def read(self, search: WhipSearch, runs: Iterable[int]) -> None:
        """Note the runs a search's rules were asked about (at the level of its depth)."""
        key = (search.cell, search.digit)
        level = search.depth
        for r in runs:
            if r not in search.runs:
                search.runs[r] = level
                self.by_run.setdefault(r, set()).add(key)

    def finished(self, search: WhipSearch) -> None:
        self.nodes -= search.finish()

    def grew(self, search: WhipSearch, n: int) -> None:
        """Count ``n`` new nodes; the oldest searches go once the walk holds too many."""
        self.nodes += n
        if self.nodes <= KEPT_NODES:
            return
        for key in list(self.searches):
            if self.nodes <= KEPT_NODES // 2:
                break
            if key != (search.cell, search.digit):
                self.drop(key)

    def drop(self, key: tuple[int, int]) -> None:
        got = self.searches.pop(key, None)
        if got is not None:
            self.nodes -= len(got.nodes) + len(got.chain)
            for r in got.runs:
                keys = self.by_run.get(r)
                if keys is not None:
                    keys.discard(key)

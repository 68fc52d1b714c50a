"""What chain searches keep while the board stands (the searching: :mod:`.whip`,
:mod:`.braid`).

The whip searches of one step are kept while the board is the one they searched, so a
second chain rule asked on the same board (a braid rung's bound reads what they showed,
:func:`.braid.whips_ruled_out`) goes on from where they stopped; the first change on the
board drops them all and the next step searches afresh. (Keeping them from step to step,
each rewound to the level that first read a changed run, was measured to buy nothing
on chain walkthroughs and took 150 lines: docs/benchmarks.md.)

What the built-in link rules offer on a run depends on the run's contents alone: those
looks (:class:`Looks`) are kept for the whole walk, by contents, and so stay true across
changes.

How many nodes one assumption's search may hold before it gives up changes what is found:
it is the chain rule's ``search_nodes`` parameter in the ladder (rules/core.yaml), kept by
each :class:`WhipSearches`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...engine.kernel import Effect

if TYPE_CHECKING:
    from ...engine.state import State
    from ..api import View


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
    #: effects and (rule index, Offer) met so far
    seen: set = field(default_factory=set)
    #: (rule index, run) -> what that rule offered there so far (:meth:`note_offer`)
    seen_by: dict = field(default_factory=dict)
    end: int | None = None  # the node whose effect breaks the grid (-1: the assumption)
    broken: tuple[str, int] | None = None  # ("cell", i) left empty or ("run", r) unmakeable
    done: bool = False  # nothing more to find (frontier spent, or too many nodes)
    gave_up: bool = False  # done with too many nodes, not with its links spent
    chain: list[Node] = field(default_factory=list)  # once ended: the nodes down to it
    #: the least target it may end at, by the chain bound from its frontier at depth
    #: ``soon_at`` (whip.find_whip; 0 and -1: not worked out)
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
        (What it offers now is then noted.)"""
        had: tuple[dict[int, int], set[tuple[int, int]]] | None = self.seen_by.get(key)
        if had is None:
            had = self.seen_by[key] = ({}, set())
        elims, places = had
        old = not eff.drop
        for i, m in eff.elim:
            was = elims.get(i, 0)
            if was & m != m:
                old = False
                elims[i] = was | m
        for p in eff.place:
            if p not in places:
                old = False
                places.add(p)
        return old

    def finish(self) -> None:
        """Keep only what a finished search needs (its chain, if any)."""
        if self.end is not None:
            k = self.end
            while k >= 0:
                node = self.nodes[k]
                self.chain.append(node)
                k = node.parent
            self.chain.reverse()
        self.done = True
        self.nodes, self.frontier, self.seen, self.seen_by = [], [], set(), {}


@dataclass
class Snapshot:
    """The board as a search last saw it (to tell what changed since)."""

    masks: tuple[int, ...]
    placed: tuple[bool, ...]
    live: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, view: View) -> Snapshot:
        """The board ``view`` shows, as it is now."""
        return cls(tuple(view.masks), view.placed, tuple(view.live(r) for r in view.run_ids))


class BoardWatch:
    """Which runs the board changed since it was last looked at (the braid walks and the
    bounds keep what they worked out by run, and forget it where a run changed)."""

    def __init__(self) -> None:
        self.seen: Snapshot | None = None

    def sync(self, view: View) -> set[int]:
        """The runs whose cells or live combinations changed since the last call (none on
        the first)."""
        now = Snapshot.of(view)
        old, self.seen = self.seen, now
        if old is None:
            return set()
        lay = view.layout
        runs = {r for i, (a, b) in enumerate(zip(old.masks, now.masks, strict=True))
                if a != b or old.placed[i] != now.placed[i] for r in lay.cell_runs[i]}
        runs.update(r for r, (a, b) in enumerate(zip(old.live, now.live, strict=True))
                    if a is not b and a != b)
        return runs


class WhipSearches:
    """The whip searches of one kind of chain (one set of link rules) on one board, by
    assumption: kept while the board stands, dropped all at once when it changes."""

    def __init__(self, search_nodes: int) -> None:
        #: nodes one assumption's search may hold before it gives up (the rule's
        #: ``search_nodes``)
        self.search_nodes = search_nodes
        self.searches: dict[tuple[int, int], WhipSearch] = {}
        #: the board the searches are of
        self.seen: Snapshot | None = None
        #: indices of the built-in run rules among the searches' link rules (their offers
        #: are the looks kept), and the looks, shared (:func:`.links.looks_for`)
        self.core: frozenset[int] | None = None
        self.looks: Looks | None = None
        self._scratch: State | None = None

    def begin(self, view: View) -> None:
        """Start a search of the board ``view`` shows: the searches of another board and
        the scratch copy of the board before it are dropped."""
        self._scratch = None
        now = Snapshot.of(view)
        if now != self.seen:
            self.seen, self.searches = now, {}

    def scratch(self, view: View) -> State:
        """A private copy of the board as of :meth:`begin`, for the searches to write a
        node's state in and undo it after (one copy a search, not one a node)."""
        if self._scratch is None:
            self._scratch = view.suppose()
        return self._scratch

    def get(self, cell: int, digit: int) -> WhipSearch:
        """The search from ``digit`` in ``cell`` on this board (made when there is none)."""
        key = (cell, digit)
        got = self.searches.get(key)
        if got is None:
            got = self.searches[key] = WhipSearch(cell, digit)
        return got

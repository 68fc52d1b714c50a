"""How soon an assumption can break the grid: a lower bound on the length of any chain
of built-in link rules from it, without searching for the chain.

Every built-in link rule reads one run's contents (its cells' candidates and its live
combinations) and claims only what those contents imply, so whatever it takes from a
run, filtering that run exactly takes too (:func:`~deducer.solver.propagate.run_filter`:
a digit stays only if some arrangement of a live combination puts it there). Filter, in
rounds, every run the round before changed (a digit left alone in a cell leaves its runs'
other cells, and its runs' digits left alone must fit a live combination, in the same
round, as with a written digit). Round ``k`` then takes at least what any ``k`` links
take, whichever runs they are in, and a link resting on earlier links comes a round after
them. A chain of ``L`` links (the closing contradiction counted, as a chain's length is)
breaks the grid with its last real link, the ``L - 1``-th (a braid: at most ``L - 1``
deep), so the rounds break it by round ``L - 1`` (round 0: the assumed digit alone, a
chain of one link). When round ``k`` is the first to break it, no chain is shorter than
``k + 1`` links; when the rounds stop changing anything first, there is no chain at all.

Chain searches (:mod:`.chains`) ask this before following an assumption: it costs a few
run filters (memoised, shared with the solver), where following costs asking every link
rule about every run near every link. It holds only for the built-in link rules; a search
that has other rules among its links does not ask (docs/rule-contract.md "Chains").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..puzzle.combos import BIT, combos
from ..solver.propagate import run_filter
from .chaincache import ChainCache
from .facts import combo_fits

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .api import View

#: run filters a walk's bounds keep (memory only: one dropped is filtered again)
MEMO = 200_000

#: the rounds did not break the grid and stopped changing it: no chain from the assumption
NEVER = -1


def filtered(total: int | None, live: Sequence[int], masks: tuple[int, ...]
             ) -> tuple[int, ...] | None:
    """The run's candidates that some arrangement of one of its ``live`` combinations
    allows (None: none is left). Where combinations were dropped on the board, only the
    live ones count: a built-in rule reads them."""
    full = combos(total, len(masks))
    if live is full or len(live) == len(full):
        return run_filter(total, masks)
    out: list[int] | None = None
    for _, got in combo_fits(total, live, masks):
        out = list(got) if out is None else [a | b for a, b in zip(out, got, strict=True)]
    return None if out is None else tuple(out)


#: a run's filter by what it reads: its clue, its live combinations, its cells' candidates
Memo = dict[tuple[int | None, tuple[int, ...], tuple[int, ...]], tuple[int, ...] | None]


def rounds(view: View, cell: int, digit: int, cap: int, memo: Memo | None = None
           ) -> tuple[int | None, set[int]]:
    """(the first round that breaks the grid with ``digit`` in ``cell`` (0: the assumed
    digit alone), or :data:`NEVER`, or None when ``cap`` rounds did not decide; the runs
    filtered, whose contents on the board the answer depends on). ``memo``: the run
    filters worked out so far."""
    if memo is None:
        memo = {}
    lay = view.layout
    cell_runs, run_cells, totals = lay.cell_runs, lay.run_cells, lay.run_total
    masks = list(view.masks)
    b = BIT[digit]
    masks[cell] = b
    changed = {cell}
    read: set[int] = set(cell_runs[cell])
    for r in cell_runs[cell]:
        alone = 0
        for j in run_cells[r]:
            if j != cell and masks[j] & b:
                masks[j] &= ~b
                if not masks[j]:
                    return 0, read
                changed.add(j)
            if not masks[j] & (masks[j] - 1):
                alone |= masks[j]
        if not any(c & alone == alone for c in view.live(r)):
            return 0, read
    for k in range(1, cap + 1):
        dirty = {r for i in changed for r in cell_runs[i]}
        if not dirty:
            return NEVER, read
        read |= dirty
        new: dict[int, int] = {}  # this round's candidates, where they change (a grid's
        for r in dirty:  # copy a round would cost a large grid more than its filters)
            cells = run_cells[r]
            old = tuple([masks[i] for i in cells])  # every run on the round before's board
            live = view.live(r)
            key = (totals[r], live, old)
            if key in memo:
                got = memo[key]
            else:
                got = memo[key] = filtered(totals[r], live, old)
            if got is None:
                return k, read
            for i, a, m in zip(cells, old, got, strict=True):
                if m != a:
                    new[i] = new.get(i, a) & m
        for i in list(new):
            m = new[i]
            if not m:
                return k, read
            if not m & (m - 1) and masks[i] & (masks[i] - 1):  # a digit newly alone
                for r in cell_runs[i]:
                    read.add(r)
                    alone = 0  # as a written digit: it leaves the run's other cells,
                    for j in run_cells[r]:  # and the run's digits alone must fit a way
                        mj = new.get(j, masks[j])
                        if j != i and mj & m:
                            mj = new[j] = mj & ~m
                            if not mj:
                                return k, read
                        if not mj & (mj - 1):
                            alone |= mj
                    if not any(c & alone == alone for c in view.live(r)):
                        return k, read
        changed = set()
        for i, m in new.items():
            if m != masks[i]:
                masks[i] = m
                changed.add(i)
    return None, read


class Bounds:
    """The bounds of one walk, by assumption, each kept until the board changes a run it
    read; one store shared by the whip and braid searches (it depends on the board only)."""

    def __init__(self) -> None:
        #: (cell, digit) -> (first breaking round (0 or more), NEVER, or -(rounds done
        #: + 2) when undecided after that many rounds)
        self.kept: dict[tuple[int, int], int] = {}
        self.by_run: dict[int, set[tuple[int, int]]] = {}
        #: tells what changed on the board since the last call (its searches unused)
        self._board = ChainCache(0)
        self.memo: Memo = {}

    def sync(self, view: View) -> None:
        """Forget the bounds that read a run the board changed since the last call."""
        if len(self.memo) > MEMO:
            self.memo.clear()
        for r in self._board.sync(view):
            for key in self.by_run.pop(r, ()):
                self.kept.pop(key, None)

    def within(self, view: View, cell: int, digit: int, n: int) -> bool:
        """Could a chain from ``digit`` in ``cell`` break the grid in at most ``n`` links?
        (False only when none can.)"""
        if n < 1:
            return False  # (nothing kept: "undecided after -1 rounds" would read as NEVER)
        key = (cell, digit)
        got = self.kept.get(key)
        cap = n - 1  # a chain of n links breaks the grid by round n - 1
        if got is not None:
            if got == NEVER:
                return False
            if got >= 0:
                return got < n
            done = -got - 2
            if done >= cap:  # those rounds done, none broke it
                return False
            # asked again for more: twice the rounds, so that a search asking for one
            # more link at a time does not redo the rounds every time
            cap = max(cap, 2 * done)
        first, read = rounds(view, cell, digit, cap, self.memo)
        self.kept[key] = first if first is not None else -(cap + 2)
        for r in read:
            self.by_run.setdefault(r, set()).add(key)
        return first is not None and first != NEVER and first < n

    def soonest(self, cell: int, digit: int) -> int | None:
        """The least target (links - 1) a chain from ``digit`` in ``cell`` may be found at,
        as far as is known without filtering (None: no chain at all)."""
        got = self.kept.get((cell, digit))
        if got is None:
            return 0
        if got == NEVER:
            return None
        return got if got >= 0 else -got - 1  # rounds done without a break, + 1


def bounds_for(view: View) -> Bounds:
    """This walk's bounds, synced with the board as the view shows it."""
    store = view.context.cache("chains.bounds")
    got = store.get("bounds")
    if got is None:
        got = store["bounds"] = Bounds()
    got.sync(view)
    return got

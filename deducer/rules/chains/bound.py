"""How soon an assumption can break the grid: a lower bound on the length of any chain
of built-in link rules from it, without searching for the chain.

Every built-in link rule reads one run's contents (its cells' candidates and its live
combinations) and claims only what those contents imply. :func:`link_filter` takes from a
run at least what any one of those rules takes, and on a narrower run (fewer candidates)
at least what it took from a wider one. Filter, in rounds, every run the round before
changed (a digit left alone in a cell leaves its runs' other cells, and its runs' digits
left alone must fit a live combination, in the same round, as with a written digit). Round
``k``'s state is then no wider than any state ``k`` links reach, whichever runs they are
in: a link resting on earlier links comes a round after them, and sees a run at least as
wide as the round does. A chain of ``L`` links (the closing contradiction counted, as a
chain's length is) breaks the grid with its last real link, the ``L - 1``-th (a braid: at
most ``L - 1`` deep), so the rounds break it by round ``L - 1`` (round 0: the assumed digit
alone, a chain of one link). When round ``k`` is the first to break it, no chain is
shorter than ``k + 1`` links; when the rounds stop changing anything first, there is no
chain at all.

The exact filter (a digit stays only if some arrangement of a live combination puts it
there) would be sound too, but it takes much more than any one link, so its rounds break
sooner and bound less: the link filter is as weak as the rules allow.

Chain searches (:mod:`.whip`, :mod:`.braid`) ask this before following an assumption, and from the
nodes a whip search has reached: it costs a few run filters (memoised per run), where
following costs asking every link rule about every run near every link. It holds only for
link rules that declare it (``bound:`` in their YAML); a search that has a rule declaring
none among its links does not ask (docs/rule-contract.md "Chains"). tests/test_chainbound.py
checks the two properties of the link filter rule by rule on random runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from ...puzzle.combos import BIT, DIGITS, SUM
from ...solver.propagate import Changes, changes, run_filter
from ..bounds import sorted_distinct_sums
from .cache import BoardWatch

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from ...solver.propagate import Layout
    from ..api import View

    #: a run's filter for the rounds: (clue, live combinations, candidates) -> the
    #: candidates left (None: the run is broken)
    Filter = Callable[[int | None, Sequence[int], tuple[int, ...]], tuple[int, ...] | None]

#: run filters a walk's bounds keep (memory only: one dropped is filtered again)
MEMO = 200_000

#: the rounds did not break the grid and stopped changing it: no chain from the assumption
NEVER = -1


def link_filter(total: int | None, live: Sequence[int], masks: tuple[int, ...]
                ) -> tuple[int, ...] | None:
    """At least what any one built-in link rule takes from a run with candidates
    ``masks`` (None: the run is broken), and on narrower candidates at least what it took
    from wider ones: the rounds' filter. It is weaker than the exact filter (which looks
    at every arrangement), so the rounds break later and the bound is tighter, and it
    stays sound because each of its parts covers one rule on any narrower run
    (tests/test_chainbound.py checks each rule on random runs narrowed at random):

    * one arrangement left (of a live combination), or none: the exact filter (settled
      run);
    * a digit alone in a cell leaves the others, twice alone breaks the run (naked
      single);
    * the live combinations that hold every digit alone, lie within the cells' candidates
      and give each cell a digit: a digit in none of them leaves (combination filter,
      lone cell); a digit in all of them with one cell goes there, with none breaks the
      run (hidden single);
    * each open cell within what the sum still needs less the most and least the other
      open cells make (sum bounds), and of two open cells, a digit whose complement the
      other lacks leaves (pair complement).
    """
    alone = union = twice = 0
    for m in masks:
        twice |= union & m  # digits in two cells or more
        union |= m
        if not m & (m - 1):
            if alone & m:
                return None
            alone |= m
    allowed, common = 0, 0x1FF
    for c in live:
        if c & alone == alone and c & union == c:
            for m in masks:
                if not m & c:
                    break
            else:
                allowed |= c
                common &= c
    if not allowed:
        return None
    kept = allowed & ~alone
    out = [m & allowed if not m & (m - 1) else m & kept for m in masks]
    # a digit every way holds that one cell alone may hold goes there (every such digit
    # is in some cell: the ways kept lie within the cells' candidates)
    for d in DIGITS[common & ~alone & ~twice]:
        b = BIT[d]
        for k, m in enumerate(masks):
            if m & b:
                out[k] &= b
                break
    if total is not None:
        free = [k for k, m in enumerate(masks) if m & (m - 1)]
        need = total - SUM[alone]
        cut = [masks[k] & ~alone for k in free]
        if len(free) == 2:  # (keeps no digit the sum bounds would take)
            _paired(out, free, cut, need)
        else:
            sum_bounded(out, free, cut, need)
    for m in out:
        if not m:
            return None
    # the exact filter last, on what the rest left (it keeps the same arrangements, and
    # the fewer candidates the less it costs): one arrangement is the settled run's
    weak = tuple(out)
    exact = run_filter(total, weak)
    if exact is None:
        return None
    way = 0
    for m in exact:
        if m & (m - 1):
            return weak
        way |= m
    return exact if way in live else None  # one way: it must be a live combination


def sum_bounded(out: list[int], free: list[int], cut: list[int], need: int) -> None:
    """Each open cell (``free``, their candidates ``cut``) kept within ``need`` (what the
    sum still needs) less the most and least the other open cells make as different
    digits, one from each list: sum bounds' :func:`~deducer.rules.bounds.distinct_intervals`
    (tests/test_chainbound.py checks the two agree; the rule takes no digit this keeps;
    where the others cannot be filled, the exact filter finds the run broken)."""
    n = len(free)
    if n == 1:  # the others make 0: the cell is what the sum needs
        out[free[0]] &= _FROM[need] & _UPTO[need]
        return
    # the others of each cell, from the cells sorted once (as distinct_sums keeps them);
    # cells with the same candidates have the same others, so the same bound
    order = sorted(range(n), key=cut.__getitem__)
    srt = tuple([cut[k] for k in order])
    got: tuple[int, int] | None = None
    for pos, k in enumerate(order):
        if not pos or srt[pos] != srt[pos - 1]:
            got = sorted_distinct_sums(srt[:pos] + srt[pos + 1:])
        if got is not None:
            out[free[k]] &= _FROM[need - got[1]] & _UPTO[need - got[0]]


def _reach(at_least: bool) -> tuple[int, ...]:
    """``[x]``: the digits at least (most) ``x``, for any ``x`` a run's sums give (-99 to
    99: indexed from the end below 0, as Python does, so the table runs on both ways)."""
    def mask(x: int) -> int:
        return sum(BIT[d] for d in range(1, 10) if (d >= x if at_least else d <= x))
    return tuple(mask(x) for x in range(100)) + tuple(mask(x) for x in range(-100, 0))


_FROM, _UPTO = _reach(True), _reach(False)


def _paired(out: list[int], free: list[int], cut: list[int], need: int) -> None:
    """Of two open cells (``free``, their candidates ``cut``) that must make ``need``, a
    digit whose complement the other cannot hold, or that is its own, leaves."""
    for me, mine, theirs in ((free[0], cut[0], cut[1]), (free[1], cut[1], cut[0])):
        keep = 0
        for a in DIGITS[mine]:
            if 0 < need - a < 10 and need - a != a and theirs & BIT[need - a]:
                keep |= BIT[a]
        out[me] &= keep


#: a filter not worked out yet (a memo's default: no filter gives it)
_UNSEEN: Changes = ((-1, -1),)


def singles_filter(total: int | None, live: Sequence[int], masks: tuple[int, ...]
                   ) -> tuple[int, ...] | None:
    """What a naked single (the one link rule of a bivalue chain) takes from a run, on any
    narrower run too: a digit alone in a cell leaves the others; the run breaks where a
    digit is alone twice or the digits alone are in no live combination. The rounds'
    filter for searches whose only link rule is the naked single: far weaker than
    :func:`link_filter`, so it bounds their chains far better."""
    alone = 0
    for m in masks:
        if not m & (m - 1):
            if alone & m or not m:
                return None
            alone |= m
    if not any(c & alone == alone for c in live):
        return None
    out = tuple([m if not m & (m - 1) else m & ~alone for m in masks])
    return out if all(out) else None


class Memo:
    """What the rounds work out per run, kept from call to call: each run's filter by its
    cells' candidates, and which sets of digits one of its live combinations holds (its
    clue is fixed, and the live combinations the board gives it change only with the
    board: :meth:`Bounds.sync` forgets the run then; those a chain's written digits leave
    it matter not, the filters (:func:`link_filter`, :func:`singles_filter`) and the
    rounds reading only the combinations that hold every digit alone)."""

    def __init__(self, run_filter: Filter | None = None,
                 readers: dict[int, Callable[[Sequence[Any]], tuple[Any, ...]]] | None = None
                 ) -> None:
        #: the rounds' filter (:func:`link_filter` unless told)
        self.filter: Filter = run_filter or link_filter
        #: run -> (its reader, its filter's answers by the cells' candidates: what the
        #: filter narrows, as (cell, candidates left) pairs, or None where the run breaks);
        #: one lookup a run a round, and a run the filter leaves as it was costs no more
        self.runs: dict[int, tuple[Callable[[Sequence[Any]], tuple[Any, ...]],
                                   dict[tuple[int, ...], Changes | None]]] = {}
        #: run -> a bit for each set of digits (as a mask) some live combination holds
        self.fits: dict[int, int] = {}
        #: run -> reads its cells' candidates (a tuple) from a grid's (:func:`readers_for`)
        self.getters = {} if readers is None else readers

    def forget(self, r: int) -> None:
        self.runs.pop(r, None)
        self.fits.pop(r, None)

    def size(self) -> int:
        return sum(len(got[1]) for got in self.runs.values())


def reader(cells: Sequence[int]) -> Callable[[Sequence[Any]], tuple[Any, ...]]:
    """Reads the values of ``cells`` from a grid's (candidates, written or not), as a
    tuple, in C: the rounds and the chain searches read every changed run's this way."""
    if len(cells) == 1:
        only = cells[0]
        return lambda masks: (masks[only],)
    return itemgetter(*cells)


def readers_for(view: View) -> dict[int, Callable[[Sequence[Any]], tuple[Any, ...]]]:
    """This walk's :func:`reader` of each run, made when first asked (one store for the
    bounds and the chain searches' looks)."""
    return view.context.cache("chains.readers")


def fits(live: Sequence[int]) -> int:
    """A bit for every set of digits (as a mask) one of ``live`` holds."""
    out = 0
    for c in live:
        sub = c
        while True:  # every subset of c
            out |= 1 << sub
            if not sub:
                break
            sub = (sub - 1) & c
    return out


@dataclass(slots=True)
class Partial:
    """Rounds from an assumption that have not decided yet, as far as they got (to go on
    from there when asked for more)."""

    done: int  # rounds done
    over: dict[int, int]  # the candidates where they differ from the board's
    changed: set[int]  # the cells the last round changed
    read: set[int]  # the runs filtered so far


def start(view: View, cell: int, digit: int) -> tuple[int | None, Partial]:
    """Round 0 from ``digit`` in ``cell``: the assumed digit alone leaves its runs' other
    cells, and their digits alone must fit a live combination. (0: that breaks the grid;
    else None, with the rounds to go on from.)"""
    lay = view.layout
    cell_runs, run_cells = lay.cell_runs, lay.run_cells
    masks = view.masks
    b = BIT[digit]
    over = {cell: b}
    read: set[int] = set(cell_runs[cell])
    part = Partial(0, over, {cell}, read)
    for r in cell_runs[cell]:
        alone = 0
        for j in run_cells[r]:
            m = over.get(j, masks[j])
            if j != cell and m & b:
                m = over[j] = m & ~b
                if not m:
                    return 0, part
                part.changed.add(j)
            if not m & (m - 1):
                alone |= m
        if not any(c & alone == alone for c in view.live(r)):
            return 0, part
    return None, part


def go_on(view: View, part: Partial, cap: int, memo: Memo, fresh: list[int] | None = None
          ) -> int | None:
    """Rounds ``part.done + 1`` to ``cap`` (:func:`rounds_on`), ``part`` brought up to
    date when they do not decide; the runs they read first join ``fresh``."""
    masks = list(view.masks)
    for i, m in part.over.items():
        masks[i] = m
    touched: set[int] = set()
    first = rounds_on(view.layout, masks, view.live, part.changed, cap, memo, part.read,
                      part.done + 1, touched, fresh)
    if first is None:
        part.done = cap
        for i in touched:
            part.over[i] = masks[i]
    return first


def rounds(view: View, cell: int, digit: int, cap: int, memo: Memo | None = None
           ) -> tuple[int | None, set[int]]:
    """(the first round that breaks the grid with ``digit`` in ``cell`` (0: the assumed
    digit alone), or :data:`NEVER`, or None when ``cap`` rounds did not decide; the runs
    filtered, whose contents on the board the answer depends on). ``memo``: the run
    filters worked out so far."""
    first, part = start(view, cell, digit)
    if first is None:
        first = go_on(view, part, cap, Memo() if memo is None else memo)
    return first, part.read


def rounds_on(lay: Layout, masks: list[int], live: Callable[[int], tuple[int, ...]],
              changed: set[int], cap: int, memo: Memo, read: set[int], begin: int = 1,
              touched: set[int] | None = None, fresh: list[int] | None = None) -> int | None:
    """The first of rounds ``begin`` to ``cap`` that breaks a state whose cells ``changed``
    last (:data:`NEVER`: the rounds stop changing it first; None: undecided): ``masks``,
    its candidates (changed in place, as ``changed`` is, and each cell changed joins
    ``touched``), ``live``, its runs' live combinations as the board gives them. The runs
    filtered join ``read``. From a whip search's node, it bounds the links a chain through
    the node still needs, as :func:`rounds` does from the assumption. The runs not in
    ``read`` before also join ``fresh`` (so a caller notes only those)."""
    cell_runs, run_cells, totals = lay.cell_runs, lay.run_cells, lay.run_total
    runs, fitting, getters, run_filter_of = memo.runs, memo.fits, memo.getters, memo.filter
    for k in range(begin, cap + 1):
        dirty = {r for i in changed for r in cell_runs[i]}
        if not dirty:
            return NEVER
        if fresh is not None:
            fresh.extend(dirty - read)
        read |= dirty
        new: dict[int, int] = {}  # this round's candidates, where they change (a grid's
        for r in dirty:  # copy a round would cost a large grid more than its filters)
            entry = runs.get(r)
            if entry is None:
                get = getters.get(r)
                if get is None:
                    get = getters[r] = reader(run_cells[r])
                entry = runs[r] = (get, {})
            get, seen = entry
            old = get(masks)  # every run on the round before's board
            got = seen.get(old, _UNSEEN)
            if got is _UNSEEN:
                out = run_filter_of(totals[r], live(r), old)
                got = seen[old] = None if out is None else changes(run_cells[r], old, out)
            if got is None:
                return k
            for i, m in got:
                had = new.get(i)
                new[i] = (masks[i] if had is None else had) & m
        # the round's changes written in, each cell's candidates before them kept: what
        # follows reads and narrows the grid itself
        was: dict[int, int] = {}
        for i, m in new.items():
            was[i] = masks[i]
            masks[i] = m
        for i in list(was):
            m = masks[i]
            if not m:
                return k
            if not m & (m - 1) and was[i] & (was[i] - 1):  # a digit newly alone
                for r in cell_runs[i]:
                    if r not in read:
                        read.add(r)
                        if fresh is not None:
                            fresh.append(r)
                    alone = 0  # as a written digit: it leaves the run's other cells,
                    for j in run_cells[r]:  # and the run's digits alone must fit a way
                        mj = masks[j]
                        if j != i and mj & m:
                            if j not in was:
                                was[j] = mj
                            mj = masks[j] = mj & ~m
                            if not mj:
                                return k
                        if not mj & (mj - 1):
                            alone |= mj
                    fit = fitting.get(r)
                    if fit is None:
                        fit = fitting[r] = fits(live(r))
                    if not fit >> alone & 1:
                        return k
        changed.clear()
        changed.update(was)  # (each narrowed: a filter or a digit alone took something)
        if touched is not None:
            touched |= changed
    return None


class Bounds:
    """The bounds of one walk, by assumption, each kept until the board changes a run it
    read; one store shared by the whip and braid searches (it depends on the board only)."""

    def __init__(self, run_filter: Filter | None = None,
                 readers: dict[int, Callable[[Sequence[Any]], tuple[Any, ...]]] | None = None
                 ) -> None:
        #: the rounds' filter (:func:`link_filter` unless told), and the runs' readers
        self._filter, self._readers = run_filter, readers
        #: (cell, digit) -> the first breaking round (0 or more), NEVER, or the rounds
        #: done so far when they did not decide
        self.kept: dict[tuple[int, int], int | Partial] = {}
        self.by_run: dict[int, set[tuple[int, int]]] = {}
        #: tells what changed on the board since the last call
        self._board = BoardWatch()
        self.memo = Memo(run_filter, readers)

    def sync(self, view: View) -> None:
        """Forget the bounds that read a run the board changed since the last call, and
        the filters of the runs whose live combinations it changed."""
        if self.memo.size() > MEMO:
            self.memo = Memo(self._filter, self._readers)
        was = self._board.seen
        for r in self._board.sync(view):
            if was is not None and was.live[r] != view.live(r):
                self.memo.forget(r)  # (its filters by candidates hold while these do)
            for key in self.by_run.pop(r, ()):
                self.kept.pop(key, None)

    def within(self, view: View, cell: int, digit: int, n: int) -> bool:
        """Could a chain from ``digit`` in ``cell`` break the grid in at most ``n`` links?
        (False only when none can.)"""
        if n < 1:
            return False
        key = (cell, digit)
        got = self.kept.get(key)
        if got is None:
            first, part = start(view, cell, digit)
            got = self.kept[key] = part if first is None else first
            self._note(key, part.read)
        if isinstance(got, Partial):
            cap = n - 1  # a chain of n links breaks the grid by round n - 1
            if got.done >= cap:  # those rounds done, none broke it
                return False
            fresh: list[int] = []
            first = go_on(view, got, cap, self.memo, fresh)
            self._note(key, fresh)
            if first is None:
                return False
            got = self.kept[key] = first
        return got != NEVER and got < n

    def _note(self, key: tuple[int, int], read: Iterable[int]) -> None:
        for r in read:
            self.by_run.setdefault(r, set()).add(key)

    def soonest(self, cell: int, digit: int) -> int | None:
        """The least target (links - 1) a chain from ``digit`` in ``cell`` may be found at,
        as far as is known without filtering (None: no chain at all)."""
        got = self.kept.get((cell, digit))
        if got is None:
            return 0
        if isinstance(got, Partial):
            return got.done + 1  # rounds done without a break, + 1
        return None if got == NEVER else got


def bounds_for(view: View, singles: bool = False) -> Bounds:
    """This walk's bounds, synced with the board as the view shows it: for chains of the
    built-in link rules, or with ``singles`` of naked singles alone (:func:`singles_filter`)."""
    store = view.context.cache("chains.bounds")
    key = "singles" if singles else "bounds"
    got = store.get(key)
    if got is None:
        got = store[key] = Bounds(singles_filter if singles else None, readers_for(view))
    got.sync(view)
    return got

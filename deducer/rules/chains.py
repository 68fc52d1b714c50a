"""Chains of simple steps: assume a candidate, follow what it forces, reach a contradiction.

One engine serves three rungs of the ladder (shortest first):

* ``bivalue_chain``: assume a digit in a two-candidate cell and follow naked singles only
  (each forced cell down to one candidate, the digit it takes leaving its runs' other cells);
* ``forcing_chain``: assume any candidate and follow every simple step a person takes
  (lone cell, naked and hidden single, combination filter, pair complement, sum bounds on a
  run of at most three empty cells) up to a length cap;
* ``trial`` (in :mod:`deducer.rules.fallback`): the same propagation without the cap, the
  last human rung (Berthier's "braids" propagated with singles).

Every link is a step of its own with its own facts and runs (docs/json-contract.md), checked
in the state that the assumption and the earlier links leave. Only the links the contradiction
rests on are kept (the dependency closure of the last link), so the chain a reader follows
is exactly as long as the argument; that number is the chain's length.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import itemgetter

from ..explain.state import Deduction, Link, Proof
from ..puzzle.combos import BIT, DIGITS, POP, SINGLE, SUM, combos
from ..solve.propagate import run_filter
from . import rule

#: the cap a person can follow (README "Rating"); longer chains are left to trial
DEFAULT_MAX_CHAIN = 12


@dataclass
class _Link:
    kind: str
    say: Callable[..., str] | str  # the link's sentence, built only for links kept
    place: dict[int, int] = field(default_factory=dict)
    elim: dict[int, int] = field(default_factory=dict)
    cells: dict[int, int] = field(default_factory=dict)  # facts: cell -> candidates
    combos: dict[int, tuple[int, ...]] = field(default_factory=dict)  # facts: run -> combos
    runs: tuple[int, ...] = ()
    deps: frozenset[int] = frozenset()
    contradiction: bool = False

    def copy(self) -> _Link:
        """A shallow copy (the walks rebind a link's fields, never edit them)."""
        out = _Link.__new__(_Link)
        out.__dict__.update(self.__dict__)
        return out

    @property
    def text(self) -> str:
        if callable(self.say):
            self.say = self.say()
        return self.say


_UNSEEN = object()


class _Chase:
    """One assumption followed with simple steps, in a private copy of the state."""

    def __init__(self, view, cell: int, digit: int, *, singles_only: bool, budget: int):
        self.view = view
        lay = view.layout
        self.run_cells = lay.run_cells
        self.run_total = lay.run_total
        self.cell_runs = lay.cell_runs
        state = view._s  # a private copy is made at once; the view's helpers copy per call
        self.cur = list(state.masks)
        self.placed = list(state.placed)
        self.singles_only = singles_only
        self.budget = budget
        self.links: list[_Link] = []
        self.looks = view.context.cache("chains.looks")  # see _look
        self.written_by: dict[int, int] = {}  # cell -> link index that wrote it (-1: assumed)
        self.removers: dict[int, set[int]] = {}  # cell -> links that removed its candidates
        self.gone_by: dict[tuple[int, int], int] = {}  # (cell, digit) -> link that removed it
        self.queue: deque[int] = deque()
        self.queued: set[int] = set()
        self.cell_queue: deque[int] = deque()
        self.cell_queued: set[int] = set()
        self.assumed = (cell, digit)
        self.end: int | None = None
        self.seen_runs: set[int] = set()  # runs whose cells the walk read (its footprint)
        #: (t, run) per read: a walk of budget b reads the runs with t < b (see _replay)
        self.seen_log: list[tuple[int, int]] = []
        self._write(cell, digit, -1, {})

    # ---- bookkeeping ------------------------------------------------------------
    def _touch(self, i: int) -> None:
        if self.singles_only:
            if i not in self.cell_queued:
                self.cell_queued.add(i)
                self.cell_queue.append(i)
            return
        for r in self.cell_runs[i]:
            if r not in self.queued:
                self.queued.add(r)
                self.queue.append(r)

    def _remove(self, i: int, m: int, who: int, elim: dict[int, int]) -> None:
        m &= self.cur[i]
        if not m:
            return
        self.cur[i] &= ~m
        elim[i] = elim.get(i, 0) | m
        if who >= 0:
            self.removers.setdefault(i, set()).add(who)
        for d in DIGITS[m]:
            self.gone_by[(i, d)] = who
        self._touch(i)

    def _write(self, i: int, d: int, who: int, elim: dict[int, int]) -> None:
        self.seen_runs.update(self.cell_runs[i])
        t = len(self.links) - 1  # written by the last link (-1: the assumption)
        self.seen_log.extend((t, r) for r in self.cell_runs[i])
        self.cur[i] = BIT[d]
        self.placed[i] = True
        self.written_by[i] = who
        self._touch(i)
        for r in self.cell_runs[i]:
            for j in self.run_cells[r]:
                if j != i and not self.placed[j] and self.cur[j] & BIT[d]:
                    self._remove(j, BIT[d], who, elim)

    def _deps(self, cells, runs) -> frozenset[int]:
        deps: set[int] = set()
        for i in cells:
            deps |= self.removers.get(i, set())
        for r in runs:
            for j in self.run_cells[r]:
                w = self.written_by.get(j, -1)
                if w >= 0:
                    deps.add(w)
        return frozenset(deps)

    def _add(self, link: _Link) -> None:
        """Apply a link to the private state; a cell left empty ends the chain."""
        k = len(self.links)
        link.deps = self._deps(link.cells, link.runs)
        self.links.append(link)
        if link.contradiction:
            self.end = k
            return
        elim: dict[int, int] = {}
        for i, m in link.elim.items():
            self._remove(i, m, k, elim)
        for i, d in link.place.items():
            self._write(i, d, k, elim)
        link.elim = elim  # what really changed, peers of written digits included
        for i in elim:
            if self.cur[i] == 0:
                self._empty(i)
                return

    def _empty(self, i: int) -> None:
        v = self.view
        text = f"{v.cell_name(i)} has no digit left ({self._gone_text(i)})"
        k = len(self.links)
        link = _Link("empty", text, cells={i: 0}, contradiction=True)
        link.deps = self._deps((i,), ())
        self.links.append(link)
        self.end = k

    # ---- the walk ---------------------------------------------------------------
    def run(self) -> bool:
        """Follow the assumption; True when it ends in a contradiction."""
        while self.end is None and len(self.links) < self.budget:
            if self.singles_only:
                if not self.cell_queue:
                    return False
                i = self.cell_queue.popleft()
                self.cell_queued.discard(i)
                if not self.placed[i] and POP[self.cur[i]] == 1:
                    self._single(i)
                continue
            if not self.queue:
                return False
            r = self.queue.popleft()
            self.queued.discard(r)
            self.seen_runs.add(r)
            self.seen_log.append((len(self.links), r))
            link = self._look(r)
            if link is not None:
                self._add(link)
                if self.end is None and r not in self.queued:  # more may follow here
                    self.queued.add(r)
                    self.queue.append(r)
        return self.end is not None

    def release(self) -> None:
        """Drop the links of a walk that is done with. Their sentences are closures over
        the walk, so walk and links form a cycle that only the cyclic collector frees,
        and chasing those cycles was a fifth of a chain-heavy walkthrough's time."""
        self.links = []

    def needed(self) -> list[_Link]:
        """The links the contradiction rests on, in order."""
        keep: set[int] = set()
        assert self.end is not None  # called once the walk has ended
        todo = [self.end]
        while todo:
            k = todo.pop()
            if k in keep:
                continue
            keep.add(k)
            todo.extend(self.links[k].deps)
        return [self.links[k] for k in sorted(keep)]

    # ---- the simple steps -------------------------------------------------------
    def _single(self, i: int) -> None:
        self._add(self._single_link(i))

    def _single_link(self, i: int) -> _Link:
        d = SINGLE[self.cur[i]]
        v = self.view
        def gone():
            return self._gone_text(i)

        return _Link("single", lambda: f"{v.cell_name(i)} has only {d} left"
                               + (f" ({gone()})" if gone() else "")
                               + f", so {v.cell_name(i)} = {d}",
                     place={i: d}, cells={i: BIT[d]})

    def _gone_text(self, i: int) -> str:
        """Which digits the chain took from cell ``i``, and by what: '3 went with r6c3 = 3'."""
        v = self.view
        parts = []
        for d in range(1, 10):
            who = self.gone_by.get((i, d))
            if who is None:
                continue
            if who < 0:
                parts.append(f"{d} went with {v.cell_name(self.assumed[0])} = {d}")
                continue
            src = self.links[who]
            by = ", ".join(f"{v.cell_name(j)} = {e}" for j, e in src.place.items())
            if by:
                parts.append(f"{d} went with {by}")
            else:
                parts.append(f"{d} was ruled out in "
                             + ", ".join(v.run_name(r) for r in src.runs))
        return "; ".join(parts)

    def _look(self, r: int) -> _Link | None:
        """The first simple step run ``r`` offers in the private state, if any.

        It depends only on what the run holds (candidates, written digits, live
        combinations), and five looks in six (12x12 Extreme ratings) repeat one the
        puzzle's walks made before: the answer is kept, as a template link to copy, or as
        the cell of a single (whose sentence tells this walk's history)."""
        cur, placed = self.cur, self.placed
        key = (r, self.view.live(r), *[-cur[i] if placed[i] else cur[i]
                                       for i in self.run_cells[r]])
        known = self.looks.get(key, _UNSEEN)
        if known is _UNSEEN:
            link = self._first_step(r)
            if link is None:
                known = None
            elif link.kind == "single":
                known = next(iter(link.place))
            else:
                known = link.copy()
            self.looks[key] = known
            return link
        if known is None:
            return None
        if isinstance(known, int):
            return self._single_link(known)
        return known.copy()

    def _first_step(self, r: int) -> _Link | None:
        v = self.view
        cur = self.cur
        cells = self.run_cells[r]
        open_ = [i for i in cells if not self.placed[i]]
        written = 0
        for i in cells:
            if self.placed[i]:
                written |= cur[i]
        total = self.run_total[r]

        def name() -> str:
            return v.run_name(r)

        need = None if total is None else total - SUM[written]
        if need is not None and len(open_) == 1:
            return self._lone(r, open_[0], need, written)
        for i in open_:
            if POP[cur[i]] == 1:
                return self._single_link(i)
        if total is None or need is None:
            return None
        if not open_:
            if need != 0:
                return _Link("sum", lambda: f"{name()} is full but adds up to "
                                            f"{SUM[written]}, not {total}",
                             runs=(r,), contradiction=True)
            return None
        facts = {i: cur[i] for i in open_}

        def arith() -> str:
            return self._arith(r, total, written)

        # the run's possible combinations: those still live that fit the written digits and
        # whose other digits the empty cells can hold
        live0 = v.live(r)
        union = 0
        for i in open_:
            union |= cur[i]
        fits = [c for c in live0 if c & written == written and (c & ~written) & ~union == 0]
        combo_fact = {}
        if len(live0) != len(combos(total, len(cells))):  # earlier steps dropped some
            combo_fact = {r: tuple(c for c in live0 if c & written == written)}

        def cells_txt() -> str:
            return ", ".join(f"{v.cell_name(i)} ({v.digits(facts[i])})" for i in open_)

        if not fits:
            return _Link("combos", lambda: f"{name()} has no combination left for {cells_txt()}",
                         cells=facts, combos=combo_fact, runs=(r,), contradiction=True)
        free = [c & ~written for c in fits]
        allowed = 0
        common = 0x1FF
        for c in free:
            allowed |= c
            common &= c

        def shown() -> str:
            return " or ".join(v.combo(c) for c in fits)

        elim = {i: cur[i] & ~allowed for i in open_ if cur[i] & ~allowed}
        if elim:
            gone = 0
            for m in elim.values():
                gone |= m
            return _Link("filter", lambda: f"{name()} can only be {shown()} with {cells_txt()}; "
                                   f"{v.digits(gone)} {'fits' if POP[gone] == 1 else 'fit'} "
                                   f"none, so {'it leaves' if POP[gone] == 1 else 'they leave'} "
                                   f"{v.cells_name(sorted(elim))}",
                         elim=elim, cells=facts, combos=combo_fact, runs=(r,))
        for d in DIGITS[common]:
            homes = [i for i in open_ if cur[i] & BIT[d]]
            if len(homes) == 1:
                i = homes[0]
                return _Link("hidden", lambda d=d, i=i: f"every way to make {name()} "
                                       f"({shown()}) uses {d}, and of {cells_txt()} only "
                                       f"{v.cell_name(i)} can hold it, so {v.cell_name(i)} = {d}",
                             place={i: d}, cells=facts, combos=combo_fact, runs=(r,))
            if not homes:
                return _Link("hidden", lambda d=d: f"every way to make {name()} ({shown()}) "
                                       f"uses {d}, but none of {cells_txt()} can hold it",
                             cells=facts, combos=combo_fact, runs=(r,), contradiction=True)
        if len(open_) == 2:
            x, y = open_
            elim = {}
            why = []
            for me, other in ((x, y), (y, x)):
                wrong = [a for a in DIGITS[cur[me]]
                         if not 1 <= need - a <= 9 or need - a == a
                         or not cur[other] & BIT[need - a]]
                if wrong:
                    elim[me] = sum(BIT[a] for a in wrong)
                    why.append(f"{v.cell_name(me)} cannot be {v.digits(elim[me])}")
            if elim:
                return _Link("pair", lambda: f"{name()} needs {arith()}{need} from "
                                     f"{cells_txt()}, two different digits: " + "; ".join(why),
                             elim=elim, cells=facts, runs=(r,))
        elif len(open_) == 3:
            for i in open_:
                others = [cur[j] for j in open_ if j != i]
                lo2, hi2 = _pair_range(others[0], others[1])
                if lo2 is None:
                    continue
                lo, hi = need - hi2, need - lo2
                bad = sum(BIT[d] for d in DIGITS[cur[i]] if d < lo or d > hi)
                if bad:
                    rest = " and ".join(v.cell_name(j) for j in open_ if j != i)
                    said = []
                    if any(d > hi for d in DIGITS[bad]):
                        said.append(f"they make at least {lo2}, so {v.cell_name(i)} is at "
                                    f"most {need} − {lo2} = {hi}")
                    if any(d < lo for d in DIGITS[bad]):
                        said.append(f"they make at most {hi2}, so {v.cell_name(i)} is at "
                                    f"least {need} − {hi2} = {lo}")
                    verb = "leaves" if POP[bad] == 1 else "leave"
                    return _Link("bounds", lambda i=i, bad=bad, rest=rest, said=said, verb=verb:
                                 f"{name()} needs {arith()}{need} from {cells_txt()}; of two "
                                 f"different digits in {rest}, " + " and ".join(said)
                                 + f": {v.digits(bad)} {verb} {v.cell_name(i)}",
                                 elim={i: bad}, cells=facts, runs=(r,))
        return None

    def _lone(self, r: int, i: int, need: int, written: int) -> _Link:
        v = self.view
        name = v.run_name(r)
        arith = self._arith(r, self.run_total[r], written)
        cur = self.cur
        if 1 <= need <= 9 and cur[i] & BIT[need] and not written & BIT[need]:
            return _Link("lone", lambda: f"{name} has one empty cell left, {v.cell_name(i)}, so "
                                 f"{v.cell_name(i)} = {arith}{need}",
                         place={i: need}, runs=(r,))
        m = cur[i]
        return _Link("lone", lambda: f"{name} has one empty cell left, {v.cell_name(i)} "
                             f"({v.digits(m)}), which would need {arith}{need}",
                     cells={i: cur[i]}, runs=(r,), contradiction=True)

    def _arith(self, r: int, total: int, written: int) -> str:
        """'17 − 3 − 5 = ' for the digits written in the run (empty when none are)."""
        ds = DIGITS[written]
        if not ds:
            return ""
        return f"{total}" + "".join(f" − {d}" for d in ds) + " = "


class _Outcome(list):
    """The links of a walk that broke, with the walk (frozen) to trim their proofs from
    once this chain is the one chosen (most walks that break are never shown)."""

    def __init__(self, links, chase: _Chase):
        super().__init__(links)
        self.chase = chase
        self.trimmed = False

    def finish(self, view) -> None:
        if not self.trimmed:
            for lk in self:
                _trim(view, self.chase, lk)
            self.trimmed = True


def _support(total, masks, combo_fact) -> tuple[int, ...] | None:
    """Exact digits each cell of one run can take (None: no filling), given its cells'
    domains and, when known, the combinations it is limited to."""
    if combo_fact is None:
        return run_filter(total, tuple(masks))
    out = None
    for c in combo_fact:
        got = run_filter(total, tuple(m & c for m in masks))
        if got is not None:
            out = got if out is None else tuple(a | b for a, b in zip(out, got, strict=True))
    return out


def _trim(view, chase: _Chase, lk: _Link) -> None:
    """Drop the facts a one-run link does not need: a fact stays only when the link's
    effect no longer follows from its run without it (so a reader checks no more)."""
    if len(lk.runs) != 1 or not (lk.cells or lk.combos):
        return
    r = lk.runs[0]
    cells = chase.run_cells[r]
    if any(i not in cells for i in lk.cells):
        return
    k = next(n for n, x in enumerate(chase.links) if x is lk)
    # the digits written in the run when the link is made: on the board, by the
    # assumption (-1) or by an earlier link
    written = {}
    for i in cells:
        if view.is_placed(i):
            written[i] = view.value(i)
        elif chase.written_by.get(i, k) < k:
            written[i] = SINGLE[chase.cur[i]]
    total = chase.run_total[r]

    def holds(facts, combo_fact) -> bool:
        masks = [BIT[written[i]] if written.get(i) else facts.get(i, 0x1FF) for i in cells]
        sup = _support(total, masks, combo_fact)
        if lk.contradiction or sup is None:
            return sup is None
        got = dict(zip(cells, sup, strict=True))
        if lk.place:  # what a written digit takes from its peers needs no proof
            return all(got[i] == BIT[d] for i, d in lk.place.items())
        return not any(got[i] & m for i, m in lk.elim.items() if i in got)

    facts = dict(lk.cells)
    combo = lk.combos.get(r)
    if not holds(facts, combo):
        return  # the walk's own reasoning used more than the run (keep every fact)
    if combo is not None and holds(facts, None):
        combo = None
    for i in list(facts):
        trial = {j: m for j, m in facts.items() if j != i}
        if holds(trial, combo):
            facts = trial
    lk.cells = facts
    lk.combos = {} if combo is None else {r: combo}


def _pair_range(a: int, b: int) -> tuple[int | None, int | None]:
    """Least and most two different digits, one from each mask, add up to."""
    lo = hi = None
    for x in DIGITS[a]:
        for y in DIGITS[b]:
            if x != y:
                s = x + y
                lo = s if lo is None or s < lo else lo
                hi = s if hi is None or s > hi else hi
    return lo, hi


def _order(view):
    """Open cells, fewest candidates first, then reading order."""
    cells = [i for i in range(len(view.puzzle.whites))
             if not view.is_placed(i) and POP[view.mask(i)] > 1]
    cells.sort(key=lambda i: (POP[view.mask(i)], i))
    return cells


def _getter(view, runs):
    """A function reading, from a state, what a walk over ``runs`` depends on."""
    cells = sorted({i for r in runs for i in view.layout.run_cells[r]}) or [0]
    take_cells = itemgetter(*cells)
    take_runs = itemgetter(*runs) if runs else (lambda live: ())

    def read(state) -> tuple:
        return take_cells(state.masks), take_cells(state.placed), take_runs(state.live)

    return read


@dataclass
class _Walk:
    """What the last real walk of an assumption found: its links in all, its budget, its
    outcome, what it read (and when), so that a walk of a smaller budget, or a larger one
    after it broke or ran dry, is known without walking again."""

    links: int
    budget: int
    outcome: object
    read: Callable
    snap: tuple
    log: list[tuple[int, int]]


def _caches(view) -> tuple[dict, dict]:
    """The puzzle's cache entries and last real walks, by (cell, digit, singles_only)."""
    return view.context.cache("chains.outcomes"), view.context.cache("chains.walks")


def _replay(view, walk: _Walk, budget: int):
    """(outcome, links walked, cache entry) of walking again with ``budget``, read off the
    last real walk while what it read is unchanged; None when only walking tells."""
    if walk.read(view._s) != walk.snap:
        return None
    n = walk.links
    if walk.outcome is not None:
        if budget >= n:  # the same walk to the same contradiction
            return walk.outcome, n, (n, n < budget, walk.read, walk.snap, walk.outcome)
        if budget >= n - 1:  # the last link may add an empty cell in the same move
            return None
    elif n < walk.budget and budget > n:  # it ran dry: so does any longer walk
        return None, n, (budget, True, walk.read, walk.snap, None)
    elif budget > n:
        return None
    # the first ``budget`` links of the same walk, then the budget stops it
    read = _getter(view, tuple(sorted({r for t, r in walk.log if t < budget})))
    return None, budget, (budget, False, read, read(view._s), None)


def _chase(view, cell: int, digit: int, singles_only: bool, budget: int, caches=None,
           paused: dict | None = None):
    """Follow one assumption: the needed links, or None when it reaches no contradiction.

    A walk depends only on the cells of the runs it read: while those are unchanged (the
    usual case between two steps far apart), the last outcome is reused, which keeps a
    walkthrough with many chain steps from redoing every walk at each step. The search
    asks with budgets of 6, 12, 24... links; a walk redone with another budget is read off
    the last real walk of the assumption (:func:`_replay`) with the same outcome and cost,
    so walks that break late are not redone at every budget of every search.

    ``paused``: walks the budget stopped earlier in the same search (the state has not
    changed since), by key. A larger budget goes on from where such a walk stopped
    instead of walking its first links again: a walk is deterministic and the budget only
    decides where it stops, so it ends exactly as a new walk would, and it costs what a
    new walk would (every link), so the search's work count is the same. Nine walks in
    ten stop at the budget (12x12 Extreme ratings)."""
    cache, walks = caches or _caches(view)
    key = (cell, digit, singles_only)
    hit = cache.get(key)
    if hit is not None:
        used, complete, read, snap, outcome = hit
        # a walk is deterministic: a contradiction within ``used`` links is found by any
        # larger budget, and a walk that ran dry (complete) fails for every budget
        fits = used <= budget if outcome is not None else (complete or budget <= used)
        if fits and read(view._s) == snap:
            return outcome, 0
    walk = walks.get(key)
    if walk is not None:
        known = _replay(view, walk, budget)
        if known is not None:
            outcome, used, cache[key] = known
            return outcome, used
    chase = paused.pop(key, None) if paused is not None else None
    if chase is not None and chase.budget < budget:
        chase.budget = budget
        chase.seen_log = list(chase.seen_log)  # the last _Walk keeps the shorter log
    else:
        chase = _Chase(view, cell, digit, singles_only=singles_only, budget=budget)
    outcome = chase.needed() if chase.run() else None
    if outcome is not None:
        outcome = _Outcome(outcome, chase)
    used = len(chase.links)
    read = _getter(view, tuple(sorted(chase.seen_runs)))
    snap = read(view._s)
    cache[key] = (used if outcome is not None else budget, used < budget, read, snap,
                  outcome)
    walks[key] = _Walk(used, budget, outcome, read, snap, chase.seen_log)
    if paused is not None and outcome is None and used >= budget:
        paused[key] = chase
    elif outcome is None:
        chase.release()
    return outcome, used


def find_chain(view, *, max_len: int, singles_only: bool = False, bivalue_only: bool = False,
               work: int = 6_000):
    """The shortest contradiction chain (cell, digit, links) of at most ``max_len`` links,
    or None. ``work`` caps the links tried in all (cached walks are free), so the search
    never dominates a walkthrough; a chain is then the shortest among those tried. The
    links walked are spent from the walk's work budget too (``Context.spend``)."""
    # short budgets first: most assumptions that break, break within a few links
    cap = 3 * max_len
    budgets = sorted({min(b, cap) for b in (6, 12, 24, cap)})
    order = _order(view)  # the search changes nothing: one order serves every budget
    caches = _caches(view)
    paused: dict = {}  # see _chase
    try:
        return _search(view, order, budgets, max_len, bivalue_only, singles_only, work,
                       caches, paused)
    finally:
        for chase in paused.values():
            chase.release()


def _search(view, order, budgets, max_len, bivalue_only, singles_only, work, caches, paused):
    best = None
    spent = 0
    context = view.context
    for budget in budgets:
        for i in order:
            if bivalue_only and POP[view.mask(i)] != 2:
                break  # the order puts two-candidate cells first
            if context.stopped():  # the walk's deadline or work budget
                return best
            for d in DIGITS[view.mask(i)]:
                links, cost = _chase(view, i, d, singles_only, budget, caches, paused)
                spent += cost
                context.spend(cost)
                if links is not None:
                    if len(links) <= max_len and (best is None or len(links) < len(best[2])):
                        best = (i, d, links)
                        if len(links) <= 2:
                            return best  # short enough: not worth the whole scan
                if spent > work:
                    return best
        if best is not None:
            return best
    return best


def to_deduction(view, cell: int, digit: int, links: list[_Link], *, label: str,
                 weight: float | None, score: int | None) -> Deduction:
    """A chain as a step: the sentence gives its length and every link."""
    if isinstance(links, _Outcome):
        links.finish(view)
    out = []
    for lk in links:
        out.append(Link(text=lk.text, proof=Proof(cells=dict(lk.cells),
                                                   combos=dict(lk.combos), runs=lk.runs),
                        placements=dict(lk.place), eliminations=dict(lk.elim),
                        contradiction=lk.contradiction))
    name = view.cell_name(cell)
    n = len(links)
    body = "; ".join(f"({k}) {lk.text}" for k, lk in enumerate(links, 1))
    text = (f"{label} of {n} link{'s' if n != 1 else ''}: if {name} were {digit}, then "
            f"{body}. So {digit} leaves {name}.")
    involved = [cell] + sorted({i for lk in links for i in (*lk.place, *lk.cells)} - {cell})
    runs = tuple(sorted({r for lk in links for r in lk.runs}))
    return Deduction(eliminations={cell: BIT[digit]}, cells=tuple(involved), runs=runs,
                     text=text, weight=weight, score=score,
                     values={"cell": name, "digit": digit, "length": n},
                     proof=Proof(assume=(cell, digit), links=tuple(out)))


def chain_weight(base: float, n: int, cutoff: int = DEFAULT_MAX_CHAIN) -> float:
    """Weight of a chain of ``n`` links: up to 6.0 (Expert) within the cut-off a person
    handles, beyond it over 6.0 (Extreme), growing with every link."""
    if n <= cutoff:
        return round(base + (6.0 - base) * n / cutoff, 3)
    return round(6.0 + 0.1 * (n - cutoff), 3)


@rule(values=("digit", "length"))
def bivalue_chain(view, max_len: int = DEFAULT_MAX_CHAIN):
    """Assume a digit of a two-candidate cell and follow naked singles to a contradiction."""
    found = find_chain(view, max_len=max_len, singles_only=True, bivalue_only=True)
    if found is not None:
        i, d, links = found
        yield to_deduction(view, i, d, links, label="Bivalue chain",
                           weight=chain_weight(5.4, len(links)), score=200 + 20 * len(links))


@rule(values=("digit", "length"))
def forcing_chain(view, max_len: int = DEFAULT_MAX_CHAIN):
    """Assume any candidate and follow simple steps to a contradiction, shortest first."""
    found = find_chain(view, max_len=max_len)
    if found is not None:
        i, d, links = found
        yield to_deduction(view, i, d, links, label="Forcing chain",
                           weight=chain_weight(5.6, len(links)), score=300 + 25 * len(links))

"""The search of one island: an iterative MRV search with re-splitting that asks a learning
oracle when it starts to flounder (:func:`island_solutions`). :mod:`.search` splits a
puzzle into islands and combines their solutions; this module searches each.

1. Each island runs a depth-first search with an explicit stack (no recursion limit at any
   size) and a trail of changed candidates (no grid copy per node); the branching cell is the
   one with fewest candidates, kept in a lazily updated heap (no full scan per node).
2. **Re-splitting**: decisions fix cells, and an island can fall apart below a decision
   (two blocks joined by one cell, once that cell is decided). Where that shows, the node
   is searched part by part, each part a sub-island of its own: every part must first
   show one solution (a part with none ends the node, however many choices the other parts
   have), then their solutions are combined lazily, an odometer over the parts. Finding
   out costs a pass over cells, so it is not done at every node: a quick test grows from
   the runs the node's fixed cells touch and stops at a small budget (it finds a part cut
   off at about the part's size), and a full look is taken once a path has closed a
   quarter of the open cells left at the last look. Sub-islands nest to a small fixed
   depth, so Python's stack stays shallow whatever the grid.
3. When the search has spent a hundred dead ends without a solution it hands the island to
   the clause-learning oracle (:mod:`.oracle`), which finishes it: the branches already
   explored are shut out by short clauses, so nothing is reported twice. Sub-islands count
   their dead ends for their top island, and a split that has shown nothing yet is given
   up for the hand-over: committing to a split must not keep the learning away (refuting
   a part under a bad decision path can cost CaDiCaL far more than solving the whole
   island afresh).
"""

from __future__ import annotations

from collections.abc import Generator

from ..clock import Limits, past
from ..puzzle.combos import BIT, DIGITS, POP, SINGLE
from .graph import open_islands
from .propagate import Contradiction, Layout, Timeout, propagate

#: an island's (or a part's) solutions, one tuple of digits per solution, in cell order
Solutions = Generator[tuple[int, ...], None, None]

#: dead ends in a row (no solution between them) before the island goes to the SAT solver
FIRST_ASK = 100
#: smaller islands are always searched to the end (a SAT solver would cost more)
MIN_SAT_CELLS = 9
#: how deep sub-islands may nest (each level is a few Python frames; 0: no re-splitting)
RESPLIT_DEPTH = 6
#: look for a split again once a path has closed this share of the open cells left at the
#: last look (a look costs a pass over the open cells, so it is not made at every node)
RESPLIT_DROP = 0.75
#: fewer open cells than this are left to the plain search (a split would save little)
RESPLIT_MIN = 8
#: cells the quick cut test may visit at one node before it gives up (see ``_cut``)
CUT_BUDGET = 96
#: a sub-island with at most this many solutions keeps them, so restarting it is free
KEEP_SOLUTIONS = 64
#: oracle conflicts that count as one unit of work, a search node being one (see ``solve``'s
#: ``work``): about what CaDiCaL does in the time the search takes for a node. Measured on
#: a 2-core machine shared with other jobs: the search makes 4,400-6,300 nodes/s on
#: generator drafts (12x12 Extreme, 30x30 Expert); CaDiCaL 19,000 conflicts/s on
#: marcelgarus ``huge`` and about 40,000/s on the easy questions of 12x12 drafts
CONFLICTS_PER_UNIT = 4


class _Abandon(Exception):
    """A split is being given up so that the whole island can go to the SAT solver."""



class SearchStats:
    """What a solve has spent (nodes, oracle conflicts) and may spend, shared by its islands."""

    __slots__ = ("nodes", "conflicts", "asks", "resplits", "given_up", "limits", "deadline",
                 "work", "out_of_work")

    def __init__(self, limits: Limits):
        self.nodes = 0
        self.conflicts = 0  # the oracle's, in all
        self.asks = 0
        self.resplits = 0
        self.given_up = 0  # splits given up for the SAT hand-over
        self.limits = limits
        self.deadline = limits.deadline  # read at every node: an attribute of its own
        self.work = limits.work  # units the solve may spend (None: no limit)
        self.out_of_work = False

    @property
    def spent(self) -> int:
        """Units of work spent: a search node is one, so are CONFLICTS_PER_UNIT conflicts."""
        return self.nodes + self.conflicts // CONFLICTS_PER_UNIT

    def over(self) -> bool:
        """Has the work budget run out? (Counted, so the same on any machine at any load.)"""
        if self.work is not None and self.spent > self.work:
            self.out_of_work = True
            return True
        return False


def _cut(run_cells, cell_runs, masks: list[int], fixed: list[int]) -> bool:
    """Have the cells just fixed cut the open cells apart? True only when they certainly
    have; False when they have not or when finding out would visit more than ``CUT_BUDGET``
    cells.

    The open cells were connected before ``fixed`` were, so every part left touches a run
    of a fixed cell: one search grows from each such run's open cells, all in turn, and
    two searches that meet merge. A search that runs out of cells before all have merged
    has walled in a part. The cost is about the size of the smallest part cut off (or of
    the distance between the seeds when nothing is cut), not of the island.
    """
    visits = CUT_BUDGET
    owner: dict[int, int] = {}
    up: list[int] = []  # union-find over searches
    todo: list[list[int]] = []

    def find(g: int) -> int:
        while up[g] != g:
            up[g] = up[up[g]]
            g = up[g]
        return g

    for f in fixed:
        for r in cell_runs[f]:
            g = -1
            for j in run_cells[r]:
                m = masks[j]
                if not m & (m - 1):
                    continue
                h = owner.get(j)
                if g < 0:
                    if h is not None:
                        g = find(h)
                        continue
                    g = len(up)
                    up.append(g)
                    todo.append([])
                if h is None:
                    owner[j] = g
                    todo[g].append(j)
                else:
                    h = find(h)
                    if h != g:
                        up[h] = g
                        todo[g] += todo[h]
                        todo[h] = []
    live = [g for g in range(len(up)) if up[g] == g]
    while len(live) > 1:
        nxt = []
        for g in live:
            if up[g] != g:
                continue
            queue = todo[g]
            if not queue:
                return True  # walled in while another search still runs
            visits -= 1
            if visits < 0:
                return False
            i = queue.pop()
            for r in cell_runs[i]:
                for j in run_cells[r]:
                    m = masks[j]
                    if not m & (m - 1):
                        continue
                    h = owner.get(j)
                    if h is None:
                        owner[j] = g
                        queue.append(j)
                    else:
                        h = find(h)
                        if h != g:
                            up[h] = g
                            queue += todo[h]
                            todo[h] = []
            nxt.append(g)
        live = [g for g in nxt if up[g] == g]
    return False


def _product(layout: Layout, masks: list[int], parts: list[tuple[int, ...]], st: SearchStats,
             depth: int, shared: list) -> Generator[list[tuple[int, ...]], None, None]:
    """Every combination of the parts' solutions (one tuple per part, biggest part first;
    the list is reused between yields), lazily.

    Each part is searched by its own :func:`island_solutions`; they share no run, so their trails
    never touch each other's cells and the generators can be interleaved. First every part
    must show one solution (if one has none, nothing is searched further); then an odometer
    runs over them: the biggest part turns slowest (it is never restarted), a part that runs
    out is restarted from its kept solutions when it had at most ``KEEP_SOLUTIONS`` of them,
    else searched again.
    """
    n = len(parts)
    gens: list[Solutions | None] = [None] * n
    kept: list[list[tuple[int, ...]] | None] = [None] * n  # solutions so far, while few
    whole = [False] * n  # kept[k] holds all of part k's solutions
    at = [0] * n
    cur: list[tuple[int, ...]] = [()] * n

    def start(k: int) -> tuple[int, ...] | None:
        if whole[k]:
            at[k] = 0
            return kept[k][0]  # type: ignore[index]  # whole: kept holds every solution
        g = gens[k] = island_solutions(layout, masks, parts[k], st, depth, shared)
        first = next(g, None)
        kept[k] = None if first is None else [first]
        return first

    def advance(k: int) -> tuple[int, ...] | None:
        got = kept[k]
        if whole[k]:
            assert got is not None
            at[k] += 1
            return got[at[k]] if at[k] < len(got) else None
        g = gens[k]
        assert g is not None  # not whole: its search is still on
        nxt = next(g, None)
        if nxt is None:
            gens[k] = None
            if got is not None:
                whole[k] = True
                at[k] = len(got)
        elif got is not None:
            if len(got) < KEEP_SOLUTIONS:
                got.append(nxt)
            else:
                kept[k] = None  # too many to hold: a restart searches again
        return nxt

    try:
        for k in range(n - 1, -1, -1):  # smallest first: a part with no solution ends it cheaply
            first = start(k)
            if first is None:
                return
            cur[k] = first
        while True:
            yield cur
            k = n - 1
            while True:
                nxt = advance(k)
                if nxt is not None:
                    cur[k] = nxt
                    break
                if k == 0:
                    return
                cur[k] = start(k)  # type: ignore[assignment]  # it had a solution before
                k -= 1
    finally:
        for g in gens:
            if g is not None:
                g.close()


def island_solutions(layout: Layout, masks: list[int], cells: tuple[int, ...],
            st: SearchStats, depth: int = 0, shared: list | None = None
            ) -> Solutions:
    """Every solution of one island, as the digits of ``cells`` in order.

    ``masks`` is shared with the caller and restored when the generator ends or is closed
    (the trail undoes each node's changes); it only ever changes cells of ``cells``.
    ``depth`` counts the sub-islands this one is nested in; ``shared`` is the top island's
    ``[dead ends since its last solution, may its split be given up]``: a sub-island's dead
    ends count for the top island, which hands over to the SAT solver as it did before
    splitting (a split that has found nothing yet is given up for that), so a split never
    keeps the search from the learning it would have had.
    """
    # imported here, not with the module: a puzzle that propagation solves (the smallest
    # ones) has no island, and each import is a tenth of a millisecond of its first solve
    import heapq

    run_cells, cell_runs = layout.run_cells, layout.cell_runs
    trail: list[int] = []
    heap = [(POP[masks[c]], c) for c in cells if POP[masks[c]] > 1]
    heapq.heapify(heap)
    heap_limit = 8 * len(cells) + 64
    push, pop = heapq.heappush, heapq.heappop
    use_oracle = len(cells) >= MIN_SAT_CELLS and _sat_available()
    root: dict[int, int] = {}  # the island's starting candidates, for the oracle's CNF
    if use_oracle:
        root = {j: masks[j] for c in cells for r in cell_runs[c] for j in run_cells[r]}
    resplit = depth < RESPLIT_DEPTH
    top = shared is None
    if shared is None:
        shared = [0, False]
    deadline = st.deadline

    def undo(mark: int) -> None:
        while len(trail) > mark:
            old = trail.pop()
            c = trail.pop()
            masks[c] = old
            if POP[old] > 1:
                push(heap, (POP[old], c))

    def choose() -> int:
        while heap:
            p, c = heap[0]
            pop(heap)
            if p > 1 and POP[masks[c]] == p:
                return c
        return -1

    # a frame: [branch cell, digits still to try, trail mark, digits tried (the last one
    # is the branch being explored below it), open cells at the node (about: a cell fixed
    # in two steps of one propagation counts twice), open cells at the last split check]
    stack: list[list] = []

    def enter(n_open: int, looked: int) -> bool:
        """At a consistent node: True at a leaf, else push a frame for the next cell."""
        c = choose()
        if c < 0:
            return True
        order = list(DIGITS[masks[c]])
        stack.append([c, order, len(trail), [], n_open, looked])
        return False

    pos: dict[int, int] = {}

    def split_solutions(parts: list[tuple[int, ...]]) -> Solutions:
        """The node's solutions, its open cells being split into independent ``parts``."""
        st.resplits += 1
        if not pos:
            pos.update((c, k) for k, c in enumerate(cells))
        parts.sort(key=len, reverse=True)
        base = [SINGLE[masks[j]] for j in cells]
        for combo in _product(layout, masks, parts, st, depth + 1, shared):
            values = base.copy()
            for part, sol in zip(parts, combo, strict=True):
                for c, v in zip(part, sol, strict=True):
                    values[pos[c]] = v
            yield tuple(values)

    def drop_frame() -> None:
        c, _, mark, _, _, _ = stack.pop()
        undo(mark)
        push(heap, (POP[masks[c]], c))

    sub = None  # the parts' generator while a split node is being enumerated
    try:
        if enter(len(heap), len(heap)):
            yield tuple(SINGLE[masks[c]] for c in cells)
            return
        while stack:
            frame = stack[-1]
            c, order, mark, tried, n_open, looked = frame
            undo(mark)
            if not order:
                drop_frame()
                continue
            if shared[0] >= FIRST_ASK:
                if shared[1]:
                    raise _Abandon
                if use_oracle:
                    yield from _hand_over(layout, root, cells, stack, st)
                    return
            d = order.pop(0)
            tried.append(d)
            st.nodes += 1
            if st.nodes & 127 == 0 and past(deadline):
                raise Timeout
            if st.work is not None and st.over():
                raise Timeout
            start = len(trail)
            trail.append(c)
            trail.append(masks[c])
            masks[c] = BIT[d]
            try:
                propagate(layout, masks, cell_runs[c], trail=trail)
            except Contradiction:
                shared[0] += 1
                continue
            n_open -= 1
            fixed = [c]
            for k in range(start + 2, len(trail), 2):
                j = trail[k]
                p = POP[masks[j]]
                if p > 1:
                    push(heap, (p, j))
                else:
                    n_open -= 1
                    fixed.append(j)
            if len(heap) > heap_limit:
                heap[:] = [(POP[masks[j]], j) for j in cells if POP[masks[j]] > 1]
                heapq.heapify(heap)
            if resplit and n_open >= RESPLIT_MIN and (
                    n_open <= looked * RESPLIT_DROP
                    or _cut(run_cells, cell_runs, masks, fixed)):
                parts = open_islands(run_cells, cell_runs, masks, cells)
                n_open = looked = sum(map(len, parts))
                if len(parts) > 1:
                    sub = split_solutions(parts)
                    if top and use_oracle:
                        shared[1] = True  # until the split shows a solution
                    abandoned = False
                    try:
                        for sol in sub:
                            if top:
                                shared[:] = [0, False]
                            yield sol
                    except _Abandon:  # the parts restored their cells on the way out
                        if not top:
                            raise  # the top island hands over, not this sub-island
                        abandoned = True
                    finally:
                        if top:
                            shared[1] = False
                    sub = None
                    if abandoned:
                        st.given_up += 1
                        yield from _hand_over(layout, root, cells, stack, st, current=False)
                        return
                    continue
            if enter(n_open, looked):
                if top:
                    shared[0] = 0
                yield tuple(SINGLE[masks[j]] for j in cells)
    finally:
        if sub is not None:  # the parts restore their cells before the trail is undone
            sub.close()
        while stack:
            drop_frame()
        undo(0)


def _sat_available() -> bool:
    """Is the SAT solver installed? (Its module imported only for an island big enough.)"""
    from . import oracle

    return oracle.available()


def _hand_over(layout: Layout, root: dict[int, int], cells: tuple[int, ...], stack: list[list],
               st: SearchStats, current: bool = True) -> Solutions:
    """Finish an island with the SAT solver: every solution the search has not reached yet.

    What the search has explored is shut out by one short clause per explored branch (the
    decisions above it and its digit), so solutions already reported are not found again;
    each new solution is then blocked in turn. ``current`` False: the branch the last frame
    is on was left unfinished, having shown no solution, so it is not shut out. The solver
    sees the whole island with no assumptions: CDCL is at its best there, while refuting a
    deep branch under its decisions as assumptions can take it minutes.
    """
    from . import oracle as _oracle

    oracle = _oracle.Oracle(layout.run_cells, layout.run_total, layout.cell_runs, root, cells)
    try:
        lit = oracle.lit
        path: list[int] = []
        for k, (c, _, _, tried, _, _) in enumerate(stack):
            done = tried if k == len(stack) - 1 and current else tried[:-1]
            for t in done:
                oracle.add([-x for x in path] + [-lit(c, t)])
            if k < len(stack) - 1:
                path.append(lit(c, tried[-1]))
        while True:
            st.asks += 1
            # what is left of the work budget, in conflicts
            conflicts = st.limits if st.work is None else st.limits.with_work(
                max(0, (st.work - st.spent) * CONFLICTS_PER_UNIT))
            before = oracle.conflicts
            try:
                model = oracle.ask([], conflicts)
            except _oracle.OracleTimeout:
                raise Timeout from None
            finally:
                st.conflicts += oracle.conflicts - before
            if isinstance(model, set):
                return
            sol = tuple(model[c] for c in cells)
            yield sol
            oracle.add([-lit(c, d) for c, d in zip(cells, sol, strict=True)])
    finally:
        oracle.close()


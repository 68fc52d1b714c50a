"""Links: the ladder's link rules asked on a hypothetical state, a link made and worded,
the contradiction a state shows (a cell with no digit left, a run no combination makes).

Shared by the whip search (:mod:`.whip`) and the braid walk (:mod:`.braid`); nothing here
knows what any link rule does (docs/rule-contract.md "Chains").
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...engine import kernel
from ...engine.kernel import Effect, UndoLog
from ...engine.registry import check_deduction
from ...engine.sentences import effect_text, sentence
from ...engine.state import Deduction, Link, Proof, resolve_proof
from ...puzzle.combos import BIT, DIGITS, POP, combos
from ..facts import digits_and
from .bound import (
    fits,
    link_filter,
    reader,
    readers_for,
)
from .cache import Looks, Offer, WhipSearches

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Iterator

    from ...engine.registry import Rule
    from ...engine.state import State
    from .. import api



# ---------------------------------------------------------------------------- the ladder
def link_rules(view: api.View, only: Collection[str] | None = None) -> list[Rule]:
    """The ladder's rules of ``kind: link`` (those named in ``only``, if given), in
    ladder order."""
    rules = view.context.rules
    if rules is None:  # a view made outside a walk: the built-in ladder
        rules = view.context.cache("chains.ladder").get("rules")
        if rules is None:
            from ...engine import registry

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
    (bound.py) takes nothing from it and no open cell is down to one digit: each of those
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


def _offers(view: api.View, state: State, rules: list[Rule], runs: list[int], cache: WhipSearches
            ) -> Iterator[tuple[int, int | None, Offer | None, Effect]]:
    """(rule index, run, offer, effect) of what the link rules offer on ``runs``, rule by
    rule in ladder order. The built-in rules' offers on a run are kept together by the
    run's contents (they read nothing else): one look per run and contents."""
    if cache.core is None:  # the cache's rules never change: worked out once, not per node
        cache.core = frozenset(_local(rules))
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


def _local(rules: list[Rule]) -> set[int]:
    """Indices of the rules that declare a chain bound (``bound:`` in their YAML): such a
    rule reads only its run's contents and claims only in its cells (as the whip search
    relies on too), so only a change in the run itself gives it something new to say
    there, and the bound holds for it (docs/rule-contract.md "Chains")."""
    return {k for k, r in enumerate(rules) if r.scope == "run" and r.bound is not None}


def _order(view: api.View, bivalue: bool) -> list[tuple[int, int]]:
    """Assumptions to try: open cells, fewest candidates first, then reading order."""
    masks, placed = tuple(view.masks), view.placed  # once a step: no call a cell
    cells = [i for i, m in enumerate(masks)
             if not placed[i] and POP[m] > 1 and (not bivalue or POP[m] == 2)]
    cells.sort(key=lambda i: (POP[masks[i]], i))
    return [(i, d) for i in cells for d in DIGITS[masks[i]]]

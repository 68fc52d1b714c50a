"""The chain bound (deducer/rules/chains/bound.py): sound, and it changes no walkthrough.

The bound rests on one fact about the built-in link rules: whatever one of them takes
from a run, filtering that run exactly (every arrangement of a live combination) takes too.
The property test checks that fact rule by rule on random runs; the walk tests check that
chain searches with the bound find what they find without it, and that every chain found
is at least as long as the bound says.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deducer.engine import registry
from deducer.engine.walk import explain
from deducer.puzzle import formats
from deducer.puzzle.combos import BIT, combos, mask_of
from deducer.rules import chains
from deducer.rules.bounds import distinct_intervals
from deducer.rules.chains import bound as chainbound
from deducer.rules.facts import combo_fits
from deducer.rules.fixture import position
from deducer.solver.propagate import run_filter
from tests.support import corpus

ROOT = Path(__file__).resolve().parents[1]
#: every rule that declares a chain bound (``bound:`` in its YAML): the properties below
#: are what declaring one promises
LINKS = [r for r in registry.load() if r.bound is not None]
SINGLES = [r for r in LINKS if r.bound == "singles"]


def test_the_ladder_has_link_rules_to_check():
    assert {r.id for r in LINKS} >= {"naked-single", "hidden-single", "sum-bounds"}
    assert [r.id for r in SINGLES] == ["naked-single"]
    # the core ladder's link rules all declare one: its chains are bounded
    assert LINKS == [r for r in registry.load() if r.link]


@st.composite
def runs(draw):
    """A run of 2-6 cells (its clue, candidates, live combinations, a written digit)."""
    n = draw(st.integers(2, 6))
    table = [t for t in range(1, 46) if combos(t, n)]
    total = draw(st.sampled_from(table))
    full = combos(total, n)
    live = draw(st.lists(st.sampled_from(full), min_size=1, unique=True)) \
        if draw(st.booleans()) else list(full)
    masks = [draw(st.integers(1, 0x1FF)) for _ in range(n)]
    placed = draw(st.one_of(st.none(), st.tuples(st.integers(0, n - 1), st.integers(1, 9))))
    return n, total, sorted(live), masks, placed


def _exact(total: int | None, live, masks: tuple[int, ...]) -> tuple[int, ...] | None:
    """The run's candidates that some arrangement of one of its ``live`` combinations
    allows (None: none is left): what a rule reading only the run can know."""
    out: list[int] | None = None
    for _, got in combo_fits(total, live, masks):
        out = list(got) if out is None else [a | b for a, b in zip(out, got, strict=True)]
    return None if out is None else tuple(out)


def _digits(m: int) -> str:
    return "".join(str(d) for d in range(1, 10) if m & BIT[d])


@settings(max_examples=300, deadline=None)
@given(runs())
def test_a_link_rule_takes_no_more_than_the_exact_filter(run):
    n, total, live, masks, placed = run
    text = "\\ " + "|\\ " * n + "\n" + f"\\{total}" + "|  " * n
    names = [f"r2c{k + 2}" for k in range(n)]
    cands = {names[k]: _digits(m) for k, m in enumerate(masks)}
    live_names = ["+".join(_digits(c)) for c in live]
    view = position(text, cands=cands, live={"r2c1>": live_names},
                    placed={names[placed[0]]: placed[1]} if placed else None)
    rid = 0
    cells = view.puzzle.runs[rid].cells
    now = tuple(view.mask(i) for i in cells)
    exact = _exact(total, view.live(rid), now)
    for rl in LINKS:
        for ded in rl.call(view, rid) or ():
            if exact is None:
                continue  # the filter already says the run is broken: nothing to take
            have = dict(zip(cells, exact, strict=True))
            for i, m in ded.eliminations.items():
                assert not have[i] & m & view.mask(i), (rl.id, "removes a digit that fits")
            for i, d in ded.placements.items():
                assert have[i] == BIT[d], (rl.id, "writes a digit the filter leaves open")
            for cs in ded.drop_combos.values():
                for c in cs:
                    assert run_filter(total, tuple(m & c for m in now)) is None, \
                        (rl.id, "drops a combination that still fits")


@st.composite
def narrowed(draw):
    """A run (as :func:`runs` draws it) and, for each cell, a part of its candidates (a
    later state of the run: fewer candidates, maybe none)."""
    run = draw(runs())
    n, total, live, masks, placed = run
    cut = [m & draw(st.integers(0, 0x1FF)) if draw(st.booleans()) else m for m in masks]
    return run, cut


@settings(max_examples=400, deadline=None)
@given(narrowed())
def test_the_link_filter_takes_what_a_link_rule_takes_on_any_narrower_run(case):
    """The rounds' filter, on a run narrowed from the one a link rule looked at, takes at
    least what the rule took there: the bound's soundness (chainbound.link_filter)."""
    (n, total, live, masks, placed), cut = case
    view = _view(n, total, live, masks, placed)
    rid = 0
    cells = view.puzzle.runs[rid].cells
    now = [view.mask(i) for i in cells]  # the rule's run, the written digit in place
    later = tuple(a & b for a, b in zip(now, cut, strict=True))
    got = chainbound.link_filter(total, view.live(rid), later)
    if got is None:
        return  # the narrower run is broken: nothing a rule took can be missed
    have = dict(zip(cells, got, strict=True))
    for rl in LINKS:
        for ded in rl.call(view, rid) or ():
            for i, m in ded.eliminations.items():
                assert not have[i] & m, (rl.id, "a digit it takes stays", ded.eliminations)
            for i, d in ded.placements.items():
                assert not have[i] & ~BIT[d], (rl.id, "it writes a digit, others stay")
            assert not ded.drop_combos, (rl.id, "a link rule drops a combination")


@settings(max_examples=500, deadline=None)
@given(st.lists(st.integers(0, 0x1FF), min_size=1, max_size=8), st.integers(-20, 50))
def test_the_rounds_sum_bounds_are_the_sum_bounds_rules(cut, need):
    """The rounds work out sum bounds on their own (chainbound.sum_bounded): each open cell
    keeps what sum bounds' different-digit intervals leave it, no more and no less."""
    free = list(range(len(cut)))
    got = [0x1FF] * len(cut)
    chainbound.sum_bounded(got, free, list(cut), need)
    for k, span in enumerate(distinct_intervals(need, cut)):
        want = 0x1FF if span is None else sum(
            BIT[d] for d in range(1, 10) if span[0] <= d <= span[1])
        assert got[k] == want, (k, cut, need, span)


@settings(max_examples=300, deadline=None)
@given(narrowed())
def test_the_singles_filter_takes_what_a_naked_single_takes_on_any_narrower_run(case):
    """Bivalue chains, of naked singles alone, are bounded with the singles filter: on a
    run narrowed from the one the rule looked at, it takes at least what the rule took."""
    (n, total, live, masks, placed), cut = case
    view = _view(n, total, live, masks, placed)
    cells = view.puzzle.runs[0].cells
    later = tuple(view.mask(i) & c for i, c in zip(cells, cut, strict=True))
    got = chainbound.singles_filter(total, view.live(0), later)
    if got is None:
        return
    have = dict(zip(cells, got, strict=True))
    for rl in SINGLES:
        for ded in rl.call(view, 0) or ():
            assert not ded.drop_combos, (rl.id, "a link rule drops a combination")
            for i, m in ded.eliminations.items():
                assert not have[i] & m, (rl.id, "a digit it takes stays")
            for i, d in ded.placements.items():
                assert not have[i] & ~BIT[d], (rl.id, "it writes a digit, others stay")


def test_the_singles_filter_is_weaker_than_the_link_filter():
    # 4 in two cells (1 + 3) with r2c2 1 or 3: the link filter leaves both cells 1 or 3
    # and drops the rest; the singles filter, with no digit alone, takes nothing
    masks = (BIT[1] | BIT[3], 0x1FF)
    assert chainbound.link_filter(4, combos(4, 2), masks) == (BIT[1] | BIT[3],) * 2
    assert chainbound.singles_filter(4, combos(4, 2), masks) == masks
    # a digit alone leaves the other cell; alone twice, or in no live way, breaks the run
    assert chainbound.singles_filter(4, combos(4, 2), (BIT[1], BIT[1] | BIT[3])) == (
        BIT[1], BIT[3])
    assert chainbound.singles_filter(4, combos(4, 2), (BIT[1], BIT[1])) is None
    assert chainbound.singles_filter(4, combos(4, 2), (BIT[2], 0x1FF)) is None


def _view(n, total, live, masks, placed):
    text = "\\ " + "|\\ " * n + "\n" + f"\\{total}" + "|  " * n
    names = [f"r2c{k + 2}" for k in range(n)]
    cands = {names[k]: _digits(m) for k, m in enumerate(masks)}
    live_names = ["+".join(_digits(c)) for c in live]
    return position(text, cands=cands, live={"r2c1>": live_names},
                    placed={names[placed[0]]: placed[1]} if placed else None)


def test_the_link_filter_is_weaker_than_the_exact_filter():
    # 3 cells making 8, the first 1 or 9, the second 2, 4 or 6: the first is 1 (8 is too
    # little for a 9) and then the third 3 or 5 (sum bounds make it 1 to 5, and the 1
    # leaves it only once the first is written, a link later). The exact filter sees all
    # of it at once; the link filter, one link's worth, does not. (Issue 51's different-
    # digit bounds took what the earlier example, 1 or 2 twice making 20 with two cells
    # more, left: 1 + 2 + 9 at most, so 8 or 9 for the others, as the exact filter says.)
    masks = (BIT[1] | BIT[9], BIT[2] | BIT[4] | BIT[6], 0x1FF)
    exact = _exact(8, combos(8, 3), masks)
    weak = chainbound.link_filter(8, combos(8, 3), masks)
    assert exact is not None and weak is not None
    assert all(w & e == e for w, e in zip(weak, exact, strict=True))
    assert exact[2] == BIT[3] | BIT[5]
    assert weak[2] == BIT[1] | BIT[2] | BIT[3] | BIT[4] | BIT[5]
    # where no arrangement is left, both say the run is broken
    broken = (BIT[1], BIT[1] | BIT[2], BIT[3])
    assert _exact(12, combos(12, 3), broken) is None
    assert chainbound.link_filter(12, combos(12, 3), broken) is None


def test_the_exact_filter_counts_only_live_combinations():
    # 4 in two cells is 1+3 only; 10 is 1+9, 2+8, 3+7, 4+6: with 1+9 dropped, 1 and 9 go
    assert _exact(10, combos(10, 2), (0x1FF, 0x1FF)) == run_filter(
        10, (0x1FF, 0x1FF))
    left = tuple(c for c in combos(10, 2) if c != mask_of((1, 9)))
    got = _exact(10, left, (0x1FF, 0x1FF))
    assert got is not None and not got[0] & (BIT[1] | BIT[9])
    assert _exact(10, (), (0x1FF, 0x1FF)) is None


def test_rounds_say_at_once_and_never():
    # 3 in two cells is 1+2: the assumption 1 in r2c2 (2 then in r2c3) breaks nothing,
    # however long it is followed; with r2c3 only 1, the assumed digit alone breaks it
    view = position("\\  |\\ |\\\n\\3|  |", cands={"r2c2": "12", "r2c3": "12"})
    first, read = chainbound.rounds(view, view.puzzle.index[(1, 1)], 1, 5)
    assert first == chainbound.NEVER and read
    view = position("\\  |\\ |\\\n\\3|  |", cands={"r2c2": "12", "r2c3": "1"})
    first, _ = chainbound.rounds(view, view.puzzle.index[(1, 1)], 1, 5)
    assert first == 0  # the assumed digit alone empties r2c3: a chain of one link


def _built_in_runs(rules) -> bool:
    """Are these link rules all built-in run rules, the ones the bound holds for?"""
    return all(r.scope == "run" and r.source == str(registry.CORE) for r in rules)


def _walks(puzzle, bound: bool, monkeypatch) -> tuple[list, list]:
    """The walk's steps (rule, text) and every chain found with its exact bound."""
    found: list[tuple[int, int]] = []
    with monkeypatch.context() as m:
        if not bound:  # no bound at all: from the assumptions nor from a search's nodes
            for mod in (chains.whip, chains.braid):
                m.setattr(mod, "bounds_for", lambda view, singles=False: None)
        whip, braid = chains.find_whip, chains.find_braid

        def whip_seen(view, rules, **kw):
            s = whip(view, rules, **kw)
            if s is not None and _built_in_runs(rules):
                found.append((chainbound.rounds(view, s.cell, s.digit, 10**6)[0], s.length))
            return s

        def braid_seen(view, rules, **kw):
            got = braid(view, rules, **kw)
            if got is not None and _built_in_runs(rules):
                i, d, links = got
                found.append((chainbound.rounds(view, i, d, 10**6)[0], len(links)))
            return got

        m.setattr(chains.rungs, "find_whip", whip_seen)
        m.setattr(chains.rungs, "find_braid", braid_seen)
        m.setattr(chains, "find_braid", braid_seen)  # trial's (rules/fallback.py)
        steps = [(s.rule, s.text) for s in explain(puzzle).steps]
    return steps, found


def _chain_puzzles():
    out = [pytest.param(formats.load(ROOT / "puzzles" / name), id=name)
           for name in ("deducer-trial.txt", "generated-6x6-s23.txt")]
    for pid in ("38", "48"):  # published puzzles whose walkthroughs need chains (quick ones)
        out.append(pytest.param(pid, id=f"zwvista-{pid}"))
    return out


@pytest.mark.parametrize("puzzle", _chain_puzzles())
def test_the_bound_changes_no_walkthrough_and_holds(puzzle, monkeypatch):
    if isinstance(puzzle, str):
        if corpus.corpus_root() is None:
            pytest.skip("corpus not present (DEDUCER_CORPUS)")
        puzzle = corpus.get("zwvista", puzzle).puzzle
    with_bound, chains_found = _walks(puzzle, True, monkeypatch)
    without, _ = _walks(puzzle, False, monkeypatch)
    assert json.dumps(with_bound) == json.dumps(without)
    assert chains_found, "the walkthrough has no chain to check the bound on"
    for first, length in chains_found:  # a chain of L links breaks by round L - 1
        assert first != chainbound.NEVER and first < length


def test_asking_for_no_links_leaves_nothing_behind():
    """A chain has at least one link: asked for none (a rule file's max_len: 0), the bound
    says no without keeping an answer that a later question for more would misread."""
    # 10 in two cells: 2 in r2c2 needs 8 in r2c3, which has only 1 or 9 (broken in the
    # first round, not by the assumed digit alone); 1 in r2c2 and 9 in r2c3 is fine
    view = position("\\  |\\ |\\\n\\10|  |", cands={"r2c2": "1289", "r2c3": "19"})
    bounds = chainbound.Bounds()
    cell = view.puzzle.index[(1, 1)]
    assert not bounds.within(view, cell, 2, 0)
    assert bounds.soonest(cell, 2) == 0  # nothing known yet
    assert not bounds.within(view, cell, 2, 1)  # not in one link
    assert bounds.within(view, cell, 2, 2)  # in two: a link, then the contradiction
    assert not bounds.within(view, cell, 1, 5)
    assert bounds.soonest(cell, 1) is None


def test_a_whip_search_says_how_far_it_ruled_whips_out():
    from deducer.engine.kernel import Effect
    from deducer.rules.chains.cache import NO_WHIP, Node, WhipSearch

    s = WhipSearch(0, 1)
    assert s.ruled_out() == 0  # not started
    s.depth = 2  # every node to depth 2 checked: no whip of up to 3 links
    assert s.ruled_out() == 3
    s.soon = 5  # its frontier's bound: none ends before target 5, none of 5 links or fewer
    assert s.ruled_out() == 5
    s.soon = 0
    s.done = True  # its links spent: no whip at all
    assert s.ruled_out() == NO_WHIP
    s.gave_up = True  # too many nodes: only as far as it looked
    assert s.ruled_out() == 3
    s.nodes = [Node(Effect(), -1, 0, 0, 1), Node(Effect(), 0, 0, 0, 2)]
    s.end = 1  # a whip of 3 links (two nodes and the closing): none of 2 or fewer
    assert s.ruled_out() == 2
    s.finish()
    assert s.length == 3 and s.ruled_out() == 2


def test_braids_found_as_before_where_whips_are_ruled_out(monkeypatch):
    """The braid rung asks the bound for one round fewer where the whip searches have
    ruled out whips as long as the braid looked for (a braid that is not a whip is a link
    shallower than it is long): the same walkthrough as when it does not."""
    if corpus.corpus_root() is None:
        pytest.skip("corpus not present (DEDUCER_CORPUS)")
    puzzle = corpus.get("zwvista", "84").puzzle  # two braid steps
    used = []
    real = chains.braid.whips_ruled_out

    def seen(view, rules):
        got = real(view, rules)
        used.append(len(got))
        return got

    with monkeypatch.context() as m:
        m.setattr(chains.braid, "whips_ruled_out", seen)
        steps = [(s.rule, s.text) for s in explain(puzzle).steps]
    with monkeypatch.context() as m:
        m.setattr(chains.braid, "whips_ruled_out", lambda view, rules: {})
        plain = [(s.rule, s.text) for s in explain(puzzle).steps]
    assert steps == plain
    assert any(rule == "forcing-braid" for rule, _ in steps)
    assert any(used), "no braid search had whip searches of its board to go by"


def test_rounds_kept_across_steps_agree_with_rounds_afresh(monkeypatch):
    """The bounds keep each assumption's rounds from step to step (until the board changes
    a run they read) and go on from where they stopped: at every chain search, what they
    hold is what rounds worked out afresh on that board say."""
    puzzle = formats.load(ROOT / "puzzles" / "deducer-trial.txt")
    checked = []
    whip = chains.find_whip

    def whip_checked(view, rules, **kw):
        got = whip(view, rules, **kw)
        bounds = view.context.cache("chains.bounds").get("bounds")
        if bounds is not None and not kw.get("bivalue"):
            bounds.sync(view)
            for (i, d), kept in bounds.kept.items():
                if view.placed[i] or not view.mask(i) & BIT[d]:
                    continue  # no longer an assumption to make
                if isinstance(kept, chainbound.Partial):  # undecided after kept.done
                    assert chainbound.rounds(view, i, d, kept.done)[0] is None
                else:
                    assert chainbound.rounds(view, i, d, 50)[0] == kept
                checked.append((i, d))
        return got

    monkeypatch.setattr(chains.rungs, "find_whip", whip_checked)
    explain(puzzle)
    assert len(checked) > 100

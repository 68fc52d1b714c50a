"""Explain keeps counts from the cells each step touches instead of rescanning the grid
(issue 11): open cells, where the grid broke, open easy moves, the region sums' open-cell
counts. Here every one is checked against a full recount after every step; and the
no-trial grids of the scaling benchmark are checked to be what it says they are."""

from pathlib import Path

import pytest

from deducer.engine import kernel, registry
from deducer.engine.walk import SOLVED, Engine, WalkOptions
from deducer.puzzle import formats
from deducer.rules import chains
from deducer.rules import regions as region_rules
from deducer.solver.search import solve
from tests.support import grids

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
RULES = registry.load()
#: the forcing chain's search budget in the core ladder
SEARCH_NODES = next(r for r in RULES if r.id == "forcing-chain").params["search_nodes"]


def _full_available(eng: Engine) -> int:
    """Open simplest-tier moves, counted over every run from scratch."""
    n = 0
    for rule in eng.tier1:
        for rid in range(len(eng.puzzle.runs)):
            for ded in rule.call(eng.view, rid) or ():
                if kernel.effect(eng.state, rule, ded) is not None:
                    n += 1
    return n


def _the_tracker(context):
    """The region rules' tracker (one per set of region limits; the core ladder's four
    region rules share theirs), None before any region rule ran."""
    found = [v for k, v in context.cache("regions").items() if k[0] == "tracker"]
    assert len(found) <= 1
    return found[0] if found else None


def _check_regions(eng: Engine) -> int:
    """The region tracker's counts against a recount; the regions it offers are of that
    count. Returns how many regions were checked (0 before any region rule ran)."""
    tracker = _the_tracker(eng.context)
    if tracker is None:
        return 0
    tracker.update(eng.view)
    for k, region in enumerate(tracker.regions):
        assert tracker.cost[k] == tracker._cost(region, eng.view.is_placed), k
    for want, ready in tracker.ready.items():
        assert all(tracker.cost[k] == want for k in ready)
    return len(tracker.regions)


def _walk_checked(puzzle) -> tuple[Engine, int]:
    eng = Engine(puzzle, RULES)
    regions_seen = 0
    while eng._broken is None and eng.open_count:
        assert eng._count_available() == _full_available(eng)
        if eng.step() is None:
            break
        assert eng.open_count == eng.state.placed.count(False)
        assert eng._broken == eng.state.broken()
        assert eng.state.journal is not None
        regions_seen = max(regions_seen, _check_regions(eng))
    return eng, regions_seen


@pytest.mark.parametrize("name", ["seed000-k2.j", "deducer-trial.txt", "seed002-four.txt"])
def test_counts_kept_per_step_agree_with_a_recount(name):
    eng, _ = _walk_checked(formats.load(PUZZLES / name))
    assert not eng.open_count


def test_region_counts_kept_from_the_log_agree_with_a_recount():
    # seed003-example's walkthrough adds up a region of four cells (then stops: it has
    # several solutions); tiled, the grid has regions far apart, so a step leaves most of
    # them untouched
    p = grids.tiled(formats.load(PUZZLES / "seed003-example.txt"), 1, 2)
    eng, regions_seen = _walk_checked(p)
    assert regions_seen
    assert sum(s.rule.startswith("region-sum") for s in eng.steps) >= 2


def test_a_hand_made_position_without_a_log_still_tracks_changes():
    from deducer.engine.state import Context, State, View

    p = formats.load(PUZZLES / "deducer-trial.txt")
    state = State(p, p.initial_masks(with_entries=True))
    view = View(state, Context(p))
    assert view.changed_since(0) is None
    list(region_rules.region_sum(view, unknowns=1))
    tracker = _the_tracker(view.context)
    # write a digit in by hand: the tracker sees it by comparing grids
    i = next(k for k, m in enumerate(state.masks) if m & (m - 1))
    state.masks[i] &= -state.masks[i]
    state.placed[i] = True
    tracker.update(view)
    for k, region in enumerate(tracker.regions):
        assert tracker.cost[k] == tracker._cost(region, view.is_placed)


@pytest.mark.parametrize("side,seed", [(7, 1), (9, 2), (11, 3)])
def test_no_trial_grids_are_unique_and_need_no_trial(side, seed):
    p = grids.no_trial(side, side, seed)
    assert p.givens  # random fills are rarely unique: givens pin them down
    assert len(solve(p, max_solutions=2).solutions) == 1
    eng = Engine(p, RULES)
    assert eng.run() == SOLVED
    used = {s.rule for s in eng.steps}
    assert not used & {*grids.TRIAL_RULES, "bivalue-chain", "forcing-chain"}
    assert grids.no_trial(side, side, seed) == p  # seeded: the same grid again


def test_tiled_copies_are_independent_islands():
    p = formats.load(PUZZLES / "seed000-k2.j")
    big = grids.tiled(p, 2, 3)
    assert len(big.whites) == 6 * len(p.whites)
    assert len(big.runs) == 6 * len(p.runs)
    assert len(big.givens) == 6 * len(p.givens)
    sol = solve(big, max_solutions=2)
    assert len(sol.solutions) == 1


@pytest.mark.parametrize("name", ["deducer-trial.txt", "zwvista/84"])
def test_whip_searches_kept_on_a_board_go_on_as_new_searches(name):
    # the whip searches of a step are kept while the board stands (rules/chains/cache.py),
    # so a longer search on the same board goes on from a shorter one's: at every step it
    # finds what a search from nothing finds, and after the board changes the searches
    # kept are not read (a step later, what the last step's searches found is found anew)
    if "/" in name:  # a published puzzle with many chain steps
        from tests.support import corpus

        if corpus.corpus_root() is None:
            pytest.skip("the puzzle corpus is not here (DEDUCER_CORPUS)")
        puzzle = corpus.get(*name.split("/")).puzzle
    else:
        puzzle = formats.load(PUZZLES / name)
    eng = Engine(puzzle, RULES)
    rules = chains.link_rules(eng.view)

    def whip(max_len):
        got = chains.find_whip(eng.view, rules, max_len=max_len, search_nodes=SEARCH_NODES)
        return None if got is None else (got.cell, got.digit, got.length)

    found = 0
    while eng.open_count and eng.step() is not None:
        short = whip(2)  # searches to two links, kept
        kept = whip(12)  # going on from them
        eng.context.caches.pop("chains.whips")
        fresh = whip(12)
        assert kept == fresh
        assert short is None or short == fresh
        found += fresh is not None
    assert found >= 5


@pytest.mark.parametrize("tiles,cap", [(1, 1.6), (2, 4.2)])
def test_a_resumed_walk_stops_only_where_nothing_is_left(tiles, cap):
    # the generator's estimates resume a stalled walk after a change with only the runs
    # around the change to look at (Engine(dirty=...), touched): where that walk stops,
    # an engine that looks at every run must find nothing either
    from deducer.engine.state import State

    p = grids.tiled(formats.load(PUZZLES / "deducer-trial.txt"), tiles, tiles)
    ladder = [r for r in RULES if r.weight <= cap]
    first = Engine(p, ladder, WalkOptions(lean=True))
    assert first.run() == "stalled"  # a trial puzzle: the ladder runs dry
    lay = first.state.layout
    placed = [i for i, done in enumerate(first.state.placed) if done]
    for i in placed[:: max(1, len(placed) // 3)]:
        runs = set(lay.cell_runs[i])
        cells = {j for rid in runs for j in lay.run_cells[rid]}
        state = first.state.reopened(p, cells, runs)  # as a changed clue would
        resumed = Engine(p, ladder, WalkOptions(lean=True), state=state, dirty=first.dirty)
        resumed.touched(cells, runs)
        resumed.run()
        end = State(p, resumed.state.masks[:], resumed.state.live[:])
        end.placed = resumed.state.placed[:]
        assert Engine(p, ladder, WalkOptions(lean=True), state=end).step() is None

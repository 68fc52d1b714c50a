"""The learning search: its SAT hand-over against the independent brute force of
test_solver.py, dense blocks, islands, a 200x200 grid, and bounded memory when streaming."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from deducer.clock import Limits
from deducer.errors import PuzzleError
from deducer.puzzle import formats
from deducer.puzzle.model import BLANK, WHITE, Puzzle, Square, check_solution
from deducer.solver import island, oracle
from deducer.solver.search import iter_solutions, solve
from deducer.solver.status import SolveStatus
from tests.support import grids
from tests.test_solver import block, brute_force, key, puzzle, small_grids, to_puzzle

ROOT = Path(__file__).resolve().parents[1]
# the brute-force comparisons are the suite's slowest tests: a sample by default, the full
# count with DEDUCER_LONG_SEARCH=1
LONG = os.environ.get("DEDUCER_LONG_SEARCH") == "1"
needs_sat = pytest.mark.skipif(not oracle.available(), reason="python-sat not installed")


def _same_as_brute(grid, givens, even, cap=40):
    try:
        p = to_puzzle(grid, givens, even)
    except PuzzleError:
        assume(False)
        raise
    brute = brute_force(grid, givens, even, cap=cap + 1)
    res = solve(p, max_solutions=cap)
    found = {key(dict(zip(p.whites, v, strict=True))) for v in res.solutions}
    assert len(found) == len(res.solutions)
    for v in res.solutions:
        assert check_solution(p, v) is None
    if len(brute) < cap:
        assert found == {key(s) for s in brute}
        assert res.complete
    else:
        assert len(found) == cap and not res.complete
    return res


@needs_sat
@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                 HealthCheck.function_scoped_fixture])
@given(small_grids())
def test_sat_hand_over_matches_brute_force(monkeypatch_first_ask, case):
    # every island goes to the SAT solver at its first dead end (or at once)
    _same_as_brute(*case)


@pytest.fixture
def monkeypatch_first_ask():
    old = island.FIRST_ASK, island.MIN_SAT_CELLS
    island.FIRST_ASK, island.MIN_SAT_CELLS = 0, 0
    yield
    island.FIRST_ASK, island.MIN_SAT_CELLS = old


@st.composite
def dense_blocks(draw):
    """An all-white h x w block (runs of 2..4), clued from a random fill, some clues nudged."""
    h, w = draw(st.integers(2, 4)), draw(st.integers(2, 4))
    rng = random.Random(draw(st.integers(0, 10**6)))
    while True:  # a random fill with distinct digits in every row and column
        fill = {}
        ok = True
        for r in range(1, h + 1):
            for c in range(1, w + 1):
                used = ({fill.get((r, k)) for k in range(1, c)}
                        | {fill.get((k, c)) for k in range(1, r)})
                free = [d for d in range(1, 10) if d not in used]
                if not free:
                    ok = False
                    break
                fill[(r, c)] = rng.choice(free)
        if ok:
            break
    grid = [[(None, None)] * (w + 1)] + [[(None, None)] + [None] * w for _ in range(h)]
    for r in range(1, h + 1):
        total = sum(fill[(r, c)] for c in range(1, w + 1))
        grid[r][0] = (None, total)
    top = []
    for c in range(1, w + 1):
        total = sum(fill[(r, c)] for r in range(1, h + 1))
        if draw(st.integers(0, 5)) == 0:
            lo, hi = h * (h + 1) // 2, h * (19 - h) // 2
            total = min(hi, max(lo, total + draw(st.integers(-2, 2))))
        top.append((total, None))
    grid[0] = [(None, None)] + top
    return grid, {}, None


@pytest.mark.parametrize("first_ask", [island.FIRST_ASK, 0])
@settings(max_examples=12 if LONG else 4, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(case=dense_blocks())
def test_dense_blocks_match_brute_force(first_ask, case):
    if first_ask == 0 and not oracle.available():
        pytest.skip("python-sat not installed")
    old = island.FIRST_ASK, island.MIN_SAT_CELLS
    island.FIRST_ASK, island.MIN_SAT_CELLS = first_ask, (0 if first_ask == 0 else old[1])
    try:
        _same_as_brute(*case)
    finally:
        island.FIRST_ASK, island.MIN_SAT_CELLS = old


def test_dense_8x7_block_is_settled():
    p = grids.dense_block(8, 7)
    res = solve(p, max_solutions=2, limits=Limits.within(120))
    assert res.status == "multiple" and len(res.solutions) == 2 and not res.timed_out
    assert res.solutions[0] != res.solutions[1]



def test_a_search_stopped_before_any_solution_is_undecided_never_none():
    """A limit that stops the search before the first solution has shown nothing: the
    status says undecided, not "no solution" (which only an exhausted search may say)."""
    p = grids.dense_block(8, 7)
    quick = solve(p, max_solutions=2, limits=Limits.within(0.2))
    assert quick.status != SolveStatus.NONE
    assert quick.status == (SolveStatus.UNDECIDED if not quick.solutions else quick.status)
    stopped = solve(p, max_solutions=2, limits=Limits(work=0))  # stops at the first node
    assert stopped.status == SolveStatus.UNDECIDED and stopped.status != "none"
    assert not stopped.solutions and stopped.timed_out and not stopped.complete
    bad = solve(puzzle(block(across=(3, 4), down=(3, 3))), limits=Limits.within(5))  # 7 against 6
    assert bad.status == SolveStatus.NONE and bad.complete and not bad.timed_out


def _islands(n: int) -> Puzzle:
    """``n`` separate 2x2 blocks of {1,2} runs side by side: 2**n solutions."""
    row0 = [BLANK]
    row1, row2 = [Square(False, None, 3)], [Square(False, None, 3)]
    for k in range(n):
        row0 += [Square(False, 3), Square(False, 3)]
        row1 += [WHITE, WHITE]
        row2 += [WHITE, WHITE]
        if k < n - 1:
            row0.append(BLANK)
            row1.append(Square(False, None, 3))
            row2.append(Square(False, None, 3))
    return Puzzle((tuple(row0), tuple(row1), tuple(row2))).validate()


def test_islands_stop_at_the_cap():
    p = _islands(6)
    res = solve(p, max_solutions=2)
    assert len(res.solutions) == 2 and not res.complete and res.status == "multiple"
    assert res.stats["islands"] == 6
    # two asked: one island gives its second solution, no island is asked for a third
    assert res.stats["nodes"] <= 6 * 2 + 2
    full = solve(p, max_solutions=100)
    assert len(full.solutions) == 64 and full.complete
    assert len({tuple(s) for s in full.solutions}) == 64


def test_stream_yields_lists_and_reports_status():
    stream = iter_solutions(_islands(3), max_solutions=10)
    got = list(stream)
    assert len(got) == 8 and stream.complete and stream.status == "multiple"


def test_200x200_grid_solves_without_recursion_error():
    # a 200x200 board whose unclued runs form one island of ~7,000 cells: the old
    # recursive search went one Python frame per decision
    white = [[r > 0 and 0 < c < 40 and (r + 2 * c) % 9 != 0 for c in range(200)]
             for r in range(200)]
    p = grids.unclued(white)
    assert p.rows == p.cols == 200 and len(p.whites) > 6000
    res = solve(p, max_solutions=1, limits=Limits.within(600))
    assert res.status == "unique" and len(res.solutions) == 1 and not res.timed_out
    assert check_solution(p, res.solutions[0]) is None


PEAK = """
import resource, subprocess, sys
proc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB on Linux
print(proc.returncode, peak, proc.stderr.decode()[-300:].replace(chr(10), ' '))
"""


def test_max_solutions_100000_streams_in_bounded_memory(tmp_path):
    # 20 independent 2x2 islands on a 60x9 board: over a million solutions
    p = _islands(20)
    path = tmp_path / "many.json"
    path.write_text(formats.dumps(p, "json"), encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-c", PEAK, sys.executable, "-m", "deducer", "solve", str(path),
         "--json", "--max-solutions", "100000"],
        capture_output=True, text=True, timeout=600, cwd=ROOT,
        env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    code, peak_kib, err = out.stdout.split(" ", 2)
    assert code == "0", err
    assert int(peak_kib) < 300 * 1024, f"peak RSS {int(peak_kib) // 1024} MiB"


def test_streamed_json_is_the_contract(tmp_path, capsys):
    from deducer.app.cli import main
    from deducer.app.commands import solve as solve_cmd

    path = tmp_path / "three.json"
    path.write_text(formats.dumps(_islands(3), "json"), encoding="utf-8")
    main(["solve", str(path), "--json", "--max-solutions", "20"])
    plain = capsys.readouterr().out
    old = solve_cmd.STREAM_FROM
    solve_cmd.STREAM_FROM = 1
    try:
        main(["solve", str(path), "--json", "--max-solutions", "20"])
        streamed = capsys.readouterr().out
        main(["solve", str(path), "--max-solutions", "20"])
        text_streamed = capsys.readouterr().out
    finally:
        solve_cmd.STREAM_FROM = old
    main(["solve", str(path), "--max-solutions", "20"])
    assert streamed == plain and json.loads(plain)["solution_count"] == 8
    assert text_streamed == capsys.readouterr().out


# --- re-splitting: a node whose open cells fall apart is searched part by part -----------

def _grid_of(p: Puzzle):
    """The brute force's grid notation for a puzzle without givens."""
    return [[None if sq.white else (sq.down, sq.across) for sq in row] for row in p.squares]


@pytest.fixture
def eager_resplit():
    # look for splits even among a few open cells, so small grids split too
    old = island.RESPLIT_MIN
    island.RESPLIT_MIN = 2
    yield
    island.RESPLIT_MIN = old


def _count_resplits(p: Puzzle, cap: int) -> tuple[set, bool, int]:
    res = solve(p, max_solutions=cap)
    got = {tuple(s) for s in res.solutions}
    assert len(got) == len(res.solutions)  # each solution reported once
    for v in res.solutions:
        assert check_solution(p, v) is None
    return got, res.complete, res.stats.get("resplits", 0)


def _brute_set(p: Puzzle, cap: int) -> set:
    return {tuple(sol[rc] for rc in p.whites) for sol in brute_force(_grid_of(p), {}, None,
                                                                     cap=cap)}


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                 HealthCheck.function_scoped_fixture])
@given(case=small_grids(), cap=st.sampled_from([1, 2, 3, 40]))
def test_resplit_small_grids_match_brute_force(eager_resplit, case, cap):
    grid, givens, even = case
    try:
        p = to_puzzle(grid, givens, even)
    except PuzzleError:
        assume(False)
        raise
    brute = {key(s) for s in brute_force(grid, givens, even, cap=2000)}
    assume(len(brute) < 2000)  # the whole set, so a capped answer can be checked against it
    got, complete, _ = _count_resplits(p, cap)
    got = {key(dict(zip(p.whites, v, strict=True))) for v in got}
    if len(brute) <= cap:
        assert got == brute and (complete or len(brute) == cap)
    else:
        assert got <= brute and len(got) == cap and not complete


@pytest.mark.parametrize("first_ask", [island.FIRST_ASK, 2])
@settings(max_examples=25 if LONG else 10, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(h=st.integers(2, 3), w=st.integers(2, 3), seed=st.integers(1, 10**6),
       spoil=st.sampled_from([0, 0, 1, -1]), cap=st.sampled_from([1, 2, 3, 5000]))
def test_bridged_blocks_match_brute_force(eager_resplit, first_ask, h, w, seed, spoil, cap):
    # two blocks joined by one cell: independent halves once the bridge is decided; with
    # first_ask 2 the SAT hand-over comes early, so splits are given up and handed over
    if first_ask != island.FIRST_ASK and not oracle.available():
        pytest.skip("python-sat not installed")
    try:
        p = grids.bridged_blocks(h, w, seed, spoil)
    except PuzzleError:  # the spoiled clue is out of range for its run
        assume(False)
        raise
    brute = _brute_set(p, 5001)
    assume(len(brute) <= 5000)  # the whole set, so a capped answer can be checked against it
    old = island.FIRST_ASK, island.MIN_SAT_CELLS
    island.FIRST_ASK = first_ask
    if first_ask != old[0]:
        island.MIN_SAT_CELLS = 0
    try:
        got, complete, _ = _count_resplits(p, cap)
    finally:
        island.FIRST_ASK, island.MIN_SAT_CELLS = old
    if len(brute) <= cap:
        assert got == brute and (complete or len(brute) == cap)
    else:
        assert got <= brute and len(got) == cap and not complete


@pytest.mark.parametrize("cap", [1, 2, 3, 100_000])
def test_bridged_blocks_resplit_counts(cap):
    p = grids.bridged_blocks(3, 3, seed=1)
    brute = _brute_set(p, 100_000)
    assert len(brute) > 1000
    got, complete, resplits = _count_resplits(p, cap)
    assert resplits >= 1  # the halves were searched apart below the bridge
    if cap >= len(brute):
        assert got == brute and complete
    else:
        assert len(got) == cap and got <= brute and not complete


def test_bridged_blocks_with_an_unsolvable_half_have_none():
    # the second half's spoiled clue fits no bridge digit the first half allows
    p = grids.bridged_blocks(3, 3, seed=1, spoil=-1)
    assert not _brute_set(p, 10)
    res = solve(p, max_solutions=2)
    assert res.status == "none" and res.complete and not res.solutions
    assert res.stats["resplits"] >= 1


def test_resplit_off_gives_the_same_solutions():
    p = grids.bridged_blocks(3, 3, seed=4)
    on = _count_resplits(p, 100_000)
    old = island.RESPLIT_DEPTH
    island.RESPLIT_DEPTH = 0
    try:
        off = _count_resplits(p, 100_000)
    finally:
        island.RESPLIT_DEPTH = old
    assert on[0] == off[0] and on[1] and off[1]
    assert on[2] >= 1 and off[2] == 0


@needs_sat
def test_a_work_budget_stops_the_search_like_a_time_limit_and_the_same_every_time():
    """``work`` counts search nodes and oracle conflicts, not seconds: a small budget
    leaves the result incomplete as a timeout does, at the same point on every run (the
    generator's reproducibility rests on it); a large one changes nothing."""
    p = grids.random_clued(8, 8, 6)  # 832 solutions: nodes first, then the oracle's turn
    full = solve(p, max_solutions=5000)
    assert full.complete and len(full.solutions) == 832
    assert full.nodes > 0 and full.stats["oracle_conflicts"] > 0
    assert full.work == full.nodes + full.stats["oracle_conflicts"] // island.CONFLICTS_PER_UNIT
    big = solve(p, max_solutions=5000, limits=Limits(work=10 * full.work))
    assert big.complete and not big.timed_out and big.work == full.work
    assert sorted(big.solutions) == sorted(full.solutions)
    # stopped in the search, and inside the oracle's part (after the search's nodes)
    for budget in (50, full.nodes + (full.work - full.nodes) // 2):
        a = solve(p, max_solutions=5000, limits=Limits(work=budget))
        b = solve(p, max_solutions=5000, limits=Limits(work=budget))
        assert a.timed_out and not a.complete and 0 < len(a.solutions) < 832
        assert budget <= a.work <= budget + oracle.CONFLICT_SLICE
        assert (a.work, a.nodes, a.stats["oracle_conflicts"], a.solutions) == \
            (b.work, b.nodes, b.stats["oracle_conflicts"], b.solutions)
    none = solve(p, max_solutions=2, limits=Limits(work=0))
    assert not none.solutions and none.timed_out and not none.complete
    assert none.reason == "work limit reached before a solution was found"

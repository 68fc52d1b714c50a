"""The complete solver against an independent brute force, plus unit facts (no corpus needed).

The brute force below shares no code with ``deducer.propagate`` / ``deducer.search`` (nor with
the model's run derivation): it derives runs from its own grid description and tries digits
cell by cell with plain sum bounds.
"""

from __future__ import annotations

import itertools
import json
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from deducer.clock import Limits
from deducer.errors import PuzzleError
from deducer.puzzle.combos import ALL, BIT, EVEN, ODD, combos, mask_of
from deducer.puzzle.model import BLANK, WHITE, Puzzle, Square, check_solution
from deducer.solver.graph import open_islands
from deducer.solver.propagate import Layout, run_filter
from deducer.solver.search import solve

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"

# --------------------------------------------------------------------------- brute force
# A grid description: rows of cells; None = white, (down, across) = black (either may be None).
Grid = list[list[tuple[int | None, int | None] | None]]


def brute_runs(grid: Grid) -> list[tuple[str, int | None, list[tuple[int, int]]]]:
    """(direction, total, cells) of every maximal white segment, across then down."""
    h, w = len(grid), len(grid[0])
    out = []
    for horizontal in (True, False):
        for a in range(h if horizontal else w):
            line = [(a, b) if horizontal else (b, a) for b in range(w if horizontal else h)]
            k = 0
            while k < len(line):
                r, c = line[k]
                if grid[r][c] is not None:
                    k += 1
                    continue
                start = k
                while k < len(line) and grid[line[k][0]][line[k][1]] is None:
                    k += 1
                total = None
                if start > 0:
                    pr, pc = line[start - 1]
                    total = grid[pr][pc][1] if horizontal else grid[pr][pc][0]
                out.append(("A" if horizontal else "D", total, line[start:k]))
    return out


def brute_force(grid: Grid, givens: dict, even: set | None, cap: int = 5000) -> list[dict]:
    """Every solution (up to ``cap``) as {(r, c): digit}, by plain digit-by-digit search."""
    h, w = len(grid), len(grid[0])
    cells = [(r, c) for r in range(h) for c in range(w) if grid[r][c] is None]
    runs = brute_runs(grid)
    runs_of: dict[tuple[int, int], list[int]] = {rc: [] for rc in cells}
    for k, (_, _, rc_list) in enumerate(runs):
        for rc in rc_list:
            runs_of[rc].append(k)
    choices = {}
    for rc in cells:
        if rc in givens:
            choices[rc] = [givens[rc]]
        elif even is not None:
            choices[rc] = [d for d in range(1, 10) if (d % 2 == 0) == (rc in even)]
        else:
            choices[rc] = list(range(1, 10))
    values: dict[tuple[int, int], int] = {}
    out: list[dict] = []

    def fits(rc) -> bool:
        for k in runs_of[rc]:
            _, total, rc_list = runs[k]
            ds = [values[x] for x in rc_list if x in values]
            if len(set(ds)) != len(ds):
                return False
            if total is not None:
                left = len(rc_list) - len(ds)
                rest = total - sum(ds)
                free = [d for d in range(1, 10) if d not in ds]
                if not sum(free[:left]) <= rest <= sum(free[len(free) - left:]):
                    return False
        return True

    def options(rc) -> list[int]:
        ok = []
        for d in choices[rc]:
            values[rc] = d
            if fits(rc):
                ok.append(d)
        del values[rc]
        return ok

    def go() -> bool:
        if len(values) == len(cells):
            out.append(dict(values))
            return len(out) < cap
        # forward checking: branch on the open cell with the fewest fitting digits
        best, best_opts = None, None
        for rc in cells:
            if rc not in values:
                opts = options(rc)
                if best_opts is None or len(opts) < len(best_opts):
                    best, best_opts = rc, opts
                    if len(opts) <= 1:
                        break
        for d in best_opts:
            values[best] = d
            if not go():
                return False
            del values[best]
        return True

    go()
    return out


def to_puzzle(grid: Grid, givens: dict, even: set | None) -> Puzzle:
    squares = tuple(
        tuple(WHITE if x is None else BLANK if x == (None, None) else Square(False, *x)
              for x in row)
        for row in grid
    )
    return Puzzle(squares, givens=dict(givens),
                  even=None if even is None else frozenset(even)).validate()


@st.composite
def small_grids(draw):
    """A random layout up to 5x5 (clue row/column included), a random valid fill, its clues,
    then sometimes a perturbed or dropped clue, some givens, or parity marks."""
    h = draw(st.sampled_from([2, 3, 4, 5, 5, 5]))
    w = draw(st.sampled_from([2, 3, 4, 5, 5, 5]))
    density = draw(st.sampled_from([0.5, 0.7, 0.85, 1.0]))
    bits = draw(st.lists(st.floats(0, 1), min_size=(h - 1) * (w - 1),
                         max_size=(h - 1) * (w - 1)))
    white = [[False] * w for _ in range(h)]
    for k, x in enumerate(bits):
        white[1 + k // (w - 1)][1 + k % (w - 1)] = x < density
    assume(any(any(row) for row in white))
    grid: Grid = [[None if white[r][c] else (None, None) for c in range(w)] for r in range(h)]
    runs = brute_runs(grid)
    runs_of: dict = {}
    for k, (_, _, rc_list) in enumerate(runs):
        for rc in rc_list:
            runs_of.setdefault(rc, []).append(k)
    fill: dict = {}
    for rc in sorted(runs_of):
        used = {fill[x] for k in runs_of[rc] for x in runs[k][2] if x in fill}
        fill[rc] = draw(st.sampled_from([d for d in range(1, 10) if d not in used]))
    # clues: the run sums, some perturbed or dropped (an unclued run); row 0 and column 0
    # are black, so the square before every run is a black clue square
    for direction, _, rc_list in runs:
        r, c = rc_list[0]
        at = (r, c - 1) if direction == "A" else (r - 1, c)
        n = len(rc_list)
        total = sum(fill[x] for x in rc_list)
        what = draw(st.sampled_from(["keep"] * 8 + ["drop", "perturb"]))
        if what == "drop":
            continue
        if what == "perturb":
            lo, hi = n * (n + 1) // 2, n * (19 - n) // 2
            total = min(hi, max(lo, total + draw(st.integers(-3, 3))))
        d, a = grid[at[0]][at[1]]
        grid[at[0]][at[1]] = (d, total) if direction == "A" else (total, a)
    givens: dict = {}
    for rc in sorted(fill):
        if draw(st.integers(0, 9)) == 0:
            givens[rc] = fill[rc] if draw(st.booleans()) else draw(st.integers(1, 9))
    even = None
    if draw(st.integers(0, 5)) == 0:
        even = {rc for rc, d in fill.items() if d % 2 == 0}
        if draw(st.booleans()):
            even ^= {draw(st.sampled_from(sorted(fill)))}
    return grid, givens, even


def key(sol: dict) -> tuple:
    return tuple(sorted(sol.items()))


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(small_grids())
def test_solver_matches_brute_force(case):
    grid, givens, even = case
    try:
        p = to_puzzle(grid, givens, even)
    except PuzzleError:
        assume(False)  # e.g. a given repeating a digit in its run: the model refuses it
        raise
    cap = 200
    brute = brute_force(grid, givens, even, cap=cap + 1)
    res = solve(p, max_solutions=cap)
    for values in res.solutions:
        assert check_solution(p, values) is None
    found = [dict(zip(p.whites, values, strict=True)) for values in res.solutions]
    keys = {key(s) for s in found}
    assert len(keys) == len(found), "solver reported a solution twice"
    if len(brute) < cap:
        assert keys == {key(s) for s in brute}
        assert res.complete
        assert res.status == {0: "none", 1: "unique"}.get(len(brute), "multiple")
    elif len(brute) == cap:
        # every solution found; whether the search went on to show there is no other is
        # the solver's business (the cap may stop it first: complete is then False)
        assert keys == {key(s) for s in brute} and res.status == "multiple"
    else:  # more than the cap: a capped, incomplete enumeration of real solutions
        assert len(found) == cap and not res.complete and res.status == "multiple"
        for sol in found:
            assert brute_accepts(grid, givens, even, sol)


def brute_accepts(grid: Grid, givens: dict, even: set | None, sol: dict) -> bool:
    """Does a full assignment satisfy the grid (own run derivation, no deducer code)?"""
    whites = {(r, c) for r, row in enumerate(grid) for c, x in enumerate(row) if x is None}
    if set(sol) != whites or any(not 1 <= d <= 9 for d in sol.values()):
        return False
    if any(sol[rc] != d for rc, d in givens.items()):
        return False
    if even is not None and any((d % 2 == 0) != (rc in even)
                                for rc, d in sol.items() if rc not in givens):
        return False
    for _, total, rc_list in brute_runs(grid):
        ds = [sol[rc] for rc in rc_list]
        if len(set(ds)) != len(ds) or (total is not None and sum(ds) != total):
            return False
    return True


def test_brute_force_sanity():
    # 2x2 block of {1,2} runs: exactly the two Latin squares
    grid: Grid = [[(None, None), (3, None), (3, None)], [(None, 3), None, None],
                  [(None, 3), None, None]]
    sols = brute_force(grid, {}, None)
    assert sorted(key(s) for s in sols) == sorted([
        key({(1, 1): 1, (1, 2): 2, (2, 1): 2, (2, 2): 1}),
        key({(1, 1): 2, (1, 2): 1, (2, 1): 1, (2, 2): 2}),
    ])


# --------------------------------------------------------------------------- combos table
# seed 002, Table 1: every (length, sum) with exactly one combination
TABLE_1 = {
    2: {3: "12", 4: "13", 16: "79", 17: "89"},
    3: {6: "123", 7: "124", 23: "689", 24: "789"},
    4: {10: "1234", 11: "1235", 29: "5789", 30: "6789"},
    5: {15: "12345", 16: "12346", 34: "46789", 35: "56789"},
    6: {21: "123456", 22: "123457", 38: "356789", 39: "456789"},
    7: {28: "1234567", 29: "1234568", 41: "2456789", 42: "3456789"},
    8: {36: "12345678", 37: "12345679", 38: "12345689", 39: "12345789", 40: "12346789",
        41: "12356789", 42: "12456789", 43: "13456789", 44: "23456789"},
    9: {45: "123456789"},
}


def _all_clue_types():
    return {(s, n): combos(s, n) for n in range(2, 10) for s in range(1, 46) if combos(s, n)}


def test_combo_table_counts():
    types = _all_clue_types()
    assert len(types) == 120
    assert sum(1 for v in types.values() if len(v) == 1) == 34
    assert max(len(v) for v in types.values()) == 12
    # independent recount with itertools
    for n in range(1, 10):
        for s in range(0, 50):
            want = sorted(mask_of(c) for c in itertools.combinations(range(1, 10), n)
                          if sum(c) == s)
            assert sorted(combos(s, n)) == want, (s, n)


def test_seed002_table1():
    unique = {(s, n) for (s, n), v in _all_clue_types().items() if len(v) == 1}
    listed = {(s, n) for n, row in TABLE_1.items() for s in row}
    assert unique == listed
    for n, row in TABLE_1.items():
        for s, digits in row.items():
            assert combos(s, n) == (mask_of(int(ch) for ch in digits),)


def test_combos_edge_cases():
    assert combos(None, 3) == tuple(mask_of(c) for c in itertools.combinations(range(1, 10), 3))
    assert combos(5, 0) == () and combos(5, 10) == ()
    assert combos(46, 9) == () and combos(2, 2) == ()
    # seed 002: "12 over four cells" has 2 combos, 20 over three 4, 11 over three 5
    assert len(combos(12, 4)) == 2 and len(combos(20, 3)) == 4 and len(combos(11, 3)) == 5


# --------------------------------------------------------------------------- run_filter
def m(*ds: int) -> int:
    return mask_of(ds)


@pytest.mark.parametrize("total,masks,want", [
    (3, (ALL, ALL), (m(1, 2), m(1, 2))),
    (16, (ALL, ALL), (m(7, 9), m(7, 9))),
    (24, (ALL, ALL, ALL), (m(7, 8, 9),) * 3),
    (10, (BIT[3], ALL), (BIT[3], BIT[7])),                     # lone cell
    (6, (m(1, 2), m(1, 2), ALL), (m(1, 2), m(1, 2), BIT[3])),  # naked pair
    (15, (m(1, 2), m(1, 2), ALL), None),                       # would need a third digit 12
    (4, (ALL, ALL), (m(1, 3), m(1, 3))),                       # no 2+2
    (None, (BIT[5], ALL), (BIT[5], ALL & ~BIT[5])),           # unclued: only distinctness
    (10, (0, ALL), None),                                      # an empty cell
    (17, (m(1, 2, 3), ALL), None),
])
def test_run_filter_hand_cases(total, masks, want):
    got = run_filter(total, masks)
    if want is None:
        assert got is None
    else:
        assert got is not None
        # compare with an exhaustive per-run enumeration as well
        exact = [0] * len(masks)
        for perm in itertools.product(*(range(1, 10),) * len(masks)):
            if len(set(perm)) != len(perm) or (total is not None and sum(perm) != total):
                continue
            if all(masks[k] & BIT[d] for k, d in enumerate(perm)):
                for k, d in enumerate(perm):
                    exact[k] |= BIT[d]
        assert tuple(exact) == got
        assert got == want


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 4), st.data())
def test_run_filter_is_exact(n, data):
    masks = tuple(data.draw(st.integers(1, 511)) for _ in range(n))
    total = data.draw(st.one_of(st.none(), st.integers(1, 45)))
    exact = [0] * n
    for perm in itertools.permutations(range(1, 10), n):
        if total is not None and sum(perm) != total:
            continue
        if all(masks[k] & BIT[d] for k, d in enumerate(perm)):
            for k, d in enumerate(perm):
                exact[k] |= BIT[d]
    got = run_filter(total, masks)
    assert got == (None if not any(exact) else tuple(exact))


# --------------------------------------------------------------------------- small puzzles
def block(*, across=(3, 3), down=(3, 3)) -> list[list[Square]]:
    """A 2x2 white block with its clue row and column."""
    return [
        [BLANK, Square(False, down[0]), Square(False, down[1])],
        [Square(False, None, across[0]), WHITE, WHITE],
        [Square(False, None, across[1]), WHITE, WHITE],
    ]


def puzzle(rows, **kw) -> Puzzle:
    return Puzzle(tuple(tuple(r) for r in rows), **kw).validate()


def digits(p: Puzzle, values) -> dict:
    return dict(zip(p.whites, values, strict=True))


def test_two_solution_block():
    p = puzzle(block())
    r = solve(p, max_solutions=10)
    assert r.status == "multiple" and r.complete and r.solution_count == 2
    r2 = solve(p)  # default cap 2: proves non-uniqueness
    assert r2.status == "multiple" and r2.solution_count == 2


def test_parity_marks():
    p = puzzle(block(), even=frozenset({(1, 1), (2, 2)}))
    assert p.initial_mask(p.index[(1, 1)]) == EVEN
    assert p.initial_mask(p.index[(1, 2)]) == ODD
    r = solve(p, max_solutions=10)
    assert r.status == "unique" and r.complete
    assert digits(p, r.solutions[0]) == {(1, 1): 2, (1, 2): 1, (2, 1): 1, (2, 2): 2}
    # contradicting parity: both cells of a {1,2} run even
    bad = puzzle(block(), even=frozenset({(1, 1), (1, 2)}))
    assert solve(bad).status == "none"


def test_givens():
    p = puzzle(block(), givens={(1, 1): 1})
    r = solve(p, max_solutions=10)
    assert r.status == "unique" and r.complete
    assert digits(p, r.solutions[0]) == {(1, 1): 1, (1, 2): 2, (2, 1): 2, (2, 2): 1}
    assert solve(puzzle(block(), givens={(1, 1): 3})).status == "none"


def test_entries_used_or_ignored():
    p = puzzle(block()).with_entries({(1, 1): 2})
    assert solve(p, max_solutions=10).solution_count == 1
    assert solve(p.without_progress(), max_solutions=10).solution_count == 2


def test_components_solved_independently():
    # two disconnected 2x2 islands, each with two solutions: 4 in all
    b = block()
    rows = [b[r] + [BLANK] + b[r][1:] for r in range(3)]
    rows[1][3] = Square(False, None, 3)
    rows[2][3] = Square(False, None, 3)
    p = puzzle(rows)
    layout = Layout.of(p)
    comps = open_islands(layout.run_cells, layout.cell_runs, [ALL] * len(p.whites))
    assert len(comps) == 2 and sum(len(c) for c in comps) == 8
    r = solve(p, max_solutions=100)
    assert r.status == "multiple" and r.complete and r.solution_count == 4
    assert len({tuple(s) for s in r.solutions}) == 4
    # fixing one island leaves the other's two solutions
    r1 = solve(p.with_entries({(1, 1): 1}), max_solutions=100)
    assert r1.solution_count == 2 and r1.complete
    # a dead island makes the whole puzzle unsolvable
    r0 = solve(puzzle(rows, givens={(1, 5): 9}), max_solutions=100)
    assert r0.status == "none"


def test_cap_makes_enumeration_incomplete():
    b = block()
    rows = [b[r] + [BLANK] + b[r][1:] for r in range(3)]
    rows[1][3] = Square(False, None, 3)
    rows[2][3] = Square(False, None, 3)
    r = solve(puzzle(rows), max_solutions=3)
    assert r.solution_count == 3 and not r.complete and r.status == "multiple"


def test_timeout_returns_incomplete():
    # a 10x10 board of unclued 9-cell runs: astronomically many solutions
    rows = [[BLANK] * 10] + [[BLANK] + [WHITE] * 9 for _ in range(9)]
    p = puzzle(rows)
    t = time.process_time()
    r = solve(p, max_solutions=10**9, limits=Limits.within(0.3))
    assert time.process_time() - t < 10  # CPU time: a loaded machine does not change it
    assert not r.complete
    assert r.timed_out
    for values in r.solutions:
        assert check_solution(p, values) is None


def test_no_solution_reason():
    p = puzzle(block(across=(3, 4), down=(3, 3)))  # rows sum to 7, columns to 6
    r = solve(p)
    assert r.status == "none" and r.complete and r.solutions == []


# --------------------------------------------------------------------------- bundled seeds
def _bundled(file: str, fmt: str, name: str | None = None) -> Puzzle:
    from deducer.puzzle.formats import load

    path = PUZZLES / file
    if not path.exists():
        pytest.skip(f"bundled puzzle {file} not present")
    return load(path, fmt, name=name)


def test_seed000_k3_has_40_solutions():
    p = _bundled("seed000-k.j", "j", "k3")
    r = solve(p, max_solutions=100)
    assert r.complete and r.solution_count == 40 and r.status == "multiple"
    assert len({tuple(s) for s in r.solutions}) == 40


def test_seed000_k2_unique():
    p = _bundled("seed000-k.j", "j", "k2")
    r = solve(p, max_solutions=10)
    assert r.status == "unique" and r.complete


def test_seed003_example_two_solutions():
    p = _bundled("seed003-example.txt", "conditions")
    r = solve(p, max_solutions=10)
    assert r.status == "multiple" and r.complete and r.solution_count == 2


def test_seed002_four_cells():
    p = _bundled("seed002-four.txt", "pipe")
    r = solve(p, max_solutions=10)
    assert r.status == "unique" and r.complete
    # B2=2, B3=3, C2=7, C3=9 (letters = columns, numbers = rows)
    assert digits(p, r.solutions[0]) == {(1, 1): 2, (2, 1): 3, (1, 2): 7, (2, 2): 9}


def _expected_entries():
    path = PUZZLES / "expected.json"
    if not path.exists():
        return []
    return json.loads(path.read_text())["puzzles"]


@pytest.mark.parametrize("entry", _expected_entries(),
                         ids=lambda e: f"{e['file']}:{e.get('name') or ''}")
def test_bundled_expected_counts(entry):
    p = _bundled(entry["file"], entry["format"], entry.get("name"))
    r = solve(p, max_solutions=100)
    assert r.complete and r.solution_count == entry["solutions"]
    if "solution" in entry:
        want = {(row, col): d for row, col, d in entry["solution"]}
        got = digits(p, r.solutions[0])
        assert {rc: got[rc] for rc in want} == want

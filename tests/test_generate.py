"""``deducer generate``: layout rules, uniqueness, exact level, seeds, errors, --timeout.

The default run keeps to small grids. ``DEDUCER_LONG_GENERATE=1`` adds a sweep over larger
sizes and every level (minutes).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from deducer.app.commands.generate import make as real_make
from deducer.clock import NO_LIMITS
from deducer.generator.core import GenerateError, Request, check_request, generate_one
from deducer.generator.layout import cut_cells, layout_problems, make_layout, runs_of
from deducer.puzzle.formats import loads
from deducer.solver.search import solve
from tests.test_solver import brute_force

ROOT = Path(__file__).resolve().parents[1]
LONG = bool(os.environ.get("DEDUCER_LONG_GENERATE"))


def cli(*args, timeout=600):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "deducer", *args], capture_output=True,
                          text=True, timeout=timeout, env=env, cwd=ROOT)


def puzzle_files(folder: Path) -> list[Path]:
    """The files of a generate --out folder but its (hidden) manifest of runs."""
    return [p for p in folder.iterdir() if not p.name.startswith(".")]


def grid_of(puzzle):
    """The puzzle as the brute force's grid: None white, (down, across) black."""
    return [[None if sq.white else (sq.down, sq.across) for sq in row]
            for row in puzzle.squares]


def white_of(puzzle):
    return [[sq.white for sq in row] for row in puzzle.squares]


# ---------------------------------------------------------------------------- layouts
@pytest.mark.parametrize("density", [0.18, 0.27, 0.36])  # Extreme's, janko's, the densest
@pytest.mark.parametrize("symmetry", ["rot180", "mirror", "none"])
@pytest.mark.parametrize("size", [(6, 6), (8, 8), (9, 13), (12, 12), (16, 16)])
def test_layouts_obey_the_rules(size, symmetry, density):
    rows, cols = size
    for seed in range(3):
        white = make_layout(random.Random(seed), rows, cols, symmetry, density)
        assert white is not None
        assert layout_problems(white, symmetry) == []
        # the rules, checked again here without the module's own checker
        for _, cells in runs_of(white):
            assert 2 <= len(cells) <= 9
        for r in range(1, rows - 1):
            for c in range(1, cols - 1):
                assert white[r][c] or white[r + 1][c] or white[r][c + 1] or white[r + 1][c + 1]
        for r in range(1, rows):
            for c in range(1, cols):
                if symmetry == "rot180":
                    assert white[r][c] == white[rows - r][cols - c]
                elif symmetry == "mirror":
                    assert white[r][c] == white[r][cols - c]
        cells = [(r, c) for r in range(rows) for c in range(cols) if white[r][c]]
        for rc in cells:  # no single cell disconnects the rest (checked by flood fill)
            assert _connected(white, cells, without=rc), rc


def _connected(white, cells, without=None) -> bool:
    rest = [rc for rc in cells if rc != without]
    seen = {rest[0]}
    todo = [rest[0]]
    while todo:
        r, c = todo.pop()
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nb != without and nb not in seen and 0 <= nb[0] < len(white) \
                    and 0 <= nb[1] < len(white[0]) and white[nb[0]][nb[1]]:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(rest)


def test_the_layout_checker_finds_each_broken_rule():
    # a 1-cell run, a 2x2 black block, a cut cell, broken symmetry
    text = ["#####",
            "#.###",
            "#..##",
            "#...#",
            "#...#"]
    white = [[ch == "." for ch in row] for row in text]
    found = " ".join(layout_problems(white, "rot180"))
    assert "2x2 black block" in found and "symmetry" in found
    assert "has 1 cells" in found
    bow = [[ch == "." for ch in row] for row in ["######", "#..#..", "#....."]]
    # two 2x2 blocks joined through the bottom row: its three middle cells each cut them
    assert cut_cells(bow) == (True, [(2, 2), (2, 3), (2, 4)])
    assert "cut cell r3c4" in layout_problems(bow)


# ---------------------------------------------------------------------------- uniqueness
@pytest.mark.parametrize("index", range(3))
def test_small_puzzles_are_unique_by_an_independent_enumerator(index):
    req = Request(7, 7, seed=11, timeout=300)
    res = generate_one(req, index)
    assert res.puzzle is not None, res.message
    sols = brute_force(grid_of(res.puzzle), {}, None, cap=3)
    assert len(sols) == 1
    assert [sols[0][rc] for rc in res.puzzle.whites] == res.solution
    assert res.puzzle.givens == {}
    assert layout_problems(white_of(res.puzzle), "rot180") == []


def test_larger_puzzles_are_unique_by_the_solver():
    res = generate_one(Request(12, 12, seed=3, symmetry="mirror", timeout=600), 0)
    assert res.puzzle is not None, res.message
    r = solve(res.puzzle, max_solutions=2)
    assert r.status == "unique" and r.complete and r.solutions[0] == res.solution
    assert layout_problems(white_of(res.puzzle), "mirror") == []


# ---------------------------------------------------------------------------- exact level
# Extreme now means trial (no longer a long Expert walkthrough): rare on small grids, about
# two minutes for this one under load, so it runs with the long sweep
@pytest.mark.parametrize("level", ["Medium", pytest.param("Extreme", marks=pytest.mark.skipif(
    not LONG, reason="set DEDUCER_LONG_GENERATE=1 for Extreme (about two minutes)"))])
def test_exact_level(level):
    from deducer import api

    res = api.generate("8x8", level, seed=5, timeout=600)
    assert len(res) == 1
    p = res[0].puzzle
    assert res[0].rating.level == level
    # the rating reported is the one `rate` gives the file, to the last figure
    assert res[0].rating.to_json() == api.rate(p).to_json()
    assert solve(p).status == "unique"


@pytest.mark.parametrize("level", ["Easy", "Medium", "Hard", "Expert"])
def test_a_level_needs_a_step_of_its_tier_and_none_harder(level):
    """--level names the hardest technique: re-rated from the file, the walkthrough has a
    step of that tier and none above it (whatever its length)."""
    from deducer import api
    from deducer.engine import registry
    from deducer.engine.rating import LEVELS, model_for, step_level

    res = api.generate("8x8", level, seed=7, timeout=600)
    exp = api.explain(res[0].puzzle)
    tiers = [step_level(s, model_for(registry.load())) for s in exp.steps]
    assert exp.status == "solved" and max(tiers) == LEVELS.index(level)
    assert exp.rating.level == level == res[0].rating.level


@pytest.mark.parametrize("score", [(5.0, None), (None, 4.8), (4.5, 5.5)])
def test_a_score_range_is_met(score):
    from deducer import api

    res = generate_one(Request(8, 8, "Easy", seed=3, score=score, timeout=600), 0)
    assert res.puzzle is not None, res.message
    lo, hi = score
    got = api.rate(res.puzzle).score
    assert got == res.rating.score
    assert (lo is None or got >= lo) and (hi is None or got <= hi)


def test_a_score_range_draws_only_levels_that_reach_it():
    """The README's example (10x10, score 3-6): its second puzzle was drawn Expert, whose
    10x10 puzzles score about 10, and never came (issue 40)."""
    from deducer.generator.core import mixed_level, stream
    from deducer.generator.request import make_request, parse_score

    req = make_request("10x10", None, seed=7, score=parse_score("3-6"))
    drawn = {mixed_level(req, stream(7, k)[1]) for k in range(300)}
    assert drawn == {"Easy", "Medium"}
    # a range only a level outside the published mix reaches still gets that level
    req = make_request("10x10", None, seed=7, score=parse_score("8.5-9.5"))
    assert {mixed_level(req, stream(7, k)[1]) for k in range(50)} <= {"Hard", "Expert"}


def test_the_readme_score_example_makes_its_second_puzzle():
    from deducer.generator.request import make_request, parse_score

    req = make_request("10x10", None, seed=7, score=parse_score("3-6"), timeout=600)
    res = generate_one(req, 1)
    assert res.puzzle is not None, res.message
    assert 3 <= res.rating.score <= 6


@pytest.mark.parametrize("args, words", [
    (["--size", "6x6", "--score", "11-"], "6x6 puzzles"),
    (["--size", "30x30", "--score", "-2"], "a larger grid scores higher"),
    (["--size", "12x12", "--level", "Easy", "--score", "8-9"], "12x12 Easy puzzles"),
])
def test_a_score_range_out_of_reach_is_refused_at_once(args, words):
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = cli("generate", "--seed", "1", *args)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert r.returncode == 2 and "out of reach" in r.stderr and words in r.stderr, r.stderr
    assert r.stderr.count("\n") == 1 and "Easy about" in r.stderr
    # said before any puzzle is tried: the CPU of starting a command, not of generating
    assert after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime < 5


def test_the_progress_line_says_how_a_puzzle_goes():
    from deducer.app.commands.generate import progress_text

    assert progress_text(1, (7, "Medium", 6.8, 7.9), (3.0, 6.0)) == \
        "puzzle 2, attempt 7 (Medium; scores 6.8-7.9, asked 3-6)"
    assert progress_text(0, (2, "Easy", None, None), (5.0, None)) == \
        "puzzle 1, attempt 2 (Easy; scores none yet, asked 5-)"
    assert progress_text(4, (3, None, None, None), None) == "puzzle 5, attempt 3"


def test_an_unconstrained_run_follows_the_published_mix():
    from deducer.generator.core import DEFAULT_MIX, mixed_level, stream

    drawn = [mixed_level(Request(10, 10, seed=1), stream(1, k)[1]) for k in range(400)]
    total = sum(w for _, w in DEFAULT_MIX)
    for name, w in DEFAULT_MIX:
        assert abs(100 * drawn.count(name) / len(drawn) - 100 * w / total) < 5, name
    # a level, or a rule to practise, is the caller's own choice
    assert mixed_level(Request(10, 10, "Hard", seed=1), stream(1, 0)[1]) == "Hard"
    assert mixed_level(Request(10, 10, needs="naked-pair"), stream(1, 0)[1]) is None
    # and the puzzle made is of the level drawn for it (its own stream, as generate_one)
    for k in range(3):
        res = generate_one(Request(8, 8, seed=1, timeout=600), k)
        assert res.rating.level == mixed_level(Request(8, 8, seed=1), stream(1, k)[1])


def _drafts(n: int, size: int = 10, seed: int = 4):
    from deducer.generator.draft import Draft, fill
    from deducer.generator.unique import make_unique

    rng = random.Random(seed)
    out = []
    while len(out) < n:
        white = make_layout(rng, size, size, "rot180")
        draft = make_unique(Draft(white, fill(white, rng)), rng, NO_LIMITS, symmetry="rot180")
        if draft is not None:
            out.append(draft)
    return out


def test_near_estimate_of_open_candidates_is_a_lower_bound_and_mostly_exact():
    """The repairs rank digit changes by re-propagating only around the change; kept
    candidates farther out can only make the estimate lower than a whole-grid count
    (propagation is monotone), never higher, and it must be close enough to rank by."""
    from deducer.generator.draft import Draft, fill
    from deducer.generator.unique import open_count, open_near

    rng = random.Random(5)
    exact = total = 0
    for size in (8, 12):
        for _ in range(3):
            white = make_layout(rng, size, size, "rot180", 0.2)
            draft = Draft(white, fill(white, rng))
            _, masks = open_count(draft)
            moves = [(i, d) for i in range(len(draft.values)) for d in draft.free_digits(i)]
            for i, d in rng.sample(moves, 12):
                est = open_near(draft, masks, i, d)
                true = open_count(draft, draft.totals_with(i, d))[0]
                assert est <= true
                exact += est == true
                total += 1
    assert exact >= 0.8 * total


def _moves(steps):
    return [(s.rule, s.placements, s.eliminations, s.weight, s.score) for s in steps]


def test_lean_steps_are_the_full_walkthroughs_steps():
    """The generator rates drafts lean (no sentences, no count of open moves): the steps
    and so the rating must be exactly the full walkthrough's."""
    from deducer.engine import registry
    from deducer.engine.rating import chain_length, rate_steps
    from deducer.engine.walk import Engine, WalkOptions, explain

    rules = registry.load()
    chains = 0
    for draft in _drafts(4, size=12):
        full = explain(draft.puzzle(), rules)
        eng = Engine(draft.puzzle(), rules, WalkOptions(lean=True))
        assert eng.run() == full.status == "solved"
        assert _moves(eng.steps) == _moves(full.steps)
        assert [s.chain for s in full.steps] == [chain_length(s) for s in full.steps]
        cells = len(draft.puzzle().whites)
        lean = rate_steps(eng.steps, "solved", rules, cells)
        # the score weighs open moves, which a lean walk does not count: compared below
        assert (lean.level, lean.effort, lean.max_weight, lean.max_chain) == (
            full.rating.level, full.rating.effort, full.rating.max_weight,
            full.rating.max_chain)
        # what lean leaves out (the open easy moves before each step) is recounted by
        # replaying the lean walk: the generator's final rating, without a second walk
        replayed = Engine(draft.puzzle(), rules).recount(eng.steps)
        assert [s.available for s in replayed] == [s.available for s in full.steps]
        assert (rate_steps(replayed, "solved", rules, cells, draft.puzzle()).to_json()
                == full.rating.to_json())
        chains += full.rating.max_chain > 0
    assert chains  # a proof by assumption among them: its length is rated too


@pytest.mark.parametrize("level", ["Easy", "Medium", "Hard", "Expert"])
def test_a_finished_cut_down_walk_is_the_walkthrough(level):
    """A walk with the head of the ladder a level allows that finishes is step for step
    the whole ladder's walkthrough (so the generator needs no second rating)."""
    from deducer.engine import registry
    from deducer.engine.walk import SOLVED, explain
    from deducer.generator.level import Target, walk

    rules = registry.load()
    target = Target(rules, level)
    assert target.ladder == rules[:len(target.ladder)]
    # a walk: false rule (chain links only) is never a step, so its weight cuts nothing
    assert all(r.weight <= target.cap for r in target.ladder if r.walk)
    assert rules[len(target.ladder)].weight > target.cap
    finished = 0
    for draft in _drafts(6, seed=9):
        w = walk(draft, target.ladder, None, NO_LIMITS)
        if w.status != SOLVED:
            continue
        finished += 1
        full = explain(draft.puzzle(), rules)
        assert _moves(w.steps) == _moves(full.steps)
        assert full.status == SOLVED  # a finished walk proves the solution unique
    assert finished or level != "Expert"


def test_an_over_weight_step_stops_the_walk():
    from deducer.engine import registry
    from deducer.engine.walk import OVER, Engine, WalkOptions, explain

    rules = registry.load()
    for draft in _drafts(3):
        full = explain(draft.puzzle(), rules)
        top = full.rating.max_weight
        eng = Engine(draft.puzzle(), rules, WalkOptions(lean=True, stop_above=top - 0.01))
        assert eng.run() == OVER
        assert eng.steps[-1].weight == top
        assert all(s.weight < top for s in eng.steps[:-1])
        assert _moves(eng.steps) == _moves(full.steps[:len(eng.steps)])


# ---------------------------------------------------------------------------- command line
def test_a_slow_or_loaded_machine_makes_the_same_puzzles(monkeypatch):
    """Issue 13: a seed fixes the puzzles. Without --timeout nothing inside a puzzle's
    search may read the clock to decide what is kept: its limits count work. Here the
    clock advances 2 ms at every read, as on a machine many times slower (or loaded),
    which made the old seconds limits stop walks and solver calls that an idle machine
    finished (12 attempts and another puzzle instead of one attempt)."""
    import itertools
    import time

    from deducer.puzzle.formats import dumps

    def made():
        # Expert: chain walks and solver calls with work budgets, in seconds (Extreme,
        # which now needs trial, takes minutes a puzzle)
        res = generate_one(Request(8, 8, "Expert", seed=1), 0)
        return dumps(res.puzzle, "pipe"), res.attempts, res.stats.get("failed")

    real = made()
    ticks = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: 0.002 * next(ticks))
    assert made() == real


def test_same_seed_same_bytes_whatever_jobs(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    r1 = cli("generate", "--size", "7x7", "--count", "3", "--seed", "4", "--out", str(a),
             "--jsonl", str(tmp_path / "a.jsonl"), "--no-progress")
    r2 = cli("generate", "--size", "7x7", "--count", "3", "--seed", "4", "--out", str(b),
             "--jsonl", str(tmp_path / "b.jsonl"), "--jobs", "2", "--no-progress")
    assert r1.returncode == 0 and r2.returncode == 0, r1.stderr + r2.stderr
    names = sorted(p.name for p in puzzle_files(a))
    assert names == ["0001.txt", "0002.txt", "0003.txt"]
    for n in names:
        assert (a / n).read_bytes() == (b / n).read_bytes()
    rows = [json.loads(line) for line in (tmp_path / "a.jsonl").read_text().splitlines()]
    assert [r["seed"] for r in rows] == ["4:0", "4:1", "4:2"]
    for n, row in zip(names, rows, strict=True):
        assert loads((a / n).read_text()) == loads(row["puzzle"])
    # the files read back as the puzzles generated, with their solutions
    p = loads((a / "0001.txt").read_text())
    assert solve(p).solutions[0] == rows[0]["solution"]


def test_dask_engine_gives_the_pools_files_byte_for_byte(tmp_path):
    pytest.importorskip("distributed")
    a, b = tmp_path / "pool", tmp_path / "dask"
    common = ("generate", "--size", "7x7", "--count", "3", "--seed", "4", "--no-progress",
              "--jobs", "2")
    r1 = cli(*common, "--out", str(a))
    r2 = cli(*common, "--out", str(b), "--engine", "dask", "--chunk", "2")
    assert r1.returncode == 0 and r2.returncode == 0, r1.stderr + r2.stderr
    names = sorted(p.name for p in puzzle_files(a))
    assert names == sorted(p.name for p in puzzle_files(b)) == ["0001.txt", "0002.txt", "0003.txt"]
    for n in names:
        assert (a / n).read_bytes() == (b / n).read_bytes()


def flaky_make(req, index, **kw):
    """The command's worker function, except that puzzle 2 raises and puzzle 3 kills its
    worker (module-level: a forkserver worker imports it by name)."""
    import signal

    if index == 1:
        raise ValueError("no fill")
    if index == 2:
        os.kill(os.getpid(), signal.SIGKILL)  # as the OOM killer would
    return real_make(req, index, **kw)  # imported above, before any patching


def test_a_failed_puzzle_is_one_line_and_the_others_are_made(tmp_path, capsys, monkeypatch):
    from deducer.app.cli import main
    from deducer.app.commands import generate

    monkeypatch.setattr(generate, "make", flaky_make)
    out = tmp_path / "o"
    code = main(["generate", "--size", "7x7", "--count", "4", "--seed", "4", "--jobs", "2",
                 "--retries", "0", "--out", str(out), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 3, err
    assert sorted(p.name for p in puzzle_files(out)) == ["0001.txt", "0004.txt"]
    lines = err.splitlines()
    assert "deducer: puzzle 2 (seed 4:1) failed: ValueError: no fill" in lines
    assert any(x.startswith("deducer: puzzle 3 (seed 4:2) failed: ") and "signal 9" in x
               for x in lines), err
    assert lines[-1] == "deducer: 2 of 4 puzzles failed"
    assert "Traceback" not in err
    # the puzzles made are the ones an undisturbed run makes
    monkeypatch.undo()
    ref = tmp_path / "ref"
    r = cli("generate", "--size", "7x7", "--count", "4", "--seed", "4", "--out", str(ref),
            "--no-progress")
    assert r.returncode == 0, r.stderr
    for n in ("0001.txt", "0004.txt"):
        assert (out / n).read_bytes() == (ref / n).read_bytes()


def test_jsonl_streams_to_stdout():
    r = cli("generate", "--size", "6x6", "--seed", "1", "--jsonl", "-")
    assert r.returncode == 0, r.stderr
    obj = json.loads(r.stdout)
    assert {"puzzle", "rating", "seed", "solution"} <= set(obj)
    assert obj["rating"]["level"] in ("Easy", "Medium", "Hard", "Expert", "Extreme",
                                      "Unreasonable")


@pytest.mark.parametrize("args, words", [
    (["--size", "3x3"], "rows must be 6 to 60"),
    (["--size", "axb"], "expected ROWSxCOLS"),
    (["--score", "6-3"], "low end is above the high end"),
    (["--score", "hard"], "expected LOW-HIGH"),
    (["--level", "Impossible"], "unknown level"),
    (["--needs", "no-such-rule"], "no such rule"),
    (["--level", "Easy", "--needs", "region-sum-two"], "harder than any step"),
    (["--format", "j"], "not a writable format"),
    (["--count", "0"], "--count"),
    (["--size", "11x11", "--symmetry", "mirror"], "layout with mirror symmetry"),
])
def test_impossible_requests_get_one_clear_line(args, words):
    r = cli("generate", "--seed", "1", *args)
    assert r.returncode == 2
    assert words in r.stderr and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_every_level_is_in_reach_at_every_size():
    # the level names the hardest technique, whatever the walkthrough's length: a large
    # grid can be Easy (its length shows in the score, not the level)
    for size in (12, 22, 30):
        for level in ("Easy", "Medium", "Hard", "Expert"):
            check_request(Request(size, size, level))
    with pytest.raises(GenerateError, match="low end is above"):
        check_request(Request(12, 12, "Easy", score=(6.0, 3.0)))


def test_default_black_share_is_janko_s_but_sparse_for_small_extreme():
    from deducer.generator.request import DENSITY, SPARSE, default_density

    assert default_density(12, 12, "Easy") == DENSITY  # small grids look like janko's
    assert default_density(30, 30, "Easy") == DENSITY  # no effort limit to fit any more
    assert default_density(30, 30, "Expert") == DENSITY
    # Extreme on small grids needs trial, which long runs make common
    assert default_density(12, 12, "Extreme") == SPARSE < DENSITY
    assert default_density(8, 10, "Extreme") == SPARSE
    assert default_density(16, 16, "Extreme") == DENSITY


def test_timeout_stops_with_what_it_has(tmp_path):
    r = cli("generate", "--size", "30x30", "--count", "3", "--seed", "1", "--timeout", "1",
            "--out", str(tmp_path / "o"), "--no-progress", timeout=120)
    assert r.returncode == 4
    assert "--timeout stopped the run after 0 of 3 puzzles" in r.stderr
    assert list((tmp_path / "o").iterdir()) == []


# ---------------------------------------------------------------------------- long sweep
@pytest.mark.skipif(not LONG, reason="set DEDUCER_LONG_GENERATE=1 for the long sweep")
@pytest.mark.parametrize("size", [12, 16])
@pytest.mark.parametrize("level", ["Easy", "Medium", "Hard", "Expert", "Extreme"])
def test_long_sweep(size, level):
    res = generate_one(Request(size, size, level, seed=2, timeout=900), 0)
    assert res.puzzle is not None, res.message
    assert res.rating.level == level
    r = solve(res.puzzle)
    assert r.status == "unique" and r.complete
    assert layout_problems(white_of(res.puzzle), "rot180") == []


# ---------------------------------------------------------------------------- play page
def test_play_page_new_puzzle(tmp_path):
    from deducer.app.play.server import create_app

    client = create_app(tmp_path, None).test_client()
    r = client.post("/api/generate", json={"size": "7x7", "seed": 3})
    assert r.status_code == 200, r.get_json()
    data = r.get_json()
    assert data["status"] == "unique" and "seed 3:0" in data["message"]
    p = loads(json.dumps(data["puzzle"]), "json")
    assert (p.rows, p.cols) == (7, 7) and solve(p).status == "unique"
    r = client.post("/api/generate", json={"size": "3x3"})
    assert r.status_code == 422 and "6 to 60" in r.get_json()["error"]
    html = (ROOT / "deducer/app/play/static/index.html").read_text()
    assert 'id="btn-generate"' in html and 'id="gen-level"' in html


def test_split_run_keeps_the_layout_rules_and_the_fill():
    from deducer.generator.draft import Draft, fill
    from deducer.generator.unique import split_run

    rng = random.Random(8)
    white = make_layout(rng, 12, 12, "rot180")
    draft = Draft(white, fill(white, rng))
    split = split_run(draft, rng, list(range(len(draft.values))), "rot180")
    assert split is not None and len(split.values) == len(draft.values) - 2
    assert layout_problems(split.white, "rot180") == []
    old = draft.value_map()
    assert all(old[rc] == v for rc, v in split.value_map().items())
    p = split.puzzle()  # the clues are the sums of the kept fill
    for run in p.runs:
        assert run.total == sum(old[rc] for rc in run.coords)


# ------------------------------------------------------------------ reuse across drafts
def _draft(seed: int, size: int = 12):
    from deducer.generator.draft import Draft, fill

    rng = random.Random(seed)
    white = make_layout(rng, size, size, "rot180", 0.27)
    return Draft(white, fill(white, rng)), rng


@pytest.mark.parametrize("seed", range(4))
def test_a_drafts_reused_geometry_is_the_validated_puzzles(seed):
    """Draft.puzzle skips validation after the first puzzle: what it hands out must be the
    puzzle a validated build of the same squares gives, field for field."""
    from deducer.puzzle.model import Puzzle

    draft, rng = _draft(seed)
    first = draft.puzzle()
    for _ in range(30):
        i = rng.randrange(len(draft.values))
        digits = draft.free_digits(i)
        if digits:
            draft.set(i, rng.choice(digits))
        fast = draft.puzzle()
        slow = Puzzle(fast.squares).validate()
        assert fast == slow
        assert (fast.whites, fast.index, fast.runs, fast.cell_runs) == \
               (slow.whites, slow.index, slow.runs, slow.cell_runs)
        assert [r.total for r in fast.runs] == draft.totals
    assert first.runs != draft.puzzle().runs  # the clues did change


@pytest.mark.parametrize("seed", range(3))
def test_kept_regions_follow_the_clues(seed):
    """Regions are kept per geometry and only those touching a changed clue rebuilt: the
    result must equal finding them afresh, whatever the order of puzzles asked."""
    from deducer.rules.regionfind import _find_regions, find_regions

    draft, rng = _draft(seed, 14)
    seen = []
    for _ in range(25):
        i = rng.randrange(len(draft.values))
        digits = draft.free_digits(i)
        if digits:
            draft.set(i, rng.choice(digits))
        seen.append(draft.puzzle())
        puzzle = rng.choice(seen)  # back and forth between clue sets
        assert find_regions(puzzle) == _find_regions(puzzle)
    assert find_regions(seen[-1], max_cost=4) == _find_regions(seen[-1], max_cost=4)


def test_an_easing_move_that_lets_in_a_second_solution_is_mended():
    """Easing keeps a move that broke uniqueness only with the repairs that restore it
    (a draft with two solutions can be eased for ever): the repairs handed back make the
    draft unique by the solver's count, and the draft is left as it was."""
    from deducer.generator.level import _applied, _mend, _unique

    mended = 0
    for draft in _drafts(4, size=10, seed=9):
        rng = random.Random(1)
        before = draft.values[:]
        moves = [(i, d) for i in range(len(draft.values)) for d in draft.free_digits(i)]
        for i, d in rng.sample(moves, min(15, len(moves))):
            with _applied(draft, [(i, d)]):
                if _unique(draft, NO_LIMITS):
                    continue
                fix = _mend(draft, rng, NO_LIMITS)
                assert draft.values == [*before[:i], d, *before[i + 1:]]  # undone
            if fix is None:
                continue
            with _applied(draft, [(i, d), *fix]):
                assert len(solve(draft.puzzle(), max_solutions=2).solutions) == 1
            mended += 1
        assert draft.values == before
    assert mended >= 10

"""Publishers at scale (issue 55): a puzzle's grade kept by every format, generate --out
files that carry it, and convert over a whole collection."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deducer.app.cli import main
from deducer.errors import PuzzleError
from deducer.puzzle.formats import detect, dumps, get, load, loads, writable
from deducer.puzzle.formats.solved import from_digit_grid
from deducer.puzzle.model import Grade

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
SIX = PUZZLES / "generated-6x6-s23.txt"

levels = st.sampled_from(["Easy", "Medium", "Hard", "Expert", "Extreme", "Unreasonable"])
grades = st.builds(Grade, levels, st.integers(0, 3000).map(lambda n: n / 10),
                   st.sampled_from(["7", "8", "12a"]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grade=grades, chain=st.lists(st.sampled_from(writable()), min_size=1, max_size=3))
def test_every_format_keeps_the_grade_through_round_trips(grade, chain):
    """A graded puzzle written in one format, read back (the format detected), written in
    the next, and so on: the grade and the puzzle come out as they went in."""
    p = load(SIX).graded(grade)
    for fmt in chain:
        text = dumps(p, fmt)
        assert detect(text).name == fmt
        back = loads(text)
        assert back == p and back.grade == grade, (fmt, text)
        p = back


def test_the_grade_is_read_only_from_its_own_line():
    p = load(SIX)
    # a comment that only looks like one is a comment; a file without one has no grade
    assert loads(dumps(p, "pipe")).grade is None
    assert loads("# rating: very hard\n" + dumps(p, "pipe")).grade is None
    assert loads("# rating: Hard, score 4.2, rater 7\n" + dumps(p, "pipe")).grade == \
        Grade("Hard", 4.2, "7")
    with pytest.raises(PuzzleError, match='"rating" must be'):
        loads(dumps(p, "json").replace('"even": null', '"even": null, "rating": "Hard"'))


def test_the_grade_survives_progress_and_is_not_part_of_equality():
    p = load(PUZZLES / "seed002-four.txt").graded(Grade("Medium", 1.5, "7"))
    q = p.with_entries({(1, 1): 2}, {})
    assert q.grade == p.grade and q.without_progress().grade == p.grade
    assert p == p.graded(None)  # the same grid is the same puzzle


@settings(max_examples=30, deadline=None)
@given(grid=st.lists(st.lists(st.integers(1, 9), min_size=2, max_size=2,
                              unique=True), min_size=1, max_size=1), grade=grades)
def test_fib_keeps_its_size_line_first(grid, grade):
    """KakuroApp's boards start with R,C (its apps read that first): the grade goes after."""
    p, _ = from_digit_grid(grid)
    text = dumps(p.graded(grade), "fib")
    assert text.split("\n")[0] == f"{p.rows},{p.cols}"
    assert get("fib").read(text) == p  # the reader skips the comment


def test_generate_out_files_carry_level_score_and_rater(tmp_path, capsys):
    out = tmp_path / "gen"
    assert main(["generate", "--size", "6x6", "--seed", "1", "--count", "2", "--out",
                 str(out), "--no-progress"]) == 0
    err = capsys.readouterr().err
    files = sorted(out.glob("0*.txt"))
    assert len(files) == 2
    rows = []
    for f in files:
        p = load(f)
        assert p.grade is not None
        # the file's grade is what rating it again gives
        assert main(["rate", str(f), "--json"]) == 0
        row = json.loads(capsys.readouterr().out)["puzzles"][0]
        rows.append(row)
        assert (p.grade.level, p.grade.score, p.grade.rater) == (
            row["level"], row["score"], row["rater"])
    low, high = min(r["score"] for r in rows), max(r["score"] for r in rows)
    assert f"scores {low:g}-{high:g} (rater {rows[0]['rater']})" in err or \
        f"score {low:g} (rater" in err
    # and another format of the same run: the same grades
    assert main(["generate", "--size", "6x6", "--seed", "1", "--count", "2", "--out",
                 str(tmp_path / "js"), "--format", "json", "--no-progress"]) == 0
    assert [load(f).grade for f in sorted((tmp_path / "js").glob("0*.json"))] == \
        [load(f).grade for f in files]


def test_replace_keeps_the_grade():
    p = load(SIX).graded(Grade("Easy", 2, "7"))
    assert replace(p, name="x").grade == Grade("Easy", 2.0, "7")

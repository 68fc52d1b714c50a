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


# ---- convert COLLECTION --to FORMAT --out DIR -------------------------------------------
def bare(p):
    """The puzzle without its name (a format that holds none drops it)."""
    return replace(p, name=None)


def test_convert_a_collection_file_one_file_each_and_the_file_of_all(tmp_path, capsys):
    out = tmp_path / "k"
    assert main(["convert", str(PUZZLES / "seed000-k.j"), "--to", "janko", "--out",
                 str(out), "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "converted 8 puzzles to janko" in err
    want = {n: load(PUZZLES / "seed000-k.j", name=n) for n in
            (f"k{k}" for k in range(8))}
    files = sorted(out.glob("k*.x-janko"))
    assert [f.stem for f in files] == list(want)
    for f in files:
        assert bare(load(f)) == bare(want[f.stem])
    # the file of them all: janko.at's records, one a line, each read back by its number
    records = [json.loads(line) for line in (out / "all.jsonl").read_text().splitlines()]
    assert len(records) == 8
    for k, name in enumerate(want, 1):
        assert bare(load(out / "all.jsonl", name=f"{k:03d}")) == bare(want[name])


def test_convert_a_folder_reports_each_bad_puzzle_and_writes_the_rest(tmp_path, capsys):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.txt").write_text((PUZZLES / "seed002-four.txt").read_text())
    (src / "given.txt").write_text("\\|5\\|16\\\n\\|!2|\n\\12||\n")
    (src / "broken.txt").write_text("\\|5\\|16\\\n\\|x|\n")
    (src / "notes.md").write_text("# my notes\n")
    out = tmp_path / "urls"
    code = main(["convert", str(src), "--to", "puzzlink", "--out", str(out)])
    err = capsys.readouterr().err.splitlines()
    assert code == 2
    # one line for the skipped note, one per puzzle that could not be written, the summary
    assert any("skipped 1 file" in e for e in err)
    assert any(e.startswith(f"deducer: error: {src / 'broken.txt'}:2:") for e in err)
    assert any(e.startswith(f"deducer: error: {src / 'given.txt'}") and "givens" in e
               for e in err)
    assert err[-1].startswith("deducer: converted 1 puzzle to puzzlink") and \
        "2 could not be converted" in err[-1]
    assert sorted(p.name for p in out.iterdir()) == ["a.url", "all.url"]
    assert bare(load(out / "a.url")) == bare(load(src / "a.txt"))
    assert bare(load(out / "all.url", name="a")) == bare(load(src / "a.txt"))


def test_convert_never_writes_over_without_asking(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "k3.txt").write_text("mine\n")
    argv = ["convert", str(PUZZLES / "seed000-k.j"), "--to", "pipe", "--out", str(out)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "already holds k3.txt; pass --force" in err and err.count("\n") == 1
    assert sorted(p.name for p in out.iterdir()) == ["k3.txt"]  # nothing written at all
    assert (out / "k3.txt").read_text() == "mine\n"
    assert main(argv + ["--force"]) == 0
    assert bare(load(out / "k3.txt")) == bare(load(PUZZLES / "seed000-k.j", name="k3"))
    # an input is never written over, --force or not
    src = tmp_path / "src"
    src.mkdir()
    (src / "p.txt").write_text((PUZZLES / "seed002-four.txt").read_text())
    assert main(["convert", str(src), "--to", "pipe", "--out", str(src), "--force"]) == 2
    assert "is also an input" in capsys.readouterr().err
    # -o and --out together, a file as --out: one line each
    assert main(argv + ["-o", str(tmp_path / "x.txt")]) == 2
    assert main(["convert", str(PUZZLES / "seed000-k.j"), "--to", "pipe", "--out",
                 str(src / "p.txt")]) == 2
    assert "must be a folder" in capsys.readouterr().err


def test_convert_keeps_the_grade_of_generated_puzzles(tmp_path, capsys):
    gen = tmp_path / "gen"
    assert main(["generate", "--size", "6x6", "--seed", "2", "--count", "2", "--out",
                 str(gen), "--no-progress"]) == 0
    assert main(["convert", str(gen), "--to", "json", "--out", str(tmp_path / "js"),
                 "--no-progress"]) == 0
    capsys.readouterr()
    for f in sorted(gen.glob("0*.txt")):
        back = load(tmp_path / "js" / f"{f.stem}.json")
        assert back.grade is not None and back.grade == load(f).grade
    lines = (tmp_path / "js" / "all.jsonl").read_text().splitlines()
    assert [loads(line).grade for line in lines] == \
        [load(f).grade for f in sorted(gen.glob("0*.txt"))]


def test_convert_the_janko_collection_in_one_run(corpus_dir, tmp_path, capsys):
    src = corpus_dir / "janko-at-tkoz0" / "Kakuro.jsonl.bz2"
    out = tmp_path / "janko"
    assert main(["convert", str(src), "--to", "pipe", "--out", str(out)]) == 0
    files = sorted(out.glob("janko-*.txt"))
    assert len(files) == 960
    from deducer.app.batch.inputs import find
    from deducer.app.batch.inputs import load as load_task

    tasks = find([str(src)]).tasks
    for k in (0, 94, 959):  # the first, one of the repeats' neighbours, the 31x46 one
        assert bare(load(files[k])) == bare(load_task(tasks[k], None))

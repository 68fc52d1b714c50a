"""What rate and the other commands read (issue 41, items 12, 13 and 16): a .jsonl line in
any notation a line can hold, .gz and .bz2 files read through everywhere, and a folder
with nothing to read said as such."""

from __future__ import annotations

import bz2
import gzip
import json
import sys
from pathlib import Path

import pytest

from deducer.app.cli import main
from deducer.puzzle import formats

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
FOUR = PUZZLES / "seed002-four.txt"
# a janko.at record as the scrape stores it: a solved 3x3 grid, clues its run sums
JANKO = {"file": "/Kakuro/901.a.x-janko",
         "data": {"puzzle": "kakuro", "rows": 3, "cols": 3,
                  "solution": [["-", "-", "-"], ["-", "2", "7"], ["-", "3", "9"]]}}


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err, err
    return code, out, err


# ------------------------------------------------------------------ item 12: .jsonl lines
def test_rate_reads_janko_records_as_solve_does(tmp_path, capsys):
    other = {**JANKO, "file": "/Kakuro/902.a.x-janko"}
    path = tmp_path / "janko.jsonl"
    path.write_text(json.dumps(JANKO) + "\n" + json.dumps(other) + "\n", encoding="utf-8")
    code, out, err = cli(capsys, "rate", path, "--json")
    rows = json.loads(out)["puzzles"]
    assert code == 0, err
    assert [(r["file"], r["status"]) for r in rows] == [(f"{path}:1", "solved"),
                                                        (f"{path}:2", "solved")]
    code, out, _ = cli(capsys, "solve", path, "--name", "902")
    assert code == 0 and out.startswith("unique solution")


def test_a_jsonl_line_may_be_any_notation_a_line_holds(tmp_path, capsys):
    puzzle = formats.load(FOUR)
    lines = [json.dumps(JANKO),  # janko.at's record
             json.dumps(json.loads(formats.dumps(puzzle, "json"))),  # deducer's JSON
             formats.dumps(puzzle, "puzzlink").strip(),  # a URL
             json.dumps({"seed": "1:0", "puzzle": formats.dumps(puzzle, "pipe")}),  # generate's
             json.dumps({"source": "x.txt", "status": "solved"}),  # a row: no puzzle
             json.dumps({"what": "else"})]
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = cli(capsys, "rate", path, "--json")
    rows = json.loads(out)["puzzles"]
    assert [r["status"] for r in rows] == ["solved"] * 4 + ["unreadable"] * 2
    assert "is a row of 'deducer rate --out'" in rows[4]["error"]
    assert rows[5]["error"].startswith(f"{path}:6: a JSON line must be a puzzle")
    assert code == 2


@pytest.fixture(scope="module")
def corpus_janko():
    from tests.support.corpus import JANKO as FOLDER
    from tests.support.corpus import corpus_root

    root = corpus_root()
    path = None if root is None else root / FOLDER / "Kakuro.jsonl.bz2"
    if path is None or not path.is_file():
        pytest.skip("the janko.at scrape of the corpus is absent (set DEDUCER_CORPUS)")
    return path


def test_the_janko_scrape_is_read_as_it_ships(corpus_janko, capsys):
    """Kakuro.jsonl.bz2, compressed as it ships: every record is a puzzle for rate, and
    solve reads it by number."""
    from deducer.app.batch.inputs import find, load

    found = find([str(corpus_janko)])
    assert len(found.tasks) == 960 and not found.skipped
    assert all(t.error is None for t in found.tasks)
    assert load(found.tasks[0], None).name == "janko 001"
    assert load(found.tasks[-1], None).rows > 0
    code, out, err = cli(capsys, "solve", corpus_janko, "--name", "226")
    assert code == 0 and out.startswith("unique solution"), err


# ------------------------------------------------------------------ item 12: .gz and .bz2
def packed(tmp_path: Path, name: str, data: bytes, how: str) -> Path:
    path = tmp_path / f"{name}.{how}"
    path.write_bytes(gzip.compress(data) if how == "gz" else bz2.compress(data))
    return path


@pytest.mark.parametrize("how", ["gz", "bz2"])
def test_compressed_puzzles_are_read_everywhere(tmp_path, capsys, monkeypatch, how):
    path = packed(tmp_path, "k2.j", (PUZZLES / "seed000-k2.j").read_bytes(), how)
    for argv in (["solve", path], ["explain", path], ["hint", path], ["check", path],
                 ["why", path, "r4c3", "4"], ["convert", path, "--to", "pipe"],
                 ["rate", path], ["render", path, "--svg", "-"]):
        code, out, err = cli(capsys, *argv)
        assert code == 0 and out, (argv, err)
    d = tmp_path / "lib"
    d.mkdir()
    path.rename(d / path.name)
    packed(d, "notes.txt", b"just notes\n", how)
    code, out, err = cli(capsys, "rate", d, "--json")
    assert code == 0 and [r["status"] for r in json.loads(out)["puzzles"]] == ["solved"]
    assert "notes.txt." + how in err  # skipped as no puzzle, not unreadable
    import io

    stdin = io.TextIOWrapper(io.BytesIO(gzip.compress(FOUR.read_bytes())))
    monkeypatch.setattr(sys, "stdin", stdin)
    code, out, _ = cli(capsys, "solve", "-")
    assert code == 0 and out.startswith("unique solution")


def test_a_compressed_file_is_bounded_and_checked(tmp_path, capsys):
    from deducer.puzzle.fileio import MAX_BYTES

    bomb = packed(tmp_path, "bomb.txt", b"\\|" * (MAX_BYTES // 2 + 1), "gz")
    assert bomb.stat().st_size < 100_000
    code, _, err = cli(capsys, "solve", bomb)
    assert code == 2 and "holds more than 4194304 bytes once uncompressed" in err
    cut = tmp_path / "cut.txt.bz2"
    cut.write_bytes(bz2.compress(FOUR.read_bytes())[:40])
    code, _, err = cli(capsys, "solve", cut)
    assert code == 2 and len(err.splitlines()) == 1 and "damaged or cut bzip2 file" in err


def test_play_opens_and_lists_compressed_puzzles(tmp_path):
    from deducer.app.play.server import create_app

    root = tmp_path / "root"
    root.mkdir()
    packed(root, "four.txt", FOUR.read_bytes(), "gz")
    client = create_app(root, None).test_client()
    assert client.get("/api/files").get_json()["files"] == ["four.txt.gz"]
    resp = client.get("/api/open", query_string={"path": "four.txt.gz"})
    assert resp.status_code == 200, resp.get_json()


# ------------------------------------------------------------------ item 16: nothing to read
def test_a_folder_with_no_puzzle_is_bad_input(tmp_path, capsys):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# notes\n", encoding="utf-8")
    (notes / "b.txt").write_text("nothing here\n", encoding="utf-8")
    code, out, err = cli(capsys, "rate", notes)
    assert code == 2 and out == ""
    assert err == (f"deducer: error: {notes}: no puzzle in {notes} (2 files, none in a "
                   f"format deducer reads: {notes / 'a.md'}, {notes / 'b.txt'})\n")
    empty = tmp_path / "empty"
    empty.mkdir()
    code, out, err = cli(capsys, "rate", empty, "--out", tmp_path / "rows.jsonl")
    assert code == 2 and out == "" and "no puzzle in" in err
    assert not (tmp_path / "rows.jsonl").exists()
    # beside a puzzle, such a folder is a row saying so (still exit code 2)
    code, out, err = cli(capsys, "rate", notes, FOUR, "--json")
    rows = json.loads(out)["puzzles"]
    assert code == 2 and [r["status"] for r in rows] == ["unreadable", "solved"]
    assert f"no puzzle in {notes}" in rows[0]["error"]

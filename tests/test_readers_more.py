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


# ------------------------------------------------------------------ item 13: collections
KAK = "4,4\n*,C4,C13,*\nF5,?,?,C16\nF15,?,?,?\n*,F13,?,?\n"  # hand-made; unique
XML = """<?xml version="1.0" ?>
<puzzle>
<levels>
  <level id="1">
    <![CDATA[
000004000200`
0003        `
0003    0000`
    ]]>
  </level>
  <level id="2">
    <![CDATA[
0000040013000000`
0005        1600`
0015            `
00000013        `
    ]]>
  </level>
</levels>
</puzzle>
"""


def test_kakuroapp_boards_are_a_format(tmp_path, capsys):
    assert {"fib", "logicpuzzles"} <= set(formats.names())
    assert "fib" in formats.writable()
    path = tmp_path / "board.kak"
    path.write_text(KAK, encoding="utf-8")
    p = formats.load(path)
    assert p.rows == p.cols == 4 and len(p.whites) == 7
    assert p.squares[0][1].down == 4 and p.squares[2][0].across == 15
    assert p.squares[1][3].down == 16 and p.squares[1][3].across is None
    code, out, err = cli(capsys, "solve", path)
    assert code == 0 and out.startswith("unique solution"), err
    code, out, err = cli(capsys, "rate", tmp_path, "--json")
    assert code == 0 and json.loads(out)["puzzles"][0]["status"] == "solved", err
    # written and read back the same; a given is a digit
    given = formats.loads(KAK.replace("F5,?,?", "F5,?,3"))
    assert given.givens == {(1, 2): 3}
    assert formats.loads(formats.dumps(given, "fib")) == given
    # without the header (the app's database form), with spaces and a trailing comma
    bare = "\n".join(" , ".join(line.split(",")) + "," for line in KAK.splitlines()[1:])
    assert formats.loads(bare, "fib").squares == p.squares


@pytest.mark.parametrize(("text", "says"), [
    ("3,4\n*,C7,C16,*\nF9,?,?,*\n", "the header says 3 rows, the board has 2"),
    ("2,3\n*,C3,C4\nF7,?,?,?\n", "row has 4 cells, the header says 3"),
    ("2,3\n*,C3,C4\nF7,?,x\n", "cell 3 'x' is not *, ?, a digit, C<n>, F<n> or C<n>F<m>"),
    ("2,3\n*,C3,C99\nF7,?,?\n", "cell 3: sum 99 is out of range 1..45"),
    ("3,3\n*,C3,C4\n*,?,?\nF7,?,?\n", "r2c2: a white cell's run has no clue"),
])
def test_a_bad_kakuroapp_board_is_one_line(text, says):
    from deducer.errors import PuzzleError

    with pytest.raises(PuzzleError) as e:
        formats.loads(text, "fib")
    assert says in str(e.value)


def test_an_unclued_run_cannot_be_written_as_a_kakuroapp_board():
    from deducer.errors import PuzzleError

    four = formats.load(FOUR)  # its row 2 is an unclued across run
    with pytest.raises(PuzzleError, match="gives every run a clue"):
        formats.dumps(four, "fib")


def test_the_logic_games_levels_are_a_format(tmp_path, capsys):
    path = tmp_path / "Kakuro.xml"
    path.write_text(XML, encoding="utf-8")
    fmt = formats.detect(XML, str(path))
    assert fmt.name == "logicpuzzles" and fmt.names(XML) == ["1", "2"]
    one = formats.load(path, name="1")
    assert one.name == "level 1" and one.rows == 3 and len(one.whites) == 3
    assert one.squares[0][1].down == 4 and one.squares[1][0].across == 3
    assert one.line_of((1, 0)) == 7  # errors point into the file
    code, _, err = cli(capsys, "solve", path)
    assert code == 2 and "2 levels in one file (1, 2); pick one with --name" in err
    code, out, err = cli(capsys, "solve", path, "--name", "2")
    assert code == 0 and out.startswith("unique solution"), err
    code, out, err = cli(capsys, "rate", tmp_path, "--json")
    rows = json.loads(out)["puzzles"]
    assert code == 0, err
    assert [(r["file"], r["status"]) for r in rows] == [(f"{path}:1", "solved"),
                                                        (f"{path}:2", "solved")]


@pytest.mark.parametrize(("text", "says"), [
    (XML.replace("0003        `", "0003  x     `"), ":7: level 1: square 2 "),
    (XML.replace("0003        `", "0003       `"), ":7: level 1: a row is 11 characters"),
    (XML.replace("0003        `", "0003        "), ":7: level 1: a row ends with a backquote"),
    (XML.replace("</levels>", ""), "not well-formed XML"),
    ('<?xml version="1.0"?>\n<!DOCTYPE p [<!ENTITY a "aaaa">]>\n'
     + XML.split("\n", 1)[1].replace("000004000200", "&a;"), "declares a document type"),
])
def test_a_bad_levels_file_is_one_line(tmp_path, capsys, text, says):
    path = tmp_path / "Kakuro.xml"
    path.write_text(text, encoding="utf-8")
    code, _, err = cli(capsys, "solve", path, "--name", "1", "--format", "logicpuzzles")
    assert code == 2 and len(err.splitlines()) == 1 and says in err, err


def test_notes_that_quote_the_formats_are_no_puzzle(tmp_path):
    from deducer.app.batch.inputs import find

    (tmp_path / "SOURCE.md").write_text(
        "# levels\n`<puzzle><levels><level id=\"N\">`, rows like\n" + KAK, encoding="utf-8")
    found = find([str(tmp_path)])
    assert found.nothing() and found.skipped == [str(tmp_path / "SOURCE.md")]


@pytest.fixture(scope="module")
def corpus(request):
    from tests.support.corpus import corpus_root

    root = corpus_root()
    if root is None:
        pytest.skip("shared puzzle corpus not found (set DEDUCER_CORPUS)")
    return root


def test_the_corpus_collections_rate_from_the_command_line(corpus):
    """KakuroApp's and PROP_Kakuro's boards and the Logic Games levels, which only the
    tests' loaders read before, are found by rate as it finds any puzzle, and read: every
    board but the ones their sources call malformed or unsolvable."""
    from deducer.app.batch.inputs import find, load
    from deducer.errors import DeducerError
    from tests.support import corpus as support

    # (folder, puzzles found, the files that fail to read)
    for folder, want, broken in (
            (support.MARCIZHU, 28, []),  # no-sol.kak reads (its wrong given is no bad input)
            (support.PAUCUESTA9, 303, [f"Invalids/{k}.txt" for k in (0, 3, 4, 5)]),
            (support.ZWVISTA, 131, [])):
        found = find([str(corpus / folder)])
        assert len(found.tasks) == want, (folder, len(found.tasks))
        bad = []
        for task in found.tasks:
            try:
                assert load(task, None).whites
            except DeducerError:
                bad.append(task.label.split(folder + "/", 1)[1].removeprefix("kakuros/"))
        assert bad == broken, folder


def test_the_tests_loaders_read_through_the_formats(corpus):
    """tests/support reads these collections with deducer's readers: the same puzzles."""
    from tests.support import corpus as support

    xml = corpus / support.ZWVISTA / "Kakuro.xml"
    levels = list(support.zwvista())
    assert len(levels) == 131
    for cp in levels[::20]:
        assert cp.puzzle.squares == formats.load(xml, name=cp.id).squares
    for cp in list(support.marcizhu(big=False))[:20]:
        if "path" in cp.meta and "invalid" not in cp.meta:
            assert cp.puzzle.squares == formats.load(cp.meta["path"]).squares
            assert cp.puzzle.givens == formats.load(cp.meta["path"]).givens

"""janko.at puzzle files and MiniZinc ``.dzn`` data: read behind the format interface to the
same puzzles the corpus loaders of tests/support/corpus.py build by hand, written back, and
refused with a located one-line error when wrong."""

from __future__ import annotations

import bz2
import json
import os
import random
from dataclasses import replace
from pathlib import Path

import pytest

from deducer.errors import PuzzleError
from deducer.puzzle.formats import detect, dumps, get, load, load_all, loads
from deducer.puzzle.model import Puzzle
from tests.support import corpus

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
BUNDLED_UNIQUE = ["seed000-k2.j", "seed001-small.kakuro", "seed002-four.txt",
                  "deducer-trial.txt"]


def bare(p: Puzzle) -> Puzzle:
    return replace(p, name=None, givens={}, entries={}, pencil={})


def janko_lines() -> list[str]:
    root = corpus.corpus_root()
    path = None if root is None else root / corpus.JANKO / "Kakuro.jsonl.bz2"
    if path is None or not path.is_file():
        pytest.skip("janko.at corpus file not found (set DEDUCER_CORPUS)")
    with bz2.open(path, "rt", encoding="utf-8") as fh:
        return [s for s in fh.read().split("\n") if s.strip()]


def as_x_janko(record: dict) -> str:
    """A janko record as the page's own ``x-janko`` text (what the scrape was made from)."""
    data = record["data"]
    lines = ["begin", "puzzle kakuro", f"author {data.get('author', '')}"]
    lines += ([f"size {data['size']}"] if "size" in data else
              [f"rows {data['rows']}", f"cols {data['cols']}"])
    for key in ("problem", "solution"):
        if key in data:
            lines.append(key)
            lines += [" ".join(row) for row in data[key]]
    lines += ["moves", data.get("moves", "Z1;"), "end"]
    return "\n".join(lines) + "\n"


# ---- the corpus: the same puzzles as the hand-written converters -------------------------
def test_janko_records_read_to_the_corpus_puzzles():
    lines = janko_lines()
    built = {c.id: c.puzzle for c in corpus.janko()}
    # every record with a problem grid, and a sample of the rest (all: DEDUCER_FORMATS=full)
    with_problem = [s for s in lines if '"problem"' in s]
    assert len(with_problem) == 4
    rest = [s for s in lines if '"problem"' not in s]
    if os.environ.get("DEDUCER_FORMATS") != "full":
        rest = random.Random(30).sample(rest, 60)
    for line in with_problem + rest:
        rec = json.loads(line)
        pid = rec["file"].split("/")[2][:3]
        for text in (line, as_x_janko(rec)):
            assert detect(text).name == "janko"
            p = loads(text)
            assert p.squares == built[pid].squares, pid
            assert not p.givens
        assert loads(line).name == f"janko {pid}"


def test_a_janko_problem_grid_is_read_as_written_not_from_the_solution():
    rec = json.loads(next(s for s in janko_lines() if '"problem"' in s))
    # a clue changed in the problem grid shows in the puzzle: the problem is what is read
    data = rec["data"]
    r, c = next((r, c) for r, row in enumerate(data["problem"]) for c, t in enumerate(row)
                if t.isdigit() and int(t) < 100)
    data["problem"][r][c] = str(int(data["problem"][r][c]) + 1)
    p = loads(json.dumps(rec))
    assert p.squares[r][c].across == int(data["problem"][r][c])


def test_a_janko_html_page_and_a_file_of_records(tmp_path):
    lines = janko_lines()[:3]
    page = ('<html><body><h1>Kakuro 1</h1>\n<script id="data" type="application/x-janko">\n'
            + as_x_janko(json.loads(lines[0])) + "</script></body></html>\n")
    path = tmp_path / "001.a.htm"
    path.write_text(page)
    built = {c.id: c.puzzle for c in corpus.janko(ids=["1", "2", "3"])}
    assert load(path).squares == built["001"].squares
    many = tmp_path / "three.jsonl"
    many.write_text("\n".join(lines) + "\n")
    with pytest.raises(PuzzleError, match="3 janko records.*--name"):
        load(many)
    assert load(many, name="2").squares == built["002"].squares
    assert [p.squares for p in load_all(many)] == [built[k].squares for k in ("001", "002", "003")]


def test_dzn_files_read_to_the_corpus_puzzles():
    root = corpus.corpus_root()
    if root is None or not (root / corpus.MINIZINC).is_dir():
        pytest.skip("MiniZinc corpus files not found (set DEDUCER_CORPUS)")
    found = list(corpus.minizinc(root))
    for c in found:
        path = c.meta["path"]
        assert detect(path.read_text(), str(path)).name == "dzn"
        assert load(path).squares == c.puzzle.squares, c.id


def test_dzn_record_syntax_reads_the_same_numbers():
    p = load(PUZZLES / "seed000-k2.j")
    text = dumps(bare(p), "dzn")
    records = text
    for key in ("h_clue", "v_clue"):
        head, _, tail = records.partition(f"{key} = [|")
        body, _, after = tail.partition("|];")
        rows = [r.strip() for r in body.split("|") if r.strip()]
        recs = ", ".join("(row: {}, col: {}, len: {}, sum: {})".format(*map(str.strip,
                         r.split(","))) for r in rows)
        records = f"{head}{key} = [{recs}];{after}"
    assert "(row:" in records and "[|\n\t" in records  # grid_data kept as a 2-D literal
    assert loads(records).squares == p.squares


# ---- round trips ----------------------------------------------------------------------------
@pytest.mark.smoke
@pytest.mark.parametrize("fmt", ["janko", "dzn"])
@pytest.mark.parametrize("fname", BUNDLED_UNIQUE)
def test_round_trip(fmt, fname):
    p = bare(load(PUZZLES / fname))
    if fmt == "dzn" and any(r.total is None and len(r.cells) > 1 for r in p.runs):
        with pytest.raises(PuzzleError, match="has no clue; the MiniZinc model needs a sum"):
            dumps(p, fmt)  # the model has no unclued runs: refused, never a changed puzzle
        return
    text = dumps(p, fmt)
    assert detect(text).name == fmt
    assert bare(loads(text)) == p


@pytest.mark.parametrize("fmt", ["janko", "dzn"])
def test_givens_and_parity_are_refused_not_dropped(fmt):
    p = load(PUZZLES / "seed003-example.txt")
    assert p.givens
    with pytest.raises(PuzzleError, match="cannot hold givens"):
        dumps(p, fmt)


# ---- located errors -------------------------------------------------------------------------
def test_janko_errors_name_the_line():
    head = "begin\npuzzle kakuro\nrows 3\ncols 3\n"
    cases = [
        (head + "problem\nx 300 400\n1046 - -\nx - -\nend\n", "not down", 7),
        (head + "problem\nx 300 400\n7 - -\n5 -\nend\n", "ragged", 8),
        (head + "problem\nx 300 400\n7 - -\nend\n", "has 2 rows", 7),
        (head + "solution\n- - -\n- 1 2\n- 2 q\nend\n", "neither '-'", 8),
        ("begin\npuzzle sudoku\nsize 2\nproblem\n- -\n- -\nend\n", "sudoku", 2),
        (head + "end\n", "neither a 'problem' nor a 'solution'", 1),
    ]
    for text, msg, line in cases:
        with pytest.raises(PuzzleError, match=msg) as ei:
            get("janko").read(text)
        if line is not None:
            assert ei.value.line == line, (msg, ei.value)
    with pytest.raises(PuzzleError, match="not a JSON record") as ei:
        get("janko").read('{"file": "/Kakuro/001.a.x-janko", "data": {}}\n{"file": oops}\n')
    assert ei.value.line == 2


def test_dzn_errors_name_the_line():
    good = dumps(bare(load(PUZZLES / "seed000-k2.j")), "dzn")
    lines = good.split("\n")
    clue = next(i for i, s in enumerate(lines) if s.startswith("h_clue")) + 1
    r, c, n, s = (int(t) for t in lines[clue].strip().rstrip("|").split(","))
    wrong_len = "\n".join(lines[:clue] + [f"\t{r}, {c}, {n + 1}, {s}|"] + lines[clue + 1:])
    with pytest.raises(PuzzleError, match=f"says {n + 1} cells, the grid has {n}") as ei:
        loads(wrong_len, "dzn")
    assert ei.value.line == clue + 1
    with pytest.raises(PuzzleError, match="not on a black square"):
        loads(good.replace(f"\t{r}, {c}, {n}", f"\t{r}, {c + 1}, {n}", 1), "dzn")
    n_h = next(s for s in lines if s.startswith("n_h = "))
    with pytest.raises(PuzzleError, match="n_h = 99 but h_clue has"):
        loads(good.replace(n_h, "n_h = 99;"), "dzn")
    with pytest.raises(PuzzleError, match="not a whole number") as ei:
        loads(good.replace("grid_data = [|\n\t0", "grid_data = [|\n\tz"), "dzn")
    assert ei.value.line == lines.index("grid_data = [|") + 2  # the row after the name

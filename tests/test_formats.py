"""Puzzle formats: readers, writers, detection, located errors, bundled puzzles, corpus files."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deducer.errors import PuzzleError
from deducer.puzzle.formats import decode, detect, dumps, get, load, loads, names
from deducer.puzzle.formats.solved import from_digit_grid, read_with_solution
from deducer.puzzle.model import WHITE, Puzzle, Square, check_solution

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
SHARED = Path(__file__).resolve().parents[2] / "shared"
CORPUS = Path(os.environ.get("DEDUCER_CORPUS") or SHARED / "corpus")
SEEDS = SHARED / "seeds"

BUNDLED = {
    "seed000-k.j": "j",
    "seed000-k2.j": "j",
    "seed001-small.kakuro": "backslash",
    "seed002-four.txt": "pipe",
    "seed003-example.txt": "conditions",
}


def corpus(sub: str) -> Path:
    d = CORPUS / sub
    if not CORPUS.is_dir():
        pytest.skip("shared puzzle corpus not found (set DEDUCER_CORPUS)")
    if not d.is_dir():
        pytest.skip(f"corpus folder {d} is absent")
    return d


def text_of(path: Path) -> str:
    return decode(path.read_bytes(), str(path))


def err(fmt: str, text: str, **kw) -> PuzzleError:
    with pytest.raises(PuzzleError) as ei:
        get(fmt).read(text, **kw)
    return ei.value


def bare(p: Puzzle) -> Puzzle:
    return replace(p, name=None)


def puzzle_names(fmt: str, text: str) -> list[str | None]:
    """The names to pass to read a multi-puzzle text one by one, or [None]."""
    found = get(fmt).names(text) if get(fmt).names else []
    return found if len(found) > 1 else [None]


# ---- bundled puzzles ----------------------------------------------------------------------
@pytest.mark.parametrize("fname,fmt", sorted(BUNDLED.items()))
def test_bundled_detected_and_read(fname, fmt):
    path = PUZZLES / fname
    text = text_of(path)
    assert detect(text, str(path)).name == fmt
    assert detect(text).name == fmt
    for other in names():
        if other != fmt:
            assert not get(other).sniff(text), f"{other} claims {fname}"
    for n in puzzle_names(fmt, text):
        p = load(path, name=n)
        assert p.whites


def test_expected_counts_cover_bundled():
    data = json.loads((PUZZLES / "expected.json").read_text())
    listed = {(e["file"], e["name"]) for e in data["puzzles"]}
    for fname, fmt in BUNDLED.items():
        text = text_of(PUZZLES / fname)
        for n in puzzle_names(fmt, text):
            assert (fname, n) in listed
    by = {(e["file"], e["name"]): e for e in data["puzzles"]}
    assert by[("seed000-k.j", "k3")]["solutions"] == 40
    assert by[("seed000-k2.j", None)]["solutions"] == 1
    assert by[("seed003-example.txt", None)]["solutions"] == 2
    for e in data["puzzles"]:
        if "solution" in e:
            p = load(PUZZLES / e["file"], name=e["name"])
            sol = {(r, c): d for r, c, d in e["solution"]}
            assert check_solution(p, [sol[rc] for rc in p.whites]) is None


def test_j_multi_block_needs_name():
    path = PUZZLES / "seed000-k.j"
    text = text_of(path)
    assert get("j").names(text) == [f"k{i}" for i in range(8)]
    e = err("j", text)
    assert "k0" in str(e) and "k7" in str(e) and e.line == 6
    e = err("j", text, name="k9")
    assert "k9" in str(e)
    k2 = load(path, name="k2")
    assert k2 == load(PUZZLES / "seed000-k2.j")
    assert k2.name == "k2" and (k2.rows, k2.cols) == (10, 8)
    assert k2.squares[2][4] == Square(False, 10, 9)
    assert k2.squares[0][1] == Square(False, 13, None)
    assert k2.squares[1][0] == Square(False, None, 16)


def test_j_seed_file_itself():
    seed = next(iter(sorted(SEEDS.glob("000_*.txt"))), None) if SEEDS.is_dir() else None
    if seed is None:
        pytest.skip("seed 000 is absent")
    text = text_of(seed)
    assert detect(text).name == "j"
    assert load(seed, name="k3") == load(PUZZLES / "seed000-k.j", name="k3")


def test_j_bare_rows_and_nbsp():
    text = "x ; 3 0 ; 4 0\n0 3\u00a0;  _ ;  _\n0 4 ; _ ; _\n"
    assert detect(text).name == "j"
    p = loads(text)
    assert p.squares[1] == (Square(False, None, 3), WHITE, WHITE)


def test_seed001_small():
    p = load(PUZZLES / "seed001-small.kakuro")
    assert p.squares[1][0] == Square(False, None, 13)
    assert [r.total for r in p.runs if r.length > 1] == [13, 4]


def test_seed002_four():
    p = load(PUZZLES / "seed002-four.txt")
    sol = {(1, 1): 2, (2, 1): 3, (1, 2): 7, (2, 2): 9}
    assert check_solution(p, [sol[rc] for rc in p.whites]) is None
    assert {r.total for r in p.runs} == {5, 16, 12, None}


def test_seed003_example():
    p = load(PUZZLES / "seed003-example.txt")
    assert (p.rows, p.cols) == (6, 6)
    assert p.givens == {(5, 5): 8}
    assert p.squares[1][1] == Square(False, 16, 10)
    assert p.squares[2][3] == Square(False, 9, 16)
    assert p.even is None
    assert len(p.whites) == 21


# ---- conditions -----------------------------------------------------------------------------
def test_conditions_multiline_and_parity():
    text = "r1 3 1:2\nr2 7 1:2\nc1 4 1:2\nc2 6 1:2\ne 12 21\n"
    p = loads(text)
    assert p.even == frozenset({(1, 2), (2, 1)})
    assert p.squares[0][1] == Square(False, 4, None)
    assert loads(text.replace("e 12 21", "e 1,2 2,1")) == p


def test_conditions_errors():
    e = err("conditions", "r1 10 1:2\nr1 5 3:4\nc1 3 1\nc2 3 1\n")
    assert e.line == 1 and "touch" in str(e) and "line 2" in str(e)
    e = err("conditions", "r1 10 0:2\n")
    assert e.line == 1 and "no square for its clue" in str(e)
    e = err("conditions", "r1 3 1:2\nc1 1 1\nc2 2 1\ne 123\n")
    assert e.line == 4
    e = err("conditions", "r1 3 1:2 (oops\nc1 1 1\n")
    assert e.line == 1 and "never closed" in str(e)
    e = err("conditions", "r1 3 1:2\nc1 1 1\nc2 2 1\nb 1 1 1\nb 1 2 1\n")
    assert e.line == 5 and "same run" in str(e)
    e = err("conditions", "r1 3 1:2\nq 1 1\n")
    assert e.line == 2
    e = err("conditions", "r1 18 1:2\n")
    assert e.line == 1 and "no 2 distinct digits sum to 18" in str(e)
    e = err("conditions", "r1 45 1:10\n")
    assert e.line == 1 and "at most 9" in str(e)
    e = err("conditions", "r1 3 1:2\nc1 1 1\nc2 2 1\nb 3 3 1\n")
    assert e.line == 4 and "not a cell" in str(e)
    e = err("conditions", "r1 3\n")
    assert e.line == 1


# ---- corpus files ---------------------------------------------------------------------------
def test_corpus_marcelgarus():
    d = corpus("marcelgarus-kakuro")
    files = sorted(d.glob("*.kakuro"))
    assert len(files) == 10
    for f in files:
        text = text_of(f)
        assert detect(text, str(f)).name == "backslash", f.name
        assert detect(text).name == "backslash", f.name
        p = load(f)
        assert bare(loads(dumps(p, "backslash"))) == p
        assert bare(loads(dumps(p, "json"))) == p
    book = load(d / "book.kakuro")
    assert any(r.total is None and r.length > 1 for r in book.runs)
    for size in ("20x20", "30x30"):
        f = d / f"{size}-solution.json"
        text = text_of(f)
        assert detect(text, str(f)).name == "solved"
        assert detect(text).name == "solved"
        p, sol = read_with_solution(text)
        assert p == load(d / f"{size}.kakuro")
        assert check_solution(p, [sol[rc] for rc in p.whites]) is None


def test_corpus_indevrus():
    d = corpus("indevrus-cross-sums")
    files = sorted(d.glob("*.txt"))
    assert len(files) == 4
    for f in files:
        assert detect(text_of(f), str(f)).name == "backslash"
        assert load(f).whites


def test_corpus_ifilot_solved_grids():
    d = corpus("ifilot-cx16-kakuro")
    files = sorted(d.glob("*.puz"))
    assert len(files) == 97
    for f in files:
        text = text_of(f)
        assert detect(text, str(f)).name == "solved", f.name
        if f.name == "031.puz":  # the stored grid repeats a digit in a column run
            e = err("solved", text)
            assert e.line == 5 and "repeats digit 1" in str(e)
            continue
        p, sol = read_with_solution(text)
        assert bool(p.givens) == (f.name != "xxx.puz")  # xxx.puz marks no givens
        assert all(sol[rc] == d for rc, d in p.givens.items())
        assert check_solution(p, [sol[rc] for rc in p.whites]) is None
    p, sol = read_with_solution(text_of(d / "001.puz"))
    assert p.givens == {(1, 1): 2, (2, 2): 9}
    assert p.squares[1][0] == Square(False, None, 18)  # 2 6 1 9
    assert p.squares[0][1] == Square(False, 10, None)  # 2 7 1


def test_corpus_puzzlink_urls():
    d = corpus("puzzlink-urls")
    f = d / "kakuro_urls.tsv"
    text = text_of(f)
    assert detect(text, str(f)).name == "puzzlink"
    ids = get("puzzlink").names(text)
    assert len(ids) == 9 and ids[0] == "pzprjs-test-5x5"
    for n in ids:
        p = loads(text, "puzzlink", name=n)
        assert p.name == n
        url = dumps(p, "puzzlink")
        assert bare(loads(url)) == bare(p)
        line = next(ln for ln in text.split("\n") if ln.startswith(n + "\t"))
        assert bare(loads(line.split("\t")[1])) == bare(p)
    p3 = loads(text, "puzzlink", name="penpa-kakuro-3")
    assert len(p3.whites) == 1 and p3.squares[1][0] == Square(False, None, 5)
    e = err("puzzlink", text)
    assert "choose one" in str(e)


def test_corpus_pzprv3_matches_url():
    d = corpus("pzprjs")
    f = d / "kakuro_test_5x5_solved.pzprv3"
    text = text_of(f)
    assert detect(text, str(f)).name == "puzzlink"
    p = load(f)
    assert len(p.entries) == len(p.whites) == 16
    assert check_solution(p, [p.entries[rc] for rc in p.whites]) is None
    url = "https://puzz.link/p?kakuro/5/5/48la0.na0lh3l0Bn.0cl.c4a3"
    assert loads(url) == p.without_progress()
    assert p.squares[1][1] == Square(False, 4, 8)


# ---- detection does not cross-claim -------------------------------------------------------
def _samples() -> list[tuple[str, str]]:
    out = [(fmt, text_of(PUZZLES / f)) for f, fmt in BUNDLED.items()]
    p = load(PUZZLES / "seed000-k2.j")
    out += [("json", dumps(p, "json")), ("backslash", dumps(p, "backslash")),
            ("pipe", dumps(p, "pipe")), ("puzzlink", dumps(p, "puzzlink")),
            ("solved", "0 0 0\n0 1 2\n0 3 1\n"), ("solved", "...\n.12\n.31\n")]
    return out


@pytest.mark.parametrize("fmt,text", _samples())
def test_sniffers_exclusive(fmt, text):
    claims = [n for n in names() if get(n).sniff(text)]
    assert claims == [fmt]


# ---- round trips ----------------------------------------------------------------------------
def test_json_lossless():
    p = load(PUZZLES / "seed003-example.txt")
    p = replace(
        p,
        entries={(1, 2): 1, (2, 2): 4},
        pencil={(2, 1): 0b101, (3, 1): 0},
        even=frozenset({(1, 2), (1, 4), (3, 3), (5, 5)}),
        givens={(5, 5): 8, (4, 1): 1},
        name="odd \"name\"\n",
    ).validate()
    q = loads(dumps(p, "json"))
    assert q == p
    assert q.pencil == p.pencil and q.even == p.even and q.name == p.name


@pytest.mark.parametrize("fmt", ["pipe", "backslash", "json", "puzzlink"])
def test_round_trip_bundled(fmt):
    for fname, src in BUNDLED.items():
        text = text_of(PUZZLES / fname)
        for n in puzzle_names(src, text):
            p = bare(load(PUZZLES / fname, name=n))
            if fmt in ("backslash", "puzzlink") and p.givens:
                with pytest.raises(PuzzleError):
                    dumps(p, fmt)
                p = replace(p, givens={})
            assert bare(loads(dumps(p, fmt), fmt)) == p


def test_pipe_entries_and_pencil_round_trip():
    p = load(PUZZLES / "seed002-four.txt").with_entries({(1, 1): 2}, {(2, 1): 0b110, (1, 2): 1})
    assert loads(dumps(p, "pipe")) == p


@st.composite
def digit_grids(draw):
    rows = draw(st.integers(2, 7))
    cols = draw(st.integers(2, 7))
    grid = [[None] * cols for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            if draw(st.booleans()):
                continue
            used = set()
            k = c - 1
            while k >= 0 and grid[r][k]:
                used.add(grid[r][k])
                k -= 1
            k = r - 1
            while k >= 0 and grid[k][c]:
                used.add(grid[k][c])
                k -= 1
            free = [d for d in range(1, 10) if d not in used]
            if free:
                grid[r][c] = draw(st.sampled_from(free))
    if not any(any(row) for row in grid):
        grid[0][0] = 1
    return grid


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid=digit_grids(), data=st.data())
def test_round_trip_property(grid, data):
    p, sol = from_digit_grid(grid)
    assert check_solution(p, [sol[rc] for rc in p.whites]) is None
    for fmt in ("pipe", "backslash", "json", "puzzlink"):
        assert loads(dumps(p, fmt), fmt) == p
        assert detect(dumps(p, fmt)).name == fmt
    whites = list(p.whites)
    gv = data.draw(st.sets(st.sampled_from(whites), max_size=3))
    ent = data.draw(st.sets(st.sampled_from(whites), max_size=3)) - gv
    pen = data.draw(st.dictionaries(st.sampled_from(whites), st.integers(1, 511), max_size=3))
    q = replace(p, givens={rc: sol[rc] for rc in gv}, entries={rc: sol[rc] for rc in ent},
                pencil=pen, name="g").validate()
    assert loads(dumps(q, "json"), "json") == q
    assert loads(dumps(q, "pipe"), "pipe") == replace(q, name=None)
    par = replace(q, even=frozenset(rc for rc in whites if sol[rc] % 2 == 0)).validate()
    assert loads(dumps(par, "json"), "json") == par


# ---- solved helper --------------------------------------------------------------------------
def test_from_digit_grid_adds_border_and_givens():
    p, sol = from_digit_grid([[1, 2], [3, None]], givens=[(0, 1)])
    assert (p.rows, p.cols) == (3, 3)
    assert p.givens == {(1, 2): 2}
    assert p.squares[1][0] == Square(False, None, 3)
    assert p.squares[0][1] == Square(False, 4, None)
    assert p.squares[0][2] == Square(False, 2, None)  # one-cell runs keep their sum
    assert sol == {(1, 1): 1, (1, 2): 2, (2, 1): 3}
    with pytest.raises(PuzzleError):
        from_digit_grid([[1, 2], [3, None]], givens={(0, 1): 5})
    with pytest.raises(PuzzleError):
        from_digit_grid([[1, 1]])


# ---- bad input: always a PuzzleError with the right line ----------------------------------
def test_backslash_errors():
    e = err("backslash", "# c\n\\ 3\\ 4\\\n\\3 _ _\n\\4 _\n")
    assert e.line == 4 and "ragged" in str(e)
    e = err("backslash", "\\ 3\\ 4\\\n\\3 _ _\n\\ \\ 5\\\n")
    assert e.line == 3 and "no run behind it" in str(e)
    e = err("backslash", "\\ " + "1\\ " * 10 + "\n\\45 " + "_ " * 10 + "\n")
    assert e.line == 2 and "at most 9" in str(e)
    e = err("backslash", "\\ 3\\ 4\\\n\\18 _ _\n")
    assert e.line == 2 and "no 2 distinct digits sum to 18" in str(e)
    e = err("backslash", "\\ 3\\ 4\\\n\\50 _ _\n")
    assert e.line == 2 and "out of range" in str(e)
    e = err("backslash", "\\ 3\\ 4\\\n\\3 _ 7\n")
    assert e.line == 2 and "'7'" in str(e)
    e = err("backslash", "\\ 3\\ 4\\\n\\3 _ a\\b\n")
    assert e.line == 2


def test_pipe_errors():
    e = err("pipe", "\\|3\\|4\\\n\\3||\n\\4|\n")
    assert e.line == 3 and "ragged" in str(e)
    e = err("pipe", "\\|4\\|5\\\n\\9|!4|!4\n")
    assert e.line == 2 and "appears twice" in str(e)
    e = err("pipe", "\\|3\\|4\\\n\\3|x|\n")
    assert e.line == 2
    e = err("pipe", "\\|3\\|4\\\n\\3|(1,0)|\n")
    assert e.line == 2


def test_j_errors():
    e = err("j", "x ; 3 0 ; 4 0\n0 3 ; _ ; _\n0 4 ; _\n")
    assert e.line == 3 and "ragged" in str(e)
    e = err("j", "x ; 3 0 ; 4 0\n0 3 ; _ ; _\n0 4 ; _ ; y\n")
    assert e.line == 3 and "'y'" in str(e)
    e = err("j", "k=: \".;._2 ] 0 : 0\nx ; 3 0 ; 4 0\n0 3 ; _ ; _\n")
    assert e.line == 1 and "not closed" in str(e)
    e = err("j", "x ; 3 0 ; 4 0\n0 3 ; _ ; _\n0 99 ; _ ; _\n")
    assert e.line == 3 and "out of range" in str(e)


def test_json_errors():
    good = dumps(load(PUZZLES / "seed002-four.txt"), "json")
    e = err("json", good.replace('"cols": 3,', '"cols": 3'))
    assert e.line == 7 and "bad JSON" in str(e)  # where the missing comma is noticed
    e = err("json", good.replace('["\\\\12", "", ""]', '["\\\\12", "", "x"]'))
    assert e.line == 10
    e = err("json", good.replace('"givens": []', '"givens": [\n    [0, 0, 5]\n  ]'))
    assert e.line == 13 and "not a white cell" in str(e)
    e = err("json", good.replace('"givens": []', '"givens": [[1, 1, 10]]'))
    assert e.line == 12
    e = err("json", good.replace('["\\\\", "", ""]', '["\\\\", ""]'))
    assert e.line == 9 and "ragged" in str(e)
    e = err("json", good.replace('"even": null', '"odd": null'))
    assert "unknown key" in str(e)
    assert not get("json").sniff('{"board": [[1]]}')


def test_solved_errors():
    e = err("solved", "0 0 0\n0 1 2\n0 3\n")
    assert e.line == 3 and "ragged" in str(e)
    e = err("solved", "0 0 0\n0 1 2\n0 3 q\n")
    assert e.line == 3
    e = err("solved", '{"board": [[-1, 30],\n [7000, 5]]}')
    assert e.line == 2
    e = err("solved", '{"board": [[-1, 20, 30],\n [7000, 5, 2]]}')
    assert "stored solution is wrong" in str(e)


def test_puzzlink_errors():
    e = err("puzzlink", "# c\nhttps://puzz.link/p?kakuro/2/2/k")
    assert e.line == 2 and "ends after" in str(e)
    e = err("puzzlink", "https://puzz.link/p?kakuro/2/2/k...-5x")
    assert "unexpected" in str(e)
    e = err("puzzlink", "https://puzz.link/p?kakuro/2/2/k..;-5")
    assert e.line == 1


def test_puzzlink_position_round_trips_entries_and_pencil_marks():
    p = load(PUZZLES / "seed002-progress.txt")
    url = dumps(p, "puzzlink")
    # r2c2 holds 2; marks 7,9 (0b101000000 = 320 = "a0") in r2c3 and r3c3, 3 in r3c2
    assert url == "https://puzz.link/p?kakuro/2/2/n5g-c#e=2&m=Aa004a0\n"
    q = loads(url)
    assert (q.entries, q.pencil, q.squares) == (p.entries, p.pencil, p.squares)
    assert dumps(p.without_progress(), "puzzlink") == "https://puzz.link/p?kakuro/2/2/n5g-c\n"
    # marks under an entry, all nine marks, and skips longer than 26 cells
    big = load(PUZZLES / "seed000-k2.j")
    last, first = big.whites[-1], big.whites[0]
    r = big.with_entries({last: 5, big.whites[30]: 9}, {last: 0b10011, first: 511})
    url = dumps(r, "puzzlink")
    assert "#e=zd9" in url and "&m=fv" in url
    back = loads(url)
    assert (back.entries, back.pencil) == (r.entries, r.pencil)
    # a bare '#' holds no position
    assert loads("https://puzz.link/p?kakuro/2/2/n5g-c#").entries == {}


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid=digit_grids(), data=st.data())
def test_puzzlink_position_round_trip_property(grid, data):
    p, sol = from_digit_grid(grid)
    whites = list(p.whites)
    ent = data.draw(st.sets(st.sampled_from(whites), max_size=len(whites)))
    pen = data.draw(st.dictionaries(st.sampled_from(whites), st.integers(1, 511)))
    q = p.with_entries({rc: sol[rc] for rc in ent}, pen).validate()
    back = loads(dumps(q, "puzzlink"), "puzzlink")
    assert (back.entries, back.pencil, back.squares) == (q.entries, q.pencil, q.squares)


@pytest.mark.parametrize("tail, message", [
    ("#x=1", "deducer reads a position there: e=ENTRIES and m=PENCIL MARKS"),
    ("#e=12345", "go past the last of the 4 white cells"),
    ("#e=aaaaa", "skip past the last of the 4 white cells"),
    ("#e=1&e=2", "gives e= twice"),
    ("#m=0", "expected two characters 0-9/a-v or a skip A-Z"),
    ("#m=vv", "are not digits 1-9 (01 to fv)"),
    ("#e=0", "expected a digit 1-9 or a skip a-z"),
])
def test_puzzlink_position_errors(tail, message):
    e = err("puzzlink", "https://puzz.link/p?kakuro/2/2/n5g-c" + tail)
    assert message in str(e) and e.line == 1


SAMPLES_FOR_FUZZ = [(fmt, text) for fmt, text in _samples()] + [
    ("solved", '{"board": [[-1, 30, 40], [7000, 1, 6]]}'),
    ("puzzlink", "pzprv3/kakuro/2/2/0 3 4 /0 . . /0 . . /1 2 /2 . /"),
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_text_raises_only_puzzle_error(data):
    fmt, text = data.draw(st.sampled_from(SAMPLES_FOR_FUZZ))
    chars = list(text)
    for _ in range(data.draw(st.integers(1, 4))):
        op = data.draw(st.sampled_from(["del", "ins", "swap"]))
        i = data.draw(st.integers(0, max(0, len(chars) - 1)))
        if op == "del" and chars:
            del chars[i]
        elif op == "ins":
            chars.insert(i, data.draw(st.sampled_from(list("0123456789_\\|;#.x ()\n:,{}[]\"-kzA"))))
        elif chars:
            j = data.draw(st.integers(0, len(chars) - 1))
            chars[i], chars[j] = chars[j], chars[i]
    mutated = "".join(chars)
    for f in names():
        get(f).sniff(mutated)
        try:
            get(f).read(mutated)
        except PuzzleError:
            pass

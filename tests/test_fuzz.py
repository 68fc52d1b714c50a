"""Fuzzing every puzzle reader and the CLI: hostile, mistyped and broken input.

Every outcome of reading bytes must be a :class:`~deducer.model.Puzzle` or a
:class:`~deducer.errors.PuzzleError` whose ``str()`` is one line: never another exception,
never a hang. Each example runs under a wall-clock budget (SIGALRM) on top of hypothesis'
``deadline``, so a quadratic regex or a runaway loop fails the test instead of stalling CI.

The budget is fixed (``max_examples`` per test, derandomized so CI runs are repeatable); the
number of examples each test tried is printed in pytest's terminal summary ("fuzz examples
tried", a hook at the end of ``tests/conftest.py``). ``DEDUCER_FUZZ_SCALE=10`` multiplies
the budget for a longer local run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deducer.app.cli import COMMANDS as CLI_COMMANDS
from deducer.app.cli import main
from deducer.errors import PuzzleError
from deducer.puzzle import formats
from deducer.puzzle.combos import sum_range
from deducer.puzzle.model import BLANK, MAX_RUNS, MAX_SIDE, WHITE, Puzzle, Square
from tests.support.timing import cpu_budget as time_budget
from tests.support.timing import stretch

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
CORPUS = Path(os.environ.get("DEDUCER_CORPUS") or ROOT.parent / "shared" / "corpus")

SCALE = max(1, int(os.environ.get("DEDUCER_FUZZ_SCALE", "1") or 1))
#: CPU-time limit of one reader call: a hang detector, not a speed test (a 4 MiB file
#: reads in well under a second; the quadratic regex this caught took hours). CPU time, so
#: a busy shared machine cannot make it flake (at load 20 on 2 cores a CPU second takes 10)
BUDGET = 20.0
#: CPU-time limit of one in-process CLI call (commands run with --timeout 1)
CLI_BUDGET = 30.0

FUZZ = dict(
    deadline=None,  # no per-example timing (noisy machines); the CPU budget catches hangs
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.filter_too_much],
)

# ------------------------------------------------------------------------------ counting
#: test name -> [examples tried, Puzzle outcomes, PuzzleError outcomes]
COUNTS: dict[str, Counter] = {}


@pytest.fixture(autouse=True, scope="module")
def _publish_counts(pytestconfig):
    """Hand the counts to the terminal-summary hook in tests/conftest.py."""
    pytestconfig.deducer_fuzz_counts = COUNTS
    yield


def count(test: str, what: str) -> None:
    COUNTS.setdefault(test, Counter())[what] += 1


# ------------------------------------------------------------------------------ seeds
def _bundled() -> list[tuple[str, str | None, bytes]]:
    out = []
    for p in sorted(PUZZLES.glob("seed*")):
        out.append((p.name, None, p.read_bytes()))
    return out


#: a few corpus files, one per notation the readers know (skipped when the corpus is absent)
CORPUS_FILES = (
    "ifilot-cx16-kakuro/001.puz",  # solved grid, #d givens
    "indevrus-cross-sums/1.txt",  # backslash
    "marcelgarus-kakuro/15x15.kakuro",  # backslash
    "marcelgarus-kakuro/20x20-solution.json",  # kakuros.com board JSON (solved)
    "pzprjs/kakuro_test_5x5_solved.pzprv3",  # pzprv3
    "puzzlink-urls/kakuro_urls.tsv",  # many puzz.link URLs
)


def _corpus() -> list[tuple[str, str | None, bytes]]:
    out = []
    for rel in CORPUS_FILES:
        p = CORPUS / rel
        if p.is_file():
            out.append((rel, None, p.read_bytes()))
    return out


def _written() -> list[tuple[str, str | None, bytes]]:
    """The bundled puzzles through every writer (so json, pipe and puzzlink are seeded too)."""
    out = []
    picks = [("seed000-k2.j", None), ("seed000-k.j", "k1"), ("seed001-small.kakuro", None),
             ("seed002-four.txt", None), ("seed003-example.txt", None)]
    for fname, name in picks:
        p = formats.load(PUZZLES / fname, name=name)
        for fmt in formats.writable():
            try:
                text = formats.dumps(p, fmt)
            except PuzzleError:
                continue
            out.append((f"{fname}->{fmt}", fmt, text.encode()))
    # a pipe grid with entries, givens and pencil marks
    out.append(("pipe-progress", "pipe",
                b"\\|5\\|16\\\n\\|!2|7(7,9)\n\\12|3(1,3)|(8,9)\n"))
    # a conditions file with parity marks and a given
    out.append(("conditions-even", "conditions",
                b"r1 3 1:2 r2 4 1:2 c1 4 1:2 c2 3 1:2 e 11 22 b 1 1 2 .\n"))
    return out


SEEDS: list[tuple[str, str | None, bytes]] = _bundled() + _written() + _corpus()
FORMATS = formats.names()


# ------------------------------------------------------------------------------ the oracle
def read_outcome(data: bytes, fmt: str | None = None, name: str | None = None,
                 budget: float = BUDGET):
    """Read ``data`` the way ``formats.load`` does; only a Puzzle or a one-line PuzzleError
    may come out, within the budget."""
    with time_budget(budget):
        try:
            text = formats.decode(data, "<fuzz>")
            puzzle = formats.loads(text, fmt, name=name, path="<fuzz>")
        except PuzzleError as e:
            msg = str(e)
            assert msg and "\n" not in msg and len(msg.splitlines()) == 1, repr(msg)
            assert e.message, "an error without a message"
            return e
    assert isinstance(puzzle, Puzzle)
    assert 1 <= puzzle.rows <= MAX_SIDE and 1 <= puzzle.cols <= MAX_SIDE
    assert len(puzzle.runs) <= MAX_RUNS and puzzle.whites
    return puzzle


def round_trip(puzzle: Puzzle) -> None:
    """A puzzle that was read must survive every writer that accepts it."""
    for fmt in formats.writable():
        try:
            text = formats.dumps(puzzle, fmt)
        except PuzzleError as e:  # e.g. puzz.link cannot hold givens
            assert "\n" not in str(e)
            continue
        back = formats.loads(text, fmt)
        assert back.squares == puzzle.squares, fmt
        if fmt == "json":
            assert back == puzzle
        if fmt == "pipe":
            assert back.givens == puzzle.givens and back.entries == puzzle.entries


def record(test: str, outcome) -> None:
    count(test, "tried")
    count(test, "puzzle" if isinstance(outcome, Puzzle) else "error")


# ------------------------------------------------------------------------------ strategies
SPECIAL = [
    b"\x00", b"\xc2\xa0", b"\r\n", b"\r", b"\xef\xbb\xbf", b"\xff", b"\xfe\xff", b"\xc3",
    b"\xe2\x80\xa8", b"\xc2\x85", b"\t", b"\x0b", b"\x0c",
    b"1" + b"0" * 400, b"9" * 5000, b"-1", b"0", b"45", b"46", b"99", b"10", b"1e400",
    b"\xd9\xa3", b"\xef\xbc\x93",  # Arabic-Indic three, fullwidth three
    b"\\", b"|", b";", b"_", b"x", b"#", b"(", b")", b"[", b"]", b"{", b"}", b'"', b",", b":",
    b".", b"/", b"-", b"!", b"NB.", b"kakuro/", b"pzprv3", b"e ", b"b ", b"r1 ", b"c1 ",
    b'"format": "deducer"', b'"board":', b"null", b"true", b"NaN", b"Infinity",
    b"[[[[[[[[[[", b"]]]]]]]]]]", b"\n\n\n", b" " * 64,
]


@st.composite
def mutation(draw, data: bytes) -> bytes:
    """Apply 1-4 random edits to ``data``."""
    buf = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        n = len(buf)
        pos = draw(st.integers(0, n))
        op = draw(st.sampled_from(
            ["truncate", "delete", "insert", "special", "flip", "dup", "swap-lines", "crlf",
             "bom", "nbsp"]))
        if op == "truncate":
            del buf[pos:]
        elif op == "delete":
            del buf[pos:pos + draw(st.integers(1, 16))]
        elif op == "insert":
            buf[pos:pos] = draw(st.binary(min_size=1, max_size=8))
        elif op == "special":
            buf[pos:pos] = draw(st.sampled_from(SPECIAL))
        elif op == "flip" and n:
            buf[min(pos, n - 1)] = draw(st.integers(0, 255))
        elif op == "dup" and n:
            end = min(n, pos + draw(st.integers(1, 200)))
            buf[end:end] = buf[pos:end] * draw(st.integers(1, 3))
        elif op == "swap-lines":
            lines = bytes(buf).split(b"\n")
            if len(lines) > 1:
                i = draw(st.integers(0, len(lines) - 1))
                j = draw(st.integers(0, len(lines) - 1))
                lines[i], lines[j] = lines[j], lines[i]
                buf = bytearray(b"\n".join(lines))
        elif op == "crlf":
            buf = bytearray(bytes(buf).replace(b"\n", b"\r\n"))
        elif op == "bom":
            buf[0:0] = b"\xef\xbb\xbf"
        elif op == "nbsp":
            buf = bytearray(bytes(buf).replace(b" ", b"\xc2\xa0", draw(st.integers(1, 50))))
    return bytes(buf)


@st.composite
def mutated_seed(draw):
    label, fmt, data = draw(st.sampled_from(SEEDS))
    out = draw(mutation(data))
    # read as detected, as the seed's own format, or as any format
    how = draw(st.sampled_from([None, fmt, draw(st.sampled_from(FORMATS))]))
    name = draw(st.sampled_from([None, None, "k1", "k3", "pzprjs-test-5x5", "nope"]))
    return label, out, how, name


#: characters that matter to some reader, so random text gets past the sniffers
FORMAT_ALPHABET = st.sampled_from(
    list("0123456789_\\|;x #()[]{}\",:.-!\n/?rcbekakuroNB") + ["\u00a0", "\r", "\t", "\ufeff"]
)


@st.composite
def random_grid(draw) -> Puzzle:
    """A random grid: a random black/white layout whose runs get random clues in range (so
    most grids are valid), sometimes with givens, entries, pencil marks or parity."""
    rows = draw(st.integers(2, 8))
    cols = draw(st.integers(2, 8))
    white = [[bool(r and c and draw(st.integers(0, 3))) for c in range(cols)]
             for r in range(rows)]
    layout = Puzzle(tuple(tuple(WHITE if w else BLANK for w in row) for row in white))
    clues: dict = {}
    for run in layout.runs:
        if run.clue_at is None or not draw(st.integers(0, 5)):
            continue  # an unclued run
        lo, hi = sum_range(run.length) if run.length <= 9 else (1, 45)
        total = draw(st.integers(max(1, lo - 1), min(45, hi + 1)))  # sometimes out of range
        clues.setdefault(run.clue_at, {})[run.direction] = total
    squares = tuple(
        tuple(WHITE if white[r][c] else Square(False, clues.get((r, c), {}).get("D"),
                                               clues.get((r, c), {}).get("A"))
              if (r, c) in clues else BLANK for c in range(cols))
        for r in range(rows)
    )
    extra: dict = {}
    whites = [rc for rc in Puzzle(squares).whites]
    if whites and draw(st.booleans()):
        picks = draw(st.lists(st.sampled_from(whites), max_size=3, unique=True))
        table = draw(st.sampled_from(["givens", "entries", "pencil"]))
        extra[table] = {rc: draw(st.integers(1, 9)) if table != "pencil"
                        else draw(st.integers(0, 511)) for rc in picks}
    if whites and not draw(st.integers(0, 7)):
        extra["even"] = frozenset(draw(st.lists(st.sampled_from(whites), unique=True)))
    if draw(st.booleans()):
        extra["name"] = draw(st.text(max_size=12))
    return Puzzle(squares, **extra)


# ------------------------------------------------------------------------------ reader fuzz
@settings(max_examples=500 * SCALE, **FUZZ)
@given(data=st.binary(max_size=3000), fmt=st.sampled_from([None, *FORMATS]))
def test_random_bytes(data, fmt):
    record("readers: random bytes", read_outcome(data, fmt))


@settings(max_examples=500 * SCALE, **FUZZ)
@given(text=st.text(FORMAT_ALPHABET, max_size=400), fmt=st.sampled_from([None, *FORMATS]))
def test_random_format_text(text, fmt):
    out = read_outcome(text.encode("utf-8"), fmt)
    record("readers: random format-like text", out)
    if isinstance(out, Puzzle):
        round_trip(out)


@settings(max_examples=1000 * SCALE, **FUZZ)
@given(case=mutated_seed())
def test_mutated_real_puzzles(case):
    label, data, fmt, name = case
    out = read_outcome(data, fmt, name)
    record("readers: mutated real puzzles", out)
    if isinstance(out, Puzzle):
        round_trip(out)


@settings(max_examples=400 * SCALE, **FUZZ)
@given(puzzle=random_grid(), target=st.sampled_from(formats.writable()),
       edit=st.booleans(), data=st.data())
def test_random_grids_through_writers(puzzle, target, edit, data):
    """Random geometry: invalid grids are refused with one line; valid ones survive every
    writer, are read back unchanged (also through format detection) and, edited, still only
    ever give a Puzzle or a PuzzleError."""
    try:
        puzzle = puzzle.validate()
    except PuzzleError as e:
        assert "\n" not in str(e)
        record("writers: random grids", e)
        return
    record("writers: random grids", puzzle)
    round_trip(puzzle)
    try:
        text = formats.dumps(puzzle, target)
    except PuzzleError:
        return
    detected = read_outcome(text.encode(), None)
    assert isinstance(detected, Puzzle), f"{target} output not read back: {detected}"
    assert detected.squares == puzzle.squares
    if edit:
        read_outcome(data.draw(mutation(text.encode())), None)


def test_every_seed_reads():
    """The seeds themselves are good puzzles (else the mutations start from noise)."""
    for label, fmt, data in SEEDS:
        names = [None]
        if label.endswith(".j") and "k2" not in label:
            names = ["k0", "k1", "k7"]
        if label.endswith(".tsv"):
            names = ["pzprjs-test-5x5", "noqx-15x15"]
        for name in names:
            assert isinstance(read_outcome(data, fmt, name), Puzzle), (label, name)


# ------------------------------------------------------------------------------ targeted input
K2 = (PUZZLES / "seed000-k2.j").read_bytes()
SMALL = (PUZZLES / "seed001-small.kakuro").read_bytes()
FOUR = (PUZZLES / "seed002-four.txt").read_bytes()
COND = (PUZZLES / "seed003-example.txt").read_bytes()
JSON_K2 = formats.dumps(formats.load(PUZZLES / "seed000-k2.j"), "json").encode()
URL_K2 = formats.dumps(formats.load(PUZZLES / "seed000-k2.j"), "puzzlink").encode()
BIG = b"1" + b"0" * 400

HUGE_CLUES = {
    "j": K2.replace(b"13 0", BIG + b" 0", 1),
    "backslash": SMALL.replace(b"\\13", b"\\" + BIG, 1),
    "pipe": FOUR.replace(b"\\12|", b"\\" + BIG + b"|", 1),
    "conditions": COND.replace(b"r1 10 2:5", b"r1 " + BIG + b" 2:5", 1),
    "json": JSON_K2.replace(b'"13\\\\"', b'"' + BIG + b'\\\\"', 1),
    "json-given": JSON_K2.replace(b'"givens": []', b'"givens": [[1, 1, ' + BIG + b"]]", 1),
    "json-rows": JSON_K2.replace(b'"rows": 10', b'"rows": ' + BIG, 1),
    "json-huge-int": JSON_K2.replace(b'"rows": 10', b'"rows": ' + b"9" * 5000, 1),
    "json-float": JSON_K2.replace(b'"rows": 10', b'"rows": 1e400', 1),
    "board": b'{"board": [[-1, ' + BIG + b"0], [-1, 1]]}",
    "puzzlink-size": b"https://puzz.link/p?kakuro/" + BIG + b"/5/abc",
    "pzprv3": b"pzprv3/kakuro/" + BIG + b"/5/",
    "conditions-index": b"r" + BIG + b" 10 2:5 .",
    "conditions-given": COND.replace(b"b 5 5 8", b"b 5 5 " + BIG, 1),
}


@pytest.mark.parametrize("case", sorted(HUGE_CLUES))
def test_huge_numbers(case):
    out = read_outcome(HUGE_CLUES[case])
    assert isinstance(out, PuzzleError), case
    assert len(str(out)) < 700, "a message should not echo a 400-digit number at length"
    count("targeted: huge numbers", "tried")


ENCODING_CASES = {
    "nul": (K2[:50] + b"\x00" + K2[50:], "NUL byte"),
    "latin-1": (SMALL.replace(b"Garus", b"Gar\xfcs"), "not UTF-8"),
    "utf-16": ("\ufeff".encode("utf-16-le") + SMALL.decode().encode("utf-16-le"), "NUL byte"),
    "truncated-utf8": (FOUR + b"\xe2\x82", "not UTF-8"),
    "empty": (b"", "cannot tell"),
    "blank": (b"   \n\n\t\n", "cannot tell"),
    "bom-only": (b"\xef\xbb\xbf", "cannot tell"),
}


@pytest.mark.parametrize("case", sorted(ENCODING_CASES))
def test_bad_encodings_are_refused(case):
    data, words = ENCODING_CASES[case]
    out = read_outcome(data)
    assert isinstance(out, PuzzleError) and words in str(out), str(out)
    count("targeted: encodings", "tried")


@pytest.mark.parametrize("seed", ["seed000-k2.j", "seed001-small.kakuro", "seed002-four.txt",
                                  "seed003-example.txt"])
def test_bom_crlf_nbsp_are_harmless(seed):
    """BOM, Windows (and old Mac) line endings, non-breaking spaces: the same puzzle."""
    data = (PUZZLES / seed).read_bytes()
    want = read_outcome(data)
    assert isinstance(want, Puzzle)
    variants = [b"\xef\xbb\xbf" + data, data.replace(b"\n", b"\r\n"), data.replace(b"\n", b"\r"),
                b"\xef\xbb\xbf" + data.replace(b"\n", b"\r\n")]
    if seed != "seed002-four.txt":  # in the | format a lone space is an empty cell anyway
        variants.append(data.replace(b"  ", b" \xc2\xa0"))
    for v in variants:
        got = read_outcome(v)
        assert isinstance(got, Puzzle), str(got)
        assert got.squares == want.squares and got.givens == want.givens
    count("targeted: BOM/CRLF/NBSP", "tried")


def _big_texts(side_r: int, side_c: int) -> dict[str, bytes]:
    """An all-white-with-clue-border-ish grid of side_r x side_c in every notation."""
    sq = [[BLANK] * side_c] + [[BLANK] + [WHITE] * (side_c - 1) for _ in range(side_r - 1)]
    p = Puzzle(tuple(tuple(r) for r in sq))
    out = {
        "json": formats.dumps(p, "json").encode(),
        "pipe": formats.dumps(p, "pipe").encode(),
        "backslash": formats.dumps(p, "backslash").encode(),
        "j": "\n".join(" ; ".join("x" if not s.white else "_" for s in row)
                       for row in sq).encode() + b"\n",
        "solved": "\n".join("".join("1" if s.white else "0" for s in row)
                            for row in sq).encode() + b"\n",
        "board": ('{"board": [' + ", ".join("[" + ", ".join("0" if s.white else "-1"
                                                           for s in row) + "]"
                                          for row in sq) + "]}").encode(),
        "puzzlink": formats.dumps(p, "puzzlink").encode(),
        "pzprv3": (f"pzprv3/kakuro/{side_r - 1}/{side_c - 1}/" + " ".join(["0"] * side_c)
                   + "/" + "/".join(" ".join(["0"] + ["."] * (side_c - 1))
                                    for _ in range(side_r - 1)) + "/").encode(),
    }
    return out


@pytest.mark.parametrize("shape", [(MAX_SIDE + 1, 5), (5, MAX_SIDE + 1), (1000, 1000)])
def test_enormous_grids_are_refused(shape):
    """Every reader that can express a grid over MAX_SIDE refuses it with the limit named
    (conditions cannot: its indices stop at 99)."""
    for fmt, data in _big_texts(*shape).items():
        t0 = time.process_time()
        out = read_outcome(data)
        assert isinstance(out, PuzzleError), fmt
        assert str(MAX_SIDE) in str(out) or "out of range" in str(out), (fmt, str(out))
        assert time.process_time() - t0 < BUDGET, fmt
        count("targeted: enormous grids", "tried")


def test_largest_grid_is_accepted():
    """A MAX_SIDE x MAX_SIDE grid is within the limit (the largest real puzzles are 150)."""
    sq = [[BLANK] * MAX_SIDE] + [[BLANK] + [WHITE, WHITE, BLANK] * 66 + [BLANK]
                                 for _ in range(MAX_SIDE - 1)]
    for r in range(1, MAX_SIDE, 3):
        sq[r] = [BLANK] * MAX_SIDE
    text = formats.dumps(Puzzle(tuple(tuple(r) for r in sq)), "pipe").encode()
    assert isinstance(read_outcome(text), Puzzle)


def test_too_many_runs_is_refused():
    """A checkerboard 199x199 grid has 2 runs per white cell: over MAX_RUNS, said clearly."""
    n = MAX_SIDE - 1
    sq = [[WHITE if (r + c) % 2 == 0 else BLANK for c in range(n)] for r in range(n)]
    sq = [[BLANK] * (n + 1)] + [[BLANK] + row for row in sq]
    text = formats.dumps(Puzzle(tuple(tuple(r) for r in sq)), "pipe").encode()
    out = read_outcome(text)
    assert isinstance(out, PuzzleError) and f"at most {MAX_RUNS}" in str(out), str(out)


def test_deeply_nested_json():
    for depth in (50, 1000, 100_000):
        for head in (b'{"format": "deducer", "grid": ', b'{"board": ',
                     b'{"format": "deducer", "version": 1, "grid": [["", "\\\\"]], "x": '):
            data = head + b"[" * depth + b"]" * depth + b"}"
            assert isinstance(read_outcome(data), PuzzleError)
            data = head + b'{"a":' * depth + b"1" + b"}" * depth + b"}"
            assert isinstance(read_outcome(data), PuzzleError)
    count("targeted: nested JSON", "tried")


LONG = 1_000_000


@pytest.mark.parametrize("fmt", [None, *FORMATS])
def test_long_lines_stay_linear(fmt):
    """Megabyte lines must not trigger quadratic scanning (regression: the puzz.link URL
    pattern backtracked over every start position of a long line and hung)."""
    cases = [
        URL_K2 + b"a" * LONG + b"\n",
        URL_K2 + b"?" * LONG,
        URL_K2 + (b"kakuro/1/" * (LONG // 9)),
        b"k1=: " + b"0 : 0 " * (LONG // 6) + b"x\n",
        b"k1=:" + b" " * LONG + b"0:" + b" " * LONG + b"x\n)\n",
        b"r1 10 2:5 " + b"(" * LONG,
        b"r1 10 2:5 " + b"( )" * (LONG // 3),
        b"_ " * (LONG // 2) + b"\\\n",
        b"|" * LONG,
        b"1" * LONG,
        b"#" * LONG,
        b'{"format": "deducer", "grid": [' + b'"",' * (LONG // 3) + b'""]}',
        b'{"board": [' + b"0," * (LONG // 2) + b"0]}",
        b"pzprv3/kakuro/5/5/" + b"/" * LONG,
        b"x;" * (LONG // 2) + b"\n",
    ]
    for data in cases:
        t0 = time.process_time()
        read_outcome(data, fmt, budget=BUDGET)
        assert time.process_time() - t0 < BUDGET, data[:40]
        count("targeted: megabyte lines", "tried")


def test_oversized_file_is_refused():
    out = read_outcome(b"_ \\\n" * (formats.MAX_BYTES // 4 + 1))
    assert isinstance(out, PuzzleError) and "limited to" in str(out)


# ------------------------------------------------------------------------------ CLI fuzz
def run_cli(argv: list[str], capsys) -> tuple[int, str, str]:
    with time_budget(CLI_BUDGET):
        try:
            code = main(argv)
        except SystemExit as e:  # argparse
            code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def check_cli(code, err: str, allowed=(0, 1, 2)) -> None:
    assert code in allowed, f"exit {code}: {err}"
    assert "Traceback" not in err and "internal error" not in err, err
    assert len(err.splitlines()) <= 1, err


COMMANDS = [
    ["solve", "--timeout", "1", "--max-solutions", "3"],
    ["solve", "--json", "--timeout", "1"],
    ["convert", "--to", "json"],
    ["convert", "--to", "pipe"],
    ["convert", "--to", "puzzlink"],
    ["convert", "--to", "backslash"],
    ["explain", "--timeout", "1", "--json"],
    ["check", "--timeout", "1"],
    ["hint", "--timeout", "1", "--level", "full"],
]
COMMANDS = [c for c in COMMANDS if c[0] in CLI_COMMANDS]


@settings(max_examples=250 * SCALE, **{**FUZZ, "deadline": None,
                                           "suppress_health_check": list(HealthCheck)})
@given(case=mutated_seed(), cmd=st.sampled_from(COMMANDS))
def test_cli_on_fuzzed_files(case, cmd, capsys):
    """The CLI in-process on fuzzed files: exit 0/1/2 (4: a --timeout that decided
    nothing), at most one line on stderr, never a traceback or an internal error."""
    label, data, fmt, name = case
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "puzzle.txt"
        path.write_bytes(data)
        argv = [cmd[0], str(path), *cmd[1:]]
        if name is not None:
            argv += ["--name", name]
        if fmt is not None:
            argv += ["--format", fmt]
        code, out, err = run_cli(argv, capsys)
        assert path.read_bytes() == data, "the input file was modified"
    check_cli(code, err, (0, 1, 2, 4))
    count("cli: in-process on fuzzed files", "tried")
    count("cli: in-process on fuzzed files", f"exit {code}")


NASTY_FILES = {
    "nul.txt": b"\\|5\\\n\x00|",
    "latin1.kakuro": b"# Gar\xfcs\n\\ 3\\\n\\3 _ _\n",
    "huge-clue.txt": b"\\|" + BIG + b"\\\n\\| \n",
    "too-big.txt": ("\n".join("|".join([" "] * 300) for _ in range(3))).encode(),
    "deep.json": b'{"format": "deducer", "grid": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "crlf-bom.kakuro": b"\xef\xbb\xbf" + SMALL.replace(b"\n", b"\r\n"),
    "empty.txt": b"",
}


@pytest.mark.parametrize("fname", sorted(NASTY_FILES))
def test_cli_subprocess_on_nasty_files(fname, tmp_path):
    """A handful through a real process: what the user sees (no traceback, one line)."""
    path = tmp_path / fname
    path.write_bytes(NASTY_FILES[fname])
    for cmd in (["solve", "--timeout", "5"], ["convert", "--to", "json"]):
        r = subprocess.run([sys.executable, "-m", "deducer", cmd[0], str(path), *cmd[1:]],
                           capture_output=True, text=True, timeout=60,
                           env={**os.environ, "DEDUCER_DEBUG": ""})
        check_cli(r.returncode, r.stderr)
        if r.returncode == 2:
            assert r.stderr.startswith("deducer: error: "), r.stderr
        count("cli: subprocess on nasty files", "tried")
    assert path.read_bytes() == NASTY_FILES[fname]


def test_cli_missing_and_directory(tmp_path, capsys):
    for target, words in ((tmp_path / "nope.txt", "no such file"), (tmp_path, "directory")):
        code, out, err = run_cli(["solve", str(target)], capsys)
        check_cli(code, err)
        assert code == 2 and words in err, err


# ------------------------------------------------------------------------------ limits
def _latin_file(tmp_path: Path) -> Path:
    """A 9x9 block whose runs are all 45: a Latin square, with ~10^27 solutions."""
    sq = [[BLANK] + [Square(False, 45, None)] * 9] + [[Square(False, None, 45)] + [WHITE] * 9
                                                      for _ in range(9)]
    path = tmp_path / "latin.txt"
    path.write_text(formats.dumps(Puzzle(tuple(tuple(r) for r in sq)), "pipe"))
    return path


def test_solve_timeout_reports_what_it_found(tmp_path, capsys):
    import json

    path = _latin_file(tmp_path)
    t0 = time.process_time()
    code, out, err = run_cli(["solve", str(path), "--json", "--max-solutions", "100000",
                              "--timeout", "0.5"], capsys)
    assert time.process_time() - t0 < 10  # CPU time: the deadline was looked at
    check_cli(code, err)
    data = json.loads(out)
    assert code == 0 and data["complete"] is False and data["timed_out"] is True
    assert data["solution_count"] == len(data["solutions"]) > 0


def test_solution_cap_is_bounded(tmp_path, capsys):
    # every solution is a whole grid in memory: the cap itself has a ceiling
    path = _latin_file(tmp_path)
    code, out, err = run_cli(["solve", str(path), "--max-solutions", "10000000"], capsys)
    check_cli(code, err, (2,))
    assert "--max-solutions must be 1..100000" in err


def test_solve_timeout_with_nothing_found_exits_4(tmp_path, capsys, monkeypatch):
    """The clock runs out before the first solution (simulated: real puzzles that need
    long searches are rare, propagation settles most): exit 4, complete false."""
    import json

    from deducer.solver import search

    def out_of_time(*a, **k):
        raise search.Timeout

    monkeypatch.setattr(search, "island_solutions", out_of_time)
    path = _latin_file(tmp_path)
    code, out, err = run_cli(["solve", str(path), "--json", "--timeout", "1"], capsys)
    check_cli(code, err, (4,))
    data = json.loads(out)
    assert data["complete"] is False and data["solutions"] == []
    code, out, err = run_cli(["solve", str(path), "--timeout", "1"], capsys)
    assert code == 4 and out.strip()


def test_enumeration_is_capped(tmp_path, capsys):
    import json

    path = _latin_file(tmp_path)
    code, out, err = run_cli(["solve", str(path), "--json", "--max-solutions", "3"], capsys)
    data = json.loads(out)
    assert code == 0 and data["solution_count"] == 3 and data["complete"] is False
    code, out, err = run_cli(["solve", str(path)], capsys)  # default cap: 2
    assert code == 0 and "at least 2 solutions" in out, out
    for bad in (["--max-solutions", "0"], ["--timeout", "0"], ["--timeout", "-1"]):
        code, out, err = run_cli(["solve", str(path), *bad], capsys)
        check_cli(code, err, (2,))


def test_solve_refuses_nan_timeout(tmp_path, capsys):
    code, out, err = run_cli(["solve", str(_latin_file(tmp_path)), "--timeout", "nan"], capsys)
    check_cli(code, err, (2,))


@pytest.mark.skipif("explain" not in CLI_COMMANDS,
                    reason="'deducer explain' is not registered")
def test_explain_timeout_stops_cleanly(tmp_path, capsys):
    import json

    from tests.support import corpus

    root = corpus.corpus_root()
    src = None if root is None else root / "marcizhu-kakuroapp/kakuros/generated/" \
        "150_150_easy_unique.kak"
    if src is None or not src.is_file():
        pytest.skip("150x150 corpus puzzle absent")
    path = tmp_path / "big.json"
    path.write_text(formats.dumps(corpus.load_fib(src), "json"))
    # a second and a half of the machine as it is now (reading the puzzle and the rules
    # counts): on a loaded one (a CPU second taking ten) a fixed limit ran out before the
    # first step, leaving none to show
    limit = 1.5 * stretch()
    t0 = time.process_time()
    code, out, err = run_cli(["explain", str(path), "--json", "--timeout", f"{limit:.2f}"],
                             capsys)
    used = time.process_time() - t0
    check_cli(code, err, (0, 4))  # 4: the time limit left the puzzle undecided
    data = json.loads(out)
    assert data["status"] == "timeout" and "time limit" in data["message"]
    assert 0 < len(data["steps"])  # the steps made before the limit are kept
    assert used < 1.5 + 5, used  # CPU time: the walk stopped at its deadline


def _big_corpus_puzzles():
    from tests.support import corpus

    root = corpus.corpus_root()
    if root is None:
        pytest.skip("corpus absent")
    out = []
    try:
        out.append(("janko 960", next(corpus.janko(ids=["960"])).puzzle))
    except (PuzzleError, StopIteration, AttributeError) as e:
        pytest.skip(f"janko loader unavailable: {e}")
    src = root / "marcizhu-kakuroapp/kakuros/generated/150_150_easy_unique.kak"
    if src.is_file() and hasattr(corpus, "load_fib"):
        out.append(("150x150", corpus.load_fib(src)))
    return out


def test_largest_corpus_puzzles_are_within_the_limits(tmp_path, capsys):
    """janko 960 (990 cells) and the generated 150x150 (10963 cells) fit MAX_SIDE/MAX_RUNS
    and `deducer solve` completes on them (through a JSON file, in-process)."""
    import json

    for label, p in _big_corpus_puzzles():
        assert p.rows <= MAX_SIDE and p.cols <= MAX_SIDE and len(p.runs) <= MAX_RUNS, label
        path = tmp_path / "big.json"
        path.write_text(formats.dumps(p, "json"))
        t0 = time.process_time()
        code, out, err = run_cli(["solve", str(path), "--json", "--timeout", "60"], capsys)
        check_cli(code, err)
        data = json.loads(out)
        assert (code, data["status"], data["complete"]) == (0, "unique", True), label
        assert time.process_time() - t0 < 30, label  # CPU time, as a loaded machine counts
        path.unlink()

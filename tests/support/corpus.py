"""Readers for the shared puzzle corpus (``shared/corpus``): data only, read in place.

Each source folder keeps its puzzles in the original notation and documents it in its
``SOURCE.md``; one small loader per folder turns the entries into :class:`CorpusPuzzle`
records. ``expected`` carries what the SOURCE.md notes say about the solution count
('unique' | 'multiple' | 'none'; None where the notes say nothing). Loaders raise
:class:`~deducer.errors.PuzzleError` for a malformed entry (or a missing folder), never
another exception.

The corpus is found through ``$DEDUCER_CORPUS``, else ``<repo>/../shared/corpus``;
:func:`corpus_root` returns None when neither exists.
"""

from __future__ import annotations

import ast
import bz2
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from deducer.errors import PuzzleError
from deducer.puzzle.model import BLANK, WHITE, Puzzle, Square

UNIQUE, MULTIPLE, NONE = "unique", "multiple", "none"


@dataclass(frozen=True)
class CorpusPuzzle:
    """One corpus entry."""

    source: str  # corpus folder name
    id: str  # id within the source (file stem, puzzle number, ...)
    puzzle: Puzzle
    solution: list[int] | None = None  # digits indexed like ``puzzle.whites``
    label: str | None = None  # difficulty label (publisher's, or the project's own where noted)
    expected: str | None = None  # 'unique' | 'multiple' | 'none' per SOURCE.md; None = not stated
    meta: dict = field(default_factory=dict, compare=False)

    @property
    def key(self) -> str:
        return f"{self.source}/{self.id}"


# ---------------------------------------------------------------------------- location
def corpus_root() -> Path | None:
    """The corpus directory, or None when it is absent."""
    env = os.environ.get("DEDUCER_CORPUS")
    if env:
        p = Path(env)
        return p if p.is_dir() else None
    p = Path(__file__).resolve().parents[3] / "shared" / "corpus"
    return p if p.is_dir() else None


def _folder(name: str, root: Path | None) -> Path:
    base = root if root is not None else corpus_root()
    if base is None:
        raise PuzzleError("the puzzle corpus was not found (set DEDUCER_CORPUS)")
    d = Path(base) / name
    if not d.is_dir():
        raise PuzzleError(f"corpus source {name!r} is not present", path=str(d))
    return d


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    except (OSError, UnicodeDecodeError) as e:
        raise PuzzleError(f"cannot read corpus file: {e}", path=str(path)) from None


def _located(err: PuzzleError, path: Path | str) -> PuzzleError:
    return err.located(str(path))


# ---------------------------------------------------------------------------- builders
def _digit_grid(rows: list[list[int | None]], givens: Iterable[tuple[int, int]] = (),
                *, name: str | None = None) -> tuple[Puzzle, list[int]]:
    """A solved grid (None = black) -> the puzzle whose clues are the run sums, and its digits.

    The puzzle is not validated (the caller decides: a transcription error such as a
    repeated digit makes an impossible clue, which is a no-solution puzzle).
    """
    if not rows or not rows[0]:
        raise PuzzleError("empty grid")
    w = len(rows[0])
    for r, row in enumerate(rows):
        if len(row) != w:
            raise PuzzleError(f"row {r + 1} has {len(row)} squares but row 1 has {w}")
        for v in row:
            if v is not None and not (isinstance(v, int) and 1 <= v <= 9):
                raise PuzzleError(f"row {r + 1}: {v!r} is not a digit 1-9")
    h = len(rows)

    def run_sum(r: int, c: int, dr: int, dc: int) -> int | None:
        r, c = r + dr, c + dc
        total, n = 0, 0
        while r < h and c < w and rows[r][c] is not None:
            total += rows[r][c]
            n += 1
            r, c = r + dr, c + dc
        return total if n else None

    squares = []
    for r, row in enumerate(rows):
        out = []
        for c, v in enumerate(row):
            if v is not None:
                out.append(WHITE)
            else:
                d, a = run_sum(r, c, 1, 0), run_sum(r, c, 0, 1)
                out.append(BLANK if d is None and a is None else Square(False, d, a))
        squares.append(tuple(out))
    g = {}
    for rc in givens:
        g[rc] = rows[rc[0]][rc[1]]
    p = Puzzle(tuple(squares), givens=g, name=name)
    return p, [rows[r][c] for r, c in p.whites]


def _finish(p: Puzzle, expected: str | None) -> tuple[Puzzle, str | None]:
    """Validate; a puzzle documented as having no solution may fail validation (kept, noted)."""
    try:
        p.validate()
    except PuzzleError as e:
        if expected == NONE:
            return p, e.message
        raise
    return p, None


def _grid_puzzle(squares: list[list[Square]], *, givens=None, name=None) -> Puzzle:
    w = len(squares[0]) if squares else 0
    for r, row in enumerate(squares):
        if len(row) != w:
            raise PuzzleError(f"row {r + 1} has {len(row)} squares but row 1 has {w}")
    return Puzzle(tuple(tuple(r) for r in squares), givens=givens or {}, name=name).validate()


def _check_clue_lengths(p: Puzzle, clues: dict[tuple[tuple[int, int], str], int]) -> None:
    """Each stated run length (keyed by clue square and 'A'/'D') must match the grid."""
    got = {(run.clue_at, run.direction): run.length for run in p.runs if run.clue_at}
    for key, n in clues.items():
        if got.get(key) != n:
            (r, c), d = key
            raise PuzzleError(f"clue at r{r + 1}c{c + 1} ({d}) says {n} cells, grid has "
                              f"{got.get(key, 0)}")


# ---------------------------------------------------------------------------- janko
JANKO = "janko-at-tkoz0"


def janko(root: Path | None = None, ids: Iterable[str] | None = None) -> Iterator[CorpusPuzzle]:
    """janko.at scrape: solved grids; clues are run sums. ``ids`` like ``"257"`` filter."""
    path = _folder(JANKO, root) / "Kakuro.jsonl.bz2"
    want = None if ids is None else {str(i).zfill(3) for i in ids}
    try:
        fh = bz2.open(path, "rt", encoding="utf-8")
        lines = list(fh)
        fh.close()
    except (OSError, EOFError, UnicodeDecodeError) as e:
        raise PuzzleError(f"cannot read: {e}", path=str(path)) from None
    for ln, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            pid = re.match(r"/Kakuro/(\d+)", rec["file"]).group(1)
        except (ValueError, KeyError, TypeError, AttributeError):
            raise PuzzleError("not a janko JSON record", path=str(path), line=ln) from None
        if want is not None and pid not in want:
            continue
        try:
            data = rec["data"]
            rows = [[None if v == "-" else int(v) for v in row] for row in data["solution"]]
            author = data.get("author")
        except (KeyError, TypeError, ValueError, AttributeError):
            raise PuzzleError(f"/Kakuro/{pid}: bad solution grid", path=str(path),
                              line=ln) from None
        try:
            expected = MULTIPLE if pid == "257" else UNIQUE
            p, sol = _digit_grid(rows, name=f"janko {pid}")
            p, _ = _finish(p, expected)
        except PuzzleError as e:
            raise e.located(str(path), ln) from None
        # the test-solver and their solving record (the even-numbered puzzles' only:
        # the odd half is held back to evaluate against, see the corpus's SOURCE.md)
        yield CorpusPuzzle(JANKO, pid, p, sol, None, expected,
                           {"author": author, "path": path, "solver": data.get("solver"),
                            "moves": data.get("moves")})


# ---------------------------------------------------------------------------- KrazyDad
KRAZYDAD = "billstclair-kakuro-dojo-krazydad"


def krazydad(root: Path | None = None) -> Iterator[CorpusPuzzle]:
    """KrazyDad puzzles (N x N solved grids without the clue border)."""
    path = _folder(KRAZYDAD, root) / "krazydad_puzzles.tsv"
    header = False
    for ln, line in enumerate(_read_text(path).split("\n"), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if not header:
            header = True
            if parts[0] == "kind":
                continue
        try:
            kind, vol, book, num, spec = (x.strip() for x in parts)
            n = int(kind)
            if len(spec) != n * n or any(ch != "." and not "1" <= ch <= "9" for ch in spec):
                raise ValueError
        except ValueError:
            raise PuzzleError("expected 'kind volume book number spec' with an N*N spec of "
                              "'.' and digits", path=str(path), line=ln) from None
        rows: list[list[int | None]] = [[None] * (n + 1)]
        for r in range(n):
            rows.append([None] + [None if ch == "." else int(ch) for ch in spec[r * n:(r + 1) * n]])
        pid = f"{n}x{n}-v{vol}-b{book}-n{num}"
        try:
            p, sol = _digit_grid(rows, name=f"KrazyDad {pid}")
            p.validate()
        except PuzzleError as e:
            raise e.located(str(path), ln) from None
        yield CorpusPuzzle(KRAZYDAD, pid, p, sol, None, UNIQUE,
                           {"volume": int(vol), "book": int(book), "number": int(num)})


# ---------------------------------------------------------------------------- ifilot cx16
CX16 = "ifilot-cx16-kakuro"
CX16_MULTIPLE = frozenset(
    "001 003 007 015 019 036 037 038 041 042 045 048 049 051 056 057 059 061 063 065 068 069 071 "
    "074 086 087 093 095".split()
)
CX16_NONE = frozenset({"031"})


def cx16(root: Path | None = None) -> Iterator[CorpusPuzzle]:
    """"B5" book puzzles from ifilot/cx16-kakuro: solution grids, ``#d`` givens, 2*/3* labels."""
    folder = _folder(CX16, root)
    for path in sorted(folder.glob("*.puz")):
        pid = path.stem
        label = None
        rows: list[list[int | None]] = []
        givens = []
        for ln, line in enumerate(_read_text(path).split("\n"), start=1):
            s = line.strip()
            if not s:
                continue
            if s.startswith("#"):
                m = re.search(r"/(\d)\*", s)
                if m and ln == 1:
                    label = f"{m.group(1)}*"
                continue
            row: list[int | None] = []
            for tok in s.split():
                given = tok.startswith("#")
                t = tok[1:] if given else tok
                if not (len(t) == 1 and t.isdigit()) or (given and t == "0"):
                    raise PuzzleError(f"bad cell {tok!r}", path=str(path), line=ln)
                if given:
                    givens.append((len(rows), len(row)))
                row.append(None if t == "0" else int(t))
            rows.append(row)
        expected = NONE if pid in CX16_NONE else MULTIPLE if pid in CX16_MULTIPLE else UNIQUE
        try:
            p, sol = _digit_grid(rows, givens, name=f"cx16 {pid}")
            p, invalid = _finish(p, expected)
        except PuzzleError as e:
            raise _located(e, path) from None
        meta = {"path": path}
        if invalid:
            meta["invalid"] = invalid
        # 031's stored grid breaks the rules: it is no solution of the derived puzzle
        yield CorpusPuzzle(CX16, pid, p, None if expected == NONE else sol, label, expected, meta)


# ---------------------------------------------------------------------------- marcelgarus
MARCELGARUS = "marcelgarus-kakuro"
_MG_EXPECTED = {"wikipedia": UNIQUE, "15x15": UNIQUE, "20x20": UNIQUE, "30x30": UNIQUE,
                "book": UNIQUE, "mini": UNIQUE, "u": UNIQUE, "small": MULTIPLE, "big": MULTIPLE}


def _kakuros_com_solution(path: Path, p: Puzzle) -> list[int]:
    """Digits of a kakuros.com JSON export, checked against the puzzle's geometry and clues."""
    try:
        board = json.loads(_read_text(path))["board"]
        if not isinstance(board, list) or not all(isinstance(r, list) for r in board):
            raise TypeError
    except (ValueError, KeyError, TypeError):
        raise PuzzleError("expected {\"board\": [[int, ...], ...]}", path=str(path)) from None
    if len(board) != p.rows or any(len(r) != p.cols for r in board):
        raise PuzzleError(f"board is not {p.rows}x{p.cols} like the puzzle", path=str(path))
    sol = []
    for r, row in enumerate(board):
        for c, v in enumerate(row):
            sq = p.squares[r][c]
            if not isinstance(v, int):
                raise PuzzleError(f"r{r + 1}c{c + 1}: {v!r} is not an int", path=str(path))
            if 1 <= v <= 9:
                if not sq.white:
                    raise PuzzleError(f"r{r + 1}c{c + 1} is white here, black in the puzzle",
                                      path=str(path))
                sol.append(v)
            elif sq.white:
                raise PuzzleError(f"r{r + 1}c{c + 1} holds {v}, not a digit", path=str(path))
            elif v >= 10:
                across, down = v // 1000, v % 1000 // 10
                if (across or None, down or None) != (sq.across, sq.down):
                    raise PuzzleError(f"r{r + 1}c{c + 1}: clue {v} differs from the puzzle's",
                                      path=str(path))
    return sol


def marcelgarus(root: Path | None = None) -> Iterator[CorpusPuzzle]:
    """MarcelGarus/kakuro ``.kakuro`` files; 20x20/30x30 solutions from the kakuros.com JSON."""
    from deducer.puzzle import formats

    folder = _folder(MARCELGARUS, root)
    for path in sorted(folder.glob("*.kakuro")):
        pid = path.stem
        p = formats.load(path, "backslash")
        sol_path = folder / f"{pid}-solution.json"
        sol = _kakuros_com_solution(sol_path, p) if sol_path.exists() else None
        yield CorpusPuzzle(MARCELGARUS, pid, p, sol, None, _MG_EXPECTED.get(pid), {"path": path})


# ---------------------------------------------------------------------------- gecode
GECODE = "gecode-kakuro"


def gecode(root: Path | None = None) -> Iterator[CorpusPuzzle]:
    """Gecode's Nikoli instances (int arrays): labels Easy / Medium / Hard."""
    path = _folder(GECODE, root) / "gecode_kakuro_instances.txt"
    blocks: list[dict] = []
    for ln, line in enumerate(_read_text(path).split("\n"), start=1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        if s.startswith("[") and s.endswith("]"):
            blocks.append({"name": s[1:-1], "line": ln})
        elif "=" in s and blocks:
            k, v = (x.strip() for x in s.split("=", 1))
            blocks[-1][k] = v
        else:
            raise PuzzleError(f"unexpected line {s[:40]!r}", path=str(path), line=ln)
    for b in blocks:
        try:
            p = _gecode_puzzle(b.get("ints", ""), b["name"])
        except PuzzleError as e:
            raise e.located(str(path), b["line"]) from None
        yield CorpusPuzzle(GECODE, b["name"], p, None, b.get("difficulty"), UNIQUE,
                           {"author": b.get("author")})


def _gecode_puzzle(text: str, name: str) -> Puzzle:
    try:
        ints = [int(x) for x in text.split()]
    except ValueError:
        raise PuzzleError(f"{name}: ints must be integers") from None
    if len(ints) < 2:
        raise PuzzleError(f"{name}: no size")
    w, h = ints[0], ints[1]
    if not (1 <= w <= 100 and 1 <= h <= 100):
        raise PuzzleError(f"{name}: bad size {w}x{h}")
    white = [[False] * w for _ in range(h)]
    down: dict[tuple[int, int], int] = {}
    across: dict[tuple[int, int], int] = {}
    lengths: dict[tuple[tuple[int, int], str], int] = {}
    pos = 2
    for table, dx, dy, key in ((down, 0, 1, "D"), (across, 1, 0, "A")):
        while True:
            if pos >= len(ints):
                raise PuzzleError(f"{name}: clue list not terminated by -1")
            if ints[pos] == -1:
                pos += 1
                break
            if pos + 4 > len(ints):
                raise PuzzleError(f"{name}: truncated clue entry")
            x, y, n, s = ints[pos:pos + 4]
            pos += 4
            if not (0 <= x < w and 0 <= y < h and 1 <= n and x + dx * n < w and y + dy * n < h):
                raise PuzzleError(f"{name}: clue ({x}, {y}, {n}, {s}) is off the board")
            table[(y, x)] = s
            lengths[((y, x), key)] = n
            for k in range(1, n + 1):
                white[y + dy * k][x + dx * k] = True
    if pos != len(ints):
        raise PuzzleError(f"{name}: {len(ints) - pos} numbers after the clue lists")
    squares = []
    for r in range(h):
        row = []
        for c in range(w):
            if white[r][c]:
                if (r, c) in down or (r, c) in across:
                    raise PuzzleError(f"{name}: r{r + 1}c{c + 1} is both a clue and a cell")
                row.append(WHITE)
            else:
                d, a = down.get((r, c)), across.get((r, c))
                row.append(BLANK if d is None and a is None else Square(False, d, a))
        squares.append(row)
    p = _grid_puzzle(squares, name=f"gecode {name}")
    _check_clue_lengths(p, lengths)
    return p


# ---------------------------------------------------------------------------- minizinc
MINIZINC = "minizinc-benchmarks"


def _dzn_value(text: str, key: str, path: Path) -> str:
    m = re.search(rf"(?m)^\s*{key}\s*=\s*(.*?);", text, re.S)
    if not m:
        raise PuzzleError(f"no '{key} = ...;' assignment", path=str(path))
    return m.group(1)


def _dzn_ints(s: str, path: Path, key: str) -> list[int]:
    s = s.replace("[|", " ").replace("|]", " ").replace("|", ",")
    try:
        return [int(t) for t in re.split(r"[,\s]+", s) if t]
    except ValueError:
        raise PuzzleError(f"{key}: expected integers", path=str(path)) from None


def minizinc(root: Path | None = None) -> Iterator[CorpusPuzzle]:
    """MiniZinc benchmark ``.dzn`` files (labels easy / hard / super from the file names)."""
    folder = _folder(MINIZINC, root)
    for path in sorted(folder.glob("*.dzn")):
        text = re.sub(r"%[^\n]*", "", _read_text(path))
        try:
            (w,) = _dzn_ints(_dzn_value(text, "w", path), path, "w")
            (h,) = _dzn_ints(_dzn_value(text, "h", path), path, "h")
        except ValueError:
            raise PuzzleError("w and h must be single integers", path=str(path)) from None
        grid = _dzn_ints(_dzn_value(text, "grid_data", path), path, "grid_data")
        if not (1 <= w <= 100 and 1 <= h <= 100) or len(grid) != w * h or set(grid) - {0, 1}:
            raise PuzzleError(f"grid_data is not {h}x{w} zeros and ones", path=str(path))
        squares = [[WHITE if grid[r * w + c] else BLANK for c in range(w)] for r in range(h)]
        lengths = {}
        for key, d in (("h_clue", "A"), ("v_clue", "D")):
            vals = _dzn_ints(_dzn_value(text, key, path), path, key)
            if len(vals) % 4:
                raise PuzzleError(f"{key}: not a list of 4-tuples", path=str(path))
            for k in range(0, len(vals), 4):
                r, c, n, s = vals[k:k + 4]
                r, c = r - 1, c - 1
                if not (0 <= r < h and 0 <= c < w) or squares[r][c].white:
                    raise PuzzleError(f"{key}: clue at ({r + 1}, {c + 1}) is not on a black "
                                      "square", path=str(path))
                old = squares[r][c]
                squares[r][c] = (Square(False, old.down, s) if d == "A"
                                 else Square(False, s, old.across))
                lengths[((r, c), d)] = n
        try:
            p = _grid_puzzle(squares, name=f"minizinc {path.stem}")
            _check_clue_lengths(p, lengths)
        except PuzzleError as e:
            raise _located(e, path) from None
        yield CorpusPuzzle(MINIZINC, path.stem, p, None, path.stem.rsplit("_", 1)[-1], UNIQUE,
                           {"path": path})


# ---------------------------------------------------------------------------- panpapag
PANPAPAG = "panpapag-kakuro"


def panpapag(root: Path | None = None) -> Iterator[CorpusPuzzle]:
    """PanPapag/Kakuro list literals (labels easy / intermediate / hard)."""
    path = _folder(PANPAPAG, root) / "panpapag_puzzles.txt"
    text = _read_text(path)
    body = "\n".join(ln for ln in text.split("\n") if not ln.lstrip().startswith("#"))
    body = body.replace("\\\n", "\n")
    try:
        tree = ast.parse(body)
    except SyntaxError as e:
        raise PuzzleError(f"not Python list syntax: {e.msg}", path=str(path)) from None
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)):
            raise PuzzleError("expected 'name = [...]' assignments", path=str(path))
        name = node.targets[0].id
        try:
            rows = ast.literal_eval(node.value)
            squares = [[_panpapag_cell(x) for x in row] for row in rows]
            p = _grid_puzzle(squares, name=f"panpapag {name}")
        except PuzzleError as e:
            raise e.located(str(path), node.lineno) from None
        except (ValueError, TypeError):
            raise PuzzleError(f"{name}: not a list of rows", path=str(path),
                              line=node.lineno) from None
        yield CorpusPuzzle(PANPAPAG, name, p, None, name.split("_")[0], UNIQUE)


def _panpapag_cell(x) -> Square:
    if x == "W":
        return WHITE
    if x == "B":
        return BLANK
    if isinstance(x, list) and len(x) == 2:
        d, a = (None if v == "" else v for v in x)
        if all(v is None or (isinstance(v, int) and 1 <= v <= 45) for v in (d, a)):
            return BLANK if d is None and a is None else Square(False, d, a)
    raise PuzzleError(f"bad cell {x!r}")


# ---------------------------------------------------------------------------- FIB C/F format
# KakuroApp's .kak boards are a format deducer reads (deducer/puzzle/formats/fib.py): these
# read the corpus files through it; only what the corpus notes add (labels, solutions,
# the documented invalid boards kept unvalidated) lives here.
def read_fib(text: str, *, name: str | None = None, validate: bool = True) -> Puzzle:
    """The UPC FIB PROP course format (``R,C`` then rows of ``*``, ``C<n>``, ``F<n>``,
    ``C<n>F<m>``, ``?`` or a given digit), read by deducer's ``fib`` format.

    ``validate=False`` skips :meth:`Puzzle.validate` (for boards documented as having no
    solution because of an impossible clue); the clue-per-run check still applies."""
    from deducer.puzzle.formats.fib import read_board

    return read_board(text, name=name, validate=validate)


def load_fib(path: Path, *, name: str | None = None, validate: bool = True) -> Puzzle:
    from deducer.puzzle.formats import read_text

    try:
        return read_fib(read_text(path), name=name, validate=validate)
    except PuzzleError as e:
        raise _located(e, path) from None


def _fib_solution(path: Path, p: Puzzle) -> list[int]:
    """Digits of a solved FIB grid, which must have the same squares as ``p``."""
    s = load_fib(path)
    if s.squares != p.squares:
        raise PuzzleError("solved grid does not match its puzzle's squares", path=str(path))
    if len(s.givens) != len(s.whites):
        raise PuzzleError("solved grid has empty cells", path=str(path))
    return [s.givens[rc] for rc in s.whites]


# ---------------------------------------------------------------------------- marcizhu
MARCIZHU = "marcizhu-kakuroapp"
_MZ_UNSOLVED = {"no-sol": NONE, "two-sol": MULTIPLE}
_MZ_DB_MULTIPLE = frozenset({"Medium 10x10 1", "Hard 8x8 1", "Hard 10x10 1", "Extreme 8x8 1",
                             "Extreme 8x8 2", "Extreme 10x10 1", "Extreme 10x10 3",
                             "Extreme 13x13 1", "Extreme 13x13 3"})


def marcizhu(root: Path | None = None, *, big: bool = True) -> Iterator[CorpusPuzzle]:
    """KakuroApp boards: ``unsolved/`` (+ ``solved/``), ``generated/`` and the DB boards.

    Labels (EASY..EXTREME, USER_MADE) are the project's generator's, not a publisher's.
    ``big=False`` leaves out the generated boards with a side >= 40.
    """
    folder = _folder(MARCIZHU, root)
    kak = folder / "kakuros"
    for path in sorted((kak / "unsolved").glob("*.kak")):
        stem = path.stem
        p = load_fib(path, name=f"marcizhu {stem}", validate=False)
        try:
            p, invalid = _finish(p, _MZ_UNSOLVED.get(stem))
        except PuzzleError as e:
            raise _located(e, path) from None
        sol = None
        solved = kak / "solved" / f"{stem}.kak"
        if solved.exists():
            sol = _fib_solution(solved, p)
        elif stem == "two-sol":
            sol = _fib_solution(kak / "solved" / "two-sol-1.kak", p)
        meta = {"path": path, **({"invalid": invalid} if invalid else {})}
        yield CorpusPuzzle(MARCIZHU, f"unsolved/{stem}", p, sol, None,
                           _MZ_UNSOLVED.get(stem), meta)
    for path in sorted((kak / "generated").iterdir()):
        if path.suffix not in (".kak", ".txt"):
            continue
        m = re.match(r"^(?:(\d+)_(\d+)_)?(easy|medium|hard|extreme)", path.stem)
        if m and m.group(1) and not big and max(int(m.group(1)), int(m.group(2))) >= 40:
            continue
        p = load_fib(path, name=f"marcizhu {path.stem}")
        expected = UNIQUE if "_unique" in path.stem else MULTIPLE
        yield CorpusPuzzle(MARCIZHU, f"generated/{path.stem}", p, None,
                           m.group(3).upper() if m else None, expected, {"path": path})
    yield from _marcizhu_db(folder / "DB")


def _marcizhu_db(db: Path) -> Iterator[CorpusPuzzle]:
    bpath, kpath = db / "Board.json", db / "Kakuro.json"
    try:
        boards = json.loads(_read_text(bpath))
        kakuros = json.loads(_read_text(kpath))
        by_board: dict[str, dict] = {}
        for k in kakuros:
            if not isinstance(k, dict):
                raise TypeError
            by_board.setdefault(k["boardId"], k)
        items = [(b["id"], b["cells"], int(b["height"]), int(b["width"])) for b in boards]
    except (ValueError, KeyError, TypeError):
        raise PuzzleError("unexpected DB JSON layout", path=str(bpath)) from None
    for bid, cells, h, w in items:
        k = by_board.get(bid)
        pid = f"DB/{k.get('name')}" if k else f"DB/board-{str(bid)[:8]}"
        try:
            p = read_fib(f"{h},{w}\n{cells}", name=f"marcizhu {pid}")
        except PuzzleError as e:
            raise e.located(str(bpath)) from None
        label = k.get("difficulty") if k else None
        expected = MULTIPLE if k and k.get("name") in _MZ_DB_MULTIPLE else UNIQUE
        yield CorpusPuzzle(MARCIZHU, pid, p, None, label, expected, {"board": bid})


# ---------------------------------------------------------------------------- paucuesta9
PAUCUESTA9 = "paucuesta9-prop-kakuro"
_PC_INVALID = {"0": NONE, "1": MULTIPLE, "2": MULTIPLE}


def paucuesta9(root: Path | None = None, *, invalids: bool = True) -> Iterator[CorpusPuzzle]:
    """PROP_Kakuro boards ``diffD/R_C/N.txt`` with ``solutions/``; labels diff1..diff3 (the
    project's own). ``Invalids/0-2`` come last (no solution / two solutions); the malformed
    ``Invalids/3-5`` are listed by :func:`paucuesta9_malformed`."""
    folder = _folder(PAUCUESTA9, root)
    for diff in ("diff1", "diff2", "diff3"):
        paths = sorted((folder / diff).glob("*/*.txt"),
                       key=lambda q: (q.parent.name, int(q.stem) if q.stem.isdigit() else 0))
        for path in paths:
            rel = path.relative_to(folder)
            p = load_fib(path, name=f"paucuesta9 {rel.with_suffix('')}")
            sol_path = folder / "solutions" / rel
            sol = _fib_solution(sol_path, p) if sol_path.exists() else None
            yield CorpusPuzzle(PAUCUESTA9, str(rel.with_suffix("")), p, sol, diff, UNIQUE,
                               {"path": path})
    if invalids:
        for stem, expected in _PC_INVALID.items():
            path = folder / "Invalids" / f"{stem}.txt"
            p = load_fib(path, name=f"paucuesta9 Invalids/{stem}", validate=False)
            try:
                p, invalid = _finish(p, expected)
            except PuzzleError as e:
                raise _located(e, path) from None
            meta = {"path": path, **({"invalid": invalid} if invalid else {})}
            yield CorpusPuzzle(PAUCUESTA9, f"Invalids/{stem}", p, None, None, expected, meta)


def paucuesta9_malformed(root: Path | None = None) -> list[Path]:
    """The deliberately malformed files ``Invalids/3-5.txt`` (:func:`load_fib` refuses them)."""
    folder = _folder(PAUCUESTA9, root) / "Invalids"
    return [folder / f"{k}.txt" for k in (3, 4, 5)]


# ---------------------------------------------------------------------------- zwvista
ZWVISTA = "zwvista-logicpuzzles-kakuro"


def zwvista(root: Path | None = None) -> Iterator[CorpusPuzzle]:
    """iOS "Logic Games" levels (XML, 4-character ``DDAA`` cells), read by deducer's
    ``logicpuzzles`` format; all unique, no labels."""
    from dataclasses import replace

    from deducer.puzzle.formats import get, read_text

    path = _folder(ZWVISTA, root) / "Kakuro.xml"
    fmt = get("logicpuzzles")
    try:
        text = read_text(path)
        ids = fmt.names(text)
    except PuzzleError as e:
        raise _located(e, path) from None
    for lid in ids:
        try:
            p = fmt.read(text, name=lid)
        except PuzzleError as e:
            raise _located(e, path) from None
        yield CorpusPuzzle(ZWVISTA, lid, replace(p, name=f"zwvista {lid}"), None, None,
                           UNIQUE, {"level": lid})


# ---------------------------------------------------------------------------- registry
LOADERS: dict[str, Callable[..., Iterator[CorpusPuzzle]]] = {
    JANKO: janko,
    KRAZYDAD: krazydad,
    CX16: cx16,
    MARCELGARUS: marcelgarus,
    GECODE: gecode,
    MINIZINC: minizinc,
    PANPAPAG: panpapag,
    MARCIZHU: marcizhu,
    PAUCUESTA9: paucuesta9,
    ZWVISTA: zwvista,
}
#: short names accepted by :func:`load_source`
ALIASES = {"janko": JANKO, "krazydad": KRAZYDAD, "cx16": CX16, "marcelgarus": MARCELGARUS,
           "gecode": GECODE, "minizinc": MINIZINC, "panpapag": PANPAPAG, "marcizhu": MARCIZHU,
           "paucuesta9": PAUCUESTA9, "zwvista": ZWVISTA}


def sources(root: Path | None = None) -> list[str]:
    """Names of the sources with a loader whose folder is present (empty without a corpus)."""
    base = root if root is not None else corpus_root()
    if base is None:
        return []
    return [name for name in LOADERS if (Path(base) / name).is_dir()]


def load_source(name: str, root: Path | None = None, **kw) -> Iterator[CorpusPuzzle]:
    """Iterate one source by folder name or short alias."""
    full = ALIASES.get(name, name)
    if full not in LOADERS:
        raise PuzzleError(f"unknown corpus source {name!r}; known: {', '.join(ALIASES)}")
    return LOADERS[full](root, **kw)


def get(name: str, pid: str, root: Path | None = None) -> CorpusPuzzle:
    """One corpus puzzle by source and id (``get('janko', '240')``)."""
    full = ALIASES.get(name, name)
    if full == JANKO:
        it = janko(root, ids=[pid])
    else:
        it = load_source(full, root)
    for cp in it:
        if cp.id == pid or (full == JANKO and cp.id == str(pid).zfill(3)):
            return cp
    raise PuzzleError(f"no puzzle {pid!r} in corpus source {full!r}")


def iter_corpus(names: Iterable[str] | None = None,
                root: Path | None = None) -> Iterator[CorpusPuzzle]:
    """Every puzzle of the given (default: all present) sources."""
    for name in (names if names is not None else sources(root)):
        yield from load_source(name, root)

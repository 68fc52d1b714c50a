"""Regenerate docs/bad-input.md: run deducer on every kind of bad input and tabulate the
real answers (exit code and message).

    python tests/fuzz/bad_input_table.py > docs/bad-input.md

Runs ``python -m deducer`` in a scratch folder so the paths in the messages are short.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"

RULE = """\
rules:
  - id: my-rule
    name: My rule
    priority: 1
    weight: 1.0
    score: 1
    implementation: "{impl}"
    explain: "{explain}"
{extra}"""

IMPL = """\
from deducer.puzzle.combos import DIGITS
from deducer.engine.state import Deduction
from deducer.rules import rule

@rule
def fine(view):
    return ()

@rule
def boom(view):
    raise ZeroDivisionError("division by zero")
    yield

@rule
def not_a_deduction(view):
    yield {"placements": {0: 1}}

@rule
def empties_a_cell(view):
    for i, m in enumerate(view.masks):
        if not view.is_placed(i):
            yield Deduction(eliminations={i: m})
            return

@rule
def out_of_range(view):
    yield Deduction(eliminations={0: 1}, cells=(10**6,))

@rule
def smallest_guess(view):
    for i, m in enumerate(view.masks):
        if not view.is_placed(i):
            yield Deduction(placements={i: DIGITS[m][0]}, cells=(i,))
            return
"""


def rule(impl="impl.py:fine", explain="{cells}: {effect}.", extra=""):
    return RULE.format(impl=impl, explain=explain, extra=extra)


FOUR = (PUZZLES / "seed002-four.txt").read_bytes()
#: a collection's lines (generate --jsonl records): one puzzle, then a cut URL and prose
GOOD = b'{"puzzle": "https://puzz.link/p?kakuro/2/2/n5g-c"}\n'
BAD_RECORDS = b'{"puzzle": "https://puzz.link/p?kakuro/5/5/48la0.na0l"}\nnot json\n'
SMALL = (PUZZLES / "seed001-small.kakuro").read_bytes()

# (what, files {name: bytes}, argv)
CASES = [
    ("Puzzle file missing", {}, ["solve", "nope.txt"]),
    ("A directory instead of a file", {"dir/x": b""}, ["solve", "dir"]),
    ("Empty file", {"empty.txt": b""}, ["solve", "empty.txt"]),
    ("NUL byte (binary file)", {"bin.txt": b"\\|5\\\n\x00"}, ["solve", "bin.txt"]),
    ("Not UTF-8 (Latin-1)", {"latin1.kakuro": b"# Gar\xfcs\n\\ 3\\\n\\3 _ _\n"},
     ["solve", "latin1.kakuro"]),
    ("UTF-16 file", {"utf16.kakuro": "\ufeff_ _\n".encode("utf-16-le")},
     ["solve", "utf16.kakuro"]),
    ("File over 4 MiB", {"huge.txt": b"_ \\\n" * (1024 * 1024 + 1)}, ["solve", "huge.txt"]),
    ("Unrecognised notation", {"prose.txt": b"hello world\n"}, ["solve", "prose.txt"]),
    ("BOM + Windows line endings + non-breaking spaces (accepted)",
     {"bom.kakuro": b"\xef\xbb\xbf" + SMALL.replace(b"\n", b"\r\n").replace(b"  ", b"\xc2\xa0 ")},
     ["solve", "bom.kakuro"]),
    ("Clue of 10**400", {"big.txt": b"\\|1" + b"0" * 400 + b"\\\n\\| \n"}, ["solve", "big.txt"]),
    ("Clue over 45", {"c46.txt": b"\\|46\\\n\\| \n"}, ["solve", "c46.txt"]),
    ("Digit written as fullwidth '\uff13'", {"fw.txt": "\\|\uff13\\\n\\| \n".encode()},
     ["solve", "fw.txt"]),
    ("Ragged rows", {"ragged.txt": b"\\|5\\|16\\\n\\| \n\\12| | \n"}, ["solve", "ragged.txt"]),
    ("Grid over 200x200", {"wide.txt": ("|".join(["\\"] + [" "] * 300) + "\n").encode()},
     ["solve", "wide.txt"]),
    ("Over 20000 runs (199x199 checkerboard)", {}, None),  # filled in below
    ("Run of 10 cells", {"long.txt": ("\\|\\" + "|\\" * 9 + "\n\\45|" + "|".join([" "] * 10)
                                       + "\n").encode()}, ["solve", "long.txt"]),
    ("Impossible sum (2 cells summing to 2)", {"sum.txt": b"\\|\\|\\\n\\2| | \n"},
     ["solve", "sum.txt"]),
    ("Clue with no run behind it", {"norun.txt": b"\\|5\\|\\\n\\|\\| \n"}, ["solve", "norun.txt"]),
    ("Same given twice in a run", {"dup.txt": b"\\|\\|\\\n\\| !3| !3\n"}, ["solve", "dup.txt"]),
    ("Deeply nested JSON", {"deep.json": b'{"format": "deducer", "grid": ' + b"[" * 100000
                            + b"]" * 100000 + b"}"}, ["solve", "deep.json"]),
    ("Broken JSON", {"bad.json": b'{"format": "deducer", "grid": [["", }'}, ["solve", "bad.json"]),
    ("Unknown key in deducer JSON", {"key.json": b'{"format": "deducer", "grid": [["\\\\"]], '
                                     b'"colour": 1}'}, ["solve", "key.json"]),
    ("Several puzzles, no --name", {}, ["solve", str(PUZZLES / "seed000-k.j")]),
    ("--name not in the file", {}, ["solve", str(PUZZLES / "seed000-k.j"), "--name", "k9"]),
    ("Truncated puzz.link URL", {"cut.url": b"https://puzz.link/p?kakuro/5/5/48la0.na0l\n"},
     ["solve", "cut.url"]),
    ("Puzzle without a solution", {"none.txt": b"\\|3\\|3\\\n\\3| | \n\\4| | \n"},
     ["solve", "none.txt"]),
    ("Solve stopped by --timeout (Latin square, ~10^27 solutions)", {}, None),
    ("--timeout 0", {}, ["solve", str(PUZZLES / "seed002-four.txt"), "--timeout", "0"]),
    ("--max-solutions 0", {}, ["solve", str(PUZZLES / "seed002-four.txt"),
                               "--max-solutions", "0"]),
    ("Output file exists", {"out.json": b"precious\n"},
     ["convert", str(PUZZLES / "seed002-four.txt"), "--to", "json", "-o", "out.json"]),
    ("Output folder missing", {}, ["convert", str(PUZZLES / "seed002-four.txt"), "--to", "json",
                                   "-o", "no/such/out.json"]),
    ("Output not writable", {}, ["convert", str(PUZZLES / "seed002-four.txt"), "--to", "json",
                                 "-o", "/proc/out.json"]),
    ("Target format cannot hold the puzzle", {"given.txt": b"\\|5\\|16\\\n\\|!2| \n\\12| | \n"},
     ["convert", "given.txt", "--to", "puzzlink"]),
    ("Unknown target format", {}, ["convert", str(PUZZLES / "seed002-four.txt"), "--to", "xml"]),
    # convert of a collection (--out DIR): every name checked before any file is written
    ("convert --out: a collection with bad records (the others are written)",
     {"coll.jsonl": GOOD + BAD_RECORDS}, ["convert", "coll.jsonl", "--to", "pipe", "--out", "c1"]),
    ("convert --out: no record of the collection is a puzzle",
     {"bad.jsonl": b'nope\n{"puzzle": 5}\n'},
     ["convert", "bad.jsonl", "--to", "pipe", "--out", "c2"]),
    ("convert --out into a folder already holding one of its files",
     {"one.jsonl": GOOD, "c3/one-1.txt": b"mine\n"},
     ["convert", "one.jsonl", "--to", "pipe", "--out", "c3"]),
    ("convert --out over the collection's own files, even with --force", {"lib/a.txt": FOUR},
     ["convert", "lib", "--to", "pipe", "--out", "lib", "--force"]),
    ("convert --out naming a file", {"one.jsonl": GOOD},
     ["convert", "one.jsonl", "--to", "pipe", "--out", "one.jsonl"]),
    ("convert --out in a missing folder", {"one.jsonl": GOOD},
     ["convert", "one.jsonl", "--to", "pipe", "--out", "nodir/sub"]),
    ("convert with both -o and --out", {"one.jsonl": GOOD},
     ["convert", "one.jsonl", "--to", "pipe", "--out", "c4", "-o", "x.txt"]),
    # rule files
    ("Rule file: !!python/object tag", {"r.yaml": b'rules:\n  - !!python/object/apply:os.system '
                                        b'["touch PWNED"]\n'}, "rules"),
    ("Rule file: malformed YAML", {"r.yaml": b"rules:\n  - id: x\n    name: [unclosed\n"},
     "rules"),
    ("Rule file: unknown key", {"r.yaml": rule(extra="    colour: red\n").encode()}, "rules"),
    ("Rule file: a param the function does not take",
     {"r.yaml": rule(extra="    params: {serach_nodes: 10}\n").encode()}, "rules"),
    ("Rule file: duplicate id", {"r.yaml": (rule() + rule().split("rules:\n", 1)[1]).encode()},
     "rules"),
    ("Rule file: missing key", {"r.yaml": rule().replace("    weight: 1.0\n", "").encode()},
     "rules"),
    ("Rule file: integer of 5000 digits", {"r.yaml": rule().replace("priority: 1", "priority: 1"
                                                                     + "0" * 5000).encode()},
     "rules"),
    ("Rule file: YAML alias bomb", {"r.yaml": (
        rule().replace("    priority: 1\n", "")
        + '    params: {b: [&a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"], '
        + ", ".join(f"&{chr(98 + k)} [" + ",".join([f"*{chr(97 + k)}"] * 9) + "]"
                    for k in range(8)) + "]}\n    priority: *i\n").encode()}, "rules"),
    ("Rule file: implementation file missing", {"r.yaml": rule("missing.py:f").encode()},
     "rules"),
    ("Rule file: import error in the user's .py",
     {"r.yaml": rule("broken.py:f").encode(), "broken.py": b"import numpyy\n"}, "rules"),
    ("Rule file: function missing", {"r.yaml": rule("impl.py:nothing").encode()}, "rules"),
    ("Rule file: template with an index", {"r.yaml": rule(explain="{cell[x]}").encode()},
     "rules"),
    ("Rule file: template with a huge width", {"r.yaml": rule(explain="{cell:>999999999}")
                                               .encode()}, "rules"),
    ("Rule raises", {"r.yaml": rule("impl.py:boom").encode()}, "rules"),
    ("Rule yields something that is not a Deduction",
     {"r.yaml": rule("impl.py:not_a_deduction").encode()}, "rules"),
    ("Rule removes every candidate of a cell", {"r.yaml": rule("impl.py:empties_a_cell").encode()},
     "rules"),
    ("Unsound rule (places the smallest candidate): blamed on the rule",
     {"r.yaml": rule("impl.py:smallest_guess").encode()}, "rules"),
    ("Rule file: a key given twice", {"r.yaml": rule(extra="    weight: 2.0\n").encode()},
     "rules"),
    ("Rule file: names a function not marked @rule (pydoc:pipepager)",
     {"r.yaml": rule("pydoc:pipepager", extra="    params: {cmd: 'touch PWNED'}\n").encode()},
     "rules"),
    ("Rule file: a template field the function does not declare",
     {"r.yaml": rule(explain="{cellz}: {effect}.").encode()}, "rules"),
    ("Rule yields a cell out of range", {"r.yaml": rule("impl.py:out_of_range").encode()},
     "rules"),
    ("/dev/zero as the puzzle", {}, ["solve", "/dev/zero"]),
    ("A puzz.link URL as the argument (accepted)", {},
     ["solve", "https://puzz.link/p?kakuro/2/2/n5g-c"]),
    ("Output name of 300 characters", {},
     ["convert", str(PUZZLES / "seed002-four.txt"), "--to", "json", "-o", "x" * 300]),
    ("Two outputs naming the same file", {},
     ["explain", str(PUZZLES / "seed002-four.txt"), "--markdown", "same.out", "--html",
      "same.out"]),
    ("Output named as a folder (newdir/)", {},
     ["convert", str(PUZZLES / "seed002-four.txt"), "--to", "json", "-o", "newdir/"]),
    # round two
    ("Solve listing the solutions of 600 two-way islands, stopped by --timeout", {}, None),
    ("Hint on a 170x170 grid of unclued runs, stopped by --timeout", {}, None),
    ("Explain on the same grid, stopped by --timeout", {}, None),
    ("A folder with notes, pages, images and a rows file beside its puzzles (skipped)",
     {"real/a.txt": FOUR, "real/SOURCE.md": b"# Where these come from\n",
      "real/page.html": b"<!doctype html>\n", "real/shot.png": b"\x89PNG\r\n\x1a\n\x00",
      "real/expected.json": b'{"a.txt": "unique"}\n',
      "real/rows.jsonl": b'{"source": "x", "status": "solved"}\n'},
     ["rate", "real", "--csv"]),
    ("A FIFO in a folder", {"fifo/a.txt": FOUR, "fifo/pipe.txt": None},
     ["rate", "fifo", "--csv", "--timeout", "5"]),
    ("Standard input without end (/dev/zero)", {}, ["rate", "-", "--csv", "<", "/dev/zero"]),
    ("--out naming an input, even with --force", {"gen.jsonl": b'{"puzzle": "https://puzz.'
                                                  b'link/p?kakuro/2/2/n5g-c"}\n'},
     ["rate", "gen.jsonl", "--out", "gen.jsonl", "--force"]),
    ("--out naming a puzzle of the folder rated, even with --force",
     {"lib/a.txt": FOUR, "lib/b.txt": FOUR}, ["rate", "lib", "--out", "lib/b.txt", "--force"]),
    ("explain --markdown naming the puzzle it reads, even with --force", {"a.txt": FOUR},
     ["explain", "a.txt", "--markdown", "a.txt", "--force"]),
    ("render --pdf naming a puzzle that is not an input (a forgotten output name), --force",
     {"a.txt": FOUR, "b.txt": FOUR}, ["render", "--pdf", "a.txt", "b.txt", "--force"]),
    ("convert -o naming its input, even with --force", {"a.txt": FOUR},
     ["convert", "a.txt", "--to", "json", "-o", "a.txt", "--force"]),
    ("--out inside the folder rated (its rows are not read), then --resume",
     {"rated/a.txt": FOUR}, ["rate", "rated", "--out", "rated/rows.jsonl"]),
    ("--jobs 100000", {}, ["rate", str(PUZZLES / "seed002-four.txt"), "-j", "100000"]),
    ("A file name holding ESC and BEL (shown escaped)", {"evil\x1b]0;TITLE\x07.txt": b"x|\n"},
     ["rate", "evil\x1b]0;TITLE\x07.txt", "--csv"]),
    ("Rule file nested 50,000 deep", {"r.yaml": b"rules: " + b"[" * 50000 + b"]" * 50000},
     "rules"),
    ("generate into /proc", {}, ["generate", "--size", "6x6", "--seed", "1", "--out",
                                 "/proc/gen"]),
    ("generate --jsonl in a missing folder", {},
     ["generate", "--size", "6x6", "--seed", "1", "--jsonl", "/nonexist/x.jsonl"]),
    ("generate --jsonl name of 300 characters", {},
     ["generate", "--size", "6x6", "--seed", "1", "--jsonl", "y" * 300 + ".jsonl"]),
    ("generate --count 2**63", {}, ["generate", "--count", "9223372036854775808"]),
    ("generate --out where one of the files exists", {"ex/0002.txt": b"mine\n"},
     ["generate", "--size", "6x6", "--seed", "1", "--count", "3", "--out", "ex"]),
    ("generate --jsonl naming a file --out writes", {},
     ["generate", "--size", "6x6", "--seed", "1", "--out", "same1", "--jsonl",
      "same1/0001.txt"]),
]


def run(argv, cwd) -> tuple[int, str]:
    env = {**os.environ, "DEDUCER_DEBUG": "", "PYTHONHASHSEED": "0"}
    stdin = None
    if "<" in argv:  # standard input from a file
        argv, stdin = argv[:argv.index("<")], open(argv[-1], "rb")  # noqa: SIM115
    try:
        r = subprocess.run([sys.executable, "-m", "deducer", *argv], cwd=cwd,
                           capture_output=True, text=True, timeout=120, env=env, stdin=stdin)
    finally:
        if stdin is not None:
            stdin.close()
    answer = r.stderr.strip() or (r.stdout.strip().splitlines() or [""])[0]
    if not r.stderr.strip() and argv[0] == "solve" and "--json" in argv:
        answer = r.stdout.strip()[:160] + " …"
    if not r.stderr.strip() and argv[0] == "rate" and "--csv" in argv:
        import csv

        rows = list(csv.DictReader(r.stdout.splitlines()))
        bad = [row for row in rows if row["status"] == "unreadable"]
        if bad:
            answer = f"(row) {bad[0]['file']}: unreadable: {bad[0]['error']}"
    if not r.stderr.strip() and argv[0] == "explain":
        data = json.loads(r.stdout)
        answer = f'(stdout JSON) "status": "{data["status"]}", "message": "{data["message"]}"'
    return r.returncode, answer.replace(str(PUZZLES) + "/", "puzzles/").replace(str(cwd), ".")


def islands_text(rows: int = 41, cols: int = 60) -> str:
    """2-cell runs that share nothing: 2**600 solutions, each a full-grid check."""
    lines = []
    for r in range(rows):
        cells: list[str] = []
        if r % 2:
            while len(cells) + 3 <= cols:
                cells += ["\\3", " ", " "]
        lines.append("|".join(cells + ["\\"] * (cols - len(cells))))
    return "\n".join(lines) + "\n"


def unclued_text(n: int = 170) -> str:
    return "\n".join("|".join("\\" if r % 10 == 0 or c % 10 == 0 else " " for c in range(n))
                     for r in range(n)) + "\n"


def cell(s: str) -> str:
    # an answer of several lines (a collection's errors, then its summary) on one table row
    s = s.replace("|", "\\|").replace("`", "'").replace("\n", " ⏎ ")
    return s if len(s) <= 400 else s[:400] + " …"


def shown(argv: list[str]) -> str:
    """A command line as the table shows it (the bundled puzzles' folder as ``puzzles/``)."""
    line = " ".join(a if " " not in a and a.isprintable() else repr(a) for a in argv)
    return line.replace(str(PUZZLES) + "/", "puzzles/")


def main() -> None:
    rows = []
    with tempfile.TemporaryDirectory() as d:
        cwd = Path(d)
        (cwd / "impl.py").write_text(IMPL)
        for what, files, argv in CASES:
            for name, data in files.items():
                f = cwd / name
                f.parent.mkdir(parents=True, exist_ok=True)
                if data is None:
                    os.mkfifo(f)
                elif name != "dir/x":
                    f.write_bytes(data)
            if what.startswith("Solve listing"):
                (cwd / "islands.txt").write_text(islands_text())
                argv = ["solve", "islands.txt", "--json", "--max-solutions", "100000",
                        "--timeout", "1"]
            if what.startswith(("Hint on a 170", "Explain on the same")):
                (cwd / "unclued.txt").write_text(unclued_text())
                argv = ["hint", "unclued.txt", "--timeout", "1"] if what.startswith("Hint") \
                    else ["explain", "unclued.txt", "--json", "--timeout", "1"]
            if what.startswith("Over 20000 runs"):
                n = 199
                line0 = "|".join(["\\"] * (n + 1))
                body = ["|".join(["\\"] + [" " if (r + c) % 2 == 0 else "\\" for c in range(n)])
                        for r in range(n)]
                (cwd / "checker.txt").write_text("\n".join([line0, *body]) + "\n")
                argv = ["solve", "checker.txt"]
            if what.startswith("Solve stopped"):
                line0 = "|".join(["\\"] + ["45\\"] * 9)
                body = ["|".join(["\\45"] + [" "] * 9) for _ in range(9)]
                (cwd / "latin.txt").write_text("\n".join([line0, *body]) + "\n")
                argv = ["solve", "latin.txt", "--json", "--max-solutions", "100000",
                        "--timeout", "0.5"]
            if argv == "rules":
                argv = ["explain", str(PUZZLES / "seed000-k2.j"), "--rules", "r.yaml", "--json"]
            code, answer = run(argv, cwd)
            if what.startswith("--out inside"):  # and again: the rows are resumed, not read
                code, answer = run(argv + ["--resume"], cwd)
                argv = argv + ["--resume"]
            rows.append(f"| {cell(what)} | `{cell(shown(argv))}` | {code} | `{cell(answer)}` |")
            if (cwd / "PWNED").exists():
                raise SystemExit("a YAML tag ran code")
    print(HEAD)
    print("| Input | Command | Exit | Answer (stderr, else first line of stdout) |")
    print("|---|---|---|---|")
    print("\n".join(rows))
    print(TAIL)


HEAD = """\
# What deducer says to bad input

Every kind of bad input below was run for real (`python tests/fuzz/bad_input_table.py >
docs/bad-input.md` regenerates this page). Exit codes: 0 done, 1 the puzzle has no solution,
2 bad input or usage (one line on stderr: `deducer: error: FILE[:LINE]: message`),
3 internal error (a bug: please report it), 4 a `--timeout` stopped the work before anything
was decided (for `solve`: no solution found yet, and `--json` says `"complete": false`).
Nothing ever prints a traceback, and no input file is ever modified; output files are
written atomically and never over an existing file without `--force`. Only the ASCII digits
0-9 are digits, wherever a number or digit is read (options, `why`'s cell and digit, clues and
entries in every format): `²`, `٣` or a fullwidth `５` is refused with exit 2.

Limits: a puzzle or rule file is at most 4 MiB (checked before reading; no more is ever
read), and so is a line of standard input (`rate -`: a longer line is a row saying so, and
the reading stops there); a grid at most 200x200 squares with at most 20000 runs; `solve`
enumerates at most `--max-solutions` solutions (default 2) and `--timeout` bounds `solve`,
`explain`, `hint`, `why`, `check`, `render`, each puzzle of `rate` and of `rules test`, and
the API calls that take a timeout, counted from the command's start (reading the puzzle,
format detection included, uses it up: the work gets what is left), stopping with what was
found so far: a stopped `solve` prints its solutions with `"complete": false`, `explain
--json` the walkthrough so far with `"status": "timeout"`, `hint` "No hint within the time
limit", `why` and `check` what is left undecided, `render --html` the page of the steps made
so far, each with exit 4 (a stopped `rate` keeps the rows written). Should the work not stop
by itself (a user rule that loops), a backstop ends it 0.7 s of its CPU time past the limit
(10 s of wall time at most; counted from the start of the work if the limit passed while the
command was still starting or reading its input), with exit 4 and one line, `deducer:
stopped: ...`; once the answer is in hand the backstop waits for it to be printed. On an
idle machine the answer comes within a second of the limit; `python
benchmarks/timeout_matrix.py` measures how far past it on a loaded one. `--jobs` is capped
at 4 workers a core (with a message), and a batch never starts more workers than it has
puzzles; `generate --count` is at most 1000000.

Every output of a command is checked before any is written, by one rule: no output may be
one of the command's inputs (`rate X --out X` is refused, `--force` or not), nothing but a
puzzle replaces a file holding a puzzle (a walkthrough, a picture, rows or `generate
--jsonl` records are refused there, `--force` or not), and a symbolic link is never written
through (`--force` replaces the link; `--resume` with a link is refused). Any file name the
file system takes is taken. `generate` checks all its file names before it makes a puzzle,
and `--resume` goes on with an interrupted run (also one a full disk stopped: `cannot write: no
space left on device; N rows kept, --resume goes on`, exit 2, and never a cut line): the same
run only (its options are kept in
the `--out` folder and in each `--jsonl` record; other ones are refused). A folder (or glob)
given to `rate` or `rules test` is read for its puzzles only: a file is read when its text
is a puzzle notation deducer knows; notes, pages, images, scripts, data files and rows files
are skipped and counted in one line on stderr (a file named on the command line is always
read), and the run's own `--out` is never read. FIFOs, sockets and devices found in a folder
are never opened: each becomes an "unreadable" row. File names and puzzle names are shown
with control characters escaped (names) or replaced by U+FFFD (puzzle names), so ESC and BEL
never reach a terminal or a page.
"""

TAIL = """
A faulty user rule is always reported as that rule's error, naming its file: a false
deduction is found by replaying the steps against a solution (the row "Unsound rule"), and a
malformed deduction (a cell or run out of range, a weight that is not a finite number, text
that is not text) is refused when the rule yields it.

Processes and servers (tested in `tests/test_hostile.py`, not tabulated):

- Ctrl-C (SIGINT) stops a one-puzzle command (`solve`, `explain`, `hint`, `why`, `check`,
  `render`, `replay`) the way `--timeout` does: it prints the answer so far (the output a
  time-out gives: solutions with `"complete": false`, the walkthrough so far, the steps
  found...), then `deducer: interrupted (Ctrl-C): what is printed above is the answer so
  far, cut short` on stderr, and exits 130, with no traceback. A second Ctrl-C stops at
  once (a user rule that looks at no clock). A Ctrl-C while deducer starts (Python
  importing the package and the command's modules) or once the answer is printed says
  `deducer: interrupted` and exits 130 (`tests/test_ctrl_c_start.py`). One in the first
  tens of milliseconds, before any of deducer's code runs (Python's own start: `site` and
  its `.pth` files, `runpy` looking for the package), is Python's, as for any program: it
  may end the process silently or with Python's own traceback.
- `rate` keeps every row the moment its puzzle is finished, whatever order the batch
  finishes them in (the largest go first): `--out` appends it (flushed), and the file is
  sorted back to input order when the run is complete; `--resume` reads the rows of an
  interrupted run in any order. Ctrl-C keeps every finished row and says how many
  (`deducer: interrupted: rows.jsonl keeps the 41 finished rows of 300; ...`), exit 130;
  without `--out` it prints the finished rows, in input order and the chosen format,
  before exiting 130. A SIGKILL loses only the puzzles in hand.
- `hint --all`, `why` and the play page's limits are deadlines every loop under them
  checks: `hint --all --timeout 3` lists the steps found so far (exit 4, "the time limit
  stopped the search"), and a `why` answer whose trimming the limit stopped says so
  (`"complete": false`, exit 4).
- Killing a batch's parent (`rate`, `generate`) by any signal, KILL included, ends its
  workers within a second: each asks the kernel for its parent's death signal (Linux) and
  watches its parent; none keeps the caller's pipes open.
- A Dask scheduler that dies mid-run ends `rate` with one line (`lost the Dask scheduler
  at ...`) and exit code 2; the rows already written are kept (`--resume` goes on).
- A `--timeout` that falls while cairo writes a PNG or PDF stops the command with exit
  code 4, never inside cairo's callbacks (which would print a traceback).
- `deducer play` runs at most 4 long computations (solve, check, hint, generate, and
  opening, parsing or listing puzzles) at once, answering another with 503 "busy", so the
  page's quick requests always find one of its 6 threads (a listing stops after 2 s with
  what it has, and sniffs each unchanged file once); it holds up to 500 connections, closes
  one idle for 15 s or whose request has not arrived whole after 10 s (slow clients), and
  refuses file names too long (400).
"""

if __name__ == "__main__":
    main()

"""Hostile reader inputs: a fragment of some notation's syntax repeated to a size (64 KB, 4
MiB), the shapes that make a careless scanner quadratic (every ``<script`` rescanning the
rest of the page, every token counting the lines before it, every line start trying a
pattern that runs to the end of the text).

Used by tests/test_limits.py (64 KB, every fragment and format) and
benchmarks/bench_readers.py (also 4 MiB).
"""

from __future__ import annotations

import time

from deducer.errors import DeducerError
from deducer.puzzle import formats

KB64 = 64 * 1024
#: the largest puzzle file deducer reads (``deducer.puzzle.fileio.MAX_BYTES``), less a little
MIB4 = 4 * 1024 * 1024 - 64

#: (label, head, fragment, tail): ``head`` once, ``fragment`` repeated to the size, ``tail``
FRAGMENTS: list[tuple[str, str, str, str]] = [
    # anything
    ("newlines", "", "\n", ""),
    ("spaces", "", " ", ""),
    ("blank lines of spaces", "", " \n", ""),
    ("digits", "", "7", ""),
    ("digits and spaces", "", "7 ", ""),
    ("one long word", "", "x", ""),
    ("brackets", "", "[", ""),
    ("parentheses", "", "(", ""),
    ("braces", "", "{", ""),
    ("angles", "", "<", ""),
    ("semicolons", "", ";", ""),
    ("equals", "", "=", ""),
    ("percent", "", "%", ""),
    ("backslashes", "", "\\", ""),
    ("pipes", "", "|", ""),
    ("commas", "", ",", ""),
    ("hashes", "", "#", ""),
    # janko pages and files
    ("<script", "", "<script ", ""),
    ("<script x-janko, never closed", "", "<script type='application/x-janko'>", ""),
    ("<script> then begin lines", "<script type='application/x-janko'>", "begin\n", ""),
    ("begin then newlines", "begin\n", "\n", ""),
    ("begin then spaces", "begin\n", " ", ""),
    ("begin then blank lines", "begin\n", " \n", ""),
    ("begin then puzzle words", "begin\n", "puzzle ", ""),
    ("puzzle kakuro lines", "begin\n", "puzzle kakuro\n", ""),
    ("janko problem rows", "begin\npuzzle kakuro\nproblem\n", "- 3 4 - \n", "end\n"),
    ("janko record", '{"puzzle": "kakuro", "problem": [', '["-", "3"], ', "]}"),
    ("janko records, one a line", "", '{"puzzle": "kakuro", "problem": [["-"]]}\n', ""),
    # MiniZinc data
    ("dzn h_clue words", "", "h_clue = ", ""),
    ("dzn assignments without ';'", "", "a =\n", ""),
    ("dzn assignments", "", "a = 1;\n", ""),
    ("dzn clue numbers", "h = 5;\nw = 5;\nv_clue = [| |];\nh_clue = [|", "1, 1, 1, 1,\n",
     "|];\n"),
    ("dzn clue records", "h = 5;\nw = 5;\nv_clue = [];\nh_clue = [",
     "(row: 1, col: 1, len: 1, sum: 1),\n", "];\n"),
    ("dzn comments", "h_clue = 1;\nv_clue = 1;\n", "% x\n", ""),
    ("dzn a long number", "h = 5;\nw = 5;\nh_clue = [| 1, 1, 1, ", "9", " |];\n"),
    # the others
    ("conditions rows", "", "r1 10 2:5\n", ""),
    ("conditions tokens", "", "r1 ", ""),
    ("j boxes", "", "x ; ", ""),
    ("j named", "", "k1=: 0 : 0 x\n", ""),
    ("puzz.link prefixes", "", "kakuro/", ""),
    ("puzz.link URL body", "https://puzz.link/p?kakuro/9/9/", "a", ""),
    ("pzprv3", "pzprv3/kakuro/5/5/", "/", ""),
    ("deducer JSON grid", '{"format": "deducer", "grid": [', '["", "\\\\"], ', '[""]]}'),
    ("JSON board", '{"board": [', "[0, -1], ", "[0]]}"),
    ("pipe cells", "", " |", "\n"),
    ("pipe rows", "", "\\|3\\4| | \n", ""),
    ("pipe pencil marks", "", "(1,2,", ""),
    ("backslash cells", "", "_ \\ ", "\n"),
    ("solved digits", "", "123456789\n", ""),
    ("solved givens", "", "#1 ", "\n"),
]


def text_of(head: str, fragment: str, tail: str, size: int) -> str:
    """``head``, then ``fragment`` as many times as fit in ``size`` characters, ``tail``."""
    n = max(1, (size - len(head) - len(tail)) // len(fragment))
    return head + fragment * n + tail


def decide(text: str, fmt: str | None) -> str:
    """What the readers make of ``text`` (format detected when ``fmt`` is None): 'puzzle' or
    the one-line error. Anything else (another exception) is raised."""
    try:
        formats.loads(text, fmt)
    except DeducerError as e:
        message = str(e)
        assert "\n" not in message, message
        return message
    return "puzzle"


def timed(text: str, fmt: str | None) -> tuple[float, str]:
    """CPU seconds :func:`decide` took, and its answer."""
    cpu = time.process_time()
    answer = decide(text, fmt)
    return time.process_time() - cpu, answer

"""The ``deducer`` command: a thin dispatcher over ``deducer.app.commands.*`` modules.

Every command module defines ``add_parser(subparsers)`` and ``run(args) -> int``; only the
command run is imported, so a command loads only what it runs. Errors reach the user as one
line.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
import time
from collections.abc import Iterable

from .. import __version__
from ..api import replaced_rules
from ..clock import stop_asked
from ..errors import DeducerError, printable
from ..puzzle import formats
from ..puzzle.fileio import decompressed, plain_suffix, read_limited, write_output
from ..puzzle.formats import read_text
from ..render.text import shown_path
from .backstop import (
    PROGRAM,
    TimeLimit,
    ctrl_c_as_usual,
    ctrl_c_stops_the_work,
    process_age,
    time_limit,
)
from .exits import (
    EXIT_BAD_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_UNDECIDED,
    INTERRUPTED,
    STOPPED,
)

#: command name -> module (order is the order of ``deducer --help``)
COMMANDS = {
    "solve": "deducer.app.commands.solve",
    "convert": "deducer.app.commands.convert",
    "explain": "deducer.app.commands.explain",
    "rate": "deducer.app.commands.rate",
    "hint": "deducer.app.commands.hint",
    "why": "deducer.app.commands.why",
    "combos": "deducer.app.commands.combos",
    "check": "deducer.app.commands.check",
    "rules": "deducer.app.commands.rules",
    "render": "deducer.app.commands.render",
    "play": "deducer.app.commands.play",
    "generate": "deducer.app.commands.generate",
    "replay": "deducer.app.commands.replay",
}


class _Parser(argparse.ArgumentParser):
    """One-line usage errors naming the right help; options may go between arguments."""

    _intermixing = False

    def error(self, message: str):  # one line, exit 2: no usage dump
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")

    def parse_known_args(self, args=None, namespace=None):
        # A leaf command takes options between its file arguments (`rate a.txt --csv b.j`):
        # argparse's intermixed parsing does that, but cannot drive sub-commands, so a
        # parser with sub-commands parses the usual way and hands the rest to the leaf.
        if self._subparsers is not None or self._intermixing:
            return super().parse_known_args(args, namespace)
        self._intermixing = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._intermixing = False


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line's parser; with ``only`` (a command name) that command's
    alone, so a command imports only what it runs (``deducer --help`` lists them all)."""

    parser = _Parser(
        prog="deducer",
        description="Solve, explain and rate Kakuro puzzles the way a strong human does.",
        epilog="'deducer COMMAND --help' tells more. The docs/ folder of deducer's source "
               "(not installed with the package) documents the formats read "
               "(docs/formats.md), the JSON output (docs/json-contract.md) and rule files "
               "(docs/rule-contract.md, docs/rule-authors-guide.md). Rule files run code: "
               "load only rule files you trust.",
    )
    parser.add_argument("--version", action="version", version=f"deducer {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name, module in COMMANDS.items():
        if only is None or name == only:
            importlib.import_module(module).add_parser(sub)
    parser.set_defaults(_commands=sub)
    return parser


def _leaf(args, parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The parser of the sub-command (or sub-sub-command) the arguments chose."""
    sub = getattr(args, "_commands", None)
    if sub is None or args.command not in sub.choices:
        return parser
    leaf = sub.choices[args.command]
    action = getattr(args, "action", None)
    if action and leaf._subparsers is not None:
        for a in leaf._subparsers._group_actions:
            if action in getattr(a, "choices", {}):
                return a.choices[action]
    return leaf


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    """Parse the command line; a usage error names the help of the command it concerns."""
    # the command is the first argument (only --version and --help come before one)
    first = next((a for a in (argv or sys.argv[1:]) if not a.startswith("-")), None)
    parser = build_parser(first if first in COMMANDS else None)
    args, extra = parser.parse_known_args(argv)
    if extra:
        _leaf(args, parser).error(f"unrecognized arguments: {' '.join(extra)}")
    return args


_WHOLE = re.compile(r"-?[0-9]{1,30}\Z")
_NUMBER = re.compile(r"-?(?:[0-9]{1,30}(?:\.[0-9]{0,30})?|\.[0-9]{1,30})(?:[eE][-+]?[0-9]{1,3})?\Z")


def whole(text: str) -> int:
    """An option's whole number, in the digits 0-9 (``int`` also reads other scripts'
    digits, ``٣`` or ``５``, and ``1_000``): an argparse ``type``."""
    if not _WHOLE.match(text):
        raise argparse.ArgumentTypeError(f"{printable(text)[:40]!r} is not a whole number "
                                         "(digits 0-9)")
    return int(text)


def number(text: str) -> float:
    """An option's number, like ``2`` or ``0.5``, in the digits 0-9 (``float`` also reads
    other scripts' digits, ``nan`` and ``inf``): an argparse ``type``."""
    if not _NUMBER.match(text):
        raise argparse.ArgumentTypeError(f"{printable(text)[:40]!r} is not a number like 2 "
                                         "or 0.5 (digits 0-9)")
    return float(text)


def add_puzzle_args(p: argparse.ArgumentParser, *, many: bool = False) -> None:
    """The arguments every command that reads puzzles shares."""
    if many:
        p.add_argument("puzzles", nargs="+", metavar="PUZZLE", help="puzzle files")
    else:
        p.add_argument("puzzle", metavar="PUZZLE",
                       help="puzzle file, a puzz.link URL, or '-' (standard input)")

    p.add_argument("--format", choices=formats.names(), help="the file's format (default: detect)")
    p.add_argument("--name", help="which puzzle of a file holding several (e.g. k3)")


def add_color_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="draw the grid with box characters and colour (auto: when printing "
                        "to a terminal and NO_COLOR is not set)")


def screen_renderer(args) -> str:
    """'terminal' (rich: boxes and colour) for people, 'text' for pipes and files."""
    choice = getattr(args, "color", "never")
    if choice == "always":
        return "terminal"
    if choice == "auto" and sys.stdout.isatty() and not os.environ.get("NO_COLOR"):
        return "terminal"
    return "text"


_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://\S+\Z")


def is_url(arg: str) -> bool:
    """Is this command-line argument a URL (``https://puzz.link/p?kakuro/...``), not a
    file name? A file of that name, if one exists, still wins."""
    return bool(_URL.match(arg)) and not os.path.exists(arg)


def read_puzzle(args, path: str | None = None):
    """Load the puzzle named on the command line: a file, a URL, or '-' (stdin)."""

    path = path or args.puzzle
    if path == "-":
        data = decompressed(read_limited(sys.stdin.buffer, "<stdin>"), "<stdin>")
        try:
            text = formats.decode(data, "<stdin>")
        except DeducerError as e:
            raise e.located("<stdin>") from None
        return formats.loads(text, args.format, name=args.name, path="<stdin>")
    if is_url(path):
        return formats.loads(path, args.format, name=args.name, path="<url>")
    if args.name is None and ":" in path and not os.path.exists(path):
        base, _, which = path.rpartition(":")
        if base and os.path.isfile(base):
            return _row_puzzle(base, which, path, args.format)
    return formats.load(path, args.format, name=args.name)


def _row_puzzle(base: str, which: str, label: str, fmt: str | None):
    """The puzzle a ``rate`` row names ``FILE:NAME`` (a puzzle of a multi-puzzle file) or
    ``FILE:LINE`` (a line of a puzzle-per-line file): read as rate read it."""
    from ..puzzle.formats.lines import LINE_SUFFIXES, line_puzzle_text

    if fmt is None and plain_suffix(base) in LINE_SUFFIXES:
        lines = formats.read_text(base).split("\n")
        n = int(which) if which.isdigit() else 0
        line = lines[n - 1].strip() if 1 <= n <= len(lines) else ""
        if not line or line.startswith("#"):
            raise DeducerError(f"no puzzle on line {which} ({label} names a line of the file)",
                               path=base)
        try:
            return formats.loads(line_puzzle_text(line), fmt)
        except DeducerError as e:
            e.path, e.line = base, n
            raise
    return formats.load(base, fmt, name=which)


def not_over_a_puzzle(flag: str, path: str | None, *, may_replace=None) -> None:
    """Refuse an output whose file already holds a puzzle, ``--force`` or not: a forgotten
    output name (``render --pdf a.txt b.txt``) would otherwise turn a puzzle into a PDF.
    A symbolic link is followed (the file it points to is what would be written over).
    ``may_replace(text)`` says which puzzle-holding text this output may still replace
    (generate's own ``--jsonl`` records). (``check_outputs``'s ``guard``.)"""
    from ..puzzle.formats.lines import holds_puzzle

    if path in (None, "-") or not os.path.isfile(path):
        return
    try:
        text = read_text(path)  # as any command reads it (a .gz or .bz2 one too)
    except DeducerError:
        return  # not a puzzle deducer reads (a picture, a PDF, a file past the limit)
    if not holds_puzzle(text, path) or (may_replace is not None and may_replace(text)):
        return
    via = f" (through the link to {os.path.realpath(path)})" if os.path.islink(path) else ""
    raise DeducerError(f"holds a puzzle{via}, which {flag} would replace: name another "
                       "output file (--force does not write over a puzzle)", path=path)


_SLICE = 1 << 16  # characters written to stdout at a time


def emit(text: str, output: str | None = None, force: bool = False) -> None:
    """Print ``text`` or write it to ``output`` (atomically, refusing to overwrite)."""
    if output in (None, "-"):
        # in slices: stdout encodes what it is given at once, and a long walkthrough's
        # bytes were a megabyte beside its text
        for at in range(0, len(text), _SLICE):
            sys.stdout.write(text[at:at + _SLICE])
        sys.stdout.flush()
        return

    write_output(output, text, force=force)


def emit_lines(lines: Iterable[str]) -> None:
    """Print text given in pieces (each with its own line ends) as they come, a slice at
    a time: a long walkthrough is never held whole (nor its bytes)."""
    out: list[str] = []
    size = 0
    for line in lines:
        out.append(line)
        size += len(line)
        if size >= _SLICE:
            sys.stdout.write("".join(out))
            out, size = [], 0
    sys.stdout.write("".join(out))
    sys.stdout.flush()


#: the commands that answer about one puzzle: Ctrl-C stops their work as ``--timeout``
#: would (every deadline check sees it, see :mod:`deducer.clock`), and they print the
#: answer so far, cut short, before exit 130
STOPPABLE = ("solve", "explain", "hint", "why", "check", "render", "replay")


def _say_replaced() -> None:
    """One line on standard error for each rule a ``--rules`` file put in place of another
    of the same id (a core rule, say): allowed, but never silent."""

    for rid, new, old in replaced_rules():
        print(f"deducer: note: rule {printable(rid)!r} of {printable(shown_path(new))} "
              f"replaces the rule of the same id in {printable(shown_path(old))}",
              file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """Run one ``deducer`` command (``argv``: its arguments; None: the program's own)."""
    PROGRAM["on"] = argv is None  # deducer is the program, not a library call
    # --timeout counts from the command's launch: starting, parsing and reading are part of it
    started = time.perf_counter() - (process_age() if PROGRAM["on"] else 0.0)
    try:
        return _main(argv, started)
    except KeyboardInterrupt:  # a library call's Ctrl-C while parsing or importing
        print("deducer: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _main(argv: list[str] | None, started: float) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if not argv:  # bare `deducer`: the help, and a clean exit (nothing went wrong)
        build_parser().print_help()
        return EXIT_OK
    args = parse(argv)
    module = importlib.import_module(COMMANDS[args.command])
    # parsed and imported under the start-up handler: a Ctrl-C in the middle of argparse
    # (whose clean-up then fails with an AttributeError of its own) exits as at start-up
    with ctrl_c_as_usual():
        return _run(module, args, started)


def _run(module, args: argparse.Namespace, started: float) -> int:
    """Run the parsed command's module under its time limit, with its answers to
    Ctrl-C, bad input and internal errors."""
    # rate and rules test limit each puzzle themselves; the others the whole command
    whole = None if getattr(module, "PER_PUZZLE_TIMEOUT", False) else \
        getattr(args, "timeout", None)

    replaced_rules()  # only this command's replacements are said (a library caller's
    # ladders loaded before it in the same process are not this command's)
    try:
        if whole is not None and not whole > 0:  # also refuses nan
            raise DeducerError("--timeout must be a positive number of seconds")
        try:
            if not (PROGRAM["on"] and args.command in STOPPABLE):
                with time_limit(whole, started):
                    return module.run(args)
            with ctrl_c_stops_the_work(), time_limit(whole, started):
                code = module.run(args)
                if stop_asked():
                    sys.stdout.flush()
                    sys.stderr.write(INTERRUPTED)
                    return EXIT_INTERRUPTED
                return code
        finally:
            _say_replaced()
    except TimeLimit:
        sys.stdout.flush()
        sys.stderr.write(STOPPED)
        return EXIT_UNDECIDED
    except DeducerError as e:
        print(f"deducer: error: {printable(str(e))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("deducer: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK
    except Exception as e:  # never a traceback for users; DEDUCER_DEBUG=1 shows it
        if os.environ.get("DEDUCER_DEBUG"):
            raise
        print(f"deducer: internal error: {type(e).__name__}: {e} (please report this; "
              "set DEDUCER_DEBUG=1 for details)", file=sys.stderr)
        return EXIT_INTERNAL

"""The ``deducer`` command: a thin dispatcher over ``deducer.commands.*`` modules.

Every command module defines ``add_parser(subparsers)`` and ``run(args) -> int``; heavy
imports live inside ``run`` so start-up stays lean. Errors reach the user as one line.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from ..errors import DeducerError

#: command name -> module (order is the order of ``deducer --help``)
COMMANDS = {
    "solve": "deducer.app.commands.solve",
    "convert": "deducer.app.commands.convert",
    "explain": "deducer.app.commands.explain",
    "rate": "deducer.app.commands.rate",
    "hint": "deducer.app.commands.hint",
    "check": "deducer.app.commands.check",
    "rules": "deducer.app.commands.rules",
    "render": "deducer.app.commands.render",
    "play": "deducer.app.commands.play",
    "generate": "deducer.app.commands.generate",
}

EXIT_OK, EXIT_NO_SOLUTION, EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_UNDECIDED = 0, 1, 2, 3, 4


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2: no usage dump
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    from .. import __version__

    parser = _Parser(
        prog="deducer",
        description="Solve, explain and rate Kakuro puzzles the way a strong human does.",
    )
    parser.add_argument("--version", action="version", version=f"deducer {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for module in COMMANDS.values():
        importlib.import_module(module).add_parser(sub)
    return parser


def add_puzzle_args(p: argparse.ArgumentParser, *, many: bool = False) -> None:
    """The arguments every command that reads puzzles shares."""
    if many:
        p.add_argument("puzzles", nargs="+", metavar="PUZZLE", help="puzzle files")
    else:
        p.add_argument("puzzle", metavar="PUZZLE", help="puzzle file ('-' reads standard input)")
    from ..puzzle.formats import _MODULES

    p.add_argument("--format", choices=sorted(_MODULES), help="the file's format (default: detect)")
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


def read_puzzle(args, path: str | None = None):
    """Load the puzzle named on the command line."""
    from ..puzzle import formats

    path = path or args.puzzle
    if path == "-":
        data = sys.stdin.buffer.read()
        try:
            text = formats.decode(data, "<stdin>")
        except DeducerError as e:
            raise e.located("<stdin>") from None
        return formats.loads(text, args.format, name=args.name, path="<stdin>")
    return formats.load(path, args.format, name=args.name)


def emit(text: str, output: str | None = None, force: bool = False) -> None:
    """Print ``text`` or write it to ``output`` (atomically, refusing to overwrite)."""
    if output in (None, "-"):
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    from ..puzzle.fileio import write_output

    write_output(output, text, force=force)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return importlib.import_module(COMMANDS[args.command]).run(args)
    except DeducerError as e:
        print(f"deducer: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("deducer: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as e:  # never a traceback for users; DEDUCER_DEBUG=1 shows it
        if os.environ.get("DEDUCER_DEBUG"):
            raise
        print(f"deducer: internal error: {type(e).__name__}: {e} (please report this; "
              "set DEDUCER_DEBUG=1 for details)", file=sys.stderr)
        return EXIT_INTERNAL

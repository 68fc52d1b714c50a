"""Errors that reach the user as one line: file, line, what is wrong."""

from __future__ import annotations

import re

_CONTROL = r"[\x00-\x1f\x7f-\x9f\u2028\u2029]"


def printable(text: str) -> str:
    """``text`` with control characters escaped (``\\n``, ``\\x1b``): a name taken from a
    file must not move the cursor, recolour the terminal or break a line of output."""
    if text.isprintable():  # holds none of them (the usual case: no pattern to compile)
        return text

    def esc(m: re.Match) -> str:
        ch = m.group()
        return {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(ch) or (
            f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}")

    return re.sub(_CONTROL, esc, text)


class DeducerError(Exception):
    """A user-facing error: bad input, bad usage, bad rule file.

    ``str(err)`` is the one line the CLI prints: ``path:line: message``.
    """

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def located(self, path: str | None = None, line: int | None = None) -> DeducerError:
        """Fill in the file (and line) where the caller knows them better."""
        if self.path is None and path is not None:
            self.path = path
        if self.line is None and line is not None:
            self.line = line
        return self

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            # a file name may hold a newline or an escape sequence; the error stays one line
            where = printable(self.path) + (f":{self.line}" if self.line is not None else "")
            where += ": "
        elif self.line is not None:
            where = f"line {self.line}: "
        return where + printable(" ".join(self.message.split()))


class PuzzleError(DeducerError):
    """The puzzle text or geometry is invalid."""


class RuleError(DeducerError):
    """A rule declaration or rule implementation is faulty."""

    #: the id of the rule to blame, where the walk knows it (``rules test`` names it)
    rule: str | None = None

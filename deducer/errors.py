"""Errors that reach the user as one line: file, line, what is wrong."""

from __future__ import annotations


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
            # a file name may hold a newline; the error must stay one line
            path = self.path.replace("\n", "\\n").replace("\r", "\\r")
            where = path + (f":{self.line}" if self.line is not None else "") + ": "
        elif self.line is not None:
            where = f"line {self.line}: "
        return where + " ".join(self.message.split())


class PuzzleError(DeducerError):
    """The puzzle text or geometry is invalid."""


class RuleError(DeducerError):
    """A rule declaration or rule implementation is faulty."""

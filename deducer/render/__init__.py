"""Output renderers behind one interface.

A renderer turns results into text (or bytes) for one medium. Each module defines
``RENDERER``, an instance of :class:`Renderer`; a renderer may leave a method as the
base class's, which says the medium does not offer that output. Every command's output
goes through here (the JSON renderer prints each result's ``to_json()``), so a command
only picks the medium: ``get("json" if args.json else "text").hint(puzzle, h)``.
"""

from __future__ import annotations

import importlib

from ..errors import DeducerError

_MODULES = {
    "text": "deducer.render.text",
    "terminal": "deducer.render.terminal",
    "json": "deducer.render.jsonout",
    "svg": "deducer.render.svg",
    "html": "deducer.render.html",
    "markdown": "deducer.render.markdown",
    "pdf": "deducer.render.pdf",
    "csv": "deducer.render.csvout",
}


class Renderer:
    """One output medium."""

    name = "?"

    def solve(self, puzzle, result) -> str:
        """A solve result: the grid(s) and the verdict."""
        raise DeducerError(f"the {self.name} renderer cannot show solve results")

    def walkthrough(self, puzzle, explanation) -> str:
        """An explain result: every step, the rating, the final grid. (The text and
        terminal renderers also take ``verbose=True``: each step's whole case analysis.)"""
        raise DeducerError(f"the {self.name} renderer cannot show walkthroughs")

    def write_solve(self, puzzle, result, write) -> None:
        """:meth:`solve`'s output passed to ``write``; a medium that can writes it piece by
        piece (one solution at a time), so that a spooled result never becomes one string."""
        write(self.solve(puzzle, result))

    def hint(self, puzzle, hint) -> str:
        """A hint (``deducer hint``): the tier asked for, or the mistakes to fix first."""
        raise DeducerError(f"the {self.name} renderer cannot show hints")

    def all_steps(self, puzzle, found) -> str:
        """Every deduction open at a position, simplest first (``deducer hint --all``)."""
        raise DeducerError(f"the {self.name} renderer cannot show lists of open steps")

    def why(self, puzzle, answer) -> str:
        """Why a digit cannot (or must) go in a cell (``deducer why``)."""
        raise DeducerError(f"the {self.name} renderer cannot show why answers")

    def check(self, puzzle, result) -> str:
        """The verdict on a player's entries and pencil marks (``deducer check``)."""
        raise DeducerError(f"the {self.name} renderer cannot show checks")

    def rate_rows(self, rows: list[dict], *, why: bool = False) -> str:
        """The rows of ``deducer rate``, one per puzzle; ``why`` adds which step set the
        level and where the solve is narrowest."""
        raise DeducerError(f"the {self.name} renderer cannot show rating rows")

    def ladder(self, rules, *, weights: dict | None = None) -> str:
        """The rules of a ladder, enabled or not (``deducer rules``); ``weights``: per rule
        id the least and most weight its steps carry (``api.carried_weights``)."""
        raise DeducerError(f"the {self.name} renderer cannot show rule ladders")

    def rules_test(self, report, *, verbose: bool = False, impact: bool = False) -> str:
        """A ``deducer rules test`` report (:class:`~deducer.assist.audit.RulesTest`);
        ``verbose`` lists every puzzle, not only those with findings; ``impact`` every
        puzzle the file's rules fired on, rated with and without them."""
        raise DeducerError(f"the {self.name} renderer cannot show rule tests")

    def generated(self, result, *, format: str = "pipe") -> str:
        """One generated puzzle (``deducer generate``): in puzzle ``format``, or as one
        JSON line."""
        raise DeducerError(f"the {self.name} renderer cannot show generated puzzles")

    def book(self, entries, *, walkthroughs: bool = False, progress=None) -> bytes:
        """A printable booklet of several puzzles (``pdf.Entry`` items): the puzzles, then
        their solutions, then (optionally) their walkthroughs; ``progress(done, total)``
        hears of each page drawn."""
        raise DeducerError(f"the {self.name} renderer cannot make a booklet")


def get(name: str) -> Renderer:
    """The renderer of medium ``name`` (text, terminal, json, csv, svg, html, markdown,
    pdf)."""
    if name not in _MODULES:
        raise DeducerError(f"unknown renderer {name!r}")
    return importlib.import_module(_MODULES[name]).RENDERER

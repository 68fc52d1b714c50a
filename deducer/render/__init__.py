"""Output renderers behind one interface.

A renderer turns results into text (or bytes) for one medium. Each module defines
``RENDERER``, an instance of :class:`Renderer`; a renderer may leave a method as the
base class's, which says the medium does not offer that output.
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

    def book(self, entries, *, walkthroughs: bool = False) -> bytes:
        """A printable booklet of several puzzles (``pdf.Entry`` items): the puzzles, then
        their solutions, then (optionally) their walkthroughs."""
        raise DeducerError(f"the {self.name} renderer cannot make a booklet")


def get(name: str) -> Renderer:
    if name not in _MODULES:
        raise DeducerError(f"unknown renderer {name!r}")
    return importlib.import_module(_MODULES[name]).RENDERER

"""The web pages' own files (``render/static/``): style and scripts shipped with the package
(pyproject's package-data) and written into each page when it is made, so that a page stays
one file that opens offline (docs/walkthroughs.md). ``html.py`` inlines ``walkthrough.css``,
``walkthrough.js`` and ``chainstep.js``; ``teach.py`` the technique cards' ``cards.css`` and
``cards.js`` and the technique pages' ``technique.css``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"


@cache
def static_text(name: str) -> str:
    """The text of ``render/static/<name>`` (read once a process)."""
    return (STATIC / name).read_text(encoding="utf-8")

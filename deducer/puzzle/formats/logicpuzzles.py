"""The levels of zwvista's LogicPuzzles apps (``Kakuro.xml``: the iOS "Logic Games / Puzzle
Set 4" Kakuro levels, as LogicPuzzlesSwift and its siblings ship them).

```
<puzzle><levels>
  <level id="1"><![CDATA[
00000400090000000000`
0004        21000000`
...
  ]]></level>
</levels></puzzle>
```

Each level is a grid, one row a line ending in a backquote, of 4-character squares: four
spaces a white cell, else ``DDAA``: the down sum, then the across sum, ``00`` for none
(``0000`` a black square without clues). A file holds many levels: ``--name ID`` picks one
(``rate`` rates them all), and a file of one level needs no name.

The XML is read with expat, which fetches nothing; a document type or entity declaration
(the way to an entity bomb) is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...errors import PuzzleError
from ..model import BLANK, WHITE, Puzzle, Square
from . import Format

_LEVEL = re.compile(r"<level\b[^>]*\bid\s*=")


@dataclass
class _Level:
    id: str
    line: int  # of the <level> tag
    parts: list[str] = field(default_factory=list)
    first: int | None = None  # the line its text starts on


def sniff(text: str) -> bool:
    """An XML document (not a page or notes that quote one) with ``<levels>`` of
    ``<level id=...>``."""
    head = text[:65536]
    return head.lstrip().startswith("<") and "<levels" in head \
        and bool(_LEVEL.search(head))


def _levels(text: str) -> list[_Level]:
    import xml.parsers.expat as expat

    parser = expat.ParserCreate()
    levels: list[_Level] = []
    current: list[_Level] = []

    def refuse(*_args):
        raise PuzzleError("the XML declares a document type or entities; a levels file has "
                          "none (refused: entities can expand without bound)",
                          line=parser.CurrentLineNumber)

    def start(tag, attrs):
        if tag == "level":
            current.append(_Level(str(attrs.get("id", len(levels) + 1)),
                                  parser.CurrentLineNumber))

    def end(tag):
        if tag == "level" and current:
            levels.append(current.pop())

    def data(chunk):
        if current:
            lv = current[-1]
            if lv.first is None:
                lv.first = parser.CurrentLineNumber
            lv.parts.append(chunk)

    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = data
    try:
        parser.Parse(text, True)
    except expat.ExpatError as e:
        raise PuzzleError(f"not well-formed XML: {expat.errors.messages[e.code]}",
                          line=e.lineno) from None
    if not levels:
        raise PuzzleError("no <level> in the file", line=1)
    return levels


def names(text: str) -> list[str]:
    """The ids of the file's levels, in file order."""
    return [lv.id for lv in _levels(text)]


def _grid(lv: _Level, name: str | None) -> Puzzle:
    text = "".join(lv.parts)
    start = lv.first or lv.line
    squares: list[tuple[Square, ...]] = []
    row_lines: list[int] = []
    for k, raw in enumerate(text.split("\n")):
        s = raw.strip()
        if not s:
            continue
        ln = start + k
        if not s.endswith("`"):
            raise PuzzleError(f"level {lv.id}: a row ends with a backquote (`)", line=ln)
        body = raw.lstrip(" \t").rstrip()[:-1]
        if len(body) % 4:
            raise PuzzleError(f"level {lv.id}: a row is {len(body)} characters, not a "
                              "multiple of 4 (each square is 4)", line=ln)
        row = []
        for c in range(0, len(body), 4):
            sq = body[c:c + 4]
            if sq == "    ":
                row.append(WHITE)
            elif sq.isascii() and sq.isdigit():
                down, across = int(sq[:2]) or None, int(sq[2:]) or None
                row.append(BLANK if down is None and across is None
                           else Square(False, down, across))
            else:
                raise PuzzleError(f"level {lv.id}: square {c // 4 + 1} {sq!r} is not four "
                                  "spaces (a white cell) or four digits DDAA", line=ln)
        squares.append(tuple(row))
        row_lines.append(ln)
    if not squares:
        raise PuzzleError(f"level {lv.id} has no rows", line=lv.line)
    return Puzzle(tuple(squares), name=name or f"level {lv.id}",
                  row_lines=tuple(row_lines)).validate()


def read(text: str, *, name: str | None = None) -> Puzzle:
    """One level: the one ``name`` gives by id, or the file's only one."""
    levels = _levels(text)
    if name is None:
        if len(levels) > 1:
            shown = ", ".join(lv.id for lv in levels[:5]) + (", ..." if len(levels) > 5
                                                               else "")
            raise PuzzleError(f"{len(levels)} levels in one file ({shown}); pick one with "
                              "--name", line=levels[1].line)
        return _grid(levels[0], None)
    for lv in levels:
        if lv.id == name:
            return _grid(lv, None)
    raise PuzzleError(f"no level {name!r} in the file", line=1)


FORMAT = Format(
    name="logicpuzzles",
    description="zwvista's LogicPuzzles Kakuro.xml levels (iOS Logic Games): DDAA squares",
    extensions=(".xml",),
    sniff=sniff,
    read=read,
    names=names,
)

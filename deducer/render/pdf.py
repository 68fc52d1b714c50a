"""PDF renderer: a printable booklet of puzzles, then their solutions, optionally their
walkthroughs (``deducer render --pdf book.pdf FILES...``).

Drawn with cairo, through the same two packages as ``render --png`` (the optional extra
``png``: cairosvg and its cairocffi, over the system's libcairo): cairo's PDF backend is
mature, writes many pages of any size to one file, and finds fonts through fontconfig, so
the run names' arrows (→ ↓) print as they read on screen. The boards are
:mod:`deducer.render.svg`'s (the very ones ``render --svg`` draws), drawn by cairosvg onto
one shared multi-page cairo PDF surface; captions and walkthrough text are drawn by cairo
itself, wrapped with the same font metrics they are drawn with.

Pages are A4 (a board wider than tall gets a landscape page of its own). Puzzles go two
to a page when both stay at least :data:`MIN_PUZZLE_CELL` points a square, solutions four.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from ..errors import DeducerError
from . import Renderer
from .cairodraw import Drawer
from .position import advance, position_digits, shown_candidates, start_position
from .svg import LABEL, PAD, S, board_svg, diagram_svg, puzzle_svg, solution_svg
from .teach import glossary_lines, used_in_all
from .walk import (
    chain_cases,
    chain_conclusion,
    easy_weight,
    link_labels,
    step_text,
    step_title,
)

if TYPE_CHECKING:
    from ..engine.walk import Explanation
    from ..puzzle.model import Puzzle

A4 = (595.28, 841.89)  # points
MARGIN = 42.0
FONT = "DejaVu Sans"
CAPTION = 11.0  # point size of the line above each board
CAPTION_ROOM = 22.0
MIN_PUZZLE_CELL = 20.0  # points per square a puzzle keeps when it shares a page
MIN_SOLUTION_CELL = 12.0
MAX_CELL = 64.0  # boards fill their slot; only a tiny puzzle stops short of it
TEXT_SIZE = 9.5
DIAGRAM_CELL = 24.0  # points per square, at most, of a step's diagram
DIAGRAM_SHARE = 0.42  # of the page's height, at most, for one diagram
STATE_SHARE = 0.3  # for the board state drawn atop a page of easy steps
LINE = 1.35  # line height, in font sizes


@dataclass
class Entry:
    """One puzzle of the booklet."""

    title: str  # e.g. "k3 (seed000-k.j)"
    puzzle: Puzzle
    solution: list[int] | None = None
    note: str = ""  # e.g. "Level Easy" or "one of several solutions"
    explanation: Explanation | None = None  # for the walkthrough section
    meta: dict = field(default_factory=dict)


def _cairo():
    try:
        import cairocffi
        import cairosvg.parser
        import cairosvg.surface
    except (ImportError, OSError):  # OSError: the packages are there but libcairo is not
        raise DeducerError("--pdf needs the optional package cairosvg (and the cairo "
                           "library): pip install cairosvg (from a checkout: pip install "
                           "'.[pdf]')"
                           ) from None
    return cairocffi, cairosvg


# ---- text measured with cairo's metrics ----------------------------------------------------
class _Measure:
    def __init__(self, cairocffi):
        self.ctx = cairocffi.Context(cairocffi.ImageSurface(cairocffi.FORMAT_ARGB32, 1, 1))
        self.ctx.select_font_face(FONT)

    def width(self, text: str, size: float, bold: bool = False) -> float:
        import cairocffi

        weight = cairocffi.FONT_WEIGHT_BOLD if bold else cairocffi.FONT_WEIGHT_NORMAL
        self.ctx.select_font_face(FONT, cairocffi.FONT_SLANT_NORMAL, weight)
        self.ctx.set_font_size(size)
        return self.ctx.text_extents(text)[4]  # x_advance

    def wrap(self, text: str, size: float, width: float, bold: bool = False) -> list[str]:
        """Lines of at most ``width`` points (a word longer than a line stands alone)."""
        lines: list[str] = []
        for para in text.split("\n"):
            line = ""
            for word in para.split():
                trial = f"{line} {word}" if line else word
                if line and self.width(trial, size, bold) > width:
                    lines.append(line)
                    line = word
                else:
                    line = trial
            lines.append(line)
        return lines


# ---- pages as SVG --------------------------------------------------------------------------
class _Page:
    """One page: boards (SVG, drawn by cairosvg) and lines of text (drawn by cairo itself:
    cairosvg lays text out glyph by glyph, some hundred times slower for a page of it)."""

    def __init__(self, size: tuple[float, float]):
        self.w, self.h = size
        self.boards: list[tuple[str, float, float, float]] = []  # (svg, x, y, scale)
        #: where the walkthrough's boards sit: ((puzzle number, step number), x, y, width,
        #: height) in points, the step whose diagram it is (None: a page's board state)
        self.figures: list[tuple[tuple[int, int] | None, float, float, float, float]] = []
        self.texts: list[tuple[float, float, str, float, bool, str, str]] = []

    def text(self, x: float, y: float, s: str, size: float, *, bold: bool = False,
             anchor: str = "start", color: str = "#111") -> None:
        self.texts.append((x, y, s, size, bold, anchor, color))

    def board(self, svg: str, x: float, y: float, scale: float) -> None:
        self.boards.append((svg, x, y, scale))

    def svg(self, *, with_text: bool = True) -> str:
        """The page as one SVG (points as user units)."""
        parts = [f'<g transform="translate({x:.2f},{y:.2f}) scale({scale:.4f})">{svg}</g>'
                 for svg, x, y, scale in self.boards]
        if with_text:
            for x, y, s, size, bold, anchor, color in self.texts:
                weight = ' font-weight="bold"' if bold else ""
                parts.append(f'<text x="{x:.2f}" y="{y:.2f}" font-family="{FONT}" '
                             f'font-size="{size}"{weight} text-anchor="{anchor}" '
                             f'fill="{color}">{escape(s)}</text>')
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.w}pt" '
                f'height="{self.h}pt" viewBox="0 0 {self.w} {self.h}">'
                + "".join(parts) + "</svg>")

    def draw_text(self, ctx, cairocffi) -> None:
        """The page's text, with cairo's toy font API (fontconfig picks the face)."""
        for x, y, s, size, bold, anchor, color in self.texts:
            weight = cairocffi.FONT_WEIGHT_BOLD if bold else cairocffi.FONT_WEIGHT_NORMAL
            ctx.select_font_face(FONT, cairocffi.FONT_SLANT_NORMAL, weight)
            ctx.set_font_size(size)
            ctx.set_source_rgb(*(int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))
                               if len(color) == 7 else
                               (int(color[i], 16) / 15 for i in (1, 2, 3)))
            advance = ctx.text_extents(s)[4]
            shift = {"end": advance, "middle": advance / 2}.get(anchor, 0.0)
            ctx.move_to(x - shift, y)
            ctx.show_text(s)


def _board_size(puzzle) -> tuple[float, float]:
    """The board's SVG size (units of svg.S per square, with labels)."""
    return (LABEL + puzzle.cols * S + 2 * PAD, LABEL + puzzle.rows * S + 2 * PAD)


def _fit(puzzle, width: float, height: float) -> float:
    """The scale that fits the board (with its caption) in a slot, at most MAX_CELL."""
    bw, bh = _board_size(puzzle)
    return min(width / bw, (height - CAPTION_ROOM) / bh, MAX_CELL / S)


def _slots(n: int, size: tuple[float, float]) -> list[tuple[float, float, float, float]]:
    """n slots (x, y, w, h) on a page: 1, 2 stacked, or 2x2."""
    w, h = size[0] - 2 * MARGIN, size[1] - 2 * MARGIN - 30  # room for the section head
    x0, y0 = MARGIN, MARGIN + 30
    gap = 18.0
    if n == 1:
        return [(x0, y0, w, h)]
    if n == 2:
        hh = (h - gap) / 2
        return [(x0, y0, w, hh), (x0, y0 + hh + gap, w, hh)]
    cw, ch = (w - gap) / 2, (h - gap) / 2
    return [(x0 + i * (cw + gap), y0 + j * (ch + gap), cw, ch) for j in (0, 1) for i in (0, 1)]


def _page_size(puzzle) -> tuple[float, float]:
    bw, bh = _board_size(puzzle)
    return (A4[1], A4[0]) if bw > bh * 1.15 else A4


def _board_pages(items: list[tuple[str, Puzzle, str]], head: str, counts: tuple[int, ...],
                 min_cell: float) -> list[_Page]:
    """Pages of boards: ``items`` are (caption, puzzle, board svg); as many to a page (of
    ``counts``) as keep every board at ``min_cell`` points a square or more."""
    pages: list[_Page] = []
    i = 0
    while i < len(items):
        for n in counts:
            chunk = items[i:i + n]
            if len(chunk) < n and n != 1:
                continue
            size = A4 if n > 1 else _page_size(chunk[0][1])
            slots = _slots(n, size)
            if n == 1 or all(_fit(p, sw, sh) * S >= min_cell
                             for (_, p, _), (_, _, sw, sh) in zip(chunk, slots, strict=True)):
                break
        page = _Page(size)
        page.text(MARGIN, MARGIN + 8, head, 15, bold=True)
        for (caption, p, svg), (sx, sy, sw, sh) in zip(chunk, slots, strict=True):
            scale = _fit(p, sw, sh)
            left = sx + (sw - _board_size(p)[0] * scale) / 2  # centred in its slot
            page.text(left, sy + CAPTION, caption, CAPTION, bold=True)
            page.board(svg, left, sy + CAPTION_ROOM - 4, scale)
        pages.append(page)
        i += len(chunk)
    return pages


def needs_diagram(step, easy: float) -> bool:
    """Steps beyond the simplest tiers (heavier than ``easy``, the Easy level's threshold
    of the walk's ladder) get a board on paper: a reader cannot hold a chain, a region sum
    or a subset in their head the way they hold a lone cell."""
    return step.weight > easy or bool(chain_cases(step))


def _step_lines(step, measure: _Measure, width: float) -> list[tuple[float, str, bool]]:
    """A step's text as (indent, line, bold) lines: its sentence wrapped, or for a chain
    the assumption, one numbered link a paragraph (hanging indent) and the conclusion."""
    cases = chain_cases(step)
    if not cases:
        return [(0.0, line, False) for line in
                measure.wrap(f"{step_title(step)}: {step_text(step)}", TEXT_SIZE, width)]
    out = [(0.0, f"{step_title(step)}:", True)]
    hang = measure.width("(00) ", TEXT_SIZE)
    for case in cases:
        out.append((0.0, case.intro, False))
        for label, link in zip(link_labels(case.links), case.links, strict=True):
            end = ": a contradiction" if link.get("contradiction") else ""
            lines = measure.wrap(link["text"] + end, TEXT_SIZE, width - hang - 8)
            out.append((8.0, f"({label}) {lines[0]}", False))
            out += [(8.0 + hang, line, False) for line in lines[1:]]
    tail = chain_conclusion(step)
    if tail:
        out.append((0.0, tail, True))
    return out


class _Flow:
    """The walkthrough pages as they fill: the page being written, how far down it is
    (``y``), whether it has a board yet, and the puzzle whose walkthrough runs on
    (``current``: its title heads each page it continues on)."""

    def __init__(self, measure: _Measure):
        self.pages: list[_Page] = []
        self.width = A4[0] - 2 * MARGIN
        self.bottom = A4[1] - MARGIN
        self.indent = measure.width("000. ", TEXT_SIZE)
        self.page: _Page | None = None
        self.y = 0.0
        self.current = ""
        self.has_board = False

    def new_page(self) -> _Page:
        page = self.page = _Page(A4)
        page.text(MARGIN, MARGIN + 8, "Walkthroughs", 15, bold=True)
        if self.current:
            page.text(A4[0] - MARGIN, MARGIN + 8, f"{self.current} (continued)", TEXT_SIZE,
                      anchor="end", color="#666")
        self.pages.append(page)
        self.y = MARGIN + 40
        self.has_board = False
        return page

    def room(self, height: float) -> _Page:
        """The page to write ``height`` more points on: a new one when this one is full."""
        if self.page is None or self.y + height > self.bottom:
            return self.new_page()
        return self.page

    def board(self, svg: str, puzzle, max_h: float, key: tuple[int, int] | None,
              caption: str = "") -> None:
        page, indent = self.page, self.indent
        assert page is not None  # room() made one
        if caption:
            page.text(MARGIN + indent, self.y, caption, TEXT_SIZE, color="#444")
            self.y += TEXT_SIZE * LINE
        bw, bh = _board_size(puzzle)
        scale = min((self.width - indent) / bw, max_h / bh, DIAGRAM_CELL / S)
        page.board(svg, MARGIN + indent, self.y - TEXT_SIZE, scale)
        page.figures.append((key, MARGIN + indent, self.y - TEXT_SIZE, bw * scale,
                             bh * scale))
        self.y += bh * scale + 6
        self.has_board = True


def _walk_pages(entries: list[Entry], measure: _Measure) -> list[_Page]:
    """The walkthroughs: one numbered paragraph per step (a chain's links one a line),
    a board diagram under every step beyond the simplest tiers, and the board as it
    stands at the top of any page that would otherwise have none."""
    flow = _Flow(measure)
    for k, e in enumerate(entries, start=1):
        if e.explanation is not None:
            _walk_puzzle(flow, measure, k, e)
    return flow.pages


def _walk_puzzle(flow: _Flow, measure: _Measure, k: int, e: Entry) -> None:
    """Puzzle ``k``'s walkthrough, from where ``flow`` stands: its title and summary, then
    its steps."""
    exp = e.explanation
    assert exp is not None
    puzzle = exp.puzzle
    width, bottom, indent = flow.width, flow.bottom, flow.indent
    bw, bh = _board_size(puzzle)
    # a diagram takes at most DIAGRAM_SHARE of the page, a page's board STATE_SHARE
    diagram_h = min((width - indent) / bw, DIAGRAM_CELL / S,
                    DIAGRAM_SHARE * (bottom - MARGIN) / bh) * bh + 6
    state_h = min((width - indent) / bw, DIAGRAM_CELL / S,
                  STATE_SHARE * (bottom - MARGIN) / bh) * bh + 6
    flow.current = ""
    page = flow.room(60)
    flow.current = f"{k}. {e.title}"
    page.text(MARGIN, flow.y, flow.current, 12, bold=True)
    flow.y += 12 * LINE
    for line in measure.wrap(_summary(exp), TEXT_SIZE, width):
        page.text(MARGIN, flow.y, line, TEXT_SIZE, color="#444")
        flow.y += TEXT_SIZE * LINE
    flow.y += 4
    pos = start_position(puzzle)
    easy = easy_weight(exp)
    for step in exp.steps:
        lines = _step_lines(step, measure, width - indent)
        text_h = len(lines) * TEXT_SIZE * LINE
        diagram = needs_diagram(step, easy)
        page = flow.room(text_h + (diagram_h if diagram else 0.0))
        if not flow.has_board and not diagram:
            if flow.y + state_h + TEXT_SIZE * LINE + text_h > bottom:
                page = flow.new_page()
            flow.board(board_svg(puzzle, digits=position_digits(pos),
                                 candidates=shown_candidates(puzzle, pos), standalone=False),
                       puzzle, state_h - 6, None, f"The board before step {step.n}:")
        page.text(MARGIN + indent - 4, flow.y, f"{step.n}.", TEXT_SIZE, anchor="end",
                  color="#666")
        for dx, line, bold in lines:
            page.text(MARGIN + indent + dx, flow.y, line, TEXT_SIZE, bold=bold)
            flow.y += TEXT_SIZE * LINE
        if diagram:
            flow.board(diagram_svg(puzzle, pos, step, standalone=False), puzzle,
                       diagram_h - 6, (k, step.n))
        flow.y += 2
        advance(puzzle, pos, step)
    flow.y += 14


def _glossary_pages(entries: list[Entry], measure: _Measure) -> list[_Page]:
    """The techniques the walkthroughs use, each with its names, level and explanation:
    what a reader looks up when a step names a technique they do not know."""

    techs = used_in_all([e.explanation for e in entries if e.explanation is not None])
    pages: list[_Page] = []
    if not techs:
        return pages
    width = A4[0] - 2 * MARGIN
    bottom = A4[1] - MARGIN
    page = _Page(A4)
    pages.append(page)
    page.text(MARGIN, MARGIN + 8, "Glossary of the techniques used", 15, bold=True)
    y = MARGIN + 40
    style = {"name": (12.0, True, "#000", 6.0), "meta": (TEXT_SIZE, False, "#444", 2.0),
             "para": (TEXT_SIZE, False, "#000", 3.0), "look": (TEXT_SIZE, False, "#000", 3.0),
             "case": (TEXT_SIZE, False, "#444", 3.0)}
    for kind, text in glossary_lines(techs):
        size, bold, color, gap = style[kind]
        lines = measure.wrap(text, size, width, bold)
        need = len(lines) * size * LINE + (size * LINE * 3 if kind == "name" else 0)
        if y + need > bottom:
            page = _Page(A4)
            pages.append(page)
            page.text(MARGIN, MARGIN + 8, "Glossary (continued)", 15, bold=True)
            y = MARGIN + 40
        y += gap if kind == "name" and y > MARGIN + 40 else 0
        for line in lines:
            page.text(MARGIN, y, line, size, bold=bold, color=color)
            y += size * LINE
        y += gap
    return pages


def _summary(exp) -> str:
    r = exp.rating
    text = f"{len(exp.steps)} steps"
    if r is not None and r.level is not None:
        # "hardest step 2 (step 36)" read as if step 2 were the hardest: the weight is
        # named as one
        notes = f"{r.notes_text()}, " if r.notes is not None else ""
        text = (f"Level {r.level} (from step {r.level_step}), score {r.score:g}, {notes}hardest "
                f"step's weight {r.max_weight:g}, narrowest at step {r.narrowest_step}, "
                f"effort {r.effort}, " + text)
    elif r is not None:
        text = "Not rated: " + text
    if exp.status != "solved":
        text += f"; the walkthrough did not finish ({exp.message})"
    return text + "."


def book_pages(entries: list[Entry], *, walkthroughs: bool = False, measure=None
               ) -> list[_Page]:
    """The booklet's pages: puzzles, then solutions, then walkthroughs."""
    puzzles, solutions = [], []
    for k, e in enumerate(entries, start=1):
        bare = e.puzzle.without_progress()
        note = f" — {e.note}" if e.note else ""
        puzzles.append((f"{k}. {e.title}{note}", bare, puzzle_svg(bare, standalone=False)))
        if e.solution is not None:
            solutions.append((f"{k}. {e.title}", bare,
                              solution_svg(bare, e.solution, standalone=False)))
    pages = _board_pages(puzzles, "Puzzles", (2, 1), MIN_PUZZLE_CELL)
    pages += _board_pages(solutions, "Solutions", (4, 2, 1), MIN_SOLUTION_CELL)
    if walkthroughs:
        if measure is None:
            measure = _Measure(_cairo()[0])
        pages += _walk_pages(entries, measure)
        pages += _glossary_pages(entries, measure)
    for n, page in enumerate(pages, start=1):
        page.text(page.w / 2, page.h - MARGIN / 2, f"{n} / {len(pages)}", 8, anchor="middle",
                  color="#777")
    return pages


def pdf_bytes(pages: list[_Page], title: str = "Kakuro", progress=None) -> bytes:
    """Draw the pages onto one multi-page PDF (boards and text by cairo); ``progress(done,
    total)`` hears of each page drawn."""
    cairocffi, _ = _cairo()
    out = io.BytesIO()
    target = cairocffi.PDFSurface(out, *A4)
    try:
        target.set_metadata(cairocffi.PDF_METADATA_TITLE, title)
        target.set_metadata(cairocffi.PDF_METADATA_CREATOR, "deducer")
    except (AttributeError, cairocffi.CairoError):  # cairo older than 1.16
        pass

    drawer = Drawer(cairocffi)  # the boards drawn by cairo directly (cairodraw's docstring)
    ctx = cairocffi.Context(target)
    for n, page in enumerate(pages, 1):
        target.set_size(page.w, page.h)
        for svg, x, y, scale in page.boards:
            drawer.draw(ctx, svg, x, y, scale)
        page.draw_text(ctx, cairocffi)
        target.show_page()
        if progress is not None:
            progress(n, len(pages))
    target.finish()
    return out.getvalue()


def book(entries: list[Entry], *, walkthroughs: bool = False, title: str = "Kakuro",
         progress=None) -> bytes:
    """The booklet as PDF bytes (``progress(done, total)``: pages drawn)."""
    if not entries:
        raise DeducerError("no puzzles for the booklet")
    cairocffi, _ = _cairo()
    return pdf_bytes(book_pages(entries, walkthroughs=walkthroughs,
                                measure=_Measure(cairocffi)), title, progress)


class PdfRenderer(Renderer):
    name = "pdf"

    def solve(self, puzzle, result) -> bytes:  # type: ignore[override]  # a PDF is bytes
        sol = result.solutions[0] if result.solutions else None
        return book([Entry(puzzle.name or "puzzle", puzzle, sol)])

    def walkthrough(self, puzzle, explanation) -> bytes:  # type: ignore[override]
        return book([Entry(puzzle.name or "puzzle", puzzle, explanation.solution,
                           explanation=explanation)], walkthroughs=True)

    def book(self, entries: list[Entry], *, walkthroughs: bool = False,
             progress=None) -> bytes:
        return book(entries, walkthroughs=walkthroughs, progress=progress)


RENDERER = PdfRenderer()

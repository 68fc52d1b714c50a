"""SVG board in the usual Kakuro look, shared by ``deducer render`` and the HTML walkthrough.

Black clue squares are split by a diagonal (down sum lower-left, across sum upper-right);
white cells hold a digit (givens bold black, entries purple, placed digits blue, the digits
placed by the step on show orange) or candidates in a 3x3 mini-grid; parity puzzles shade
their even cells. A *position* (:mod:`deducer.render.position`) is the board after
replaying steps 1..k of a walkthrough; the marks of step k (its cells, its runs, its
eliminations struck out, its placements) are drawn on top of it.

Every white cell is a ``<g class="w" data-cell="r,c">`` (0-based) holding ``rect.bg``,
``text.d`` (the digit) and ``text.c`` candidates (``data-d``); every clue half is a
``<g class="cr" data-run="id">``. Highlights are classes: ``hl`` (cells of the step),
``run`` (cells of its runs), ``x`` on a struck candidate, ``n`` on a digit it placed.
"""

from __future__ import annotations

import functools
from xml.sax.saxutils import escape

from ..errors import DeducerError
from ..puzzle.combos import BIT
from ..puzzle.model import ACROSS, Coord, Puzzle
from . import Renderer
from .position import (
    Marks,
    Position,
    advance,
    combination_candidates,
    position_at,
    position_digits,
    shown_candidates,
    start_position,
    step_marks,
)
from .walk import (
    broken_cells,
    chain_arrows,
    chain_cases,
    link_anchor,
    outline_edges,
    proof_marks,
)

S = 40.0  # cell size
LABEL = 18.0  # room for the row / column numbers
PAD = 1.5  # half the outer border

DIGIT_CLASS = {"given": "g", "entry": "e", "placed": "p", "solution": "p", "new": "n",
               "assumed": "a", "link": "l"}
#: radius of a chain link's number badge. It sits on a corner of its cell, centred on the
#: grid's corner: the one place that covers no candidate of any of the four cells that meet
#: there (candidate 1 begins 4.6 px right of and 4 px below the corner, 6.1 px away)
BADGE_R = 6.0
#: the corners a cell's badges take in turn (as fractions of the cell): top-left first
BADGE_CORNERS = ((0, 0), (1, 0), (1, 1), (0, 1))

STYLE = """
text{font-family:'DejaVu Sans',Verdana,Arial,Helvetica,sans-serif}
.bg{fill:#fff;stroke:#555;stroke-width:1}
.even .bg{fill:#d4d4d4}
.pr .bg{fill:#e4eeff}
.even.pr .bg{fill:#c4ccd9}
.run .bg{fill:#fff3c0}
.even.run .bg{fill:#d8cc98}
.hl .bg{fill:#ffd24a}
.even.hl .bg{fill:#d9aa24}
.k{fill:#2e2e2e;stroke:#555;stroke-width:1}
.dg{stroke:#9a9a9a;stroke-width:1}
.tri{fill:none}
.cr.pr .tri{fill:#7ea6e6}
.cr.hl .tri{fill:#e0a800}
.ct{fill:#fff;font-size:13px;text-anchor:middle}
.cr.hl .ct{fill:#000;font-weight:bold}
.d{font-size:25px;text-anchor:middle;fill:#1f5fbf}
.d.g{fill:#000;font-weight:bold}
.d.e{fill:#6a3d9a}
.d.p{fill:#1f5fbf}
.d.n{fill:#d14400;font-weight:bold}
.c{font-size:10.5px;text-anchor:middle;fill:#4a4a4a}
.c.x{fill:#e00000}
.xl{stroke:#e00000;stroke-width:1.3}
.off{display:none}
.lb{font-size:9.5px;text-anchor:middle;fill:#8a8a8a}
.frame{fill:none;stroke:#222;stroke-width:3}
.pf .bg{stroke:#1f5fbf;stroke-width:3}
.as .bg{stroke:#b0179b;stroke-width:3.5;stroke-dasharray:5 3}
.d.a{fill:#b0179b;font-weight:bold}
.d.l{fill:#0f7d6d}
.bad .bg{fill:#ffc9c9}
.bd circle{fill:#b0179b;stroke:#fff;stroke-width:1}
.bd.old circle{fill:#9a9a9a}
.bd text{fill:#fff;font-size:9px;font-weight:bold;text-anchor:middle}
.bd text.n2{font-size:7px}
.in .bg{fill:#d9f0d3}
.even.in .bg{fill:#b3c9ad}
.in.lo .bg{fill:#9fd894}
.out .bg{fill:#ead9f7}
.even.out .bg{fill:#c6b6d3}
.out.lo .bg{fill:#d2b3ef}
.cr.in .tri{fill:#4caf50}
.cr.out .tri{fill:#9c6ad0}
.cr.in .ct,.cr.out .ct{fill:#000;font-weight:bold}
.rgn{fill:none;stroke:#1b7a2a;stroke-width:4;stroke-linecap:square}
.ar line{stroke:#b0179b;stroke-width:2.6;stroke-opacity:.8}
.ar polygon{fill:#b0179b;fill-opacity:.85}
.ar.old line{stroke:#8a8a8a}
.ar.old polygon{fill:#8a8a8a}
"""


@functools.lru_cache(maxsize=1 << 16)  # a board repeats a few thousand coordinates
def num(v: float) -> str:
    """Compact coordinates: at most one decimal, no trailing zeros."""
    s = f"{v:.1f}"
    return s[:-2] if s.endswith(".0") else s


# ---- drawing ------------------------------------------------------------------------------


def _cand_xy(x0: float, y0: float, d: int) -> tuple[float, float]:
    """Centre of candidate ``d`` in the cell whose top-left corner is (x0, y0)."""
    col, row = (d - 1) % 3, (d - 1) // 3
    return x0 + S * (0.2 + 0.3 * col), y0 + S * (0.2 + 0.3 * row)


def board_svg(puzzle: Puzzle, *, digits: dict[Coord, tuple[int, str]] | None = None,
              candidates: dict[Coord, int] | None = None, marks: Marks | None = None,
              labels: bool = True, interactive: bool = False, ident: str | None = None,
              title: str | None = None, standalone: bool = True) -> str:
    """The board as SVG text.

    ``digits``: coord -> (digit, kind) with kind given | entry | placed | solution | new.
    ``candidates``: coord -> mask drawn in the 3x3 mini-grid of cells without a digit.
    ``marks``: the highlights of one step. ``interactive``: every cell carries its digit
    node and all nine candidate nodes (hidden with ``off``) for a script to toggle.
    """
    digits = digits or {}
    candidates = candidates or {}
    marks = marks or Marks()
    off = LABEL if labels else 0.0
    width = off + puzzle.cols * S + 2 * PAD
    height = off + puzzle.rows * S + 2 * PAD
    ox, oy = off + PAD, off + PAD
    run_cells: set[Coord] = set()
    for rid in marks.runs:
        run_cells.update(puzzle.runs[rid].coords)
    even = puzzle.even or frozenset()
    clue_runs: dict[tuple[Coord, str], int] = {
        (run.clue_at, run.direction): run.id for run in puzzle.runs if run.clue_at is not None
    }

    out = _svg_open(puzzle, width, height, off, labels, ident, title, standalone)
    strikes: list[str] = []
    # a cell's coordinates come from its column and row: formatted once each, so that a
    # 200x200 board (32,400 cells, 290,000 candidate nodes) costs a string join a cell
    col_x = [ox + c * S for c in range(puzzle.cols)]
    row_y = [oy + r * S for r in range(puzzle.rows)]
    plain_cols = _plain_cell_templates(col_x) if interactive else None
    marked = (run_cells or marks.cells or marks.facts or marks.assumed or marks.broken
              or marks.new or marks.inside)
    for r, row in enumerate(puzzle.squares):
        y0 = row_y[r]
        plain_row = _plain_cell_rows(y0) if interactive else None
        for c, sq in enumerate(row):
            x0 = col_x[c]
            if not sq.white:
                out.append(_black(sq, r, c, x0, y0, clue_runs, marks))
                continue
            rc = (r, c)
            if (plain_cols is not None and not marked and rc not in digits
                    and not candidates.get(rc, 0) and not marks.struck.get(rc, 0)):
                # the common cell of an interactive board: empty, nine hidden candidates
                out.append(f'<g class="{"w even" if rc in even else "w"}" '
                           f'data-cell="{r},{c}">')
                out.append(plain_cols[c] % plain_row)
                out.append("</g>")
                continue
            cls = _cell_classes(rc, even, run_cells, marks)
            out.append(f'<g class="{cls}" data-cell="{r},{c}">')
            out.append(f'<rect class="bg" x="{num(x0)}" y="{num(y0)}" width="{num(S)}" '
                       f'height="{num(S)}"/>')
            # an assumption's digit over a step's new one over the board's
            digit = ((marks.assumed[rc], "assumed") if rc in marks.assumed
                     else (marks.new[rc], "new") if rc in marks.new else digits.get(rc))
            dx, dy = num(x0 + S / 2), num(y0 + S / 2 + 9)
            if digit is not None:
                out.append(f'<text class="d {DIGIT_CLASS[digit[1]]}" x="{dx}" y="{dy}">'
                           f"{digit[0]}</text>")
            elif interactive:
                out.append(f'<text class="d" x="{dx}" y="{dy}"></text>')
            shown = 0 if digit is not None else candidates.get(rc, 0)
            struck = 0 if digit is not None else marks.struck.get(rc, 0)
            _candidates(out, strikes, x0, y0, shown, struck, interactive)
            out.append("</g>")
    out.append(f'<g id="{ident}-strikes">' if ident else "<g>")
    out.extend(strikes)
    out.append("</g>")
    out.append(f'<rect class="frame" x="{num(ox)}" y="{num(oy)}" '
               f'width="{num(puzzle.cols * S)}" height="{num(puzzle.rows * S)}"/>')
    # a region sum's area, outlined over the frame too (an empty path on a board the
    # walkthrough's script draws on)
    _overlays(out, puzzle, marks, ox, oy, ident, interactive)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _svg_open(puzzle: Puzzle, width: float, height: float, off: float, labels: bool,
              ident: str | None, title: str | None, standalone: bool) -> list[str]:
    """The board's first lines: the ``<svg>`` tag, its title and style, and the row and
    column numbers (``labels``, in a margin of ``off``)."""
    out: list[str] = []
    ox, oy = off + PAD, off + PAD
    attrs = [f'viewBox="0 0 {num(width)} {num(height)}"', f'width="{num(width)}"',
             f'height="{num(height)}"', 'preserveAspectRatio="xMinYMin meet"',
             'class="kakuro"']
    if ident:
        attrs.insert(0, f'id="{ident}"')
    if standalone:
        attrs.insert(0, 'xmlns="http://www.w3.org/2000/svg"')
    out.append(f"<svg {' '.join(attrs)} role=\"img\">")
    if title:
        out.append(f"<title>{escape(title)}</title>")
    out.append(f"<style>{STYLE}</style>")
    if labels:
        for c in range(puzzle.cols):
            out.append(f'<text class="lb" x="{num(ox + (c + 0.5) * S)}" y="{num(off - 5)}">'
                       f"{c + 1}</text>")
        for r in range(puzzle.rows):
            out.append(f'<text class="lb" x="{num(off / 2)}" y="{num(oy + (r + 0.5) * S + 3.5)}">'
                       f"{r + 1}</text>")
    return out


def _cell_classes(rc: Coord, even: frozenset[Coord], run_cells: set[Coord],
                  marks: Marks) -> str:
    """A white cell's CSS classes: parity, and what the step's marks make of it."""
    cls = ["w"]
    if rc in even:
        cls.append("even")
    if rc in run_cells:
        cls.append("run")
    if rc in marks.cells:
        cls.append("hl")
    if rc in marks.facts:
        cls.append("pf")
    if rc in marks.assumed:
        cls.append("as")
    if rc in marks.broken:
        cls.append("bad")
    if rc in marks.inside:
        cls.append("in")
    elif rc in marks.outside:
        cls.append("out")
    if rc in marks.left:
        cls.append("lo")
    return " ".join(cls)


def _candidates(out: list[str], strikes: list[str], x0: float, y0: float, shown: int,
                struck: int, interactive: bool) -> None:
    """A cell's candidate nodes (all nine, hidden with ``off``, on an interactive board);
    a struck one's strike line goes to ``strikes``, drawn over every cell."""
    for d in range(1, 10):
        b = BIT[d]
        visible = bool((shown | struck) & b)
        if not (visible or interactive):
            continue
        cx, cy = _cand_xy(x0, y0, d)
        k = "c"
        if struck & b:
            k += " x"
            strikes.append(f'<line class="xl" x1="{num(cx - 4.5)}" y1="{num(cy + 4.5)}" '
                           f'x2="{num(cx + 4.5)}" y2="{num(cy - 4.5)}"/>')
        if not visible:
            k += " off"
        out.append(f'<text class="{k}" data-d="{d}" x="{num(cx)}" y="{num(cy + 3.7)}">'
                   f"{d}</text>")


def _overlays(out: list[str], puzzle: Puzzle, marks: Marks, ox: float, oy: float,
              ident: str | None, interactive: bool) -> None:
    """Over the frame: a region sum's outline, the chain's arrows and the badges (empty
    groups on a board a script draws on)."""
    outline = outline_path(marks.inside, ox, oy)
    if outline or interactive:
        region_id = f' id="{ident}-region"' if ident else ""
        out.append(f'<path{region_id} class="rgn" d="{outline}"/>')
    out.append(f'<g id="{ident}-arrows">' if ident else "<g>")
    out.extend(arrow(ox + a[1] * S, oy + a[0] * S, ox + b[1] * S, oy + b[0] * S)
               for a, b in marks.arrows)
    out.append("</g>")
    out.append(f'<g id="{ident}-badges">' if ident else "<g>")  # over the frame too
    for (r, c), n, corner in badge_places(marks.badges, puzzle.rows, puzzle.cols):
        out.append(badge(ox + c * S, oy + r * S, n, corner=corner))
    out.append("</g>")


def outline_path(cells, ox: float, oy: float) -> str:
    """The SVG path data of the border of ``cells`` on a board whose top-left grid corner
    is at (ox, oy) ("" for no cells)."""
    return "".join(f"M{num(ox + a[1] * S)} {num(oy + a[0] * S)}H{num(ox + b[1] * S)}"
                   if a[0] == b[0] else
                   f"M{num(ox + a[1] * S)} {num(oy + a[0] * S)}V{num(oy + b[0] * S)}"
                   for a, b in outline_edges(cells))


#: an arrow between two cells starts this far from the first cell's centre and ends this
#: far from the second's, with a head this long and half as wide as ARROW_HEAD * 0.55
ARROW_FROM, ARROW_TO, ARROW_HEAD = 8.0, 9.0, 9.0


def arrow(x0: float, y0: float, x1: float, y1: float, old: bool = False) -> str:
    """An arrow from the centre of the cell whose top-left corner is (x0, y0) to that of
    the cell at (x1, y1), kept off both centres (the script of the HTML walkthrough draws
    the same, ``arrowAt``)."""
    ax, ay, bx, by = x0 + S / 2, y0 + S / 2, x1 + S / 2, y1 + S / 2
    dx, dy = bx - ax, by - ay
    n = (dx * dx + dy * dy) ** 0.5 or 1.0
    ux, uy = dx / n, dy / n
    sx, sy = ax + ux * ARROW_FROM, ay + uy * ARROW_FROM
    tx, ty = bx - ux * ARROW_TO, by - uy * ARROW_TO
    hx, hy = tx - ux * ARROW_HEAD, ty - uy * ARROW_HEAD
    w = ARROW_HEAD * 0.55
    pts = (f"{num(tx)},{num(ty)} {num(hx - uy * w)},{num(hy + ux * w)} "
           f"{num(hx + uy * w)},{num(hy - ux * w)}")
    return (f'<g class="ar{" old" if old else ""}"><line x1="{num(sx)}" y1="{num(sy)}" '
            f'x2="{num(hx)}" y2="{num(hy)}"/><polygon points="{pts}"/></g>')


def _plain_cell_templates(col_x: list[float]) -> list[str]:
    """Per column, the inside of an empty interactive cell (its background, its empty digit
    node, its nine hidden candidates; joined as :func:`board_svg` joins its lines) as a
    ``%`` template of the row's y coordinates (:func:`_plain_cell_rows`)."""
    out = []
    for x0 in col_x:
        lines = [f'<rect class="bg" x="{num(x0)}" y="%s" width="{num(S)}" height="{num(S)}"/>',
                 f'<text class="d" x="{num(x0 + S / 2)}" y="%s"></text>']
        for d in range(1, 10):
            cx, _ = _cand_xy(x0, 0.0, d)
            lines.append(f'<text class="c off" data-d="{d}" x="{num(cx)}" y="%s">{d}</text>')
        out.append("\n".join(lines))  # no "%" in them but the placeholders
    return out


def _plain_cell_rows(y0: float) -> tuple[str, ...]:
    """The y coordinates :func:`_plain_cell_templates`' template takes for a row at ``y0``."""
    ys = [num(y0), num(y0 + S / 2 + 9)]
    ys += [num(_cand_xy(0.0, y0, d)[1] + 3.7) for d in range(1, 10)]
    return tuple(ys)


def badge_places(badges: dict[Coord, list[int]], rows: int, cols: int
                 ) -> list[tuple[Coord, int, int]]:
    """Where each link number goes: (cell, number, corner of :data:`BADGE_CORNERS`). A
    cell's first number takes its top-left corner (no other cell's can: a white cell's
    top-left corner is inside the board); a second, third and fourth take the first of
    its other corners that no number holds and that is not on the board's edge (where
    half the badge would be cut off), else the top-left one again, over the first."""
    taken = {rc for rc in badges}  # grid corners, named by the cell below-right of them
    out = []
    for (r, c), ks in sorted(badges.items()):
        for j, n in enumerate(ks):
            corner = 0
            if j:
                for k in range(1, len(BADGE_CORNERS)):
                    fx, fy = BADGE_CORNERS[k]
                    at = (r + fy, c + fx)
                    if at not in taken and at[0] < rows and at[1] < cols:
                        corner = k
                        taken.add(at)
                        break
            out.append(((r, c), n, corner))
    return out


def badge(x0: float, y0: float, k: int, old: bool = False, corner: int = 0) -> str:
    """Link ``k``'s number on the cell whose top-left corner is (x0, y0), centred on the
    cell's ``corner``-th corner (:data:`BADGE_CORNERS`): it covers no candidate."""
    fx, fy = BADGE_CORNERS[corner % len(BADGE_CORNERS)]
    cx, cy = x0 + fx * S, y0 + fy * S
    two = ' class="n2"' if k >= 10 else ""
    return (f'<g class="bd{" old" if old else ""}"><circle cx="{num(cx)}" cy="{num(cy)}" '
            f'r="{num(BADGE_R)}"/><text{two} x="{num(cx)}" y="{num(cy + 3.2)}">{k}</text></g>')


def _black(sq, r: int, c: int, x0: float, y0: float, clue_runs, marks: Marks) -> str:
    parts = [f'<rect class="k" x="{num(x0)}" y="{num(y0)}" width="{num(S)}" height="{num(S)}"/>']
    if sq.is_clue:
        x1, y1 = x0 + S, y0 + S
        parts.append(f'<line class="dg" x1="{num(x0)}" y1="{num(y0)}" x2="{num(x1)}" '
                     f'y2="{num(y1)}"/>')
        halves = (
            # down: lower-left triangle; across: upper-right triangle
            (sq.down, "D", f"{num(x0)},{num(y0)} {num(x0)},{num(y1)} {num(x1)},{num(y1)}",
             x0 + S * 0.3, y0 + S * 0.86),
            (sq.across, ACROSS, f"{num(x0)},{num(y0)} {num(x1)},{num(y0)} {num(x1)},{num(y1)}",
             x0 + S * 0.7, y0 + S * 0.4),
        )
        for total, direction, pts, tx, ty in halves:
            if total is None:
                continue
            rid = clue_runs.get(((r, c), direction))
            cls = "cr hl" if rid is not None and rid in marks.runs else "cr"
            if rid is not None and rid in marks.region_runs:
                cls += " " + marks.region_runs[rid]
            run_attr = f' data-run="{rid}"' if rid is not None else ""
            parts.append(f'<g class="{cls}"{run_attr}><polygon class="tri" points="{pts}"/>'
                         f'<text class="ct" x="{num(tx)}" y="{num(ty)}">{total}</text></g>')
    return "".join(parts)


# ---- ready-made boards --------------------------------------------------------------------


def puzzle_svg(puzzle: Puzzle, *, candidates: bool = False, **kw) -> str:
    """The puzzle as given: clues, givens, the player's entries (and candidates)."""
    pos = start_position(puzzle)
    cands = combination_candidates(puzzle, pos) if candidates else None
    return board_svg(puzzle, digits=position_digits(pos), candidates=cands, **kw)


def solution_svg(puzzle: Puzzle, values: list[int], **kw) -> str:
    """A full solution (one digit per white cell index); givens stay bold."""
    pos = start_position(puzzle)
    digits = {rc: (v, pos.kinds.get(rc, "solution"))
              for rc, v in zip(puzzle.whites, values, strict=True)}
    return board_svg(puzzle, digits=digits, **kw)


def step_svg(puzzle: Puzzle, explanation, k: int, *, candidates: bool = True,
             show_all: bool = False, **kw) -> str:
    """The board after steps 1..k of a walkthrough, with step k's marks (k = 0: start); a
    chain step k shows its chain on the board before it."""
    steps = explanation.steps
    if not 0 <= k <= len(steps):
        raise DeducerError(f"the walkthrough has steps 1..{len(steps)}; there is no step {k}")
    if k and chain_cases(steps[k - 1]) and not show_all:
        # a chain is drawn on the board it starts from, link by link (see diagram_svg)
        return diagram_svg(puzzle, position_at(puzzle, steps, k - 1), steps[k - 1],
                           candidates=candidates, **kw)
    pos = position_at(puzzle, steps, k)
    marks = step_marks(puzzle, steps[k - 1]) if k else None
    cands = shown_candidates(puzzle, pos, marks, show_all=show_all) if candidates else None
    return board_svg(puzzle, digits=position_digits(pos), candidates=cands, marks=marks, **kw)


def chain_marks(puzzle: Puzzle, case) -> tuple[Marks, dict[Coord, tuple[int, str]]]:
    """A whole chain on one board (a :class:`walk.ChainCase`): the assumed digit, every
    link's number once (on the cell it writes in, else the first it narrows, else where
    it breaks), the digits its links write, and the cells where it breaks; and those
    digits, to draw."""
    marks = Marks(assumed={case.cell: case.digit})
    digits: dict[Coord, tuple[int, str]] = {}
    for k, link in enumerate(case.links, start=1):
        for r, c, d in link.get("placements", ()):
            digits[(r, c)] = (d, "link")
        if link.get("contradiction"):
            marks.broken = broken_cells(puzzle, link)
        at = link_anchor(puzzle, link)
        if at is not None:
            marks.badges.setdefault(at, []).append(k)
    marks.arrows = [(a, b) for a, b, _ in chain_arrows(puzzle, case)]
    return marks, digits


def diagram_svg(puzzle: Puzzle, before: Position, step, *, candidates: bool = True,
                **kw) -> str:
    """One step on paper: the board with the step's marks (its cells and runs, the cells
    whose candidates its proof uses, what it removes and writes); a chain step shows the
    board before it with its first assumption and links (:func:`chain_marks`)."""
    cases = chain_cases(step)
    if cases:
        marks, extra = chain_marks(puzzle, cases[0])
        digits = {**position_digits(before), **extra}
        cands = shown_candidates(puzzle, before) if candidates else None
        return board_svg(puzzle, digits=digits, candidates=cands, marks=marks, **kw)
    pos = before.copy()
    advance(puzzle, pos, step)
    marks = step_marks(puzzle, step)
    marks.facts = proof_marks(puzzle, step)[0]
    cands = shown_candidates(puzzle, pos, marks) if candidates else None
    return board_svg(puzzle, digits=position_digits(pos), candidates=cands, marks=marks, **kw)


def to_png(svg_text: str, scale: float = 2.0) -> bytes:
    """Rasterise with cairosvg (an optional dependency)."""
    try:
        import cairosvg
    except (ImportError, OSError):  # OSError: the package is there but libcairo is not

        raise DeducerError("--png needs the optional package cairosvg (and the cairo library): "
                           "pip install cairosvg (from a checkout: pip install '.[png]')"
                           ) from None
    return cairosvg.svg2png(bytestring=svg_text.encode("utf-8"), scale=scale)


class SvgRenderer(Renderer):
    name = "svg"

    def solve(self, puzzle, result) -> str:
        if result.solutions:
            return solution_svg(puzzle, result.solutions[0])
        return puzzle_svg(puzzle)

    def walkthrough(self, puzzle, explanation) -> str:
        return step_svg(puzzle, explanation, len(explanation.steps))


RENDERER = SvgRenderer()


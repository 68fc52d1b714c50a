"""The PDF booklet (issue 55): boards drawn by cairo directly, checked against cairosvg
(an independent SVG renderer) pixel by pixel; titles with level and score; progress."""

from __future__ import annotations

from pathlib import Path

import pytest

from deducer.api import explain
from deducer.puzzle import formats
from deducer.render.position import advance, position_digits, shown_candidates, start_position
from deducer.render.svg import board_svg, diagram_svg, puzzle_svg, solution_svg
from deducer.render.walk import chain_cases

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"


def _libs():
    try:
        import cairocffi
        import cairosvg
        from PIL import Image
    except (ImportError, OSError):
        pytest.skip("cairosvg or libcairo missing (pip install '.[png]')")
    return cairocffi, cairosvg, Image


def _boards() -> list[tuple[str, str]]:
    """Every kind of board the booklet draws: a bare puzzle, a parity one, a solution, a
    board state with candidates, and diagrams of chain steps (dashed assumed cell, link
    badges, struck candidates) and of other steps."""
    trial = formats.load(PUZZLES / "deducer-trial.txt")
    exp = explain(trial)
    out = [("puzzle", puzzle_svg(trial, standalone=True)),
           ("solution", solution_svg(trial, exp.solution, standalone=True))]
    cond = formats.load(PUZZLES / "seed003-example.txt")
    out.append(("parity", puzzle_svg(cond, standalone=True)))
    pos = start_position(trial)
    chains = 0
    for s in exp.steps:
        if chain_cases(s) and chains < 2:
            chains += 1
            out.append((f"chain {s.n}", diagram_svg(trial, pos, s, standalone=True)))
        elif s.n in (3, 20):
            out.append((f"step {s.n}", diagram_svg(trial, pos, s, standalone=True)))
            out.append((f"state {s.n}", board_svg(
                trial, digits=position_digits(pos),
                candidates=shown_candidates(trial, pos), standalone=True)))
        advance(trial, pos, s)
    assert chains == 2
    assert any('class="ar' in svg for _, svg in out)  # the chains' arrows are drawn
    # a region sum's marks: its area outlined (a path), the cells beyond it, one group's
    from deducer.render.position import Marks

    whites = list(trial.whites)
    marks = Marks(inside=set(whites[:7]), outside=set(whites[7:10]), left={whites[3]},
                  cells={whites[12]})
    out.append(("region", board_svg(trial, marks=marks, standalone=True)))
    assert "<path" in out[-1][1]
    return out


def test_boards_drawn_by_cairo_match_cairosvg():
    cairocffi, cairosvg, Image = _libs()
    import io
    import re

    from deducer.render.cairodraw import Drawer

    drawer = Drawer(cairocffi)
    for what, svg in _boards():
        w, h = (int(float(v)) for v in re.search(r'width="([\d.]+)" height="([\d.]+)"',
                                                 svg).groups())
        ref = Image.open(io.BytesIO(cairosvg.svg2png(bytestring=svg.encode(),
                                                     background_color="white")))
        surf = cairocffi.ImageSurface(cairocffi.FORMAT_ARGB32, w, h)
        ctx = cairocffi.Context(surf)
        ctx.set_source_rgb(1, 1, 1)
        ctx.paint()
        drawer.draw(ctx, svg, 0, 0, 1.0)
        buf = io.BytesIO()
        surf.write_to_png(buf)
        mine = Image.open(io.BytesIO(buf.getvalue())).convert("RGB")
        ref = ref.convert("RGB")
        assert mine.size == ref.size, what
        # the same shapes, colours and glyphs, seen 4x4 pixels at a time: a glyph placed a
        # pixel apart (hinting) averages out, a missing fill or digit does not
        small = (max(1, w // 4), max(1, h // 4))
        a = mine.resize(small, Image.BOX).tobytes()
        b = ref.resize(small, Image.BOX).tobytes()
        off = sum(1 for k in range(0, len(a), 3)
                  if max(abs(a[k + i] - b[k + i]) for i in range(3)) > 48)
        assert off / (small[0] * small[1]) < 0.005, (what, off / (small[0] * small[1]))
        colours = len(set(mine.tobytes()[k:k + 3] for k in range(0, w * h * 3, 3)))
        assert colours > 20, what  # drawn, not blank


def test_the_drawer_refuses_what_it_cannot_draw():
    cairocffi, _, _ = _libs()
    from deducer.render.cairodraw import Drawer

    surf = cairocffi.ImageSurface(cairocffi.FORMAT_ARGB32, 10, 10)
    with pytest.raises(ValueError, match="cannot draw <ellipse>"):
        Drawer(cairocffi).draw(cairocffi.Context(surf), "<svg><ellipse rx=\"1\"/></svg>", 0, 0, 1)

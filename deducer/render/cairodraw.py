"""Draw deducer's own board SVG (:mod:`deducer.render.svg`) straight onto a cairo context.

The PDF booklet drew every board through cairosvg, a general SVG renderer: for each of
tens of thousands of nodes it matched the CSS selectors, deep-copied the node and parsed
its URLs, and a five-puzzle 12x12 walkthrough booklet (153 pages, ~95,000 nodes) took 47
CPU seconds, four fifths of them in cairosvg. The boards use a small, fixed part of SVG
(``svg``, ``g``, ``rect``, ``line``, ``polygon``, ``circle``, ``path`` of straight lines,
``text`` with ``x``/``y``,
styled by the classes of :data:`deducer.render.svg.STYLE`), so this module draws that part
itself: the stylesheet is read once, each element's style is looked up by the classes of
its ancestors and itself (cached), and cairo draws it. Anything else in the text is
refused (:class:`ValueError`), so a board feature added to svg.py without its drawing here
fails loudly in the tests rather than vanishing from the booklet.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from html import unescape

_TAG = re.compile(r"<(/?)([A-Za-z]+)((?:\s+[\w:-]+=\"[^\"]*\")*)\s*(/?)>|([^<]+)")
_ATTR = re.compile(r"([\w:-]+)=\"([^\"]*)\"")
_RULE = re.compile(r"([^{}]+)\{([^}]*)\}")
#: properties a child takes from its parent (SVG's inherited properties, those STYLE uses)
_INHERITED = ("fill", "stroke", "stroke-width", "stroke-dasharray", "font-size",
              "font-weight", "text-anchor", "font-family", "stroke-linecap", "fill-opacity",
              "stroke-opacity")
_DRAWN = {"svg", "g", "rect", "line", "polygon", "circle", "path", "text", "style", "title"}
#: a path's commands and numbers (the region outline: ``M x y H x``, ``M x y V y``)
_PATH = re.compile(r"([MLHVZmlhvz])|(-?[0-9]*\.?[0-9]+(?:e-?[0-9]+)?)")
_DEFAULT = {"fill": "#000", "stroke": "none", "stroke-width": "1", "font-size": "16px",
            "font-weight": "normal", "text-anchor": "start"}
FONT = "DejaVu Sans"


def _compound(text: str) -> tuple[str | None, frozenset[str]]:
    """``text.a.b`` -> ("text", {"a", "b"}); ``.a`` -> (None, {"a"})."""
    head, *classes = text.split(".")
    return (head or None), frozenset(classes)


@lru_cache(maxsize=4)
def _rules(style: str) -> tuple:
    """The stylesheet's rules: (specificity, order, selector compounds, declarations)."""
    out = []
    for order, (selector, body) in enumerate(_RULE.findall(style)):
        decls = {}
        for decl in body.split(";"):
            if ":" in decl:
                k, v = decl.split(":", 1)
                decls[k.strip()] = v.strip()
        for sel in selector.split(","):
            parts = tuple(_compound(p) for p in sel.split())
            spec = (sum(len(c) for _, c in parts), sum(t is not None for t, _ in parts))
            out.append((spec, order, parts, decls))
    out.sort(key=lambda r: (r[0], r[1]))
    return tuple(out)


def _matches(parts, chain) -> bool:
    """Does the descendant selector ``parts`` match the last element of ``chain`` (a tuple
    of (tag, classes) from the root down)?"""
    def fits(part, node) -> bool:
        tag, classes = part
        return (tag is None or tag == node[0]) and classes <= node[1]

    if not fits(parts[-1], chain[-1]):
        return False
    k = len(chain) - 2
    for part in reversed(parts[:-1]):
        while k >= 0 and not fits(part, chain[k]):
            k -= 1
        if k < 0:
            return False
        k -= 1
    return True


class Drawer:
    """Draws board SVG text onto cairo contexts (one per booklet: its caches live here)."""

    def __init__(self, cairocffi):
        self.cairo = cairocffi
        self.faces = {w: cairocffi.ToyFontFace(FONT, cairocffi.FONT_SLANT_NORMAL, w)
                      for w in (cairocffi.FONT_WEIGHT_NORMAL, cairocffi.FONT_WEIGHT_BOLD)}
        self.styles: dict = {}
        self.rules: tuple = ()
        self.sheet = ""
        self.extents: dict = {}
        self.root = dict(_DEFAULT)

    def _style(self, chain, parent: dict) -> dict:
        key = (chain, id(parent))
        got = self.styles.get(key)
        if got is None:
            own: dict = {}
            for _, _, parts, decls in self.rules:
                if _matches(parts, chain):
                    own.update(decls)
            got = {k: v for k, v in parent.items() if k in _INHERITED}
            got.update(own)
            got["display"] = own.get("display", "inline")
            self.styles[key] = got
        return got

    @staticmethod
    def _rgb(color: str) -> tuple[float, float, float] | None:
        if color in ("none", "transparent"):
            return None
        c = color.lstrip("#")
        if len(c) == 3:
            return tuple(int(ch, 16) / 15 for ch in c)  # type: ignore[return-value]
        if len(c) == 6:
            return tuple(int(c[i:i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore
        return (0.0, 0.0, 0.0)

    def _paint(self, ctx, style: dict) -> None:
        fill = self._rgb(style.get("fill", "#000"))
        stroke = self._rgb(style.get("stroke", "none"))
        if fill is not None:
            ctx.set_source_rgba(*fill, float(style.get("fill-opacity", "1")))
            if stroke is not None:
                ctx.fill_preserve()
            else:
                ctx.fill()
        if stroke is not None:
            ctx.set_source_rgba(*stroke, float(style.get("stroke-opacity", "1")))
            ctx.set_line_width(float(style.get("stroke-width", "1").rstrip("px")))
            dash = style.get("stroke-dasharray")
            ctx.set_dash([float(v) for v in dash.replace(",", " ").split()] if dash else [])
            ctx.set_line_cap(_CAPS[style.get("stroke-linecap", "butt")])
            ctx.stroke()
        ctx.new_path()

    def _text(self, ctx, style: dict, x: float, y: float, text: str) -> None:
        color = self._rgb(style.get("fill", "#000"))
        if color is None or not text:
            return
        bold = style.get("font-weight", "normal") == "bold"
        weight = self.cairo.FONT_WEIGHT_BOLD if bold else self.cairo.FONT_WEIGHT_NORMAL
        size = float(style.get("font-size", "16px").rstrip("px"))
        ctx.set_font_face(self.faces[weight])
        ctx.set_font_size(size)
        anchor = style.get("text-anchor", "start")
        shift = 0.0
        if anchor != "start":
            key = (text, size, bold)
            advance = self.extents.get(key)
            if advance is None:
                advance = self.extents[key] = ctx.text_extents(text)[4]
            shift = advance if anchor == "end" else advance / 2
        ctx.set_source_rgb(*color)
        ctx.move_to(x - shift, y)
        ctx.show_text(text)

    def draw(self, ctx, svg: str, x: float, y: float, scale: float) -> None:
        """Draw ``svg`` (a board of :mod:`deducer.render.svg`) with its top-left corner at
        (x, y), ``scale`` points a user unit."""
        ctx.save()
        ctx.translate(x, y)
        ctx.scale(scale, scale)
        chain: list[tuple[str, frozenset[str]]] = []
        styles: list[dict] = [self.root]
        hidden = 0  # depth inside a display:none element
        pending: tuple | None = None  # an open <text>: (style, x, y)
        skip = False  # inside <style> or <title>
        for m in _TAG.finditer(svg):
            close, tag, attrs, selfclose, body = m.groups()
            if body is not None:
                if pending is not None and not skip:
                    words = body.strip()
                    if words:
                        st, tx, ty = pending
                        self._text(ctx, st, tx, ty, _unescape(words))
                elif skip and chain and chain[-1][0] == "style" and body != self.sheet:
                    self.sheet = body
                    self.rules = _rules(body)
                    self.styles.clear()
                continue
            if tag not in _DRAWN:
                raise ValueError(f"the booklet cannot draw <{tag}> (render/cairodraw.py)")
            if close:
                chain.pop()
                styles.pop()
                if hidden:
                    hidden -= 1
                pending = None
                skip = False
                continue
            a = dict(_ATTR.findall(attrs)) if attrs else {}
            node = (tag, frozenset(a.get("class", "").split()))
            chain.append(node)
            style = self._style(tuple(chain), styles[-1])
            styles.append(style)
            if hidden or style["display"] == "none":
                hidden += 1
            if tag in ("style", "title"):
                skip = True
            elif not hidden:
                self._shape(ctx, tag, a, style)
                if tag == "text":
                    pending = (style, float(a["x"]), float(a["y"]))
            if selfclose:
                chain.pop()
                styles.pop()
                if hidden:
                    hidden -= 1
        ctx.restore()

    def _shape(self, ctx, tag: str, a: dict, style: dict) -> None:
        if tag == "rect":
            ctx.rectangle(float(a["x"]), float(a["y"]), float(a["width"]), float(a["height"]))
        elif tag == "line":
            ctx.move_to(float(a["x1"]), float(a["y1"]))
            ctx.line_to(float(a["x2"]), float(a["y2"]))
        elif tag == "polygon":
            pts = [tuple(map(float, p.split(","))) for p in a["points"].split()]
            ctx.move_to(*pts[0])
            for p in pts[1:]:
                ctx.line_to(*p)
            ctx.close_path()
        elif tag == "path":
            _path(ctx, a.get("d", ""))
        elif tag == "circle":
            ctx.arc(float(a["cx"]), float(a["cy"]), float(a["r"]), 0, 2 * math.pi)
        else:
            return
        self._paint(ctx, style)


#: cairo's line caps by SVG's names (0 butt, 1 round, 2 square)
_CAPS = {"butt": 0, "round": 1, "square": 2}


def _path(ctx, d: str) -> None:
    """A path of straight lines (M, L, H, V, Z, absolute or relative)."""
    cmd = "M"
    nums: list[float] = []
    x = y = sx = sy = 0.0

    def flush() -> None:
        nonlocal x, y, sx, sy, cmd
        rel = cmd.islower()
        c = cmd.upper()
        if c == "Z":
            ctx.close_path()
            x, y = sx, sy
            return
        step = 2 if c in "ML" else 1
        for k in range(0, len(nums) - step + 1, step):
            if c == "H":
                x = x + nums[k] if rel else nums[k]
            elif c == "V":
                y = y + nums[k] if rel else nums[k]
            else:
                x, y = (x + nums[k], y + nums[k + 1]) if rel else (nums[k], nums[k + 1])
            if c == "M" and k == 0:
                ctx.move_to(x, y)
                sx, sy = x, y
            else:
                ctx.line_to(x, y)

    for m in _PATH.finditer(d):
        if m[1]:
            flush()
            cmd, nums = m[1], []
        else:
            nums.append(float(m[2]))
    flush()


def _unescape(text: str) -> str:
    if "&" not in text:
        return text

    return unescape(text)

"""Markdown renderer: a walkthrough to read on GitHub, in an editor or a static site."""

from __future__ import annotations

from ..errors import printable
from ..puzzle.model import cell_name
from . import Renderer
from .text import draw_grid, end_grid, explanation_verdict, rating_line
from .walk import NOTATION, group_effects, group_heading, groups


def _escape(text: str) -> str:
    """Keep Markdown from reading digits, stars or pipes in a sentence as markup."""
    for ch in ("\\", "*", "_", "`", "|", "<", ">", "[", "]"):
        text = text.replace(ch, "\\" + ch)
    return text


def _block(text: str) -> list[str]:
    return ["```text", text, "```"]


def _step_line(s, *, name: bool = True) -> str:
    """``12. **Lone cell** → r2c3 = 4: sentence`` (the rule left out inside a group)."""
    where = ""
    if s.placements:
        where = " → " + ", ".join(f"{cell_name((r, c))} = {d}" for r, c, d in s.placements)
    label = f" **{_escape(s.name)}**{_escape(where)}:" if name else ""
    return f"{s.n}.{label} {_escape(s.text)}"


class MarkdownRenderer(Renderer):
    name = "markdown"

    def walkthrough(self, puzzle, explanation) -> str:
        title = printable(puzzle.name or "Kakuro")  # no escape sequence or line break
        rating = explanation.rating
        out = [f"# Walkthrough: {_escape(title)}", ""]
        out.append(f"- **Size:** {puzzle.rows} × {puzzle.cols}, {len(puzzle.whites)} cells "
                   f"to fill")
        out.append(f"- **Result:** {_escape(explanation_verdict(explanation))}")
        out.append(f"- **Rating:** {_escape(rating_line(rating))}")
        out += ["", "## The puzzle", ""]
        out += _block(draw_grid(puzzle, fixed={**puzzle.givens, **puzzle.entries}))
        out += ["", "Clues read `down\\across`; `#` is a blank square, `.` a cell to fill.",
                "", f"*{_escape(NOTATION)}*", ""]
        if explanation.steps:
            out += ["## Steps", ""]
            # a group heading is a paragraph between ordered lists; the list after it starts
            # at the group's first number, and steps are consecutive, so Markdown's own
            # numbering stays right
            for group in groups(explanation.steps):
                if len(group) == 1:
                    out.append(_step_line(group[0]))
                    continue
                if out[-1] != "":
                    out.append("")
                out += [f"**{_escape(group_heading(group))}:** {_escape(group_effects(group))}",
                        ""]
                out += [_step_line(s, name=False) for s in group]
                out.append("")
            out.append("")
        out += ["## The end", ""]
        out += _block(end_grid(explanation))
        out.append("")
        if rating is not None and rating.rules:
            out += ["## Techniques used", "", "| rule | steps |", "|---|---:|"]
            out += [f"| {rid} | {n} |" for rid, n in rating.rules.items()]
            out.append("")
        return "\n".join(out)


RENDERER = MarkdownRenderer()

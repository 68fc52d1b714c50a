"""Markdown renderer: a walkthrough to read on GitHub, in an editor or a static site."""

from __future__ import annotations

from ..errors import printable
from ..puzzle.model import cell_name
from . import Renderer
from .teach import glossary_markdown, used_techniques
from .text import draw_grid, end_grid, explanation_verdict, rating_line
from .walk import (
    chain_cases,
    chain_conclusion,
    easy_weight,
    group_effects,
    group_heading,
    groups,
    notation,
    step_text,
    step_title,
)


def _escape(text: str) -> str:
    """Keep Markdown from reading digits, stars or pipes in a sentence as markup."""
    for ch in ("\\", "*", "_", "`", "|", "<", ">", "[", "]"):
        text = text.replace(ch, "\\" + ch)
    return text


def _block(text: str) -> list[str]:
    return ["```text", text, "```"]


def _step_line(s, *, name: bool = True) -> str:
    """``12. **Lone cell** → r2c3 = 4: sentence`` (the rule left out inside a group); a
    chain's links as a numbered list inside its item."""
    where = ""
    if s.placements:
        where = " → " + ", ".join(f"{cell_name((r, c))} = {d}" for r, c, d in s.placements)
    label = f" **{_escape(step_title(s))}**{_escape(where)}:" if name else ""
    if not chain_cases(s):
        line = f"{s.n}.{label} {_escape(step_text(s) if name else s.text)}"
        return line + _detail(s)
    # the item's content starts after "n. "; lines indented that far stay inside it, and
    # a blank line ends each inner list (a line right after it would join its last item)
    pad = " " * (len(str(s.n)) + 2)
    lines = [f"{s.n}.{label}"]
    for case in chain_cases(s):
        lines += ["", pad + _escape(case.intro), ""]
        for k, link in enumerate(case.links, start=1):
            if link.get("contradiction"):  # the end the links lead to, not a link
                lines += ["", f"{pad}✗ {_escape(link['text'])}: *a contradiction*"]
            else:
                lines.append(f"{pad}{k}. {_escape(link['text'])}")
    tail = chain_conclusion(s)
    if tail:
        lines += ["", pad + _escape(tail)]
    return "\n".join(lines)


#: the fold that holds a step's whole case analysis (its ``detail``) under its sentence
DETAIL_SUMMARY = "The whole argument"


def _detail(s) -> str:
    """The step's ``detail`` folded under its item (an HTML ``<details>``, which GitHub and
    most Markdown viewers show as a fold); empty when it has none."""
    detail = getattr(s, "detail", "")
    if not detail:
        return ""
    pad = " " * (len(str(s.n)) + 2)  # inside the list item
    return (f"\n\n{pad}<details><summary>{DETAIL_SUMMARY}</summary>\n\n"
            f"{pad}{_escape(detail)}\n\n{pad}</details>\n")


class MarkdownRenderer(Renderer):
    name = "markdown"

    def walkthrough(self, puzzle, explanation) -> str:
        title = printable(puzzle.name or "Kakuro")  # no escape sequence or line break
        rating = explanation.rating
        out = [f"# Walkthrough: {_escape(title)}", ""]
        out.append(f"- **Size:** {puzzle.rows} × {puzzle.cols}, {len(puzzle.whites)} cells "
                   f"to fill")
        out.append(f"- **Result:** {_escape(explanation_verdict(explanation))}")
        rated = rating_line(rating, explanation.status, explanation.message)
        out.append(f"- **Rating:** {_escape(rated)}")
        out += ["", "## The puzzle", ""]
        out += _block(draw_grid(puzzle, fixed={**puzzle.givens, **puzzle.entries}))
        out += ["", "Clues read `down\\across`; `#` is a blank square, `.` a cell to fill.",
                "", f"*{_escape(notation(puzzle))}*", ""]
        if explanation.steps:
            out += ["## Steps", ""]
            # a group heading is a paragraph between ordered lists; the list after it starts
            # at the group's first number, and steps are consecutive, so Markdown's own
            # numbering stays right
            for group in groups(explanation.steps, easy_weight(explanation)):
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
        out += glossary_markdown(used_techniques(explanation), _escape)
        return "\n".join(out)


RENDERER = MarkdownRenderer()

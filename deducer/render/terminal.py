"""Terminal renderer: the grid in box characters with colour, steps that scan well (rich).

Chosen by the CLI when stdout is a terminal (``--color auto``) or on ``--color always``;
the plain ``text`` renderer serves pipes and files, so scripts never see escape codes.
The words are the text renderer's: only the drawing differs.
"""

from __future__ import annotations

import io

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..engine.sentences import differences
from ..puzzle.combos import SINGLE
from . import Renderer
from .text import DETAIL_LABEL, explanation_verdict, rating_line, verdict
from .walk import (
    chain_cases,
    chain_conclusion,
    easy_weight,
    group_effects,
    group_heading,
    groups,
    link_labels,
    notation,
    step_text,
    step_title,
)

#: colour of a step's rule by the level its weight falls in (the thresholds are those of the
#: ladder the walk was rated with): the harder, the warmer; heavier than Expert, magenta
LEVEL_STYLES = {"Easy": "green", "Medium": "yellow", "Hard": "dark_orange", "Expert": "red"}


def _console(buf: io.StringIO) -> Console:
    # force_terminal: the caller already decided colour is wanted; width wide enough that
    # a 30-column grid never wraps
    return Console(file=buf, force_terminal=True, color_system="standard", width=200,
                   highlight=False, soft_wrap=True)


def grid_table(puzzle, values=None, *, placed_style: str = "cyan") -> Table:
    """The board: clues ``d╲a`` on grey, blanks solid, givens bold, placed digits coloured."""
    known = {}
    if values is not None:
        known = {rc: v for rc, v in zip(puzzle.whites, values, strict=True) if v}
    givens = {**puzzle.givens, **puzzle.entries}
    table = Table(box=box.SQUARE, show_header=False, show_lines=True, padding=(0, 0),
                  pad_edge=False, expand=False)
    for _ in range(puzzle.cols):
        table.add_column(justify="center", width=5, no_wrap=True)
    for r, row in enumerate(puzzle.squares):
        cells = []
        for c, sq in enumerate(row):
            if not sq.white:
                if sq.is_clue:
                    label = f"{sq.down or ''}╲{sq.across or ''}"
                    cells.append(Text(label, style="bold white on grey30"))
                else:
                    cells.append(Text("     ", style="on grey15"))
                continue
            rc = (r, c)
            if rc in givens:
                cells.append(Text(str(givens[rc]), style="bold"))
            elif rc in known:
                cells.append(Text(str(known[rc]), style=placed_style))
            else:
                cells.append(Text("·", style="dim"))
        table.add_row(*cells)
    return table


def _weight_style(weight: float, levels: dict[str, float]) -> str:
    """The colour of a step of ``weight`` against the level thresholds ``levels``."""
    for level, limit in sorted(levels.items(), key=lambda kv: kv[1]):
        if weight <= limit:
            return LEVEL_STYLES.get(level, "magenta")
    return "magenta"


def _print_chain(con: Console, step, indent: str) -> None:
    """A chain's links, numbered one a line under its assumption (as the text renderer)."""
    for case in chain_cases(step):
        con.print(Text(indent) + Text(case.intro, style="bold"))
        labels = link_labels(case.links)  # the closing contradiction is (✗), not counted
        width = max((len(x) for x in labels), default=1)
        for label, link in zip(labels, case.links, strict=True):
            line = Text(f"{indent}  ")
            bad = bool(link.get("contradiction"))
            line.append(f"({label:>{width}}) ", style="bold red" if bad else "bold cyan")
            line.append(link["text"])
            if bad:
                line.append(": a contradiction", style="bold red")
            con.print(line)
    tail = chain_conclusion(step)
    if tail:
        con.print(Text(indent + tail, style="bold"))


class TerminalRenderer(Renderer):
    name = "terminal"

    def solve(self, puzzle, result) -> str:
        buf = io.StringIO()
        con = _console(buf)
        style = "bold green" if result.status == "unique" else (
            "bold red" if result.status == "none" else "bold yellow")
        con.print(Text(verdict(result), style=style))
        for k, sol in enumerate(result.solutions, start=1):
            if len(result.solutions) > 1:
                con.print(Text(f"solution {k}:", style="bold"))
            con.print(grid_table(puzzle, sol))
        if len(result.solutions) > 1:
            diff = differences(puzzle, result.solutions)
            con.print(f"the solutions differ at {len(diff)} cells: " + ", ".join(diff))
        return buf.getvalue()

    def walkthrough(self, puzzle, explanation, *, verbose: bool = False) -> str:
        """The walkthrough for a terminal; ``verbose`` adds each step's whole case
        analysis (its ``detail``) under its sentence."""
        buf = io.StringIO()
        con = _console(buf)
        con.print(grid_table(puzzle))
        con.print(Text(notation(puzzle), style="dim"))
        width = len(str(len(explanation.steps))) if explanation.steps else 1
        levels = explanation.rating.levels
        for group in groups(explanation.steps, easy_weight(explanation)):
            if len(group) > 1:  # one heading for a stretch of one easy rule
                head = Text()
                head.append(group_heading(group),
                            style=f"bold {_weight_style(group[0].weight, levels)}")
                head.append(f" ({group[0].weight:g}): ", style="dim")
                head.append(group_effects(group), style="dim")
                con.print(head)
            for s in group:
                line = Text()
                if len(group) > 1:
                    line.append(f"  {s.n:>{width}}. ", style="dim")
                else:
                    line.append(f"{s.n:>{width}}. ", style="dim")
                    line.append(step_title(s), style=f"bold {_weight_style(s.weight, levels)}")
                    line.append(f" ({s.weight:g}): ", style="dim")
                if chain_cases(s):
                    con.print(line)
                    _print_chain(con, s, " " * (width + 2))
                else:
                    line.append(step_text(s) if len(group) == 1 else s.text)
                    con.print(line)
                    detail: str = getattr(s, "detail", "")
                    if verbose and detail:
                        pad = " " * (width + (4 if len(group) > 1 else 2))
                        con.print(Text(f"{pad}{DETAIL_LABEL} {detail}", style="dim"))
        ok = explanation.status == "solved"
        con.print(Text(explanation_verdict(explanation), style="bold green" if ok
                       else "bold yellow"))
        if explanation.steps:  # with no step the end is the puzzle, drawn above
            con.print(grid_table(puzzle, [SINGLE[m] for m in explanation.masks]))
        con.print(Text("rating: ", style="bold")
                  + Text(rating_line(explanation.rating, explanation.status,
                                         explanation.message)))
        return buf.getvalue()


RENDERER = TerminalRenderer()

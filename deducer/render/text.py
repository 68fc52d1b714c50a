"""Plain-text renderer: aligned grids for terminals, logs and diffs."""

from __future__ import annotations

from ..puzzle.model import Puzzle
from . import Renderer
from .walk import BOARD_KEY, NOTATION, chain_cases, chain_conclusion, step_text, step_title


def clue_text(sq) -> str:
    if not sq.is_clue:
        return "#"
    return f"{sq.down or ''}\\{sq.across or ''}"


def draw_grid(puzzle: Puzzle, values: list[int] | None = None, *, fixed: dict | None = None) -> str:
    """The grid with clues as ``d\\a``, blanks as ``#``, digits where known, ``.`` where not."""
    known: dict = {}
    if values is not None:
        known = {rc: v for rc, v in zip(puzzle.whites, values, strict=True) if v}
    if fixed:
        known.update(fixed)
    cells = []
    for r, row in enumerate(puzzle.squares):
        line = []
        for c, sq in enumerate(row):
            line.append(str(known.get((r, c), ".")) if sq.white else clue_text(sq))
        cells.append(line)
    width = max(len(t) for line in cells for t in line)
    return "\n".join(" ".join(t.rjust(width) for t in line).rstrip() for line in cells)



def verdict(result) -> str:
    n = len(result.solutions)
    if not result.solutions:
        if result.timed_out:
            return f"no solution found before the time limit ({result.reason})"
        return f"no solution: {result.reason}"
    if n == 1 and result.complete:
        return "unique solution"
    if n == 1:
        why = "time limit" if result.timed_out else "--max-solutions 1"
        return f"1 solution found; uniqueness not checked ({why} stopped the search)"
    if result.complete:
        return f"{n} solutions (all of them)"
    why = "the time limit" if result.timed_out else f"the cap (--max-solutions {n})"
    return f"at least {n} solutions ({why} stopped the search)"


#: why a walkthrough that ended so is not rated
_UNRATED = {"multiple": "the puzzle has more than one solution",
            "none": "the puzzle has no solution",
            "timeout": "the time limit stopped the walkthrough",
            "stalled": "the rules stalled before the solution"}


def unrated_reason(status: str | None, message: str | None = None) -> str:
    """Why a walkthrough that ended with ``status`` carries no level (a stalled one's own
    ``message`` says why it stopped: --max-steps, or a false step)."""
    if str(status) == "stalled" and message:
        return message
    return _UNRATED.get(str(status), "the walkthrough did not reach the one solution")


def rating_line(rating, status: str | None = None, message: str | None = None) -> str:
    """``Hard, score 4.2 (hardest step 3.8, effort 412, 59 steps; Hard from step 17
    (naked-pair, weight 3.8); narrowest at step 30 (no easy move open); rater v5)``;
    ``not rated`` and why (the walkthrough's ``status``) for one that did not reach the
    one solution."""
    if rating is None:
        return "not rated"
    if rating.level is None:
        why = unrated_reason(status, message)
        steps = "" if why.startswith("stopped after") else \
            f"{rating.steps} step{'s' if rating.steps != 1 else ''}; "  # said already
        return f"not rated: {why} ({steps}rater v{rating.version})"
    return (f"{rating.level}, score {rating.score:g} (hardest step {rating.max_weight:g}, "
            f"effort {rating.effort}, {rating.steps} steps; {rating.why()}; "
            f"rater v{rating.version})")


def explanation_verdict(explanation) -> str:
    """One line on how a walkthrough ended."""
    status = explanation.status
    msg = explanation.message
    if status == "solved":
        return "solved"
    if status == "multiple":
        return f"several solutions: {msg}" if msg else "several solutions"
    if status == "none":
        return f"no solution: {msg}" if msg else "no solution"
    if status == "timeout":
        return f"stopped: {msg}" if msg else "stopped by the time limit"
    return f"stalled: {msg}" if msg else "stalled"


#: how the whole case analysis of a step (its ``detail``) is introduced with ``--verbose``
DETAIL_LABEL = "In full:"


def step_lines(steps, verbose: bool = False) -> list[str]:
    """``  1. Lone cell: r1c2↓ 2/1 has one empty cell left ...`` (numbers aligned); a
    chain's links on lines of their own, numbered under its assumption; with ``verbose``,
    each step's whole case analysis (its ``detail``) on a line of its own under it."""
    width = len(str(len(steps))) if steps else 1
    out = []
    for s in steps:
        cases = chain_cases(s)
        if not cases:
            out.append(f"{s.n:>{width}}. {step_title(s)}: {step_text(s)}")
            detail: str = getattr(s, "detail", "")
            if verbose and detail:
                out.append(f"{' ' * (width + 2)}{DETAIL_LABEL} {detail}")
            continue
        out.append(f"{s.n:>{width}}. {step_title(s)}:")
        out += chain_lines(s, " " * (width + 2))
    return out


def chain_lines(step, indent: str) -> list[str]:
    """A chain step's body, one line per link: ``If r14c14 were 4:``, ``  (1) ...``, and
    what it concludes. A case's links are numbered from 1."""
    out = []
    for case in chain_cases(step):
        out.append(indent + case.intro)
        width = len(str(len(case.links)))
        for k, link in enumerate(case.links, start=1):
            end = " ✗ contradiction" if link.get("contradiction") else ""
            out.append(f"{indent}  ({k:>{width}}) {link['text']}{end}")
    tail = chain_conclusion(step)
    if tail:
        out.append(indent + tail)
    return out


def end_grid(explanation) -> str:
    """The final grid: the digits written in (given, entered, or placed by a step), ``.``
    where still open. A cell a walk that stopped early narrowed to one digit without
    writing it stays open: no step wrote it."""
    from ..puzzle.combos import SINGLE

    puzzle = explanation.puzzle
    if explanation.status == "solved":
        return draw_grid(puzzle, [SINGLE[m] for m in explanation.masks])
    written = {**puzzle.givens, **puzzle.entries}
    for s in explanation.steps:
        written.update({(r, c): d for r, c, d in s.placements})
    return draw_grid(puzzle, [written.get(rc, 0) for rc in puzzle.whites])


def write_solve(puzzle, result, write) -> None:
    """The same text as ``TextRenderer.solve``, written one solution at a time (the cells
    that differ are gathered on the way instead of by rereading every solution)."""
    from ..puzzle.model import cell_name

    sols = result.solutions
    many = len(sols) > 1
    write(verdict(result))
    seen = [0] * len(puzzle.whites)
    for k, sol in enumerate(sols, start=1):
        if many:
            write(f"\n\nsolution {k}:")
        write("\n" + draw_grid(puzzle, sol))
        for i, v in enumerate(sol):
            seen[i] |= 1 << v
    if many:
        diff = [f"{cell_name(rc)} ({'/'.join(str(d) for d in range(1, 10) if seen[i] >> d & 1)})"
                for i, rc in enumerate(puzzle.whites) if seen[i] & (seen[i] - 1)]
        write(f"\n\nthe solutions differ at {len(diff)} cells: " + ", ".join(diff))
    write("\n")


class TextRenderer(Renderer):
    name = "text"

    def solve(self, puzzle, result) -> str:
        parts = [verdict(result)]
        for k, sol in enumerate(result.solutions, start=1):
            if len(result.solutions) > 1:
                parts.append(f"\nsolution {k}:")
            parts.append(draw_grid(puzzle, sol))
        if len(result.solutions) > 1:
            from ..engine.sentences import differences  # here: solve's start-up is lean

            diff = differences(puzzle, result.solutions)
            parts.append(f"\nthe solutions differ at {len(diff)} cells: " + ", ".join(diff))
        return "\n".join(parts) + "\n"

    def walkthrough(self, puzzle, explanation, *, verbose: bool = False) -> str:
        """The walkthrough as text; ``verbose`` adds each step's whole case analysis."""
        parts = [draw_grid(puzzle, fixed={**puzzle.givens, **puzzle.entries}), BOARD_KEY]
        if explanation.steps:  # the legend of the names the steps use, as on a terminal
            parts.append(NOTATION)
        parts.append("")
        parts += step_lines(explanation.steps, verbose)
        if explanation.steps:
            parts.append("")
        parts.append(explanation_verdict(explanation))
        if explanation.steps:  # with no step the end is the puzzle, drawn above
            parts.append(end_grid(explanation))
        parts.append("")
        parts.append("rating: " + rating_line(explanation.rating, explanation.status,
                                              explanation.message))
        return "\n".join(parts) + "\n"


RENDERER = TextRenderer()

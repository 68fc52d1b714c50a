"""``deducer hint --all`` as text: every open step, numbered, with its sentence, what it
does and what its proof rests on (the JSON is the result's own ``to_json()``)."""

from __future__ import annotations

from ..errors import printable
from ..puzzle.model import cell_name
from .walk import chain_cases, chain_lines, link_count, step_text, step_title


def effect_line(step) -> str:
    """``r2c3 = 4; r3c4 loses 1, 2``."""
    parts = [f"{cell_name((r, c))} = {d}" for r, c, d in step.placements]
    parts += [f"{cell_name((r, c))} loses {', '.join(map(str, ds))}"
              for r, c, ds in step.eliminations]
    parts += [f"{run} cannot be {' or '.join(cs)}" for run, cs in step.combos_removed]
    return "; ".join(parts)


def run_names(puzzle) -> dict[tuple, str]:
    """Each run's name by its reference (built once for all the steps: on a 150x150 grid
    it takes a twentieth of a second, and a list of hundreds of steps was printed for
    many seconds past the time limit)."""
    return {tuple(r.ref): r.name for r in puzzle.runs}


def proof_line(puzzle, step, names: dict[tuple, str] | None = None) -> str:
    """What a step's proof rests on, in words: its cells' candidates, its runs'
    combinations, the runs it applies; a chain's assumption and length. ``names``: the
    puzzle's :func:`run_names`, when the caller has them."""
    proof = step.proof or {}
    if names is None:
        names = run_names(puzzle)
    if "cases" in proof or "assume" in proof:
        cases = chain_cases(step)
        links = sum(link_count(c.links) for c in cases)
        what = "; ".join(f"if {cell_name(c.cell)} were {c.digit}" for c in cases)
        return f"{what}: {links} link{'s' if links != 1 else ''}, ending in a contradiction"
    parts = []
    for f in proof.get("facts", ()):
        if "cell" in f:
            ds = f.get("candidates", [])
            parts.append(f"{cell_name(tuple(f['cell']))} holds "
                         + (" or ".join(map(str, ds)) if ds else "nothing"))
        elif "run" in f:
            combos = " or ".join("+".join(map(str, c)) for c in f.get("combos", []))
            parts.append(f"{names.get(tuple(f['run']), f['run'])} is {combos}")
    runs = [names.get(tuple(r), str(r)) for r in proof.get("runs", ())]
    if runs:
        parts.append("the runs " + ", ".join(runs))
    return "; ".join(parts) or "the written digits"


def all_steps_text(puzzle, result) -> str:
    """The result's summary, then each step: ``1. Name (weight 1.1): sentence``, what it
    does and what its proof rests on; a chain's links one a line."""
    out = [result.text]
    if result.steps:
        out.append("")
    width = len(str(len(result.steps))) if result.steps else 1
    pad = " " * (width + 2)
    names = run_names(puzzle) if result.steps else {}
    for s in result.steps:
        head = f"{s.n:>{width}}. {step_title(s)} (weight {s.weight:g})"
        if chain_cases(s):
            out.append(head + ":")
            out += chain_lines(s, pad)
        else:
            out.append(f"{head}: {step_text(s)}")
        out.append(f"{pad}does: {effect_line(s)}")
        out.append(f"{pad}rests on: {proof_line(puzzle, s, names)}")

    return "\n".join(printable(line) for line in out) + "\n"

"""What the walkthrough renderers share: the notation note, grouped easy steps, and the
cells and runs a step's proof rests on (docs/json-contract.md, "Proofs").

Grouping is presentation only: every step keeps its number and its sentence (the JSON log
is never grouped); a long stretch of one easy rule just gets one heading, so a reader can
skim what is routine and slow down where the reasoning changes.
"""

from __future__ import annotations

from ..puzzle.model import cell_name

#: the notation, explained once at the top of a walkthrough (plain text; renderers mark it up)
NOTATION = (
    "How to read the steps: r3c4 is the cell in row 3, column 4 (the clue row and column "
    "count). A run is named by its clue square, its direction and its clue: r2c1→ 16/2 is "
    "the across run whose clue sits in r2c1, 2 cells adding up to 16; r1c3↓ 9/2 runs down "
    "from r1c3. 1+2+4 is a combination: the digits a run uses, in any order."
)

#: a step this easy (the Easy level's hardest weight) may be grouped with its neighbours
EASY_WEIGHT = 1.6
#: shortest stretch of one easy rule that gets a group heading
GROUP_MIN = 4
#: placements listed in a group's heading before "…"
HEAD_PLACEMENTS = 6


def groups(steps) -> list[list]:
    """Consecutive steps, split into stretches: a stretch of at least :data:`GROUP_MIN`
    steps of one easy rule is one group; every other step is a group of one."""
    out: list[list] = []
    run: list = []

    def flush() -> None:
        if len(run) >= GROUP_MIN:
            out.append(list(run))
        else:
            out.extend([s] for s in run)
        run.clear()

    for s in steps:
        easy = s.weight <= EASY_WEIGHT
        if run and not (easy and s.rule == run[-1].rule):
            flush()
        if easy:
            run.append(s)
        else:
            out.append([s])
    flush()
    return out


def group_heading(group) -> str:
    """``Steps 12–19: Lone cell ×8``."""
    first, last = group[0], group[-1]
    return f"Steps {first.n}–{last.n}: {first.name} ×{len(group)}"


def group_effects(group) -> str:
    """What a group writes in (``r2c3 = 4, r5c6 = 1, …``), or how many candidates it
    removes when it writes nothing."""
    placed = [f"{cell_name((r, c))} = {d}" for s in group for r, c, d in s.placements]
    if placed:
        more = len(placed) > HEAD_PLACEMENTS
        return ", ".join(placed[:HEAD_PLACEMENTS]) + (", …" if more else "")
    gone = sum(len(ds) for s in group for _, _, ds in s.eliminations)
    return f"{gone} candidate{'s' if gone != 1 else ''} removed"


def proof_marks(puzzle, step) -> tuple[set[tuple[int, int]], set[int]]:
    """(cells, run ids) that a step's proof states facts about or uses, links included."""
    proof = getattr(step, "proof", None)
    cells: set[tuple[int, int]] = set()
    runs: set[int] = set()
    if not proof:
        return cells, runs
    by_ref = {tuple(r.ref): r.id for r in puzzle.runs}

    def visit(part: dict) -> None:
        for f in part.get("facts", ()):
            if "cell" in f:
                cells.add(tuple(f["cell"]))
            elif "run" in f and tuple(f["run"]) in by_ref:
                runs.add(by_ref[tuple(f["run"])])
        for ref in part.get("runs", ()):
            if tuple(ref) in by_ref:
                runs.add(by_ref[tuple(ref)])
        for link in part.get("links", ()):
            visit(link)
        for case in part.get("cases", ()):
            visit(case)

    visit(proof)
    return cells, runs

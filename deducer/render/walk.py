"""What the walkthrough renderers share: the notation note, grouped easy steps, and the
cells and runs a step's proof rests on (docs/json-contract.md, "Proofs").

Grouping is presentation only: every step keeps its number and its sentence (the JSON log
is never grouped); a long stretch of one easy rule just gets one heading, so a reader can
skim what is routine and slow down where the reasoning changes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..puzzle.model import ACROSS, DOWN, cell_name


def notation(puzzle=None) -> str:
    """The notation, explained once at the top of a walkthrough (plain text; renderers
    mark it up), its run names taken from ``puzzle`` (its first clued across run and down
    run), so a reader can find them on the board: a learner looked for the generic
    examples on a board that had no such runs."""
    across = down = None
    for run in (puzzle.runs if puzzle is not None else ()):
        if run.total is None or run.clue_at is None:
            continue
        if run.direction == ACROSS and across is None:
            across = run
        elif run.direction == DOWN and down is None:
            down = run
    a_name, a_at, a_len, a_total = ((across.name, cell_name(across.clue_at), across.length,
                                     across.total) if across else ("r2c1→ 16/2", "r2c1", 2, 16))
    d_name, d_at = (down.name, cell_name(down.clue_at)) if down else ("r1c3↓ 9/2", "r1c3")
    return ("How to read the steps: r3c4 is the cell in row 3, column 4 (the clue row and "
            "column count). A run is named by its clue square, its direction and its clue: "
            f"{a_name} is the across run whose clue sits in {a_at}, {a_len} cells adding up "
            f"to {a_total}; {d_name} runs down from {d_at}. 1+2+4 is a combination: the "
            "digits a run uses, in any order.")


#: how to read a board drawn in plain text (the text and Markdown walkthroughs)
BOARD_KEY = ("Clues read down\\across (16\\ is a down clue, \\12 an across one); # is a "
             "blank square, . a cell to fill.")

#: shortest stretch of one easy rule that gets a group heading
GROUP_MIN = 4
#: placements listed in a group's heading before "…"
HEAD_PLACEMENTS = 6


def easy_weight(explanation) -> float:
    """The heaviest step that counts as easy (grouped with its neighbours, drawn without a
    diagram): the Easy level's threshold of the ladder the walk was rated with."""
    return explanation.rating.levels["Easy"]


def groups(steps, easy: float) -> list[list]:
    """Consecutive steps, split into stretches: a stretch of at least :data:`GROUP_MIN`
    steps of one easy rule (weighing at most ``easy``, :func:`easy_weight`) is one group;
    every other step is a group of one."""
    out: list[list] = []
    run: list = []

    def flush() -> None:
        if len(run) >= GROUP_MIN:
            out.append(list(run))
        else:
            out.extend([s] for s in run)
        run.clear()

    for s in steps:
        light = s.weight <= easy
        if run and not (light and s.rule == run[-1].rule):
            flush()
        if light:
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
    by_ref = puzzle.run_ids_by_ref  # once a puzzle: a step's proof names a few runs

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


# ---- chains, link by link ----------------------------------------------------------------
# A chain step's proof (docs/json-contract.md, "Proof by assumption" and "Proof by cases")
# is read only through its JSON shape: ``assume`` [row, col, digit] and ``links``, each link
# with ``text``, ``placements``, ``eliminations``, ``facts``, ``runs`` and maybe
# ``contradiction``. Fields a chain engine adds beside these are ignored.

#: a chain sentence's own label ("Forcing chain of 9 links: "), which the title already says
_CHAIN_LABEL = re.compile(r"^[^:]{0,60}?\bof [0-9]+ links?: ")


@dataclass
class ChainCase:
    """One assumption of a chain step and the links that follow from it."""

    cell: tuple[int, int]
    digit: int
    links: list[dict]

    @property
    def intro(self) -> str:
        """``If r14c14 were 4:``."""
        return f"If {cell_name(self.cell)} were {self.digit}:"


def chain_cases(step) -> list[ChainCase]:
    """The step's assumptions with their links (one for a chain, one per case for a proof
    by cases); empty for a step that assumes nothing."""
    proof = getattr(step, "proof", None) or {}
    parts = proof.get("cases") or ([proof] if "assume" in proof else [])
    out = []
    for part in parts:
        if "assume" not in part:
            continue
        r, c, d = part["assume"]
        out.append(ChainCase((r, c), d, list(part.get("links", ()))))
    return out


def link_count(links: list[dict]) -> int:
    """A chain's links as a reader counts them: the closing contradiction (the cell left
    with no digit) is what the links lead to, not a link."""
    return sum(1 for link in links if not link.get("contradiction"))


def link_labels(links: list[dict]) -> list[str]:
    """Each link's label in a chain's list: ``1``, ``2``, ... and ``✗`` for the closing
    contradiction (numbered links only, so that the count in the heading is the last
    number)."""
    out, k = [], 0
    for link in links:
        if link.get("contradiction"):
            out.append("✗")
        else:
            k += 1
            out.append(str(k))
    return out


def step_title(step) -> str:
    """The step's heading: the rule's name, with a chain's length (``Forcing chain of 9
    links``), said once even when the sentence opens with it."""
    cases = chain_cases(step)
    if not cases:
        return step.name
    n = sum(link_count(case.links) for case in cases)
    title = f"{step.name} of {n} link{'s' if n != 1 else ''}"
    return title if len(cases) == 1 else f"{title} in {len(cases)} cases"


def step_text(step) -> str:
    """The sentence under the heading, without the rule's name or a chain's label that
    the heading already gives."""
    text = step.text
    head = step.name + ":"
    m = _CHAIN_LABEL.match(text) if chain_cases(step) else None
    if m:
        text = text[m.end():]
    elif text[:len(head)].lower() == head.lower():
        text = text[len(head):].lstrip()
    else:
        return text
    return text[:1].upper() + text[1:]


def chain_conclusion(step) -> str:
    """What a chain step concludes (``So 4 leaves r14c14.``): the sentence's words after
    its last link, else the step's effect."""
    cases = chain_cases(step)
    last = next((case.links[-1]["text"] for case in reversed(cases) if case.links), "")
    at = step.text.rfind(last) if last else -1
    if at >= 0:
        tail = step.text[at + len(last):].strip().lstrip(".;,").strip()
        if tail:
            return tail[:1].upper() + tail[1:]
    parts = [f"{cell_name((r, c))} = {d}" for r, c, d in step.placements]
    for r, c, ds in step.eliminations:
        verb = "leaves" if len(ds) == 1 else "leave"
        parts.append(f"{', '.join(map(str, ds))} {verb} {cell_name((r, c))}")
    return "So " + "; ".join(parts) + "." if parts else ""


def link_cells(link: dict) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """(cells the link changes, cells whose candidates it uses) of one link."""
    changed = {(p[0], p[1]) for p in link.get("placements", ())}
    changed |= {(e[0], e[1]) for e in link.get("eliminations", ())}
    used = {tuple(f["cell"]) for f in link.get("facts", ()) if "cell" in f}
    return changed, used


def broken_cells(puzzle, link: dict) -> set[tuple[int, int]]:
    """Where a contradiction link breaks: the cells its facts leave without a candidate,
    else the cells it names, else the cells of its runs."""
    empty = {tuple(f["cell"]) for f in link.get("facts", ())
             if "cell" in f and not f.get("candidates")}
    if empty:
        return empty
    changed, used = link_cells(link)
    if changed | used:
        return changed | used
    by_ref = puzzle.run_ids_by_ref
    return {rc for ref in link.get("runs", ()) if tuple(ref) in by_ref
            for rc in puzzle.runs[by_ref[tuple(ref)]].coords}


def chain_lines(step, indent: str) -> list[str]:
    """A chain step's body, one line per link: ``If r14c14 were 4:``, ``  (1) ...``, and
    what it concludes. A case's links are numbered from 1."""
    out = []
    for case in chain_cases(step):
        out.append(indent + case.intro)
        labels = link_labels(case.links)  # the closing contradiction is (✗), not counted
        width = max((len(x) for x in labels), default=1)
        for label, link in zip(labels, case.links, strict=True):
            end = ": a contradiction" if link.get("contradiction") else ""
            out.append(f"{indent}  ({label:>{width}}) {link['text']}{end}")
    tail = chain_conclusion(step)
    if tail:
        out.append(indent + tail)
    return out


# ---- pictures of the argument: a region sum's area, a chain's arrows ---------------------
@dataclass
class RegionParts:
    """A region sum drawn on the board: the area its runs of one direction fill
    (``inside``, outlined), the cells the crossing runs add beyond it (``outside``), the
    cells only one of the two groups covers (``left``: what the identity is about), and
    the runs of each group by id (``base``: those that fill the area; ``crossing``)."""

    inside: set[tuple[int, int]]
    outside: set[tuple[int, int]]
    left: set[tuple[int, int]]
    base: list[int]
    crossing: list[int]


def region_parts(puzzle, step) -> RegionParts | None:
    """The area of a region sum's step (None for any other step). A region sum's runs are
    its area's runs first, all of one direction, then the crossing runs that close it
    (:func:`deducer.rules.regions.region_sum`): the groups are told apart by direction."""
    if not step.rule.startswith("region-sum"):
        return None
    by_name = {run.name: run for run in puzzle.runs}
    runs = [by_name[n] for n in step.runs if n in by_name]
    if not runs:
        return None
    base = [r for r in runs if r.direction == runs[0].direction]
    crossing = [r for r in runs if r.direction != runs[0].direction]
    if not crossing:
        return None
    inside = {rc for r in base for rc in r.coords}
    covered = {rc for r in crossing for rc in r.coords}
    return RegionParts(inside, covered - inside, inside ^ covered,
                       [r.id for r in base], [r.id for r in crossing])


def outline_edges(cells) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The border of a set of cells as grid-line segments ``((row, col), (row, col))``
    between grid corners (corner (r, c) is the top-left one of cell (r, c)), joined where
    they run on in one line, so that a dashed or thick line reads as one border."""
    cells = set(cells)
    horiz: dict[int, list[int]] = {}  # grid row -> columns whose top (or bottom) edge is border
    vert: dict[int, list[int]] = {}  # grid column -> rows of a border edge
    for r, c in cells:
        if (r - 1, c) not in cells:
            horiz.setdefault(r, []).append(c)
        if (r + 1, c) not in cells:
            horiz.setdefault(r + 1, []).append(c)
        if (r, c - 1) not in cells:
            vert.setdefault(c, []).append(r)
        if (r, c + 1) not in cells:
            vert.setdefault(c + 1, []).append(r)
    out = []
    for gr, cols in sorted(horiz.items()):
        for a, b in _spans(cols):
            out.append(((gr, a), (gr, b + 1)))
    for gc, rows in sorted(vert.items()):
        for a, b in _spans(rows):
            out.append(((a, gc), (b + 1, gc)))
    return out


def _spans(xs: list[int]) -> list[tuple[int, int]]:
    """Runs of consecutive numbers: [1, 2, 3, 5] -> [(1, 3), (5, 5)]."""
    out: list[tuple[int, int]] = []
    for x in sorted(set(xs)):
        if out and x == out[-1][1] + 1:
            out[-1] = (out[-1][0], x)
        else:
            out.append((x, x))
    return out


def link_anchor(puzzle, link: dict) -> tuple[int, int] | None:
    """The cell a link is drawn at (its number, its arrows): the first cell it writes in,
    else the first it narrows, else where it breaks."""
    for r, c, *_ in link.get("placements", ()):
        return (r, c)
    for r, c, *_ in link.get("eliminations", ()):
        return (r, c)
    broken = broken_cells(puzzle, link) if link.get("contradiction") else set()
    return min(broken) if broken else None


def link_sources(links: list[dict], k: int) -> list[int]:
    """The links link ``k`` (1-based) rests on: its ``after`` list (a braid's), else the
    one before it; 0 is the assumption."""
    after = links[k - 1].get("after")
    if after:
        return sorted({int(a) for a in after if 0 <= int(a) < k})
    return [k - 1]


def chain_arrows(puzzle, case: ChainCase, upto: int | None = None
                 ) -> list[tuple[tuple[int, int], tuple[int, int], int]]:
    """The arrows that join a chain's links on the board, up to link ``upto`` (all by
    default): (from cell, to cell, link number), from the assumed cell or the link each
    link rests on to the link's own cell (:func:`link_anchor`); none where both are one
    cell."""
    anchors = [case.cell] + [link_anchor(puzzle, lk) for lk in case.links]
    last = len(case.links) if upto is None else min(upto, len(case.links))
    out = []
    for k in range(1, last + 1):
        to = anchors[k]
        for s in link_sources(case.links, k):
            at = anchors[s]
            if to is not None and at is not None and at != to:
                out.append((at, to, k))
    return out

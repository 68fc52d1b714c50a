"""What the play server answers with: a puzzle as the page draws it, its verdict (one
solution?) and rating, the cells and runs to highlight, a hint's edits.

Hints, checks and walkthroughs come from :mod:`deducer.api`; nothing here re-implements
them. The routes (:mod:`.routes`) read requests and hand these answers back.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from ... import api
from ...errors import PuzzleError
from ...puzzle import formats
from ...puzzle.model import Puzzle, cell_name
from . import limits
from .inputs import ApiError


def model(p: Puzzle) -> dict:
    """What the page needs to draw and play ``p``: the JSON object and the runs."""
    runs = [
        {"name": r.name, "dir": r.direction, "total": r.total,
         "cells": [list(c) for c in r.coords],
         "clue": list(r.clue_at) if r.clue_at is not None else None}
        for r in p.runs
    ]
    return {"puzzle": json.loads(formats.dumps(p, "json")), "runs": runs}


def solvability(p: Puzzle) -> dict:
    """Does the bare puzzle have exactly one solution? ``{"status", "message", "cells"?}``."""
    timeout = limits.TIMEOUT
    res = api.solve(p.without_progress(), max_solutions=2, timeout=timeout)
    if len(res.solutions) >= 2:
        a, b = res.solutions[0], res.solutions[1]
        diff = [p.whites[i] for i in range(len(a)) if a[i] != b[i]]
        names = ", ".join(cell_name(c) for c in diff[:8]) + (" …" if len(diff) > 8 else "")
        return {"status": "multiple", "cells": [list(c) for c in diff],
                "message": f"the puzzle has more than one solution (two of them differ at "
                           f"{names})"}
    if not res.solutions:
        if res.timed_out:
            return {"status": "unknown",
                    "message": f"no solution was found within {timeout:g} s"}
        return {"status": "none", "message": f"the puzzle has no solution: {res.reason}"}
    if not res.complete:
        return {"status": "unknown", "message": f"one solution was found, but {timeout:g} s "
                                                "were not enough to prove it is the only one"}
    return {"status": "unique", "message": "the puzzle has exactly one solution"}


def rating_json(r) -> dict:
    """A solved walkthrough's rating for the page: ``{"level", "score", "notes",
    "notes_text", "text"}`` as ``deducer rate`` gives them."""
    notes = r.notes_text()
    return {"level": r.level, "score": r.score, "notes": r.notes, "notes_text": notes,
            "text": f"Rated {r.level} (score {r.score:g}" + (f"; {notes}" if notes else "")
            + ")."}


def rating(p: Puzzle) -> dict:
    """The rater's verdict on ``p`` for the page (:func:`rating_json`), or ``{"level":
    None, "text"}`` when the walkthrough did not reach the solution within the limit."""
    exp = api.explain(p.without_progress(), timeout=limits.TIMEOUT)
    r = exp.rating
    if r is None or not r.solved:
        why = exp.message or "the walkthrough did not reach the solution"
        return {"level": None, "score": None, "text": f"Not rated: {why}."}
    return rating_json(r)


def read_text(text: str, fmt: str | None, which: str | None, label: str) -> Puzzle | dict:
    """Parse puzzle text of any format deducer reads (errors name ``label`` and the line).

    A text holding several puzzles, read without ``which``, gives the choice instead:
    ``{"choose": [names], "source", "format", "message"}`` (the page asks which one)."""
    if fmt is None:
        try:
            fmt = formats.detect(text, label).name
        except PuzzleError:
            raise ApiError(400, f"{label}: cannot tell which puzzle format this is (deducer "
                                f"reads: {', '.join(formats.names())})") from None
    lister = formats.get(fmt).names
    if which is None and lister is not None:
        try:
            found = lister(text)
        except PuzzleError:
            found = []  # the reader below names what is wrong
        if len(found) > 1:
            return {"choose": found, "source": label, "format": fmt,
                    "message": f"{label} holds {len(found)} puzzles: pick one."}
    return formats.loads(text, fmt, name=which, path=label)


def opened(p: Puzzle, source: str | None) -> dict:
    """The answer to opening a puzzle: refused when it has no solution."""
    verdict = solvability(p)
    if verdict["status"] == "none":
        raise ApiError(422, capital(verdict["message"]) + ".", kind="none")
    out = model(p)
    out.update(status=verdict["status"], message=capital(verdict["message"]) + ".",
               source=source)
    if verdict["status"] == "multiple":
        out["message"] += " Check compares your entries with every solution."
        out["cells"] = verdict["cells"]
    elif verdict["status"] == "unique":  # the header rates every puzzle, a file's too
        out["rating"] = rating(p)
    return out


def label(source: str, which: str | None) -> str:
    """The file's name, and which of its puzzles when it holds several."""
    return f"{source}: {which}" if which else source


def capital(text: str) -> str:
    """Capitalise a sentence, but never a coordinate like r2c1."""
    if text[:1] == "r" and text[1:2].isdigit():
        return text
    return text[:1].upper() + text[1:]


def named_cells(message: str) -> list[list[int]]:
    """The square a model error names first (``r3c4: ...``), for the editor to mark."""
    m = re.match(r"r([0-9]+)c([0-9]+)\b", message)
    return [[int(m[1]) - 1, int(m[2]) - 1]] if m else []


def cells(items) -> list[list[int]]:
    """Cells as the page's JSON lists ``[row, col]``."""
    return [list(c) for c in items]


def digits(mask: int) -> list[int]:
    """The digits of a 9-bit mask."""
    return [d for d in range(1, 10) if mask >> (d - 1) & 1]


def highlight(p: Puzzle, at: Iterable, runs: Iterable[str] | None = None) -> dict:
    """What the board highlights for an answer: ``{"cells"}`` and, when ``runs`` (names)
    are given, ``"runs"``: each run of ``p`` so named with its cells and clue square."""
    out: dict = {"cells": cells(at)}
    if runs is not None:
        by_name = {r.name: r for r in p.runs}
        out["runs"] = [{"name": n, "cells": cells(by_name[n].coords),
                        "clue": list(clue) if (clue := by_name[n].clue_at) else None}
                       for n in runs if n in by_name]
    return out


def stem(name: str | None) -> str:
    """A file name's stem made of the puzzle's name (``puzzle`` without one)."""
    keep = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in (name or "")).strip("-")
    return keep[:60] or "puzzle"


def hint_edits(p: Puzzle, h) -> list[dict]:
    """What applying hint ``h`` changes on the player's grid, as per-cell edits.

    A deduction writes its placements as entries and rubs its eliminations out of the
    cells that carry pencil marks (a hint is about what the player sees: cells without
    marks stay without). A mistake hint clears the wrong entries / marks.
    """
    if h.kind == "mistake":
        return [{"cell": list(m.cell), "entry": None} if m.kind == "entry"
                else {"cell": list(m.cell), "pencil": []} for m in h.mistakes]
    if h.kind != "deduction" or h.step is None:
        return []
    step = h.step
    edits: list[dict] = [{"cell": [r, c], "entry": d} for r, c, d in step.placements
                         if (r, c) not in p.givens]
    placed = {(r, c) for r, c, _ in step.placements}
    for r, c, ds in step.eliminations:
        rc = (r, c)
        if rc in placed or rc in p.entries or rc in p.givens or not p.pencil.get(rc):
            continue
        marks = p.pencil[rc]
        for d in ds:
            marks &= ~(1 << (d - 1))
        if marks != p.pencil[rc]:
            edits.append({"cell": [r, c], "pencil": digits(marks)})
    return edits

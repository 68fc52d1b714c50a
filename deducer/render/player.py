"""Text for the player's commands: ``deducer combos`` (a run's combinations) and
``deducer replay`` (a solving record beside the walkthrough)."""

from __future__ import annotations

from ..puzzle.combos import ALL, fmt_mask
from ..puzzle.model import cell_name
from ..puzzle.records import DIGIT, PENCIL
from .text import draw_grid


def combos_text(res, *, allow: int = ALL, need: int = 0) -> str:
    """``deducer combos``'s answer: the combinations, one a line, then what they share."""
    n = len(res.combos)
    head = f"{res.total} in {res.length}: {n} combination{'' if n == 1 else 's'}"
    filters = []
    if allow != ALL:
        filters.append("using only " + fmt_mask(allow, " "))
    if need:
        filters.append("with " + fmt_mask(need, " "))
    if filters:
        head += " " + " and ".join(filters)
    lines = [head]
    lines += [c.text + ("" if c.live else f"   (struck: {c.reason})") for c in res.combos]
    if res.live:
        needed, unused = res.needed, res.unused
        lines.append("every one has " + (fmt_mask(needed, " ") if needed else "no common digit")
                     + "; none has " + (fmt_mask(unused, " ") if unused else "a digit left out"))
    return "\n".join(lines) + "\n"


def clock(ms: int | None) -> str:
    """``m:ss.s`` (``h:mm:ss`` past an hour); blank without a time."""
    if ms is None:
        return ""
    s = ms / 1000
    if s >= 3600:
        return f"{int(s // 3600)}:{int(s % 3600 // 60):02d}:{int(s % 60):02d}"
    return f"{int(s // 60)}:{s % 60:04.1f}"


def move_text(mv) -> str:
    """A move as a person says it: ``r7c8 = 1``, ``r7c8: marks 1 3``, ``r7c8 emptied``."""
    if mv.cell is None:
        return f"control {mv.text}"
    where = cell_name(mv.cell)
    marks = " ".join(str(d) for d in mv.candidates)
    if mv.kind == DIGIT:
        return f"{where} = {mv.digit}" + (f" (over marks {marks})" if marks else "")
    if mv.kind == PENCIL:
        return f"{where}: marks {marks}" if marks else f"{where}: marks (none)"
    return f"{where} emptied"


def replay_lines(rep):
    """``deducer replay``'s report, line by line: the moves with their times, then where
    the orders part ways and the slowest cells."""
    n = len(rep.record.moves)
    p = rep.puzzle
    who = f", solved by {rep.solver}" if rep.solver else ""
    timing = "" if rep.timed else "; no times (janko.at's records have none)"
    yield f"{p.name or rep.label or 'puzzle'} ({p.rows}x{p.cols}){who}: {n} moves{timing}\n"
    parting = {pt.move: pt for pt in rep.partings}
    width = len(str(n))
    for k, mv in enumerate(rep.record.moves):
        notes = []
        if rep.off_grid(mv):
            notes.append("not a white cell: left out")
        if rep.wrong(mv):
            notes.append("wrong")
        if k in parting:
            notes.append("parts from the walkthrough: " + parting[k].text())
        when = clock(mv.ms)
        line = f"{k + 1:>{width}}  {when:>8}  {move_text(mv)}" if rep.timed \
            else f"{k + 1:>{width}}  {move_text(mv)}"
        yield line + ("   <- " + "; ".join(notes) if notes else "") + "\n"
    yield "\n"
    yield from summary_lines(rep)


def summary_lines(rep):
    """Where the orders part ways, and the cells the solver took longest over."""
    if rep.solution is None:
        yield (f"The walkthrough did not reach the solution ({rep.walk_status}): no order "
               "to set the record beside.\n")
    else:
        total = len(rep.order)
        yield (f"Order: {rep.follows()} of the {total} cells the solver filled for good kept "
               f"to the walkthrough's order (the cell among its next {rep.ahead}); "
               f"{len(rep.partings)} parted from it.\n")
        if rep.partings:
            first = rep.partings[0]
            yield f"  first at move {first.move + 1}: {first.text()}\n"
    if rep.slowest:
        if rep.timed:
            parts = [f"{cell_name(c)} {a / 1000:.1f} s ({m} move{'' if m == 1 else 's'})"
                     for c, a, m in rep.slowest]
            yield "Took longest over: " + ", ".join(parts) + "\n"
        else:
            parts = [f"{cell_name(c)} ({a} moves)" for c, a, _m in rep.slowest]
            yield "No times recorded; most moves: " + ", ".join(parts) + "\n"
    elif not rep.timed:
        yield "No times recorded, and no cell took more than one move.\n"


def replay_board(rep, upto: int) -> str:
    """The board after ``upto`` moves: the grid with its digits, then each marked cell."""

    p = rep.board_after(upto)
    text = draw_grid(p, fixed=p.entries) + "\n"
    marked = [f"{cell_name(rc)} {fmt_mask(m)}" for rc, m in sorted(p.pencil.items())
              if rc not in p.entries]
    if marked:
        text += "marks: " + ", ".join(marked) + "\n"
    return text

"""HTML renderer: one self-contained file (no network, no build step) per walkthrough.

The board is inline SVG (see :mod:`deducer.render.svg`); the steps travel once as compact
JSON (white-cell indices, elimination masks) and a small script replays them to redraw the
board at any step: buttons, Left/Right arrow keys, Home/End, or a click on a step. Every
step's sentence is in the page as text, so the file reads (and prints) without the script.
The style and the scripts are files of ``render/static/`` (``walkthrough.css``,
``walkthrough.js``, and ``chainstep.js``, the play page's chain walker, which walks a chain
step from its JSON proof on both pages), written into the page when it is made.

Stable hooks for tests and styling: ``svg#board``, ``g.w[data-cell="r,c"]`` (0-based) with
``hl`` (cells of the current step), ``run`` (cells of its runs), ``pf`` (cells its proof
states candidates of) and ``pr`` (cells and clues of its proof's runs), ``text.d`` digits
(``n``: placed by the current step), ``text.c.x`` struck candidates, ``li[data-step=k]``
in ``ol#steps`` (``current`` on the one on show), ``body[data-current=k]``. A stretch of one
easy rule gets a ``li.grp`` heading (click: fold or unfold its steps, which carry ``in-grp``).
A chain step (``li.chain``) is walked link by link (↓ / ↑): ``#links li[data-link=p]`` (0: the
assumption), ``body[data-link=p]``, ``as`` on the assumed cell, ``bad`` where it breaks and
``#board-badges g.bd`` for link numbers. docs/walkthroughs.md describes the page.
"""

from __future__ import annotations

import json
import re
from html import escape

from ..puzzle.combos import BIT, combos
from ..puzzle.model import cell_name
from . import Renderer
from .assets import static_text
from .position import position_digits, start_position
from .svg import (
    ARROW_FROM,
    ARROW_HEAD,
    ARROW_TO,
    BADGE_R,
    LABEL,
    PAD,
    S,
    board_svg,
    outline_path,
    solution_svg,
)
from .teach import cards_html, rule_link
from .text import unrated_reason
from .walk import (
    chain_cases,
    chain_conclusion,
    easy_weight,
    group_effects,
    group_heading,
    groups,
    notation,
    proof_marks,
    region_parts,
    step_text,
)


def _sizes() -> dict:
    """The static board's badge and arrow sizes (svg.py's), for the page's script."""
    return {"badge": BADGE_R, "cell": S, "arrowFrom": ARROW_FROM, "arrowHead": ARROW_HEAD,
            "arrowTo": ARROW_TO}


def _json_script(obj) -> str:
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    # nothing inside may close the script element
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


def walkthrough_data(puzzle, explanation, start=None) -> dict:
    """The compact replay data the script reads."""
    start = start or start_position(puzzle)
    idx = puzzle.index
    names = {run.name: run.id for run in puzzle.runs}
    steps = []
    for s in explanation.steps:
        steps.append([
            [[idx[(r, c)], d] for r, c, d in s.placements],
            _elim_masks(idx, s.eliminations),
            [idx[tuple(rc)] for rc in s.cells if tuple(rc) in idx],
            [names[n] for n in s.runs if n in names],
            *_proof_data(puzzle, s),
            _region_data(puzzle, s),
        ])
    fixed = {str(idx[rc]): [d, start.kinds[rc]] for rc, d in start.digits.items()}
    return {
        "cells": [list(rc) for rc in puzzle.whites],
        "start": start.masks,
        "fixed": fixed,
        "runs": [list(run.cells) for run in puzzle.runs],
        # each run's clue square and direction, as a proof names runs
        "refs": [list(run.ref) for run in puzzle.runs],
        # per run, the digit sets its sum allows (null: unclued, any digits): "all
        # candidates" shows what the runs' combinations allow beside the written digits
        "combos": [None if run.total is None else list(combos(run.total, run.length))
                   for run in puzzle.runs],
        "steps": steps,
        # step number -> its chain, for the chain stepper (chainstep.js)
        "chains": {str(s.n): _chain_step(s) for s in explanation.steps if chain_cases(s)},
        "sizes": _sizes(),
        "startText": _start_text(puzzle, start),
    }


def _region_data(puzzle, step) -> list | int:
    """A region sum's area for the script: [inside cells, outside cells, cells only one
    group covers, its area's run ids, the crossing run ids, the outline's path data]; 0
    for any other step."""
    parts = region_parts(puzzle, step)
    if parts is None:
        return 0
    idx = puzzle.index

    def ids(cells) -> list[int]:
        return sorted(idx[rc] for rc in cells if rc in idx)

    return [ids(parts.inside), ids(parts.outside), ids(parts.left), parts.base,
            parts.crossing, outline_path(parts.inside, LABEL + PAD, LABEL + PAD)]


def _elim_masks(idx, eliminations) -> list[list[int]]:
    """[[cell index, mask of the digits removed]] of ``(row, col, digits)`` eliminations."""
    out = []
    for r, c, ds in eliminations:
        m = 0
        for d in ds:
            m |= BIT[d]
        out.append([idx[(r, c)], m])
    return out


def _chain_step(step) -> dict:
    """A chain step for the script as the JSON log gives it (its proof, placements and
    eliminations: chainstep.js walks it, as on the play page) and the words that conclude
    it."""
    return {"proof": step.proof,
            "placements": [list(p) for p in step.placements],
            "eliminations": [[r, c, list(ds)] for r, c, ds in step.eliminations],
            "tail": chain_conclusion(step)}


def _proof_data(puzzle, step) -> list[list[int]]:
    """[cells the proof states candidates of, runs it uses] as indices and run ids."""
    cells, runs = proof_marks(puzzle, step)
    idx = puzzle.index
    return [sorted(idx[rc] for rc in cells if rc in idx), sorted(runs)]


def _start_text(puzzle, start) -> str:
    parts = [f"The puzzle as given: {len(puzzle.whites)} white cells"]
    if puzzle.givens:
        parts.append(f"{len(puzzle.givens)} givens")
    if puzzle.entries:
        parts.append(f"{len(puzzle.entries)} entries")
    if puzzle.even is not None:
        parts.append(f"{len(puzzle.even)} even (shaded) cells, the others odd")
    return ", ".join(parts) + ". Use → / ← or the buttons to step through."


def _summary(explanation) -> str:
    rating = explanation.rating
    steps = explanation.steps
    items: list[tuple[str, str]] = []
    if rating is not None and rating.level is None:
        why = unrated_reason(explanation.status, explanation.message)
        items.append(("Level", f"not rated: {escape(why)}"))
    elif rating is not None:
        level = escape(rating.level)
        if rating.level_step is not None:
            n = rating.level_step
            level += f' (from <a href="#s{n}" data-goto="{n}">step {n}</a>)'
        items.append(("Level", level))
        items.append(("Score", f"{rating.score:g}"))
        if rating.notes is not None:
            items.append(("Pencil marks", escape(rating.notes_text().split(": ", 1)[1])))
        if steps:
            hardest = max(steps, key=lambda s: (s.weight, -s.n))
            items.append(("Hardest step", f'<a href="#s{hardest.n}" data-goto="{hardest.n}">'
                          f"{escape(hardest.name)} ({hardest.weight:g}), step {hardest.n}</a>"))
        if rating.narrowest_step is not None:
            n = rating.narrowest_step
            items.append(("Narrowest", f'<a href="#s{n}" data-goto="{n}">step {n}</a> '
                          f"({rating.narrowest_open} easy moves open)"))
        items.append(("Effort", str(rating.effort)))
    items.append(("Steps", str(len(steps))))
    out = ['<dl class="summary">']
    for k, v in items:
        # a long item (why a walkthrough is not rated) wraps rather than run off the page
        wrap = ' class="wrap"' if len(re.sub(r"<[^>]+>", "", v)) > 60 else ""
        out.append(f"<div{wrap}><dt>{k}</dt><dd>{v}</dd></div>")
    out.append("</dl>")
    return "".join(out)


def _rules_used(explanation) -> str:
    rating = explanation.rating
    counts = rating.rules if rating is not None else {}
    if not counts:
        return ""
    names = {s.rule: s.name for s in explanation.steps}
    out = ['<p class="rules">Rules used: ']
    out.extend(f'<span data-rule="{escape(r)}"><a href="#technique-{escape(r)}" '
               f'data-tech="{escape(r)}">{escape(names.get(r, r))}</a> <b>×{n}</b></span>'
               for r, n in counts.items())
    out.append("</p>")
    return "".join(out)


def _status(explanation) -> str:
    st = explanation.status
    n = len(explanation.steps)
    if st == "solved":
        line, bad = f"Solved in {n} steps.", False
    elif st == "multiple":
        line, bad = f"Not unique: {explanation.message}", True
    elif st == "none":
        line, bad = f"No solution: {explanation.message}", True
    else:
        said = explanation.message or st
        # "Stopped after 10 steps: stopped after 10 steps (...)" said it twice
        line = said[:1].upper() + said[1:] if said.startswith("stopped after") else \
            f"Stopped after {n} steps: {said}"
        bad = True
    return f'<p class="status{" bad" if bad else ""}">{escape(line)}</p>'


def _page(title: str, body: str, script: str = "") -> str:
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="generator" content="deducer">\n'
        f"<title>{escape(title)}</title>\n<style>{static_text('walkthrough.css')}</style>\n</head>\n<body>\n"
        f"{body}\n{script}</body>\n</html>\n"
    )


def _step_items(puzzle, explanation, start) -> list[str]:
    """The list of steps: the start, then every step (a stretch of one easy rule under a
    heading that folds it)."""
    items = ['<li data-step="0" id="s0" class="start"><span class="n">0</span>'
             '<span class="rule">Start</span><span class="text">'
             f"{escape(_start_text(puzzle, start))}</span></li>"]
    for group in groups(explanation.steps, easy_weight(explanation)):
        grouped = len(group) > 1
        if grouped:
            items.append(f'<li class="grp" data-grp="{group[0].n}" title="fold / unfold">'
                         f'<span class="tw">▾</span>{escape(group_heading(group))}'
                         f'<span class="fx">{escape(group_effects(group))}</span></li>')
        for s in group:
            cells = ",".join(cell_name(tuple(rc)) for rc in s.cells)
            cls = ["in-grp"] if grouped else []
            if chain_cases(s):
                cls.append("chain")
            extra = f' class="{" ".join(cls)}"' if cls else ""
            if grouped:
                extra += f' data-in="{group[0].n}"'
            items.append(f'<li data-step="{s.n}" id="s{s.n}" data-rule="{escape(s.rule)}" '
                         f'data-cells="{cells}"{extra}><span class="n">{s.n}</span>'
                         f"{rule_link(s)}"
                         f'<span class="text">{escape(step_text(s))}</span>{_detail(s)}'
                         f'{_chain_list(s)}</li>')
    return items


def walkthrough_html(puzzle, explanation) -> str:
    start = start_position(puzzle)
    title = f"Kakuro walkthrough{': ' + puzzle.name if puzzle.name else ''}"
    board = board_svg(puzzle, digits=position_digits(start), interactive=True, ident="board",
                      standalone=False, title=f"{puzzle.rows}×{puzzle.cols} Kakuro board")
    items = _step_items(puzzle, explanation, start)
    even = "; grey cells are even" if puzzle.even is not None else ""
    body = f"""<header>
<h1>{escape(title)}</h1>
{_status(explanation)}
{_summary(explanation)}
<p class="notation">{escape(notation(puzzle))}</p>
<details class="about"><summary>Colours, keys and the rules used</summary>
<p class="help">← / → step back and forth, Home / End jump; click a step to show it.
Yellow: the step's cells (darker) and runs; red: candidates it removes; orange: digits it
places; blue: digits placed earlier; blue outline: cells whose candidates the step's proof
uses, light blue: the runs it uses{even}. A chain is walked link by link with ↓ / ↑ (or its
own buttons): the assumed digit in purple in a dashed cell, each link's number on the cells
it changes, digits of earlier links in green, the cell where it breaks in red.</p>
{_rules_used(explanation)}
</details>
</header>
<main class="layout">
<section class="boardpane">
<div class="controls">
<button id="first" type="button" title="Start (Home)" aria-label="start">|◀</button>
<button id="prev" type="button" title="Previous step (←)" aria-label="previous">◀</button>
<button id="next" type="button" title="Next step (→)" aria-label="next">▶</button>
<button id="last" type="button" title="Last step (End)" aria-label="last">▶|</button>
<span id="pos">Start</span>
<span class="zoom" role="group" aria-label="zoom"><button id="zoom-out" type="button"
title="Zoom out (−, Ctrl+wheel, or pinch)" aria-label="zoom out">−</button><span
id="zoom-level" aria-live="polite">Fit</span><button id="zoom-in" type="button"
title="Zoom in (+, Ctrl+wheel, or pinch); drag a zoomed board" aria-label="zoom in">+</button
><button id="zoom-fit" type="button" title="The whole board (0)">Fit</button></span>
<label title="every empty cell: the digits its runs' combinations still allow">
<input type="checkbox" id="all-cands"> all candidates</label>
</div>
<div class="boardwrap">
{board}</div>
</section>
<aside class="side">
<div id="current" aria-live="polite"><span id="cur-rule">Start</span>
<span id="cur-text">{escape(_start_text(puzzle, start))}</span>
<details id="cur-detail" class="detail" hidden><summary>{DETAIL_SUMMARY}</summary>
<span id="cur-full"></span></details>
<div id="chain" hidden>
<div class="chain-nav"><button id="link-prev" type="button" title="previous link (↑)"
aria-label="previous link">▲</button><button id="link-next" type="button"
title="next link (↓)" aria-label="next link">▼</button><span id="link-pos"></span>
<span class="keys">↓ / ↑ walk the links</span></div>
<ol id="links"></ol>
<p id="concl"></p>
</div>
</div>
<section class="steppane" id="steppane">
<ol id="steps">
{chr(10).join(items)}
</ol>
{cards_html(explanation)}
</section>
</aside>
</main>"""
    data = _json_script(walkthrough_data(puzzle, explanation, start))
    script = (f'<script type="application/json" id="data">{data}</script>\n'
              f"<script>\n{static_text('chainstep.js')}{static_text('walkthrough.js')}"
              f"{static_text('cards.js')}</script>\n")
    return _page(title, body, script)


#: the fold that holds a step's whole case analysis (its ``detail``) under its sentence
DETAIL_SUMMARY = "The whole argument"


def _detail(step) -> str:
    """The step's ``detail`` folded under its sentence (empty when it has none)."""
    detail = getattr(step, "detail", "")
    if not detail:
        return ""
    return (f'<details class="detail"><summary>{DETAIL_SUMMARY}</summary>'
            f'<span class="full">{escape(detail)}</span></details>')


def _chain_list(step) -> str:
    """A chain step's links as a numbered list under each assumption (empty otherwise)."""
    out = []
    for case in chain_cases(step):
        out.append(f'<span class="intro">{escape(case.intro)}</span><ol class="links">')
        out += [f'<li{" class=bad" if link.get("contradiction") else ""}>'
                f'{escape(link["text"])}</li>' for link in case.links]
        out.append("</ol>")
    if out:
        out.append(f'<span class="concl">{escape(chain_conclusion(step))}</span>')
    return "".join(out)


def solve_html(puzzle, result) -> str:
    from .text import verdict

    title = f"Kakuro{': ' + puzzle.name if puzzle.name else ''}"
    parts = [f"<header><h1>{escape(title)}</h1>"
             f'<p class="status">{escape(verdict(result))}</p></header><main class="layout">']
    for k, sol in enumerate(result.solutions, start=1):
        label = f"Solution {k}" if len(result.solutions) > 1 else "Solution"
        parts.append(f'<section class="boardpane"><h2>{label}</h2>'
                     f"{solution_svg(puzzle, sol, standalone=False)}</section>")
    parts.append("</main>")
    return _page(title, "\n".join(parts))


class HtmlRenderer(Renderer):
    name = "html"

    def solve(self, puzzle, result) -> str:
        return solve_html(puzzle, result)

    def walkthrough(self, puzzle, explanation) -> str:
        return walkthrough_html(puzzle, explanation)


RENDERER = HtmlRenderer()

"""HTML renderer: one self-contained file (no network, no build step) per walkthrough.

The board is inline SVG (see :mod:`deducer.render.svg`); the steps travel once as compact
JSON (white-cell indices, elimination masks) and a small script replays them to redraw the
board at any step: buttons, Left/Right arrow keys, Home/End, or a click on a step. Every
step's sentence is in the page as text, so the file reads (and prints) without the script.

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
from .svg import (
    LABEL,
    PAD,
    board_svg,
    outline_path,
    position_digits,
    solution_svg,
    start_position,
)
from .teach import CARD_SCRIPT, cards_html, rule_link
from .text import unrated_reason
from .walk import (
    NOTATION,
    broken_cells,
    chain_arrows,
    chain_cases,
    chain_conclusion,
    easy_weight,
    group_effects,
    group_heading,
    groups,
    link_cells,
    proof_marks,
    region_parts,
    step_text,
)

CSS = """
:root{--fg:#1b1b1b;--muted:#666;--accent:#d14400;--line:#ddd;--hl:#fff3c0;--chain:#b0179b}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 'DejaVu Sans',system-ui,-apple-system,'Segoe UI',Arial,sans-serif;
 color:var(--fg);background:#fafafa;display:flex;flex-direction:column;height:100vh}
header{flex:none;max-height:32vh;overflow-y:auto;padding:8px 20px 6px;
 border-bottom:1px solid var(--line);background:#fff}
h1{font-size:19px;margin:0 0 2px}
.summary{display:flex;flex-wrap:wrap;gap:2px 22px;margin:2px 0}
.summary div{white-space:nowrap;max-width:100%}.summary div.wrap{white-space:normal}
.summary dt{display:inline;color:var(--muted)}
.summary dd{display:inline;margin:0 0 0 4px;font-weight:bold}
.rules{margin:4px 0 0;font-size:13px;color:var(--muted)}
.rules span{display:inline-block;margin-right:12px}.rules b{color:var(--fg)}
.status{margin:0}.status.bad{color:#b00020}
.about summary{cursor:pointer;font-size:13px;color:var(--muted)}
.layout{flex:1 1 auto;min-height:0;display:flex;gap:18px;padding:8px 20px 10px}
.boardpane{flex:1 1 auto;min-width:0;min-height:0;display:flex;flex-direction:column}
.boardwrap{flex:1 1 auto;min-height:0;overflow:hidden;position:relative;touch-action:pan-y}
.boardwrap svg{display:block;width:100%;height:100%;transform-origin:0 0;user-select:none;
 -webkit-user-select:none}
.boardwrap.zoomed{touch-action:none;cursor:grab}
.boardwrap.zoomed.moving{cursor:grabbing}
.boardwrap.glide svg{transition:transform .2s ease-out}
.zoom{display:inline-flex;align-items:center;gap:4px;margin-left:6px}
.zoom button{min-width:34px}
#zoom-level{min-width:3.2em;text-align:center;font-size:13px;color:var(--muted)}
#zoom-fit{font-size:13px}
.controls{flex:none;display:flex;align-items:center;gap:6px;margin-bottom:6px;flex-wrap:wrap}
.controls button,.chain-nav button{font-size:16px;min-width:38px;padding:3px 8px;cursor:pointer}
#pos{min-width:120px;font-weight:bold;margin:0 8px}
.controls label{font-size:13px;color:var(--muted)}
.side{flex:0 0 clamp(290px,32vw,560px);min-width:0;min-height:0;display:flex;
 flex-direction:column;gap:8px}
#current{flex:0 0 auto;min-height:3.2em;max-height:58%;overflow-y:auto;margin:0;
 padding:6px 10px;background:#fff;border-left:4px solid var(--accent)}
#cur-rule{display:block;font-weight:bold;color:var(--accent)}
#current.chain #cur-text{display:none}
.detail summary{cursor:pointer;font-size:12px;color:var(--muted)}
.detail .full{display:block;font-size:13px;color:#444}
#steps details.detail{margin-left:2.6em}
#steps li.in-grp details.detail{margin-left:0}
#chain[hidden]{display:none}
.chain-nav{display:flex;align-items:center;gap:6px;margin:4px 0;position:sticky;top:-6px;
 background:#fff;padding:2px 0}
.chain-nav button{font-size:14px;min-width:32px;padding:1px 6px}
#link-pos{font-weight:bold;color:var(--chain)}
.chain-nav .keys{font-size:12px;color:var(--muted)}
#links{margin:2px 0;padding-left:2.2em}
#links li{padding:1px 4px;cursor:pointer;border-radius:3px}
#links li.as{list-style:none;margin-left:-2.2em;font-weight:bold}
#links li.current{background:#f7dcf3;box-shadow:inset 3px 0 0 var(--chain)}
#links li.bad::after,#steps ol.links li.bad::after{content:" ✗";color:#c00;font-weight:bold}
#steps ol.links li.bad{list-style:"✗ "}
#concl{margin:4px 0 0;font-weight:bold}
.help{font-size:12px;color:var(--muted);margin:4px 0 0}
.steppane{flex:1 1 0;min-height:6em;overflow-y:auto;position:relative}
#steps{list-style:none;margin:0;padding:0}
#steps li[data-step],#steps li.grp{padding:5px 8px;border-bottom:1px solid var(--line);
 cursor:pointer;background:#fff}
#steps li[data-step]:hover{background:#f3f3f3}
#steps li.current{background:var(--hl);box-shadow:inset 3px 0 0 #e0a800}
#steps .n{display:inline-block;min-width:2.6em;color:var(--muted);font-variant-numeric:tabular-nums}
#steps .rule{font-weight:bold;margin-right:6px}
#steps .text,#steps .intro,#steps .concl{display:block;margin-left:2.6em}
#steps li.chain .text{display:none}
#steps ol.links{margin:0 0 0 2.6em;padding-left:2em}
#steps li.grp{background:#f4f4f4;font-weight:bold;color:#444}
#steps li.grp .fx{font-weight:normal;color:var(--muted);margin-left:6px}
#steps li.grp .tw{display:inline-block;width:1.2em;color:var(--muted)}
#steps li.in-grp{padding-left:20px}
#steps li.in-grp .rule{display:none}
#steps li.in-grp .text{display:inline;margin-left:0}
#steps li.folded{display:none}
.notation{margin:2px 0 0;font-size:13px;color:var(--muted);max-width:75em}
@media (max-width:900px){body{display:block;height:auto}.layout{flex-direction:column}
 .boardpane{flex:none}.boardwrap svg{height:auto}.side{flex:none}
 .steppane{flex:none;overflow:visible}header{max-height:none}}
@media screen and (max-width:900px){
 .summary div{white-space:normal}
 .boardwrap{order:-1;margin-bottom:6px}
 .boardwrap svg{max-height:85vh}
 .boardwrap.zoomed{min-height:62vh}
 #current{max-height:45vh}}
@media print{
 body{display:block;height:auto;background:#fff;font-size:11pt}
 header{max-height:none;overflow:visible}
 .controls,.help,#current{display:none}
 .boardwrap svg{transform:none!important}
 .layout{display:block;padding:0}
 .boardpane{display:block;margin-bottom:12pt}
 .boardwrap svg{height:auto;max-width:18cm}
 .steppane{overflow:visible}
 #steps li{break-inside:avoid;page-break-inside:avoid;border:0;border-bottom:1px solid #bbb;
  padding:4pt 0;background:none;box-shadow:none}
 #steps ol.links li{border:0;padding:0}
 #steps li.start{display:none}
 #steps li.folded{display:block}
}
"""


def _js() -> str:
    from .svg import ARROW_FROM, ARROW_HEAD, ARROW_TO, BADGE_R, S

    # the static board's badge and arrow sizes
    sizes = {"BADGE_R": BADGE_R, "CELL_SIZE": S, "ARROW_FROM": ARROW_FROM,
             "ARROW_HEAD": ARROW_HEAD, "ARROW_TO": ARROW_TO}
    out = SCRIPT
    for name, v in sizes.items():
        out = out.replace(name, f"{v:g}")
    return out


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
        # per run, the digit sets its sum allows (null: unclued, any digits): "all
        # candidates" shows what the runs' combinations allow beside the written digits
        "combos": [None if run.total is None else list(combos(run.total, run.length))
                   for run in puzzle.runs],
        "steps": steps,
        # step number -> its chain, link by link, for the chain stepper
        "chains": {str(s.n): _chain_data(puzzle, s) for s in explanation.steps
                   if chain_cases(s)},
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


def _chain_data(puzzle, step) -> dict:
    """A chain step's cases for the script: per case the assumed cell index and digit, and
    per link [text, placements [[i, d]], eliminations [[i, mask]], cells it changes,
    cells whose candidates it uses, run ids, contradiction (0/1), cells where it breaks,
    the arrows into it [[from, to]] (walk.chain_arrows)]."""
    idx = puzzle.index
    by_ref = puzzle.run_ids_by_ref

    def ids(cells) -> list[int]:
        return sorted(idx[rc] for rc in cells if rc in idx)

    cases = []
    for case in chain_cases(step):
        links = []
        arrows = chain_arrows(puzzle, case)
        for k, link in enumerate(case.links, start=1):
            changed, used = link_cells(link)
            runs = sorted(by_ref[tuple(ref)] for ref in link.get("runs", ())
                          if tuple(ref) in by_ref)
            placed = [[idx[(r, c)], d] for r, c, d in link.get("placements", ())]
            links.append([link["text"], placed, _elim_masks(idx, link.get("eliminations", ())),
                          ids(changed), ids(used), runs,
                          1 if link.get("contradiction") else 0,
                          ids(broken_cells(puzzle, link)) if link.get("contradiction") else [],
                          # the arrows into this link, from the cells of those it rests on
                          [[idx[a], idx[b]] for a, b, n in arrows if n == k]])
        cases.append({"cell": idx[case.cell], "digit": case.digit, "intro": case.intro,
                      "links": links})
    return {"cases": cases, "tail": chain_conclusion(step)}


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
        f"<title>{escape(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
        f"{body}\n{script}</body>\n</html>\n"
    )


def walkthrough_html(puzzle, explanation) -> str:
    start = start_position(puzzle)
    title = f"Kakuro walkthrough{': ' + puzzle.name if puzzle.name else ''}"
    board = board_svg(puzzle, digits=position_digits(start), interactive=True, ident="board",
                      standalone=False, title=f"{puzzle.rows}×{puzzle.cols} Kakuro board")
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
    even = "; grey cells are even" if puzzle.even is not None else ""
    body = f"""<header>
<h1>{escape(title)}</h1>
{_status(explanation)}
{_summary(explanation)}
<p class="notation">{escape(NOTATION)}</p>
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
              f"<script>\n{_js()}{CARD_SCRIPT}</script>\n")
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


# The walkthrough player (inline, so the package needs no data files).
SCRIPT = r"""// The walkthrough player: replays the logged steps on the inline SVG board.
// Data (script#data): cells [[r,c]], start masks, fixed {index: [digit, kind]},
// runs [[cell indices]],
// steps [[placements [[i,d]], eliminations [[i,mask]], cells [i], runs [id],
//         proof cells [i], proof runs [id], region (0, or [inside [i], outside [i],
//         left over [i], its area's runs [id], crossing runs [id], outline path])]],
// chains {step: {cases: [{cell, digit, intro, links: [[text, placements, eliminations,
//         changed cells, fact cells, runs, contradiction, broken cells,
//         arrows in [[from i, to i]]]]}], tail}}.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("data").textContent);
  var svg = document.getElementById("board");
  var N = D.steps.length, W = D.cells.length, SNAP = 50;
  var KIND = { given: "g", entry: "e", placed: "p" };
  var cellEl = [], digitEl = [], candEl = [];
  D.cells.forEach(function (rc, i) {
    var g = svg.querySelector('g.w[data-cell="' + rc[0] + "," + rc[1] + '"]');
    cellEl.push(g);
    digitEl.push(g.querySelector("text.d"));
    var cs = [];
    g.querySelectorAll("text.c").forEach(function (t) { cs[+t.getAttribute("data-d")] = t; });
    candEl.push(cs);
  });
  var clueEl = {};
  svg.querySelectorAll("g.cr[data-run]").forEach(function (g) {
    clueEl[g.getAttribute("data-run")] = g;
  });
  var strikes = document.getElementById("board-strikes");
  var items = document.querySelectorAll("#steps li[data-step]");
  var byStep = [];
  items.forEach(function (li) { byStep[+li.getAttribute("data-step")] = li; });
  var allBox = document.getElementById("all-cands");
  var cellRuns = D.cells.map(function () { return []; });
  D.runs.forEach(function (cells, rid) { cells.forEach(function (i) { cellRuns[i].push(rid); }); });

  // every digit the runs' combinations allow in each cell, beside the digits written
  // so far: the candidates a player would pencil in (the engine's own narrowing on top)
  function comboAllowed(s) {
    var room = D.runs.map(function (cells, rid) {
      var w = 0;
      cells.forEach(function (i) { if (s.digit[i]) w |= 1 << (s.digit[i] - 1); });
      if (D.combos[rid] === null) return 511 & ~w;
      var u = 0;
      D.combos[rid].forEach(function (c) { if ((c & w) === w) u |= c; });
      return u & ~w;
    });
    return cellRuns.map(function (rids) {
      return rids.reduce(function (m, rid) { return m & room[rid]; }, 511);
    });
  }

  // ---- replay, with a snapshot every SNAP steps --------------------------------------
  function startState() {
    var s = { masks: D.start.slice(), digit: new Array(W).fill(0), kind: new Array(W).fill("") };
    Object.keys(D.fixed).forEach(function (i) {
      s.digit[+i] = D.fixed[i][0];
      s.kind[+i] = KIND[D.fixed[i][1]] || "p";
    });
    return s;
  }
  function copy(s) {
    return { masks: s.masks.slice(), digit: s.digit.slice(), kind: s.kind.slice() };
  }
  function apply(s, st) {
    st[1].forEach(function (e) { s.masks[e[0]] &= ~e[1]; });
    st[0].forEach(function (p) {
      s.masks[p[0]] = 1 << (p[1] - 1);
      s.digit[p[0]] = p[1];
      s.kind[p[0]] = "p";
    });
  }
  var snaps = [startState()];
  (function () {
    var s = copy(snaps[0]);
    for (var k = 1; k <= N; k++) {
      apply(s, D.steps[k - 1]);
      if (k % SNAP === 0) snaps[k / SNAP] = copy(s);
    }
  })();
  function stateAt(k) {
    var s = copy(snaps[Math.floor(k / SNAP)]);
    for (var j = Math.floor(k / SNAP) * SNAP + 1; j <= k; j++) apply(s, D.steps[j - 1]);
    return s;
  }

  // ---- drawing ----------------------------------------------------------------------
  var shown = new Array(W).fill(null);
  var marked = [];
  var cur = -1;
  var badges = document.getElementById("board-badges");
  var zoom = null, focus = [[], []], CELL = CELL_SIZE;
  var arrows = document.getElementById("board-arrows");
  var regionPath = document.getElementById("board-region");
  var SVGNS = "http://www.w3.org/2000/svg";

  // what one position shows: the board state and the marks drawn on it
  function stepView(k) {
    var st = k > 0 ? D.steps[k - 1] : [[], [], [], [], [], [], 0];
    var v = { s: stateAt(k), struck: {}, fresh: {}, hl: st[2], runs: st[3],
              pf: st[4] || [], pr: st[5] || [], as: [], bad: [], badges: [],
              region: st[6] || 0, arrows: [] };
    st[1].forEach(function (e) { v.struck[e[0]] = (v.struck[e[0]] || 0) | e[1]; });
    st[0].forEach(function (p) { v.fresh[p[0]] = p[1]; });
    return v;
  }

  function place(s, i, d, kind) {
    s.masks[i] = 1 << (d - 1);
    s.digit[i] = d;
    s.kind[i] = kind;
  }

  // a chain at its link j (0: the assumption alone): the board before the step, the
  // assumed digit written in and taken from its runs, links 1..j-1 applied, link j marked
  function linkView(k, c, j) {
    var ch = D.chains[k].cases[c];
    var s = stateAt(k - 1), a = ch.cell, bit = 1 << (ch.digit - 1);
    cellRuns[a].forEach(function (rid) {
      D.runs[rid].forEach(function (i) { if (i !== a) s.masks[i] &= ~bit; });
    });
    place(s, a, ch.digit, "a");
    var v = { s: s, struck: {}, fresh: {}, hl: [], runs: [], pf: [], pr: [], as: [a],
              bad: [], badges: [], region: 0, arrows: [] };
    for (var n = 1; n < j; n++) {
      var lk = ch.links[n - 1];
      lk[8].forEach(function (ar) { v.arrows.push([ar[0], ar[1], true]); });
      lk[2].forEach(function (e) { s.masks[e[0]] &= ~e[1]; });
      lk[1].forEach(function (p) { place(s, p[0], p[1], "l"); });
      var at = lk[1].length ? lk[1].map(function (p) { return p[0]; }) : [];
      at.forEach(function (i) { v.badges.push([i, n, true]); });
    }
    if (j > 0) {
      var cur = ch.links[j - 1];
      cur[2].forEach(function (e) { v.struck[e[0]] = (v.struck[e[0]] || 0) | e[1]; });
      cur[1].forEach(function (p) { v.fresh[p[0]] = p[1]; place(s, p[0], p[1], "l"); });
      v.hl = cur[3];
      v.pf = cur[4];
      v.runs = cur[5];
      v.bad = cur[7];
      cur[8].forEach(function (ar) { v.arrows.push([ar[0], ar[1], false]); });
      (cur[3].length ? cur[3] : cur[7]).forEach(function (i) { v.badges.push([i, j, false]); });
    }
    return v;
  }

  function setClass(el, name, on) {
    if (el) el.classList.toggle(name, on);
  }

  function mark(el, name) { el.classList.add(name); marked.push(el); }

  // a link's number on a corner of its cell, centred on the grid's corner, where it covers
  // no candidate: the top-left corner, a cell's further numbers the first other corner
  // free and inside the board (svg.py's badge_places)
  var CORNERS = [[0, 0], [1, 0], [1, 1], [0, 1]];
  var frame = svg.querySelector("rect.frame");
  var right = +frame.getAttribute("x") + +frame.getAttribute("width");
  var bottom = +frame.getAttribute("y") + +frame.getAttribute("height");
  function badgePlaces(list) {
    var taken = {}, seen = {}, out = [];
    var where = function (i, k) {
      var bg = cellEl[i].querySelector("rect.bg"), size = +bg.getAttribute("width");
      return [+bg.getAttribute("x") + CORNERS[k][0] * size,
              +bg.getAttribute("y") + CORNERS[k][1] * size];
    };
    list.forEach(function (b) { taken[where(b[0], 0).join(",")] = true; });
    list.forEach(function (b) {
      var xy = where(b[0], 0);
      if (seen[b[0]]) {
        for (var k = 1; k < 4; k++) {
          var at = where(b[0], k);
          if (!taken[at.join(",")] && at[0] < right - 1 && at[1] < bottom - 1) {
            taken[at.join(",")] = true;
            xy = at;
            break;
          }
        }
      }
      seen[b[0]] = true;
      out.push([b, xy]);
    });
    return out;
  }
  function badge(i, n, old, xy) {
    var cx = xy[0], cy = xy[1];
    var g = document.createElementNS(SVGNS, "g");
    g.setAttribute("class", old ? "bd old" : "bd");
    g.setAttribute("data-cell", D.cells[i].join(","));
    var c = document.createElementNS(SVGNS, "circle");
    c.setAttribute("cx", cx); c.setAttribute("cy", cy); c.setAttribute("r", BADGE_R);
    var t = document.createElementNS(SVGNS, "text");
    t.setAttribute("x", cx); t.setAttribute("y", cy + 3.2);
    if (n >= 10) t.setAttribute("class", "n2");
    t.textContent = String(n);
    g.appendChild(c); g.appendChild(t);
    badges.appendChild(g);
  }

  function draw(v) {
    var s = v.s, struck = v.struck, fresh = v.fresh;
    var showAll = allBox && allBox.checked;
    var allowed = showAll ? comboAllowed(s) : null;
    for (var i = 0; i < W; i++) {
      var d = s.digit[i], kind = fresh[i] ? "n" : s.kind[i];
      var cand = 0, x = 0;
      if (!d) {
        if (showAll) cand = s.masks[i] & allowed[i];
        else if (s.masks[i] !== D.start[i] || struck[i]) cand = s.masks[i];
        x = struck[i] || 0;
      }
      var key = d + kind + ":" + cand + ":" + x;
      if (shown[i] === key) continue;
      shown[i] = key;
      digitEl[i].textContent = d ? String(d) : "";
      digitEl[i].setAttribute("class", d ? "d " + kind : "d");
      for (var n = 1; n <= 9; n++) {
        var b = 1 << (n - 1), t = candEl[i][n];
        t.setAttribute("class", "c" + (x & b ? " x" : "") + ((cand | x) & b ? "" : " off"));
      }
    }
    marked.forEach(function (el) {
      el.classList.remove("hl", "run", "pf", "pr", "as", "bad", "in", "out", "lo");
    });
    marked = [];
    v.pr.forEach(function (rid) {
      D.runs[rid].forEach(function (i) { mark(cellEl[i], "pr"); });
      if (clueEl[rid]) mark(clueEl[rid], "pr");
    });
    v.pf.forEach(function (i) { mark(cellEl[i], "pf"); });
    v.runs.forEach(function (rid) {
      D.runs[rid].forEach(function (i) { mark(cellEl[i], "run"); });
      if (clueEl[rid]) mark(clueEl[rid], "hl");
    });
    v.hl.forEach(function (i) { mark(cellEl[i], "hl"); });
    v.as.forEach(function (i) { mark(cellEl[i], "as"); });
    v.bad.forEach(function (i) { mark(cellEl[i], "bad"); });
    // a region sum: its area green and outlined, the cells the crossing runs add purple
    var rg = v.region;
    if (rg) {
      rg[0].forEach(function (i) { mark(cellEl[i], "in"); });
      rg[1].forEach(function (i) { mark(cellEl[i], "out"); });
      rg[2].forEach(function (i) { mark(cellEl[i], "lo"); });
      rg[3].forEach(function (rid) { if (clueEl[rid]) mark(clueEl[rid], "in"); });
      rg[4].forEach(function (rid) { if (clueEl[rid]) mark(clueEl[rid], "out"); });
    }
    if (regionPath) regionPath.setAttribute("d", rg ? rg[5] : "");
    while (arrows.firstChild) arrows.removeChild(arrows.firstChild);
    v.arrows.forEach(function (ar) { arrowAt(ar[0], ar[1], ar[2]); });
    while (strikes.firstChild) strikes.removeChild(strikes.firstChild);
    Object.keys(struck).forEach(function (i) {
      for (var n = 1; n <= 9; n++) {
        if (!(struck[i] & (1 << (n - 1)))) continue;
        var t = candEl[+i][n];
        var cx = +t.getAttribute("x"), cy = +t.getAttribute("y") - 3.7;
        var l = document.createElementNS(SVGNS, "line");
        l.setAttribute("class", "xl");
        l.setAttribute("x1", cx - 4.5); l.setAttribute("y1", cy + 4.5);
        l.setAttribute("x2", cx + 4.5); l.setAttribute("y2", cy - 4.5);
        strikes.appendChild(l);
      }
    });
    while (badges.firstChild) badges.removeChild(badges.firstChild);
    badgePlaces(v.badges).forEach(function (p) { badge(p[0][0], p[0][1], p[0][2], p[1]); });
    // what a zoomed board keeps in view: the step's (or link's) cells, and with them, when
    // they fit, the cells it narrows, the assumption and the arrows
    var more = v.as.concat(v.bad, Object.keys(struck).map(Number));
    v.arrows.forEach(function (ar) { more.push(ar[0], ar[1]); });
    focus = [v.hl.concat(Object.keys(v.fresh).map(Number)), more];
    if (zoom) zoom.follow(focus);
  }

  // an arrow from one cell's centre towards another's, kept off both centres (svg.py's
  // arrow(): the same numbers)
  function arrowAt(a, b, old) {
    var A = cellEl[a].querySelector("rect.bg"), B = cellEl[b].querySelector("rect.bg");
    var h = +A.getAttribute("width") / 2;
    var ax = +A.getAttribute("x") + h, ay = +A.getAttribute("y") + h;
    var bx = +B.getAttribute("x") + h, by = +B.getAttribute("y") + h;
    var dx = bx - ax, dy = by - ay, n = Math.sqrt(dx * dx + dy * dy) || 1;
    var ux = dx / n, uy = dy / n, w = ARROW_HEAD * 0.55;
    var tx = bx - ux * ARROW_TO, ty = by - uy * ARROW_TO;
    var hx = tx - ux * ARROW_HEAD, hy = ty - uy * ARROW_HEAD;
    var g = document.createElementNS(SVGNS, "g");
    g.setAttribute("class", old ? "ar old" : "ar");
    var l = document.createElementNS(SVGNS, "line");
    l.setAttribute("x1", ax + ux * ARROW_FROM); l.setAttribute("y1", ay + uy * ARROW_FROM);
    l.setAttribute("x2", hx); l.setAttribute("y2", hy);
    var p = document.createElementNS(SVGNS, "polygon");
    p.setAttribute("points", tx + "," + ty + " " + (hx - uy * w) + "," + (hy + ux * w) + " " +
                   (hx + uy * w) + "," + (hy - ux * w));
    g.appendChild(l); g.appendChild(p);
    arrows.appendChild(g);
  }

  function render(k) { draw(stepView(k)); }

  // scroll a list (not the page) so an item is visible
  var pane = document.getElementById("steppane");
  function reveal(li, box) {
    box = box || pane;
    if (!box || box.scrollHeight <= box.clientHeight) {
      li.scrollIntoView({ block: "nearest" });
      return;
    }
    var top = li.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
    var bottom = top + li.offsetHeight;
    // a step leaving the view, or entering the list's last third, is brought a third of
    // the way down: the reader keeps a few steps before it and sees what comes next
    // (held at the bottom edge, the next step was always hidden)
    var h = box.clientHeight, room = h - li.offsetHeight - 40;  // 40: the next step's start
    if (room < 0) box.scrollTop = top;
    else if (top < box.scrollTop || bottom > box.scrollTop + Math.min(h * 2 / 3, h - 40)) {
      box.scrollTop = Math.max(0, top - Math.min(h / 3, room));
    }
  }

  // One column (narrow windows): the list does not scroll, the page does, so revealing a
  // step in the list scrolled the whole page down to it, past the header, the board and
  // the step's text (on a deep link, to the foot of a long list). There the page is
  // scrolled, as little as it takes, to show the board and the step's text together; when
  // both do not fit, the step's text (its start, when it is taller than the window).
  var boardBox = document.querySelector(".boardwrap");
  function oneColumn() { return !!pane && getComputedStyle(pane).overflowY === "visible"; }
  function showStep() {
    var b = boardBox.getBoundingClientRect(), c = curBox.getBoundingClientRect();
    var vh = window.innerHeight;
    var top = Math.min(b.top, c.top), bottom = Math.max(b.bottom, c.bottom);
    if (bottom - top > vh) { top = c.top; bottom = c.bottom; }
    var dy = bottom - top > vh || top < 0 ? top : bottom > vh ? bottom - vh : 0;
    if (dy) window.scrollBy(0, dy);
  }

  // ---- the chain stepper: positions [case, link] (link 0: the assumption) -----------
  var curBox = document.getElementById("current");
  var chainBox = document.getElementById("chain");
  var linkList = document.getElementById("links");
  var linkPos = document.getElementById("link-pos");
  var chainAt = [], link = -1;  // -1: the whole step on show

  function showChain(k) {
    var ch = k > 0 ? D.chains[k] : null;
    chainAt = [];
    link = -1;
    curBox.classList.toggle("chain", !!ch);
    chainBox.hidden = !ch;
    while (linkList.firstChild) linkList.removeChild(linkList.firstChild);
    if (!ch) return;
    ch.cases.forEach(function (cs, c) {
      for (var j = 0; j <= cs.links.length; j++) {
        var li = document.createElement("li");
        li.setAttribute("data-link", String(chainAt.length));
        if (j === 0) {
          li.className = "as";
          li.textContent = cs.intro;
        } else {
          li.value = j;
          li.textContent = cs.links[j - 1][0];
          if (cs.links[j - 1][6]) li.classList.add("bad");
        }
        li.addEventListener("click", goLink.bind(null, chainAt.length));
        linkList.appendChild(li);
        chainAt.push([c, j]);
      }
    });
    document.getElementById("concl").textContent = ch.tail;
    setLinkPos();
  }

  function setLinkPos() {
    var at = link < 0 ? null : chainAt[link];
    var n = at ? D.chains[cur].cases[at[0]].links.length : 0;
    linkPos.textContent = !at ? "the whole chain" : at[1] === 0 ? "assumption"
      : "link " + at[1] + " of " + n;
    document.body.setAttribute("data-link", link < 0 ? "" : String(link));
    linkList.querySelectorAll("li").forEach(function (li) {
      li.classList.toggle("current", +li.getAttribute("data-link") === link);
    });
    document.getElementById("link-prev").disabled = link < 0;
    document.getElementById("link-next").disabled = link >= chainAt.length - 1;
  }

  function goLink(p) {
    if (!chainAt.length) return false;
    p = Math.max(-1, Math.min(chainAt.length - 1, p));
    link = p;
    if (p < 0) render(cur);
    else draw(linkView(cur, chainAt[p][0], chainAt[p][1]));
    setLinkPos();
    var li = linkList.querySelector('li[data-link="' + p + '"]');
    if (li) reveal(li, curBox);
    return true;
  }

  function go(k, scroll) {
    k = Math.max(0, Math.min(N, k));
    if (k === cur) return;
    render(k);
    if (byStep[cur]) byStep[cur].classList.remove("current");
    cur = k;
    var li = byStep[k];
    if (li && li.classList.contains("folded")) fold(li.getAttribute("data-in"), false);
    if (li) li.classList.add("current");
    document.body.setAttribute("data-current", String(k));
    document.getElementById("pos").textContent = k === 0 ? "Start" : "Step " + k + " of " + N;
    var rule = document.getElementById("cur-rule"), text = document.getElementById("cur-text");
    var full = li && k !== 0 ? li.querySelector(".detail .full") : null;
    var curFold = document.getElementById("cur-detail");
    if (k === 0) {
      rule.textContent = "Start";
      text.textContent = D.startText;
    } else {
      rule.textContent = li.querySelector(".rule").textContent;
      text.textContent = li.querySelector(".text").textContent;
    }
    // the step's whole case analysis, folded under its sentence
    curFold.hidden = !full;
    document.getElementById("cur-full").textContent = full ? full.textContent : "";
    showChain(k);
    curBox.scrollTop = 0;
    // the step panel above the list has its new height only now (a chain's is taller)
    if (scroll !== false) {
      if (oneColumn()) showStep();
      else if (li) reveal(li);
    }
    document.getElementById("prev").disabled = k === 0;
    document.getElementById("first").disabled = k === 0;
    document.getElementById("next").disabled = k === N;
    document.getElementById("last").disabled = k === N;
    if (history.replaceState) history.replaceState(null, "", "#step-" + k);
  }

  // a heading folds or unfolds its stretch of one easy rule
  function fold(grp, on) {
    var head = document.querySelector('#steps li.grp[data-grp="' + grp + '"]');
    if (head) head.querySelector(".tw").textContent = on ? "▸" : "▾";
    document.querySelectorAll('#steps li[data-in="' + grp + '"]').forEach(function (x) {
      x.classList.toggle("folded", on);
    });
  }
  document.querySelectorAll("#steps li.grp").forEach(function (head) {
    head.addEventListener("click", function () {
      var grp = head.getAttribute("data-grp");
      var first = document.querySelector('#steps li[data-in="' + grp + '"]');
      fold(grp, !(first && first.classList.contains("folded")));
    });
  });

  document.getElementById("first").addEventListener("click", function () { go(0); });
  document.getElementById("prev").addEventListener("click", function () { go(cur - 1); });
  document.getElementById("next").addEventListener("click", function () { go(cur + 1); });
  document.getElementById("last").addEventListener("click", function () { go(N); });
  document.getElementById("link-prev").addEventListener("click", function () { goLink(link - 1); });
  document.getElementById("link-next").addEventListener("click", function () { goLink(link + 1); });
  if (allBox) {
    allBox.addEventListener("change", function () {
      var k = cur, p = link;
      cur = -1;
      go(k, false);
      if (p >= 0) goLink(p);
    });
  }
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll("details").forEach(function (d) { d.open = true; });
  });
  items.forEach(function (li) {
    li.addEventListener("click", function () {
      go(+li.getAttribute("data-step"), false);
      // one column: the board is far above the list; a tapped step is shown on it
      if (oneColumn()) showStep();
    });
  });
  document.querySelectorAll("a[data-goto]").forEach(function (a) {
    a.addEventListener("click", function (ev) {
      ev.preventDefault();
      go(+a.getAttribute("data-goto"));
    });
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" && ev.target.type !== "checkbox") return;
    if (tag === "TEXTAREA" || tag === "SELECT") return;
    var to = null;
    if ((ev.key === "ArrowDown" || ev.key === "ArrowUp") && chainAt.length) {
      ev.preventDefault();
      goLink(link + (ev.key === "ArrowDown" ? 1 : -1));
      return;
    }
    if (ev.key === "+" || ev.key === "=") { zoom.by(1.5); return; }
    if (ev.key === "-" || ev.key === "_") { zoom.by(1 / 1.5); return; }
    if (ev.key === "0") { zoom.fit(); return; }
    if (ev.key === "ArrowRight") to = cur + 1;
    else if (ev.key === "ArrowLeft") to = cur - 1;
    else if (ev.key === "Home") to = 0;
    else if (ev.key === "End") to = N;
    if (to === null) return;
    ev.preventDefault();
    go(to);
  });
  // ---- zoom and pan: buttons, + / - / 0, Ctrl (or ⌘) + wheel, pinch, drag -------------
  // The board is scaled and moved with a CSS transform inside its box (.boardwrap, which
  // keeps the size of the whole board): z = 1 is the whole board; a zoomed board follows
  // the step or link on show, panning only when its cells leave the view.
  zoom = (function () {
    var box = document.querySelector(".boardwrap");
    var vb = svg.viewBox.baseVal;
    var z = 1, tx = 0, ty = 0, pointers = {}, gesture = null;
    var level = document.getElementById("zoom-level");
    var fit = function () {  // px a board unit takes at z = 1, and the box's size
      // the svg's own layout box (a bounding rectangle would be the transformed one)
      var sw = svg.clientWidth, sh = svg.clientHeight;
      return { f: Math.min(sw / vb.width, sh / vb.height), w: box.clientWidth,
               h: box.clientHeight };
    };
    function most() {  // a cell of about 110 px at most (at least twice the whole board)
      var cell = fit().f * CELL;
      return Math.max(2, 110 / Math.max(cell, 1));
    }
    function clamp() {
      var m = fit(), cw = vb.width * m.f * z, ch = vb.height * m.f * z;
      tx = cw <= m.w ? 0 : Math.min(0, Math.max(m.w - cw, tx));
      ty = ch <= m.h ? 0 : Math.min(0, Math.max(m.h - ch, ty));
    }
    function apply(glide) {
      clamp();
      box.classList.toggle("glide", !!glide);
      svg.style.transform = z === 1 && !tx && !ty ? "" :
        "translate(" + tx.toFixed(1) + "px," + ty.toFixed(1) + "px) scale(" + z.toFixed(3) + ")";
      box.classList.toggle("zoomed", z > 1);
      document.getElementById("zoom-out").disabled = z <= 1;
      document.getElementById("zoom-fit").disabled = z <= 1;
      document.getElementById("zoom-in").disabled = z >= most() - 1e-6;
      document.body.setAttribute("data-zoom", z.toFixed(2));
      level.textContent = z <= 1 ? "Fit" : Math.round(z * 100) + "%";
    }
    function at(nz, px, py, glide) {  // zoom to nz keeping the box point (px, py) still
      nz = Math.max(1, Math.min(most(), nz));
      tx = px - (px - tx) * nz / z;
      ty = py - (py - ty) * nz / z;
      z = nz;
      apply(glide);
    }
    function centre() { return [box.clientWidth / 2, box.clientHeight / 2]; }
    function by(k) {
      // the step's cells, not the box's middle, stay put when they are in view
      var c = centre();
      at(z * k, c[0], c[1], true);
      follow(focus);
    }
    // the board units the cells span: [x0, y0, x1, y1], or null for none
    function span(cells) {
      var x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
      cells.forEach(function (i) {
        var bg = cellEl[i] && cellEl[i].querySelector("rect.bg");
        if (!bg) return;
        var x = +bg.getAttribute("x"), y = +bg.getAttribute("y");
        x0 = Math.min(x0, x); y0 = Math.min(y0, y);
        x1 = Math.max(x1, x + CELL); y1 = Math.max(y1, y + CELL);
      });
      return x0 > x1 ? null : [x0, y0, x1, y1];
    }
    // pan, as little as it takes, so that the cells' box (with a margin) is in view;
    // centred on them when it cannot all be. ``cells``: [the step's own, the others it
    // would keep in view too when all fit]
    function follow(cells) {
      if (z <= 1 || !cells) return;
      var m = fit(), s = m.f * z, pad = CELL * s * 0.6;
      var own = span(cells[0]), all = span(cells[0].concat(cells[1]));
      var fits = function (b) {
        return b && (b[2] - b[0]) * s + 2 * pad <= m.w && (b[3] - b[1]) * s + 2 * pad <= m.h;
      };
      var b = fits(all) || !own ? all : own;
      if (!b) return;
      var L = b[0] * s + tx, T = b[1] * s + ty, R = b[2] * s + tx, B = b[3] * s + ty;
      var ntx = tx, nty = ty;
      if (R - L + 2 * pad > m.w) ntx = m.w / 2 - (L + R) / 2 + tx;
      else if (L < pad) ntx = tx + pad - L;
      else if (R > m.w - pad) ntx = tx - (R - (m.w - pad));
      if (B - T + 2 * pad > m.h) nty = m.h / 2 - (T + B) / 2 + ty;
      else if (T < pad) nty = ty + pad - T;
      else if (B > m.h - pad) nty = ty - (B - (m.h - pad));
      if (ntx !== tx || nty !== ty) {
        tx = ntx; ty = nty;
        apply(true);
      }
    }
    document.getElementById("zoom-in").addEventListener("click", function () { by(1.5); });
    document.getElementById("zoom-out").addEventListener("click", function () { by(1 / 1.5); });
    document.getElementById("zoom-fit").addEventListener("click", function () {
      z = 1; tx = 0; ty = 0;
      apply(true);
    });
    box.addEventListener("wheel", function (ev) {
      if (!(ev.ctrlKey || ev.metaKey)) return;  // a plain wheel scrolls the page
      ev.preventDefault();
      var r = box.getBoundingClientRect();
      var d = ev.deltaMode === 1 ? ev.deltaY * 16 : ev.deltaY;
      at(z * Math.exp(-d * 0.0025), ev.clientX - r.left, ev.clientY - r.top, false);
    }, { passive: false });
    // one pointer drags a zoomed board; two pinch (and drag) it
    function spread() {
      var ps = Object.keys(pointers).map(function (k) { return pointers[k]; });
      var r = box.getBoundingClientRect();
      if (ps.length === 1) return { x: ps[0].x - r.left, y: ps[0].y - r.top, d: 0 };
      var a = ps[0], b = ps[1];
      return { x: (a.x + b.x) / 2 - r.left, y: (a.y + b.y) / 2 - r.top,
               d: Math.hypot(a.x - b.x, a.y - b.y) };
    }
    box.addEventListener("pointerdown", function (ev) {
      if (ev.pointerType === "mouse" && ev.button !== 0) return;
      pointers[ev.pointerId] = { x: ev.clientX, y: ev.clientY };
      var n = Object.keys(pointers).length;
      if (n > 2 || (n === 1 && z <= 1)) { gesture = null; return; }
      try { box.setPointerCapture(ev.pointerId); } catch (e) { /* a synthetic pointer */ }
      gesture = spread();
      box.classList.add("moving");
    });
    box.addEventListener("pointermove", function (ev) {
      if (!pointers[ev.pointerId]) return;
      pointers[ev.pointerId] = { x: ev.clientX, y: ev.clientY };
      if (!gesture) return;
      ev.preventDefault();
      var now = spread();
      tx += now.x - gesture.x;
      ty += now.y - gesture.y;
      if (gesture.d && now.d) at(z * now.d / gesture.d, now.x, now.y, false);
      else apply(false);
      gesture = now;
    });
    function up(ev) {
      delete pointers[ev.pointerId];
      gesture = Object.keys(pointers).length && z > 1 ? spread() : null;
      if (!gesture) box.classList.remove("moving");
    }
    box.addEventListener("pointerup", up);
    box.addEventListener("pointercancel", up);
    window.addEventListener("resize", function () { apply(false); });
    apply(false);
    return { follow: follow, by: by, fit: function () { z = 1; tx = 0; ty = 0; apply(true); } };
  })();

  function stepOfHash() {
    var m = /^#(?:step-|s)(\d+)$/.exec(location.hash);
    return m ? +m[1] : null;
  }
  var asked = stepOfHash();
  go(asked === null ? 0 : asked, asked !== null);  // the start leaves the page at its top
  // a #step-N the reader types or follows after the page has loaded (go writes the hash
  // with replaceState, which fires no hashchange)
  window.addEventListener("hashchange", function () {
    var k = stepOfHash();
    if (k !== null) go(k);
  });
  document.body.classList.add("ready");
})();
"""

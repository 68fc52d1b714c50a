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
"""

from __future__ import annotations

import json
from html import escape

from ..puzzle.combos import BIT, combos
from ..puzzle.model import cell_name
from . import Renderer
from .svg import board_svg, position_digits, solution_svg, start_position
from .walk import NOTATION, group_effects, group_heading, groups, proof_marks

CSS = """
:root{--fg:#1b1b1b;--muted:#666;--accent:#d14400;--line:#ddd;--hl:#fff3c0}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 'DejaVu Sans',system-ui,-apple-system,'Segoe UI',Arial,sans-serif;
 color:var(--fg);background:#fafafa;display:flex;flex-direction:column;height:100vh}
header{flex:none;padding:10px 20px 8px;border-bottom:1px solid var(--line);background:#fff}
h1{font-size:19px;margin:0 0 4px}
.summary{display:flex;flex-wrap:wrap;gap:4px 22px;margin:2px 0}
.summary div{white-space:nowrap}.summary dt{display:inline;color:var(--muted)}
.summary dd{display:inline;margin:0 0 0 4px;font-weight:bold}
.rules{margin:4px 0 0;font-size:13px;color:var(--muted)}
.rules span{display:inline-block;margin-right:12px}.rules b{color:var(--fg)}
.status{margin:2px 0}.status.bad{color:#b00020}
.layout{flex:1 1 auto;min-height:0;display:flex;gap:18px;padding:10px 20px}
.boardpane{flex:0 0 58%;min-width:0;min-height:0;display:flex;flex-direction:column}
.boardwrap{flex:1 1 auto;min-height:0}
.boardwrap svg{display:block;width:100%;height:100%}
.controls{display:flex;align-items:center;gap:6px;margin-bottom:6px;flex-wrap:wrap}
.controls button{font-size:16px;min-width:38px;padding:3px 8px;cursor:pointer}
#pos{min-width:120px;font-weight:bold;margin:0 8px}
.controls label{font-size:13px;color:var(--muted)}
#current{min-height:3.2em;margin:0 0 8px;padding:6px 10px;background:#fff;
 border-left:4px solid var(--accent)}
#cur-rule{display:block;font-weight:bold;color:var(--accent)}
.help{flex:none;font-size:12px;color:var(--muted);margin:6px 0 0}
.steppane{flex:1 1 340px;min-width:280px;min-height:0;overflow-y:auto;position:relative}
#steps{list-style:none;margin:0;padding:0}
#steps li{padding:5px 8px;border-bottom:1px solid var(--line);cursor:pointer;background:#fff}
#steps li:hover{background:#f3f3f3}
#steps li.current{background:var(--hl);box-shadow:inset 3px 0 0 #e0a800}
#steps .n{display:inline-block;min-width:2.6em;color:var(--muted);font-variant-numeric:tabular-nums}
#steps .rule{font-weight:bold;margin-right:6px}
#steps .text{display:block;margin-left:2.6em}
#steps li.grp{background:#f4f4f4;font-weight:bold;color:#444;cursor:pointer}
#steps li.grp .fx{font-weight:normal;color:var(--muted);margin-left:6px}
#steps li.grp .tw{display:inline-block;width:1.2em;color:var(--muted)}
#steps li.in-grp{padding-left:20px}
#steps li.in-grp .rule{display:none}
#steps li.in-grp .text{display:inline;margin-left:0}
#steps li.folded{display:none}
.notation{margin:4px 0 0;font-size:13px;color:var(--muted);max-width:75em}
@media (max-width:900px){body{display:block;height:auto}.layout{flex-direction:column}
 .boardpane{flex:none}.boardwrap svg{height:auto}.steppane{flex:none;overflow:visible}}
@media print{
 body{display:block;height:auto;background:#fff;font-size:11pt}
 .controls,.help,#current{display:none}
 .layout{display:block;padding:0}
 .boardpane{display:block;margin-bottom:12pt}
 .boardwrap svg{height:auto;max-width:18cm}
 .steppane{overflow:visible}
 #steps li{break-inside:avoid;page-break-inside:avoid;border:0;border-bottom:1px solid #bbb;
  padding:4pt 0;background:none;box-shadow:none}
 #steps li.start{display:none}
 #steps li.folded{display:block}
}
"""


def _js() -> str:
    return SCRIPT


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
        elim = []
        for r, c, ds in s.eliminations:
            m = 0
            for d in ds:
                m |= BIT[d]
            elim.append([idx[(r, c)], m])
        steps.append([
            [[idx[(r, c)], d] for r, c, d in s.placements],
            elim,
            [idx[tuple(rc)] for rc in s.cells if tuple(rc) in idx],
            [names[n] for n in s.runs if n in names],
            *_proof_data(puzzle, s),
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
        "startText": _start_text(puzzle, start),
    }


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
        items.append(("Level", "not rated (the walkthrough did not reach the one solution)"))
    elif rating is not None:
        level = escape(rating.level)
        if rating.level_step is not None:
            n = rating.level_step
            level += f' (from <a href="#s{n}" data-goto="{n}">step {n}</a>)'
        items.append(("Level", level))
        items.append(("Score", f"{rating.score:g}"))
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
        out.append(f"<div><dt>{k}</dt><dd>{v}</dd></div>")
    out.append("</dl>")
    counts = rating.rules if rating is not None else {}
    if counts:
        names = {s.rule: s.name for s in steps}
        out.append('<p class="rules">Rules used: ')
        out.extend(f'<span data-rule="{escape(r)}">{escape(names.get(r, r))} <b>×{n}</b></span>'
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
        line, bad = f"Stopped after {n} steps: {explanation.message or st}", True
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
    for group in groups(explanation.steps):
        grouped = len(group) > 1
        if grouped:
            items.append(f'<li class="grp" data-grp="{group[0].n}" title="fold / unfold">'
                         f'<span class="tw">▾</span>{escape(group_heading(group))}'
                         f'<span class="fx">{escape(group_effects(group))}</span></li>')
        for s in group:
            cells = ",".join(cell_name(tuple(rc)) for rc in s.cells)
            extra = f' class="in-grp" data-in="{group[0].n}"' if grouped else ""
            items.append(f'<li data-step="{s.n}" id="s{s.n}" data-rule="{escape(s.rule)}" '
                         f'data-cells="{cells}"{extra}><span class="n">{s.n}</span>'
                         f'<span class="rule">{escape(s.name)}</span>'
                         f'<span class="text">{escape(s.text)}</span></li>')
    body = f"""<header>
<h1>{escape(title)}</h1>
{_status(explanation)}
{_summary(explanation)}
<p class="notation">{escape(NOTATION)}</p>
</header>
<main class="layout">
<section class="boardpane">
<div class="controls">
<button id="first" type="button" title="Start (Home)" aria-label="start">|◀</button>
<button id="prev" type="button" title="Previous step (←)" aria-label="previous">◀</button>
<button id="next" type="button" title="Next step (→)" aria-label="next">▶</button>
<button id="last" type="button" title="Last step (End)" aria-label="last">▶|</button>
<span id="pos">Start</span>
<label title="every empty cell: the digits its runs' combinations still allow">
<input type="checkbox" id="all-cands"> all candidates</label>
</div>
<div id="current"><span id="cur-rule">Start</span>
<span id="cur-text">{escape(_start_text(puzzle, start))}</span></div>
<div class="boardwrap">
{board}</div>
<p class="help">← / → step back and forth, Home / End jump; click a step to show it.
Yellow: the step's cells (darker) and runs; red: candidates it removes; orange: digits it
places; blue: digits placed earlier; blue outline: cells whose candidates the step's proof
uses, light blue: the runs it uses{'; grey cells are even' if puzzle.even is not None else ''}.</p>
</section>
<section class="steppane" id="steppane">
<ol id="steps">
{chr(10).join(items)}
</ol>
</section>
</main>"""
    data = _json_script(walkthrough_data(puzzle, explanation, start))
    script = (f'<script type="application/json" id="data">{data}</script>\n'
              f"<script>\n{_js()}</script>\n")
    return _page(title, body, script)


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
//         proof cells [i], proof runs [id]]].
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

  function setClass(el, name, on) {
    if (el) el.classList.toggle(name, on);
  }

  function render(k) {
    var s = stateAt(k);
    var st = k > 0 ? D.steps[k - 1] : [[], [], [], [], [], []];
    var struck = {}, fresh = {};
    st[1].forEach(function (e) { struck[e[0]] = (struck[e[0]] || 0) | e[1]; });
    st[0].forEach(function (p) { fresh[p[0]] = p[1]; });
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
      for (var v = 1; v <= 9; v++) {
        var b = 1 << (v - 1), t = candEl[i][v];
        t.setAttribute("class", "c" + (x & b ? " x" : "") + ((cand | x) & b ? "" : " off"));
      }
    }
    marked.forEach(function (el) { el.classList.remove("hl", "run", "pf", "pr"); });
    marked = [];
    (st[5] || []).forEach(function (rid) {
      D.runs[rid].forEach(function (i) { cellEl[i].classList.add("pr"); marked.push(cellEl[i]); });
      if (clueEl[rid]) { clueEl[rid].classList.add("pr"); marked.push(clueEl[rid]); }
    });
    (st[4] || []).forEach(function (i) { cellEl[i].classList.add("pf"); marked.push(cellEl[i]); });
    st[3].forEach(function (rid) {
      D.runs[rid].forEach(function (i) { cellEl[i].classList.add("run"); marked.push(cellEl[i]); });
      if (clueEl[rid]) { clueEl[rid].classList.add("hl"); marked.push(clueEl[rid]); }
    });
    st[2].forEach(function (i) { cellEl[i].classList.add("hl"); marked.push(cellEl[i]); });
    while (strikes.firstChild) strikes.removeChild(strikes.firstChild);
    Object.keys(struck).forEach(function (i) {
      for (var v = 1; v <= 9; v++) {
        if (!(struck[i] & (1 << (v - 1)))) continue;
        var t = candEl[+i][v];
        var cx = +t.getAttribute("x"), cy = +t.getAttribute("y") - 3.7;
        var l = document.createElementNS("http://www.w3.org/2000/svg", "line");
        l.setAttribute("class", "xl");
        l.setAttribute("x1", cx - 4.5); l.setAttribute("y1", cy + 4.5);
        l.setAttribute("x2", cx + 4.5); l.setAttribute("y2", cy - 4.5);
        strikes.appendChild(l);
      }
    });
  }

  // scroll the step list (not the page) so the step on show is visible
  var pane = document.getElementById("steppane");
  function reveal(li) {
    if (!pane || pane.scrollHeight <= pane.clientHeight) {
      li.scrollIntoView({ block: "nearest" });
      return;
    }
    var top = li.offsetTop, bottom = top + li.offsetHeight;
    if (top < pane.scrollTop) pane.scrollTop = top;
    else if (bottom > pane.scrollTop + pane.clientHeight) {
      pane.scrollTop = bottom - pane.clientHeight;
    }
  }

  function go(k, scroll) {
    k = Math.max(0, Math.min(N, k));
    if (k === cur) return;
    render(k);
    if (byStep[cur]) byStep[cur].classList.remove("current");
    cur = k;
    var li = byStep[k];
    if (li && li.classList.contains("folded")) fold(li.getAttribute("data-in"), false);
    if (li) {
      li.classList.add("current");
      if (scroll !== false) reveal(li);
    }
    document.body.setAttribute("data-current", String(k));
    document.getElementById("pos").textContent = k === 0 ? "Start" : "Step " + k + " of " + N;
    var rule = document.getElementById("cur-rule"), text = document.getElementById("cur-text");
    if (k === 0) {
      rule.textContent = "Start";
      text.textContent = D.startText;
    } else {
      rule.textContent = li.querySelector(".rule").textContent;
      text.textContent = li.querySelector(".text").textContent;
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
  if (allBox) {
    allBox.addEventListener("change", function () { var k = cur; cur = -1; go(k, false); });
  }
  items.forEach(function (li) {
    li.addEventListener("click", function () { go(+li.getAttribute("data-step"), false); });
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
    if (ev.key === "ArrowRight") to = cur + 1;
    else if (ev.key === "ArrowLeft") to = cur - 1;
    else if (ev.key === "Home") to = 0;
    else if (ev.key === "End") to = N;
    if (to === null) return;
    ev.preventDefault();
    go(to);
  });
  var m = /^#(?:step-|s)(\d+)$/.exec(location.hash);
  go(m ? +m[1] : 0);
  document.body.classList.add("ready");
})();
"""

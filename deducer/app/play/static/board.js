/* deducer play: the board (state.js holds what it draws): drawn from the puzzle's
 * squares, fitted to the window, redrawn cell by cell with its highlights; every change of
 * the grid as one undoable edit(), and the check that the grid is finished.
 */
"use strict";

/* ---- drawing the board ------------------------------------------------------------------ */
function parseTok(tok) {
  if (tok === "") return {white: true};
  const i = tok.indexOf("\\");
  const down = tok.slice(0, i), across = tok.slice(i + 1);
  return {white: false, down: down || "", across: across || ""};
}

function build() {
  const p = S.model.puzzle;
  const board = $("board");
  board.textContent = "";
  S.cellEl.clear(); S.whites.clear(); S.givens.clear();
  for (const [r, c, d] of p.givens || []) S.givens.set(key(r, c), d);
  board.style.gridTemplateColumns = "var(--label) repeat(" + p.cols + ", var(--cell))";
  board.style.gridTemplateRows = "var(--label) repeat(" + p.rows + ", var(--cell))";
  // the row and column numbers are for the eye; every square's name says where it is
  const head = el("div", "row");
  head.setAttribute("aria-hidden", "true");
  head.appendChild(el("div", "corner"));
  for (let c = 0; c < p.cols; c++) head.appendChild(el("div", "lab", String(c + 1)));
  board.appendChild(head);
  describeRuns();
  for (let r = 0; r < p.rows; r++) {
    const row = el("div", "row");
    row.setAttribute("role", "row");
    board.appendChild(row);
    const lab = el("div", "lab", String(r + 1));
    lab.setAttribute("aria-hidden", "true");
    row.appendChild(lab);
    for (let c = 0; c < p.cols; c++) {
      const sq = parseTok(p.grid[r][c]);
      const k = key(r, c);
      let e;
      if (sq.white) {
        e = el("div", "sq w");
        e.appendChild(el("span", "d"));
        const marks = el("div", "marks");
        for (let d = 1; d <= 9; d++) marks.appendChild(el("span", "m", ""));
        e.appendChild(marks);
        S.whites.add(k);
        if (S.givens.has(k)) e.classList.add("given");
        if (p.even) e.classList.add(p.even.some(([er, ec]) => er === r && ec === c) ? "even" : "odd");
      } else if (sq.down || sq.across) {
        e = el("div", "sq clue");
        e.appendChild(el("span", "dn", sq.down));
        e.appendChild(el("span", "ac", sq.across));
        e.setAttribute("aria-label", cellName(r, c) + ": clue" + (sq.down ? ", down " + sq.down : "") +
                                     (sq.across ? ", across " + sq.across : ""));
      } else {
        e = el("div", "sq blank");
        e.setAttribute("aria-label", cellName(r, c) + ": black");
      }
      e.setAttribute("role", "gridcell");
      e.id = "sq-" + r + "-" + c;
      e.dataset.r = r; e.dataset.c = c;
      S.cellEl.set(k, e);
      row.appendChild(e);
    }
  }
  $("empty-note").hidden = true;
  ZOOM.cell = null;  // a new board opens whole (zoom.js)
  $("title").textContent = S.source ? S.source + " (" + p.rows + "×" + p.cols + ")" : "";
  const rated = S.model.rating;
  $("rating").hidden = !(rated && rated.level);
  $("rating").textContent = rated && rated.level ? rated.level + " · score " + rated.score
    + (rated.notes_text ? " · " + rated.notes_text : "") : "";
  fitBoard();
}

/* The board scales to the window: squares as large as the room beside the side panel and
   below the toolbar allow (at most 52 px, at least MIN_CELL; below that it scrolls). With
   the side panel below the board (a phone), the digit pad keeps its room on screen, and a
   finger needs larger squares than a mouse. */
const MAX_CELL = 52, MIN_CELL = 14, MIN_TOUCH_CELL = 30;
function fitBoard() {
  if (!S.model || $("play-view").hidden) return;
  const p = S.model.puzzle, wrap = $("board-wrap"), root = document.documentElement;
  const view = $("play-view"), style = getComputedStyle(view);
  const beside = style.flexDirection === "row";  // the side panel sits beside the board
  const width = view.clientWidth -
    (beside ? $("side").offsetWidth + (parseFloat(style.columnGap) || 0) : 0);
  // below the board: a replay's bar; on a phone the pad (hidden in a replay) and two lines
  // of message too
  const bar = $("replay-bar").hidden ? 0 : $("replay-bar").offsetHeight + 6;
  const pad = beside ? bar : ($("pad").offsetParent ? $("pad").offsetHeight : 0) + bar + 12 + 56;
  const height = window.innerHeight - wrap.getBoundingClientRect().top - window.scrollY - 12 - pad;
  const fit = (room, n) => (room - 4) / (n + 0.45);  // the labels take ~0.45 of a square
  let cell = Math.floor(Math.min(MAX_CELL, fit(width, p.cols), fit(Math.max(height, 200), p.rows)));
  cell = Math.max(window.matchMedia("(pointer: coarse)").matches ? MIN_TOUCH_CELL : MIN_CELL, cell);
  cell = zoomCell(cell);  // the player's zoom, if any (zoom.js)
  root.style.setProperty("--cell", cell + "px");
  root.style.setProperty("--label", Math.max(12, Math.min(22, Math.round(cell * 0.45))) + "px");
  wrap.style.maxHeight = Math.max(height, 200) + "px";
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function drawCell(k) {
  const e = S.cellEl.get(k);
  if (!e || !S.whites.has(k)) return;
  const given = S.givens.get(k);
  const entry = S.entries.get(k);
  const mask = S.pencil.get(k) || 0;
  const d = e.querySelector(".d");
  d.textContent = given !== undefined ? given : (entry !== undefined ? entry : "");
  e.classList.toggle("filled", given !== undefined || entry !== undefined);
  const spans = e.querySelectorAll(".m");
  const col = S.colours.get(k) || 0;
  for (let i = 0; i < 9; i++) {
    const on = mask & (1 << i);
    spans[i].textContent = on ? String(i + 1) : "";
    spans[i].classList.toggle("c1", !!(on && col & (1 << i)));
    spans[i].classList.toggle("c2", !!(on && col & (1 << (i + 9))));
    spans[i].classList.toggle("hl", !!(on && S.highlight === i + 1));
  }
  const digit = given !== undefined ? given : entry;
  e.classList.toggle("hl-digit", !!S.highlight && digit === S.highlight);
  e.classList.toggle("hl-mark", !!S.highlight && digit === undefined && !!(mask & bit(S.highlight)));
  labelCell(k);
}

function labelCell(k) {
  const e = S.cellEl.get(k);
  const given = S.givens.get(k), entry = S.entries.get(k), mask = S.pencil.get(k) || 0;
  const [r, c] = unkey(k);
  // what a screen reader says: the cell, its two clues, then its digit or its marks
  const col = S.colours.get(k) || 0;
  const coloured = (n, name) => {
    const ds = digitsOf(mask & (col >> (n === 1 ? 0 : 9)));
    return ds.length ? "; " + name + " " + ds.join(" ") : "";
  };
  const content = given !== undefined ? "given " + given : entry !== undefined ? String(entry) :
    mask ? "pencil marks " + digitsOf(mask).join(" ") + coloured(1, "blue") + coloured(2, "orange") :
    "empty";
  e.setAttribute("aria-label", cellName(r, c) + ", " + (S.clues.get(k) || "in no run") + ": " + content +
                 (S.hl.wrong.has(k) || S.hl.wrongMarks.has(k) ? ", wrong" : ""));
}

/* "across 16 in 2 cells, down 12 in 3 cells", per white cell, from the runs it lies in */
function describeRuns() {
  const parts = new Map();
  for (const run of S.model.runs) {
    const across = run.dir === "A";
    const text = (across ? "across " : "down ") +
      (run.total === null || run.total === undefined ? "without a clue" : run.total) +
      " in " + run.cells.length + " cells";
    for (const [r, c] of run.cells) {
      const k = key(r, c);
      if (!parts.has(k)) parts.set(k, {});
      parts.get(k)[across ? "a" : "d"] = text;
    }
  }
  S.clues.clear();
  for (const [k, p] of parts) S.clues.set(k, [p.a, p.d].filter(Boolean).join(", "));
}

function refreshAll() {
  for (const k of S.whites) drawCell(k);
  refreshSelection();
  refreshHighlights();
  refreshButtons();
}

function refreshSelection() {
  for (const e of document.querySelectorAll("#board .sel")) {
    e.classList.remove("sel");
    e.removeAttribute("aria-selected");
  }
  const e = S.sel && S.cellEl.get(key(...S.sel));
  if (e) {
    e.classList.add("sel");
    e.setAttribute("aria-selected", "true");
    $("board").setAttribute("aria-activedescendant", e.id);
    followCells([key(...S.sel)]);
  } else {
    $("board").removeAttribute("aria-activedescendant");
  }
  refreshPad();
  combosRefresh();  // combos.js
}

function refreshHighlights() {
  const names = {wrong: "wrong", wrongMarks: "wrongmarks", hintCells: "hintcell",
                 hintRun: "hintrun", hintClue: "hintclue", diff: "diff"};
  for (const [field, cls] of Object.entries(names)) {
    for (const e of document.querySelectorAll("#board ." + cls)) e.classList.remove(cls);
    for (const k of S.hl[field]) {
      const e = S.cellEl.get(k);
      if (e) e.classList.add(cls);
    }
  }
  for (const k of S.whites) labelCell(k);
}

function clearHighlights(redraw) {
  for (const f of Object.keys(S.hl)) S.hl[f] = new Set();
  if (redraw !== false) refreshHighlights();
}

function refreshButtons() {
  const has = !!S.model;
  $("btn-undo").disabled = !has || !S.undo.length;
  $("btn-redo").disabled = !has || !S.redo.length;
  $("pad-undo").disabled = $("btn-undo").disabled;
  $("pad-redo").disabled = $("btn-redo").disabled;
  for (const b of document.querySelectorAll("#pad-digits button, #pad-tools button:not(#pad-undo):not(#pad-redo)")) b.disabled = !has;
  for (const id of ["btn-check", "btn-marks", "btn-solve", "btn-clear", "hint-vague",
                    "hint-concrete", "hint-full", "hint-apply", "hint-all", "btn-download", "btn-save",
                    "btn-edit", "btn-whatif", "btn-link", "btn-record"]) {
    $(id).disabled = !has;
  }
  // in a "what if" branch, what goes to a file or a link is the player's own grid: not
  // the branch's (leave it first)
  for (const id of ["btn-download", "btn-save", "btn-link", "btn-record", "btn-edit"]) {
    if (S.branch) $(id).disabled = true;
  }
}

/* ---- changes, undo and redo ------------------------------------------------------------- */
/* changes: [{k, entry?: digit|null, pencil?: mask, colour?: 18 bits}] ; one call = one
   undo step. A mark rubbed out loses its colour. */
function edit(changes, label) {
  if (S.replay) {  // a replay shows a solve as it was: nothing on it is written (replay.js)
    say("This is a replay: leave it (Leave replay) to play.", "info");
    return false;
  }
  const cells = [];
  for (const ch of changes) {
    if (!S.whites.has(ch.k) || S.givens.has(ch.k)) continue;
    const before = {e: S.entries.has(ch.k) ? S.entries.get(ch.k) : null,
                    p: S.pencil.get(ch.k) || 0, c: S.colours.get(ch.k) || 0};
    const after = {e: "entry" in ch ? ch.entry : before.e,
                   p: "pencil" in ch ? ch.pencil : before.p,
                   c: "colour" in ch ? ch.colour : before.c};
    after.c &= after.p | (after.p << 9);
    if (before.e === after.e && before.p === after.p && before.c === after.c) continue;
    cells.push({k: ch.k, b: before, a: after});
  }
  if (!cells.length) return false;
  S.undo.push({label, cells});
  if (S.undo.length > MAX_UNDO) S.undo.shift();
  S.redo = [];
  applyCells(cells, "a");
  return true;
}

function applyCells(cells, side) {
  const other = side === "a" ? "b" : "a";
  for (const cell of cells) {
    const v = cell[side];
    if (v.e === null) S.entries.delete(cell.k); else S.entries.set(cell.k, v.e);
    if (v.p) S.pencil.set(cell.k, v.p); else S.pencil.delete(cell.k);
    if (v.c) S.colours.set(cell.k, v.c); else S.colours.delete(cell.k);
    S.hl.wrong.delete(cell.k); S.hl.wrongMarks.delete(cell.k);
    // a move of the solve: the cell's digit or marks changed (colours are not moves), and
    // never in a "what if" branch, which the player leaves without a trace
    const was = cell[other];
    if (!S.branch && (v.e !== was.e || v.p !== was.p)) S.moves.push([cell.k, v.e, v.p, clockNow()]);
    drawCell(cell.k);
  }
  refreshHighlights();
  refreshButtons();
  refreshPad();
  persist();
  settle(cells.map((cell) => cell.k));
  if (chain.frames.length) drawChain();
  combosRefresh();  // combos.js
  maybeFinished();
}

function undo() {
  const rec = S.undo.pop();
  if (!rec) { say("Nothing to undo.", "info"); return; }
  S.redo.push(rec);
  applyCells(rec.cells, "b");
  say("Undone: " + rec.label + ".", "info");
}

function redo() {
  const rec = S.redo.pop();
  if (!rec) { say("Nothing to redo.", "info"); return; }
  S.undo.push(rec);
  applyCells(rec.cells, "a");
  say("Redone: " + rec.label + ".", "info");
}

let finishedKey = null, finishing = true;
function maybeFinished() {
  const quiet = !finishing;
  finishing = true;
  if (!S.model || S.branch) return;  // a "what if" branch filled in is no solve of the player's
  for (const k of S.whites) if (!S.entries.has(k) && !S.givens.has(k)) { finishedKey = null; return; }
  const now = JSON.stringify([...S.entries]);
  if (finishedKey === now) return;
  finishedKey = now;
  if (!quiet) setTimeout(() => check(true), 0);
}

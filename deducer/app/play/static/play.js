/* deducer play: the page. Vanilla JS, no build step, talks only to its own server.
 *
 * State: the puzzle (deducer JSON object without progress), the player's entries, pencil
 * marks and their colours (key "r,c"), the selection and the undo/redo stacks, the moves
 * made (for "Save my solve") and the play clock. Every change goes through edit(), which
 * records it for undo and saves everything in localStorage, so a reload (or a restart of
 * the server with the same puzzle) keeps the progress. The player's tools (highlight,
 * colours, what if, link, save my solve) are in tools.js.
 */
"use strict";

const STORE = "deducer-play-v1";
const MAX_UNDO = 500;

const S = {
  model: null,        // {puzzle, runs}; puzzle has no entries/pencil (those live below)
  source: "",
  entries: new Map(), // "r,c" -> digit
  pencil: new Map(),  // "r,c" -> 9-bit mask (bit d-1 = digit d)
  colours: new Map(), // "r,c" -> marks coloured: bits 0-8 colour 1 (blue), 9-17 colour 2
  sel: null,          // [r, c]
  undo: [],
  redo: [],
  whites: new Set(),
  givens: new Map(),
  cellEl: new Map(),  // "r,c" -> element
  clues: new Map(),   // "r,c" -> what a screen reader hears of the cell's two runs
  pencilMode: false,  // the pad's digits toggle pencil marks
  colourMode: 0,      // 1 or 2: the pad's digits colour pencil marks in that colour
  findMode: false,    // the pad's digits choose the digit to highlight
  highlight: 0,       // the digit whose cells are highlighted (0: none)
  moves: [],          // [key, entry|null, mask, ms]: each cell's state after a change
  clock: {ms: 0, at: null},  // play time: ms counted so far, performance.now() since
  branch: null,       // "what if": the grid as it was ({entries, pencil, colours, ...})
  replay: null,       // a replay (replay.js): {data, at, saved: the player's grid}
  opened: null,       // the position of the puzzle named on the command line, once applied
  usedSolve: false,   // Solve filled the grid: no praise for finishing it
  hl: {wrong: new Set(), wrongMarks: new Set(), hintCells: new Set(), hintRun: new Set(),
       hintClue: new Set(), diff: new Set()},
  busy: false,
  hintHl: {cells: [], run: [], clue: []},  // what the hint box's hint highlights
};

const $ = (id) => document.getElementById(id);
const key = (r, c) => r + "," + c;
const unkey = (k) => k.split(",").map(Number);
const cellName = (r, c) => "r" + (r + 1) + "c" + (c + 1);
const bit = (d) => 1 << (d - 1);
const digitsOf = (m) => { const o = []; for (let d = 1; d <= 9; d++) if (m & bit(d)) o.push(d); return o; };
const maskOf = (ds) => ds.reduce((m, d) => m | bit(d), 0);

/* ---- talking to the server ------------------------------------------------------------ */
class ApiError extends Error {
  constructor(message, status, data) { super(message); this.status = status; this.data = data || {}; }
}

async function api(method, url, body) {
  const opt = {method, headers: {}};
  if (body !== undefined) {
    opt.headers["Content-Type"] = "application/json";
    opt.body = JSON.stringify(body);
  }
  let resp;
  try {
    resp = await fetch(url, opt);
  } catch (e) {
    throw new ApiError("The server does not answer (is 'deducer play' still running?).", 0);
  }
  let data = null;
  try { data = await resp.json(); } catch (e) { data = null; }
  if (!resp.ok) {
    const msg = data && data.error ? data.error : "The server answered " + resp.status + ".";
    throw new ApiError(msg, resp.status, data);
  }
  return data;
}

async function busy(label, fn) {
  if (S.busy) return;
  S.busy = true;
  document.body.classList.add("busy");
  const t = setTimeout(() => say(label + "…", "info"), 150);
  try {
    return await fn();
  } catch (e) {
    const cells = e instanceof ApiError && e.data && Array.isArray(e.data.cells) ? e.data.cells : null;
    const keys = cells ? cells.map(([r, c]) => key(r, c)) : [];
    say(e instanceof ApiError ? e.message : "Something went wrong: " + e, "err",
        cells ? {cells: new Map(keys.map((k) => [k, ""])), any: true, diff: true} : null);
    if (cells) {
      S.hl.diff = new Set(keys);
      refreshHighlights();
    }
  } finally {
    clearTimeout(t);
    if ($("message").textContent === label + "…") say("", "");
    S.busy = false;
    document.body.classList.remove("busy");
  }
}

/* The message, and optionally its cause: {cells: Map("r,c" -> the part of the message about
   that cell), again?: parts -> text, any?: true}. A message about cells goes when its cause
   does (settle()): each cell's part leaves once the player changes that cell and the message
   with the last part (with `any`, with the first change: one cause spread over cells). */
let said = null;
function say(text, kind, cause) {
  const m = $("message");
  m.textContent = text || "";
  m.className = kind || "";
  said = text && cause ? cause : null;
}

function settle(changed) {
  if (said) {
    const hit = changed.filter((k) => said.cells.has(k));
    for (const k of hit) said.cells.delete(k);
    if (hit.length && (said.any || !said.cells.size)) {
      if (said.diff) { S.hl.diff = new Set(); refreshHighlights(); }
      say("", "");
    } else if (hit.length && said.again) {
      $("message").textContent = said.again([...new Set(said.cells.values())]);
    }
  }
  if (hintDone && hintDone()) endHint();
}

/* ---- the play clock: the time of each move ("Save my solve") ------------------------------ */
/* Milliseconds of play since the puzzle was opened, counted while the page is shown (a
   tab left in the background for a day does not make a move take a day). */
function clockNow() {
  return Math.round(S.clock.ms + (S.clock.at === null ? 0 : performance.now() - S.clock.at));
}

function clockRun(on) {
  if (on && S.clock.at === null) S.clock.at = performance.now();
  else if (!on && S.clock.at !== null) { S.clock.ms = clockNow(); S.clock.at = null; }
}

/* ---- the puzzle as the server wants it ------------------------------------------------- */
function puzzleBody() {
  const p = Object.assign({}, S.model.puzzle);
  p.entries = [...S.entries].map(([k, d]) => [...unkey(k), d]);
  p.pencil = [...S.pencil].filter(([, m]) => m).map(([k, m]) => [...unkey(k), digitsOf(m)]);
  return p;
}

function puzzleKey(p) {
  return JSON.stringify([p.grid, p.givens || [], p.even || null]);
}

/* The entries and pencil marks of a puzzle object, in a comparable form. */
function positionKey(p) {
  const sort = (xs) => (xs || []).map((x) => JSON.stringify(x)).sort();
  return JSON.stringify([sort(p.entries), sort(p.pencil)]);
}

/* ---- loading a puzzle ------------------------------------------------------------------- */
function loadModel(data, opts) {
  replayEnd(true);  // a replay ends with its puzzle (replay.js)
  const p = Object.assign({}, data.puzzle);
  const entries = p.entries || [], pencil = p.pencil || [];
  delete p.entries; delete p.pencil;
  S.model = {puzzle: p, runs: data.runs, rating: data.rating || null};
  S.source = data.source || p.name || "";
  S.entries = new Map(entries.map(([r, c, d]) => [key(r, c), d]));
  S.pencil = new Map(pencil.map(([r, c, ds]) => [key(r, c), maskOf(ds)]));
  S.colours = new Map();
  S.undo = []; S.redo = []; S.sel = null; S.usedSolve = false;
  S.moves = []; S.clock = {ms: 0, at: null}; S.highlight = 0;
  S.branch = null;  // a "what if" branch ends with its puzzle (its grid is another's)
  showBranch(false);
  if (opts && opts.saved) {
    S.undo = opts.saved.undo || []; S.redo = opts.saved.redo || [];
    S.sel = opts.saved.sel || null;
    S.usedSolve = !!opts.saved.usedSolve;
    S.colours = new Map(opts.saved.colours || []);
    S.moves = Array.isArray(opts.saved.moves) ? opts.saved.moves : [];
    S.clock.ms = Number(opts.saved.clock) || 0;
    S.opened = opts.saved.opened || null;
  }
  clockRun(!document.hidden);
  endHint();
  clearHighlights(false);
  build();
  if (!S.sel) {
    const first = [...S.whites][0];
    if (first) S.sel = unkey(first);
  }
  refreshAll();
  persist();
  showView("play");
  if (data.message) say(data.message, data.status && data.status !== "unique" ? "warn" : "ok");
  if (data.status === "multiple" && Array.isArray(data.cells)) {
    S.hl.diff = new Set(data.cells.map(([r, c]) => key(r, c)));
    refreshHighlights();
  }
}

function persist() {
  if (!S.model) return;
  // in a "what if" branch the grid kept is the player's own, as it was before the branch;
  // in a replay, the player's grid of the puzzle replayed
  const g = S.branch || (S.replay && S.replay.saved) || S;
  const rec = {
    key: puzzleKey(S.model.puzzle), model: S.model, source: S.source,
    entries: [...g.entries], pencil: [...g.pencil], colours: [...g.colours],
    undo: g.undo.slice(-MAX_UNDO), redo: g.redo.slice(-MAX_UNDO), sel: S.sel,
    usedSolve: g.usedSolve, moves: S.moves, clock: clockNow(), opened: S.opened,
  };
  try { localStorage.setItem(STORE, JSON.stringify(rec)); } catch (e) { /* full or off */ }
}

function loadSaved() {
  try {
    const rec = JSON.parse(localStorage.getItem(STORE) || "null");
    if (rec && rec.model && rec.model.puzzle && Array.isArray(rec.model.puzzle.grid)) return rec;
  } catch (e) { /* ignore a damaged record */ }
  return null;
}

function restore(rec) {
  const data = {puzzle: Object.assign({}, rec.model.puzzle), runs: rec.model.runs,
                rating: rec.model.rating, source: rec.source};
  data.puzzle.entries = (rec.entries || []).map(([k, d]) => [...unkey(k), d]);
  data.puzzle.pencil = (rec.pencil || []).map(([k, m]) => [...unkey(k), digitsOf(m)]);
  loadModel(data, {saved: rec});
  say("Your progress was restored.", "ok");
}

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

/* ---- playing ------------------------------------------------------------------------------ */
function select(r, c) {
  S.sel = [r, c];
  refreshSelection();
  persist();
}

function move(dr, dc) {
  if (!S.model) return;
  const p = S.model.puzzle;
  if (!S.sel) { const f = [...S.whites][0]; if (f) select(...unkey(f)); return; }
  let [r, c] = S.sel;
  for (;;) {
    r += dr; c += dc;
    if (r < 0 || c < 0 || r >= p.rows || c >= p.cols) return;
    if (S.whites.has(key(r, c))) { select(r, c); return; }
  }
}

function enterDigit(d) {
  if (!S.sel) return;
  const k = key(...S.sel);
  if (S.givens.has(k)) { say(cellName(...S.sel) + " is a given: it cannot change.", "info"); return; }
  if (S.entries.get(k) === d && !S.branch) return;
  edit([{k, entry: d}], d + " in " + cellName(...S.sel));
  if (S.branch) whatIf(S.sel[0], S.sel[1], d);  // in a branch: what follows from it
}

function toggleMark(d) {
  if (!S.sel) return;
  const k = key(...S.sel);
  if (S.givens.has(k)) return;
  const m = S.pencil.get(k) || 0;
  const on = !(m & bit(d));
  edit([{k, pencil: m ^ bit(d)}], "pencil mark " + d + (on ? " on " : " off ") + cellName(...S.sel));
  if (S.entries.has(k)) say("Pencil mark " + d + (on ? " added" : " removed") + " under the entry.", "info");
}

/* ---- the on-screen pad (phones, tablets, a mouse) ---------------------------------------- */
/* What a digit of the pad (or a digit key) does: enter it, toggle it as a pencil mark,
   colour that mark (colour 1 or 2), or highlight every cell holding it. */
function padDigit(d) {
  if (!S.model) return;
  if (S.findMode) { highlightDigit(S.highlight === d ? 0 : d); return; }
  if (!S.sel) { say("Tap a white cell first.", "info"); return; }
  if (S.colourMode) colourMark(d, S.colourMode);
  else if (S.pencilMode) toggleMark(d); else enterDigit(d);
}

/* The pad's modes, one at a time: "digit", "pencil", "colour1", "colour2", "find". */
function setMode(mode) {
  S.pencilMode = mode === "pencil";
  S.colourMode = mode === "colour1" ? 1 : mode === "colour2" ? 2 : 0;
  S.findMode = mode === "find";
  const pressed = {"pad-pencil": S.pencilMode, "pad-colour1": S.colourMode === 1,
                   "pad-colour2": S.colourMode === 2, "pad-find": S.findMode};
  for (const [id, on] of Object.entries(pressed)) $(id).setAttribute("aria-pressed", on ? "true" : "false");
  $("pad").classList.toggle("pencil", S.pencilMode);
  $("pad").classList.toggle("colour", !!S.colourMode);
  $("pad").classList.toggle("find", S.findMode);
  refreshPad();
  // say what the digits do now (the pad's buttons show it too)
  if (S.colourMode) {
    const name = S.colourMode === 2 ? "Orange" : "Blue";
    say(name + ": a digit colours that pencil mark of the selected cell (again: plain). " +
        "The button again, or c, changes the colour or stops.", "info");
  } else if (S.findMode) {
    say("Highlight: a digit shows every cell holding it, written in or pencilled.", "info");
  }
}

function setPencilMode(on) { setMode(on ? "pencil" : "digit"); }

/* The pad shows the selected cell: its entry, in pencil or colour mode its marks, in
   highlight mode the digit highlighted. */
function refreshPad() {
  const k = S.sel && key(...S.sel);
  const mask = k ? S.pencil.get(k) || 0 : 0;
  const entry = k ? S.entries.get(k) : undefined;
  const col = k ? S.colours.get(k) || 0 : 0;
  const shift = S.colourMode === 2 ? 9 : 0;
  const colourName = S.colourMode === 2 ? "orange" : "blue";
  for (const b of document.querySelectorAll("#pad-digits button")) {
    const d = Number(b.dataset.d);
    let on, label;
    if (S.findMode) { on = S.highlight === d; label = "highlight " + d; }
    else if (S.colourMode) { on = !!(mask & bit(d) && col & (bit(d) << shift)); label = "colour pencil mark " + d + " " + colourName; }
    else if (S.pencilMode) { on = !!(mask & bit(d)); label = "pencil mark " + d; }
    else { on = entry === d; label = "digit " + d; }
    b.classList.toggle("on", on);
    b.setAttribute("aria-label", label);
    if (S.pencilMode || S.colourMode || S.findMode) b.setAttribute("aria-pressed", on ? "true" : "false");
    else b.removeAttribute("aria-pressed");
  }
}

function erase() {
  if (!S.sel) return;
  const k = key(...S.sel);
  if (S.entries.has(k)) edit([{k, entry: null}], "clear " + cellName(...S.sel));
  else if (S.pencil.get(k)) edit([{k, pencil: 0}], "clear marks of " + cellName(...S.sel));
}

function onKey(e) {
  const t = e.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
  if (!$("editor-view").hidden || !S.model) return;
  const ctrl = e.ctrlKey || e.metaKey;
  if (ctrl && !e.altKey) {
    const k = e.key.toLowerCase();
    if (k === "z" || e.code === "KeyZ") { e.preventDefault(); if (e.shiftKey) redo(); else undo(); return; }
    if (k === "y" || e.code === "KeyY") { e.preventDefault(); redo(); return; }
    return;
  }
  if (e.altKey) {
    // Alt+digit highlights every cell holding the digit (Alt+0: none)
    const a = /^(?:Digit|Numpad)([0-9])$/.exec(e.code || "");
    if (a) { e.preventDefault(); const d = Number(a[1]); highlightDigit(d && S.highlight !== d ? d : 0); }
    return;
  }
  const arrows = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
  if (S.replay && replayKey(e)) return;  // replay.js: ← → Home End step through the moves
  if (arrows[e.key]) { e.preventDefault(); move(...arrows[e.key]); return; }
  // event.code, not event.key: Shift+1 is "!" on a US keyboard (another sign elsewhere)
  const m = /^(?:Digit|Numpad)([1-9])$/.exec(e.code || "");
  let d = m ? Number(m[1]) : null;
  if (d === null && /^[1-9]$/.test(e.key)) d = Number(e.key);
  if (d !== null) {
    e.preventDefault();
    // in colour or highlight mode a digit key does what the pad's digit does
    if (S.colourMode || S.findMode) { padDigit(d); return; }
    // Shift makes a digit a pencil mark, or, in the pad's pencil mode, an entry
    if (e.shiftKey !== S.pencilMode) toggleMark(d); else enterDigit(d);
    return;
  }
  if (!e.shiftKey && (e.key === "k" || e.key === "K")) { e.preventDefault(); combosToggle(); return; }
  if (!e.shiftKey && (e.key === "c" || e.key === "C")) {
    // c: colour mode, blue then orange then off
    e.preventDefault();
    setMode(S.colourMode === 0 ? "colour1" : S.colourMode === 1 ? "colour2" : "digit");
    return;
  }
  if (e.key === "Delete" || e.key === "Backspace" || e.code === "Digit0" || e.code === "Numpad0") {
    e.preventDefault(); erase(); return;
  }
  if (e.key === "Escape") { endHint(); clearHighlights(); if (S.highlight) highlightDigit(0); }
}

/* ---- server actions --------------------------------------------------------------------- */
async function check(auto) {
  if (!S.model) return;
  if (auto && S.busy) { setTimeout(() => check(true), 100); return; }
  await busy("Checking", async () => {
    const res = await api("POST", "/api/check", {puzzle: puzzleBody()});
    S.hl.wrong = new Set(res.wrong_entries.map(([r, c]) => key(r, c)));
    S.hl.wrongMarks = new Set(res.wrong_pencil.map(([r, c]) => key(r, c)));
    refreshHighlights();
    const all = () => ({cells: new Map([...S.whites].map((k) => [k, ""])), any: true});
    if (res.solved) {
      // praise only a grid the player filled, never one they saw solved
      say("Solved: every cell is filled and agrees with a solution." +
          (S.usedSolve ? "" : " Well done!"), "ok solved", all());
    } else if (res.status === "ok") say(auto ? "" : capital(res.message) + ".", "ok");
    else if (res.status === "wrong") {
      const parts = new Map();
      for (const m of res.mistakes) {
        const k = key(...m.cell);
        parts.set(k, (parts.has(k) ? parts.get(k) + " " : "") + mistakeText(m));
      }
      say(capital(res.message) + " (highlighted in pink). " + [...parts.values()].join(" "), "err",
          {cells: parts, again: (left) => "Still to fix (highlighted in pink): " + left.join(" ")});
    } else say(capital(res.message) + ".", res.status === "conflict" ? "warn" : "err",
               res.status === "conflict" ? all() : null);
  });
}

function mistakeText(m) {
  if (m.reason) return m.name + " holds " + m.digits[0] + ", but " + m.reason + ".";
  return m.kind === "entry"
    ? m.name + " holds " + m.digits[0] + ", which no solution has there."
    : "The pencil marks in " + m.name + " leave out the digit every solution needs.";
}

function capital(s) { return s ? s[0].toUpperCase() + s.slice(1) : s; }

async function hint(level, apply) {
  if (!S.model) return;
  await busy(apply ? "Applying the hint" : "Looking for a hint", async () => {
    const res = await api("POST", "/api/hint", {puzzle: puzzleBody(), level, apply: !!apply});
    showHint(res, apply);
    if (apply && res.edits && res.edits.length) {
      const changes = res.edits.map((ed) => {
        const ch = {k: key(ed.cell[0], ed.cell[1])};
        if ("entry" in ed) ch.entry = ed.entry;
        if ("pencil" in ed) ch.pencil = maskOf(ed.pencil);
        return ch;
      });
      edit(changes, res.kind === "mistake" ? "remove mistakes" : "hint: " + (res.rule_name || "step"));
      say("Hint applied (undo takes it back).", "ok");
    } else if (apply) {
      say("There is nothing to apply.", "info");
    }
  });
}

function showHint(res, apply) {
  endHint();
  $("branch-apply").hidden = true;  // a what-if answer's own (tools.js)
  const box = $("hint-box");
  box.hidden = false;
  const tier = {vague: "Hint (vague)", concrete: "Hint (concrete)", full: "Hint (full)"}[res.level] || "Hint";
  $("hint-level").textContent = apply ? "Applied hint" : tier;
  $("hint-text").textContent = res.text;
  box.className = "kind-" + res.kind;
  const h = res.highlight || {cells: [], runs: []};
  S.hintHl = {cells: h.cells.map(([r, c]) => key(r, c)), run: [], clue: []};
  for (const run of h.runs) {
    for (const [r, c] of run.cells) S.hintHl.run.push(key(r, c));
    if (run.clue) S.hintHl.clue.push(key(run.clue[0], run.clue[1]));
  }
  showHintHighlights();
  followCells([...S.hintHl.cells, ...S.hintHl.run]);
  if (res.kind === "mistake" && res.mistakes) {
    for (const m of res.mistakes) (m.kind === "entry" ? S.hl.wrong : S.hl.wrongMarks).add(key(...m.cell));
    refreshHighlights();
  }
  if (!apply) hintDone = hintCarriedOut(res);
  chain.frames = ChainStep.frames(res);
  chain.at = 0;
  const walk = chain.frames.length > 0;
  $("chain").hidden = !walk;
  // with a chain to walk, the whole step's text folds to its start (the links are above it)
  box.classList.toggle("has-chain", walk);
  $("hint-more").hidden = !walk;
  showWhole(false);
  if (walk) drawChain();
  (walk ? $("chain-nav") : box).scrollIntoView({block: "nearest"});
}

function showHintHighlights() {
  S.hl.hintCells = new Set(S.hintHl.cells);
  S.hl.hintRun = new Set(S.hintHl.run);
  S.hl.hintClue = new Set(S.hintHl.clue);
  refreshHighlights();
}

/* When has the player done what a hint says? A mistake hint: once every cell it names has
   changed. A full hint: once its digits are written and the marks it rubs out are gone. */
let hintDone = null;
function hintCarriedOut(res) {
  if (res.kind === "mistake" && res.mistakes) {
    const left = new Set(res.mistakes.map((m) => key(...m.cell)));
    const seen = new Map([...left].map((k) => [k, JSON.stringify([S.entries.get(k), S.pencil.get(k)])]));
    return () => [...left].every((k) => seen.get(k) !== JSON.stringify([S.entries.get(k), S.pencil.get(k)]));
  }
  const step = res.step;
  if (res.kind !== "deduction" || !step) return null;
  const places = step.placements.map(([r, c, d]) => [key(r, c), d]);
  const rubs = step.eliminations.map(([r, c, ds]) => [key(r, c), maskOf(ds)])
    .filter(([k, m]) => (S.pencil.get(k) || 0) & m && !S.entries.has(k));
  if (!places.length && !rubs.length) return null;
  return () => places.every(([k, d]) => S.entries.get(k) === d) &&
    rubs.every(([k, m]) => S.entries.has(k) || !((S.pencil.get(k) || 0) & m));
}

function endHint() {
  hintDone = null;
  chain.frames = [];
  clearChain();
  if (typeof endAllSteps === "function") endAllSteps();  // allsteps.js
  if (!$("hint-box").hidden) {
    $("hint-box").hidden = true;
    S.hintHl = {cells: [], run: [], clue: []};
    showHintHighlights();
  }
}

/* ---- a chain step of a hint, walked on the board link by link (frames: chainstep.js) ---- */
const chain = {frames: [], at: 0};
const runRefs = () => {
  // a run's reference is its clue square (or the black square before it) and direction
  const out = new Map();
  for (const run of S.model.runs) {
    const [r, c] = run.cells[0];
    const at = run.clue || (run.dir === "A" ? [r, c - 1] : [r - 1, c]);
    out.set(at[0] + "," + at[1] + "," + (run.dir === "A" ? "across" : "down"), {cells: run.cells, clue: at});
  }
  return out;
};

function drawChain() {
  const f = chain.frames[chain.at];
  clearChain();
  $("chain-head").textContent = f.head + " (" + (chain.at + 1) + "/" + chain.frames.length + ")";
  $("chain-text").textContent = f.text;
  $("chain").className = "kind-" + f.kind;
  $("chain-prev").disabled = chain.at === 0;
  $("chain-next").disabled = chain.at === chain.frames.length - 1;
  const refs = runRefs();
  S.hl.hintCells = new Set(f.cells.map(([r, c]) => key(r, c)));
  S.hl.hintRun = new Set(); S.hl.hintClue = new Set();
  let badge = ChainStep.badgeCell(f);
  for (const ref of f.runs) {
    const run = refs.get(ref.join(","));
    if (!run) continue;
    for (const [r, c] of run.cells) S.hl.hintRun.add(key(r, c));
    S.hl.hintClue.add(key(...run.clue));
    if (!badge) badge = run.clue;
  }
  refreshHighlights();
  // the chain's own board: the assumed digit, the digits earlier links wrote, this link's
  const ghost = (r, c, d, cls) => {
    const e = S.cellEl.get(key(r, c));
    if (!e || !S.whites.has(key(r, c)) || S.entries.has(key(r, c)) || S.givens.has(key(r, c))) return;
    e.classList.add("ghosted");
    const g = el("span", "ghost " + cls, String(d));
    g.setAttribute("aria-hidden", "true");
    e.appendChild(g);
  };
  if (f.assume) {
    const [r, c, d] = f.assume;
    ghost(r, c, d, "assumed");
    const e = S.cellEl.get(key(r, c));
    if (e) e.classList.add("assume");
  }
  for (const [r, c, d] of f.written) ghost(r, c, d, "earlier");
  for (const [r, c, d] of f.placing) ghost(r, c, d, "now");
  // on a phone the board stays on screen above the chain's buttons (play.css), and shows
  // the link (zoom.js)
  document.body.classList.add("walking");
  followCells([...f.cells.map(([r, c]) => key(r, c)), ...(badge ? [key(...badge)] : []),
               ...(f.assume ? [key(f.assume[0], f.assume[1])] : []), ...S.hl.hintRun]);
  if (f.number !== null && badge) {
    const e = S.cellEl.get(key(...badge));
    if (e) {
      // the contradiction is no link: marked as the walkthrough's text marks it, not numbered
      const contra = f.kind === "contradiction";
      const b = el("span", "link-no" + (contra ? " contra" : ""), contra ? "✗" : String(f.number));
      b.setAttribute("aria-hidden", "true");
      e.appendChild(b);
    }
  }
}

function clearChain() {
  for (const e of document.querySelectorAll("#board .ghost, #board .link-no")) e.remove();
  for (const e of document.querySelectorAll("#board .ghosted, #board .assume")) e.classList.remove("ghosted", "assume");
  if (!chain.frames.length) {
    $("chain").hidden = true;
    document.body.classList.remove("walking");
  }
}

function chainGo(delta) {
  if (!chain.frames.length) return;
  chain.at = Math.max(0, Math.min(chain.frames.length - 1, chain.at + delta));
  drawChain();
}

function chainOff() {
  chain.frames = [];
  clearChain();
  $("hint-box").classList.remove("has-chain");
  $("hint-more").hidden = true;
  showHintHighlights();
}

function showWhole(open) {
  $("hint-text").classList.toggle("open", open);
  $("hint-more").setAttribute("aria-expanded", String(open));
  $("hint-more").textContent = open ? "Less ▴" : "Whole step ▾";
}

async function solve() {
  await busy("Solving", async () => {
    const res = await api("POST", "/api/solve", {puzzle: puzzleBody()});
    S.usedSolve = true;
    finishing = false;  // the solver's grid needs no check (its "Solved." stays)
    edit(res.entries.map(([r, c, d]) => ({k: key(r, c), entry: d})), "solve");
    finishing = true;
    say(res.message, "ok", {cells: new Map([...S.whites].map((k) => [k, ""])), any: true});
  });
}

async function autoMarks() {
  await busy("Working out the pencil marks", async () => {
    const res = await api("POST", "/api/candidates", {puzzle: puzzleBody()});
    const changed = edit(res.pencil.map(([r, c, ds]) => ({k: key(r, c), pencil: maskOf(ds)})),
                         "auto pencil marks");
    say(changed ? res.message : "The pencil marks already show that.", "ok");
  });
}

function clearAll() {
  if (!S.model) return;
  const changes = [];
  for (const k of S.whites) changes.push({k, entry: null, pencil: 0});
  clearHighlights();
  if (edit(changes, "clear")) say("Cleared every entry and pencil mark (Undo brings them back).", "info");
}

async function download() {
  await busy("Preparing the file", async () => {
    const fmt = $("save-format").value;
    const res = await api("POST", "/api/export", {puzzle: puzzleBody(), format: fmt});
    const blob = new Blob([res.text], {type: res.mime + ";charset=utf-8"});
    const url = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = url; a.download = res.filename;
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 5000);
    say("Downloaded " + res.filename + ".", "ok");
  });
}

async function saveToFolder() {
  const path = $("save-path").value.trim();
  const fmt = $("save-format").value;
  if (!path) {
    say("Type a file name for the folder first (e.g. mine.txt).", "err", {cells: new Map(), field: "save-path"});
    $("save-path").focus();
    return;
  }
  await busy("Saving", async () => {
    const body = {puzzle: puzzleBody(), format: fmt, path};
    let res;
    try {
      res = await api("POST", "/api/save", body);
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 409) throw e;
      if (!window.confirm(e.message.replace("; confirm to overwrite it", "") + ". Overwrite it?")) {
        say("Not saved: the file exists.", "info");
        return;
      }
      res = await api("POST", "/api/save", Object.assign(body, {overwrite: true}));
    }
    say(res.message, "ok");
    loadFiles();
  });
}

async function openText(text, filename, name) {
  await busy("Opening " + filename, async () => {
    const res = await api("POST", "/api/parse", {text, filename, name: name || null});
    if (res.choose) choose(res, (picked) => openText(text, filename, picked));
    else { loadModel(res); replayOffer(text, filename, name); }  // a record's moves: replay.js
  });
}

/* A file holding several puzzles: the server lists their names; ask which one. */
function choose(res, open) {
  const form = $("chooser"), sel = $("chooser-name");
  $("chooser-text").textContent = res.message;
  sel.textContent = "";
  for (const n of res.choose) sel.appendChild(new Option(n, n));
  form.hidden = false;
  say("", "");
  form.onsubmit = (e) => { e.preventDefault(); form.hidden = true; open(sel.value); };
  $("chooser-cancel").onclick = () => { form.hidden = true; };
  sel.focus();
}

async function openFile(file) {
  if (!file) return;
  if (file.size > 1024 * 1024) { say(file.name + " is larger than 1 MiB; that is not a puzzle file.", "err"); return; }
  let text;
  try { text = await file.text(); } catch (e) { say("Cannot read " + file.name + ".", "err"); return; }
  await openText(text, file.name);
}

async function openServerFile(path, name) {
  if (!path) return;
  await busy("Opening " + path, async () => {
    const res = await api("GET", "/api/open?path=" + encodeURIComponent(path) +
                          (name ? "&name=" + encodeURIComponent(name) : ""));
    if (res.choose) choose(res, (picked) => openServerFile(path, picked));
    else loadModel(res);
  });
  $("server-files").value = "";
}

async function loadFiles() {
  try {
    const res = await api("GET", "/api/files");
    const sel = $("server-files");
    while (sel.options.length > 1) sel.remove(1);
    for (const f of res.files) sel.appendChild(new Option(f, f));
    sel.disabled = !res.files.length;
    sel.options[0].textContent = res.files.length ? "Open from folder…" : "(no puzzle files in the folder)";
  } catch (e) { /* the list is a convenience */ }
}

/* ---- the editor --------------------------------------------------------------------------- */
const ED = {rows: 0, cols: 0, cells: []};

function showView(which) {
  $("play-view").hidden = which !== "play";
  $("editor-view").hidden = which !== "editor";
  for (const id of ["play-group", "hint-group", "save-group", "link-group"]) $(id).classList.toggle("off", which !== "play");
  if (document.body.classList.contains("menu-open")) menu(false);
  if (which === "play") { $("chooser").hidden = true; fitBoard(); }
}

function newEditorGrid(rows, cols) {
  ED.rows = rows; ED.cols = cols;
  ED.cells = [];
  for (let r = 0; r < rows; r++) {
    const row = [];
    for (let c = 0; c < cols; c++) row.push(r === 0 || c === 0 ? {t: "blank"} : {t: "white"});
    ED.cells.push(row);
  }
  drawEditor();
}

function editorFromPuzzle() {
  const p = S.model.puzzle;
  ED.rows = p.rows; ED.cols = p.cols; ED.cells = [];
  for (let r = 0; r < p.rows; r++) {
    const row = [];
    for (let c = 0; c < p.cols; c++) {
      const sq = parseTok(p.grid[r][c]);
      row.push(sq.white ? {t: "white"} : (sq.down || sq.across)
        ? {t: "clue", down: sq.down, across: sq.across} : {t: "blank"});
    }
    ED.cells.push(row);
  }
  $("ed-rows").value = p.rows; $("ed-cols").value = p.cols;
  $("ed-name").value = p.name || "";
  drawEditor();
  const lost = (p.givens && p.givens.length) || p.even;
  edSay(lost ? "Note: the editor keeps the squares and clues only (givens and parity marks are dropped)." : "", "warn");
}

function drawEditor() {
  const b = $("editor-board");
  b.textContent = "";
  b.style.gridTemplateColumns = "repeat(" + ED.cols + ", var(--ecell))";
  for (let r = 0; r < ED.rows; r++) {
    for (let c = 0; c < ED.cols; c++) {
      const cell = ED.cells[r][c];
      const e = el("div", "ecell " + cell.t);
      e.dataset.r = r; e.dataset.c = c;
      e.title = cellName(r, c);
      if (cell.t === "clue") {
        const dn = el("input", "in-down"); dn.value = cell.down || "";
        const ac = el("input", "in-across"); ac.value = cell.across || "";
        for (const [inp, fld, what] of [[dn, "down", "down sum"], [ac, "across", "across sum"]]) {
          inp.type = "text"; inp.inputMode = "numeric"; inp.maxLength = 2;
          inp.setAttribute("aria-label", what + " " + cellName(r, c));
          inp.addEventListener("input", () => {
            inp.value = inp.value.replace(/[^0-9]/g, "");
            cell[fld] = inp.value;
            e.classList.remove("diff");
          });
        }
        e.appendChild(ac); e.appendChild(dn);
      }
      e.addEventListener("click", (ev) => {
        if (ev.target.tagName === "INPUT") return;
        const tool = document.querySelector("input[name=tool]:checked").value;
        if (cell.t === tool) return;
        ED.cells[r][c] = tool === "clue" ? {t: "clue", down: "", across: ""} : {t: tool};
        drawEditor();
        if (tool === "clue") {
          const inp = $("editor-board").querySelector('.ecell[data-r="' + r + '"][data-c="' + c + '"] .in-down');
          if (inp) inp.focus();
        }
      });
      b.appendChild(e);
    }
  }
}

function edSay(text, kind) { const m = $("ed-message"); m.textContent = text || ""; m.className = kind || ""; }

function editorGrid() {
  return ED.cells.map((row) => row.map((cell) => {
    if (cell.t === "white") return "";
    if (cell.t === "clue" && (cell.down || cell.across)) return (cell.down || "") + "\\" + (cell.across || "");
    return "\\";
  }));
}

async function createFromEditor() {
  for (const e of document.querySelectorAll("#editor-board .diff")) e.classList.remove("diff");
  edSay("Checking the puzzle…", "info");
  let res;
  try {
    res = await api("POST", "/api/create", {grid: editorGrid(), name: $("ed-name").value.trim() || null});
  } catch (e) {
    edSay(e.message, "err");
    if (e.data && Array.isArray(e.data.cells)) {
      for (const [r, c] of e.data.cells) {
        const x = $("editor-board").querySelector('.ecell[data-r="' + r + '"][data-c="' + c + '"]');
        if (x) x.classList.add("diff");
      }
    }
    return;
  }
  edSay("", "");
  loadModel(res);
}

/* ---- wiring ------------------------------------------------------------------------------- */
function wire() {
  document.addEventListener("keydown", onKey);
  document.addEventListener("visibilitychange", () => { clockRun(!document.hidden); persist(); });
  window.addEventListener("resize", fitBoard);
  // click: a mouse, a tap, and a screen reader's activation all select the cell
  $("board").addEventListener("click", (e) => {
    const sq = e.target.closest(".sq.w");
    if (!sq) return;
    select(Number(sq.dataset.r), Number(sq.dataset.c));
    $("board").focus({preventScroll: true});
  });
  $("board").addEventListener("mousedown", (e) => { if (e.target.closest(".sq.w")) e.preventDefault(); });
  for (const b of document.querySelectorAll("#pad-digits button")) {
    b.addEventListener("click", () => padDigit(Number(b.dataset.d)));
  }
  $("pad-pencil").addEventListener("click", () => setPencilMode(!S.pencilMode));
  $("pad-colour1").addEventListener("click", () => setMode(S.colourMode === 1 ? "digit" : "colour1"));
  $("pad-colour2").addEventListener("click", () => setMode(S.colourMode === 2 ? "digit" : "colour2"));
  $("pad-find").addEventListener("click", () => setMode(S.findMode ? "digit" : "find"));
  $("pad-erase").addEventListener("click", erase);
  $("pad-undo").addEventListener("click", undo);
  $("pad-redo").addEventListener("click", redo);
  $("chain-prev").addEventListener("click", () => chainGo(-1));
  $("chain-next").addEventListener("click", () => chainGo(1));
  $("chain-end").addEventListener("click", chainOff);
  $("hint-more").addEventListener("click", () => showWhole(!$("hint-text").classList.contains("open")));
  $("save-path").addEventListener("input", () => { if (said && said.field === "save-path") say("", ""); });
  $("btn-menu").addEventListener("click", () => menu(!document.body.classList.contains("menu-open")));
  $("btn-undo").addEventListener("click", undo);
  $("btn-redo").addEventListener("click", redo);
  $("btn-check").addEventListener("click", () => check(false));
  $("btn-marks").addEventListener("click", autoMarks);
  $("btn-solve").addEventListener("click", solve);
  $("btn-clear").addEventListener("click", clearAll);
  $("hint-vague").addEventListener("click", () => hint("vague"));
  $("hint-concrete").addEventListener("click", () => hint("concrete"));
  $("hint-full").addEventListener("click", () => hint("full"));
  $("hint-apply").addEventListener("click", () => hint("full", true));
  $("btn-download").addEventListener("click", download);
  $("btn-save").addEventListener("click", saveToFolder);
  $("save-path").addEventListener("keydown", (e) => { if (e.key === "Enter") saveToFolder(); });
  $("save-format").addEventListener("change", () => {
    const p = $("save-path"), fmt = $("save-format").value;
    if (p.value) p.value = p.value.replace(/\.(txt|pipe|json)$/i, fmt === "json" ? ".json" : ".txt");
  });
  $("file-input").addEventListener("change", (e) => { openFile(e.target.files[0]); e.target.value = ""; });
  $("server-files").addEventListener("change", (e) => openServerFile(e.target.value));
  $("btn-new").addEventListener("click", () => {
    showView("editor");
    if (!ED.rows) newEditorGrid(Number($("ed-rows").value) || 5, Number($("ed-cols").value) || 5);
    edSay("Make squares white, blank or clue, type the sums, then press Create puzzle.", "info");
  });
  $("btn-edit").addEventListener("click", () => { if (S.model) { editorFromPuzzle(); showView("editor"); } });
  $("btn-generate").addEventListener("click", () => busy("Generating a puzzle", async () => {
    // a hard level at a large size can take most of the server's minute: say it is still
    // looking, with the time so far, so the page does not look stuck
    const started = Date.now();
    const looking = () => `Generating a puzzle… still looking (${Math.round((Date.now() - started) / 1000)} s; ` +
      "Extreme and large grids can take up to a minute)";
    const tick = setInterval(() => say(looking(), "info"), 5000);
    try {
      const res = await api("POST", "/api/generate",
                            {size: $("gen-size").value, level: $("gen-level").value || null});
      clearInterval(tick);
      if ($("message").textContent.includes("still looking")) say("", "");
      loadModel(res);
    } finally {
      clearInterval(tick);
    }
  }));
  $("ed-grid").addEventListener("click", () => {
    const rows = Math.max(2, Math.min(40, Number($("ed-rows").value) || 5));
    const cols = Math.max(2, Math.min(40, Number($("ed-cols").value) || 5));
    newEditorGrid(rows, cols);
    edSay("", "");
  });
  $("ed-create").addEventListener("click", createFromEditor);
  $("ed-cancel").addEventListener("click", () => { showView("play"); edSay("", ""); });
  // drag and drop a file anywhere on the page
  let depth = 0;
  window.addEventListener("dragenter", (e) => { if (hasFiles(e)) { depth++; $("drop-overlay").hidden = false; } });
  window.addEventListener("dragleave", () => { if (--depth <= 0) { depth = 0; $("drop-overlay").hidden = true; } });
  window.addEventListener("dragover", (e) => { if (hasFiles(e)) e.preventDefault(); });
  window.addEventListener("drop", (e) => {
    e.preventDefault();
    depth = 0; $("drop-overlay").hidden = true;
    const f = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
    if (f) openFile(f);
  });
}

/* The file row, folded away on a phone behind "Files" (open: shown). */
function menu(open) {
  document.body.classList.toggle("menu-open", open);
  $("btn-menu").setAttribute("aria-expanded", String(open));
  fitBoard();
}

function hasFiles(e) {
  return e.dataTransfer && Array.from(e.dataTransfer.types || []).includes("Files");
}

async function main() {
  wire();
  refreshButtons();
  let start = null;
  try {
    start = await api("GET", "/api/start");
  } catch (e) {
    say(e.message, "err");
  }
  if (start) $("folder-note").textContent = "Folder: " + start.root;
  loadFiles();
  const saved = loadSaved();
  if (start && start.start) {
    if (saved && saved.key === puzzleKey(start.start.puzzle)) {
      restore(saved);
      // a link's (or a file's) own position, once: onto the progress kept, Undo takes it back
      const sp = start.start.puzzle, pos = positionKey(sp);
      const has = (sp.entries && sp.entries.length) || (sp.pencil && sp.pencil.length);
      if (has && pos !== saved.opened && pos !== positionKey(puzzleBody())) openPosition(start.start);
      S.opened = pos;
      persist();
    } else {
      loadModel(start.start);
      S.opened = positionKey(start.start.puzzle);
      persist();
    }
  } else if (saved) {
    restore(saved);
  } else {
    say("Open a puzzle file or press New… to make one.", "info");
  }
  document.body.dataset.ready = "1";
}

document.addEventListener("DOMContentLoaded", main);

/* deducer play: the page's state, its talk with the server, the messages and the play clock,
 * loading a puzzle and keeping the progress. Vanilla JS, no build step, talks only to its
 * own server. The page's scripts are plain scripts sharing one global scope, loaded in
 * index.html's order: state.js, board.js (drawing, edits, undo), hints.js (check, hints),
 * chainwalk.js (a hint's chain on the board), actions.js (solve, marks, files), editor.js
 * (new puzzles), play.js (playing, the pad, the keys, the wiring), then the tools.
 *
 * State: the puzzle (deducer JSON object without progress), the player's entries, pencil
 * marks and their colours (key "r,c"), the selection and the undo/redo stacks, the moves
 * made (for "Save my solve") and the play clock. Every change goes through edit()
 * (board.js), which records it for undo and saves everything in localStorage, so a reload
 * (or a restart of the server with the same puzzle) keeps the progress. The player's tools
 * (highlight, colours, what if, link, save my solve) are in tools.js.
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

/* deducer play: playing the puzzle: the selection, digits and pencil marks, the on-screen
 * pad and the keys, and the wiring of the page's buttons; main() opens the puzzle. The
 * state is state.js's, the board board.js's (index.html loads them first).
 */
"use strict";

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

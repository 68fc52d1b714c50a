/* deducer play: replaying a solve (docs/play.md, "Replay").
 *
 * Replay… opens a solving record: a file saved with "Save my solve", a janko.at page or
 * x-janko file, a file of janko.at's JSON records (the page asks which), or a janko.at
 * address whose record is in the server's folder. The server reads it and sets it beside
 * the walkthrough (POST /api/replay, what `deducer replay` prints); the page opens its
 * puzzle and steps through the moves with the bar under the board (⏮ ◀ ▶ ⏭, the slider,
 * or ← → Home End), drawing the board as it was after each move: the move's cell
 * selected, a wrong digit in pink, and where the solver parts from the walkthrough's
 * order the walkthrough's next cell in orange. Beside it: how many cells kept to the
 * walkthrough's order, the moves that parted from it and the cells the solver took
 * longest over, each a button that goes to its move.
 *
 * Nothing of a replay is written on the player's grid: board.js's edit() refuses while
 * S.replay is set, and persist() keeps the player's own grid of the puzzle (S.replay.saved),
 * which Leave replay puts back.
 */
"use strict";

async function replayOpenForm(open) {
  const form = $("replay-open");
  form.hidden = !open;
  if (!open) return;
  $("chooser").hidden = true;
  if (document.body.classList.contains("menu-open")) menu(false);
  form.scrollIntoView({block: "nearest"});
  // (no keyboard popping up on a touch screen)
  if (!window.matchMedia("(pointer: coarse)").matches) $("replay-link").focus();
  // the folder's files, as the file row lists them (asked again: the folder may have changed)
  const sel = $("replay-folder");
  sel.disabled = true;
  await loadFiles();
  while (sel.options.length > 1) sel.remove(1);
  for (const o of Array.from($("server-files").options).slice(1)) sel.appendChild(new Option(o.value, o.value));
  sel.disabled = sel.options.length < 2;
}

async function replayRequest(body, label) {
  await busy("Opening " + label + " and walking its puzzle", async () => {
    const res = await api("POST", "/api/replay", body);
    if (res.choose) {
      choose(res, (picked) => replayRequest(Object.assign({}, body, {name: picked}), label + ": " + picked));
      return;
    }
    $("replay-open").hidden = true;
    loadModel(res);
    replayStart(res.replay);
    say(res.message, "ok");
  });
}

async function replayFile(file) {
  if (!file) return;
  if (file.size > 4 * 1024 * 1024) { say(file.name + " is larger than 4 MiB; that is not a record.", "err"); return; }
  let text;
  try { text = await file.text(); } catch (e) { say("Cannot read " + file.name + ".", "err"); return; }
  await replayRequest({text, filename: file.name}, file.name);
}

/* A file opened to play that holds a solving record (a saved solve, a janko.at page):
   the message offers to replay it. */
function replayOffer(text, filename, name) {
  if (!/^\s*moves\b/m.test(text) && !/"moves"\s*:/.test(text)) return;
  const m = $("message");
  const b = el("button", "replay-offer", "Replay its moves");
  b.type = "button";
  b.addEventListener("click", () => replayRequest(Object.assign({text, filename}, name ? {name} : {}),
                                                  filename));
  m.append(" It holds a solving record. ");
  m.appendChild(b);
}

/* ---- stepping through ----------------------------------------------------------------- */
function replayStart(data) {
  S.replay = {data, at: 0,
              saved: {entries: new Map(S.entries), pencil: new Map(S.pencil), colours: new Map(S.colours),
                      undo: S.undo.slice(), redo: S.redo.slice(), usedSolve: S.usedSolve}};
  endHint();
  document.body.classList.add("replaying");
  $("replay-bar").hidden = false;
  $("replay-box").hidden = false;
  const n = data.moves.length;
  $("replay-at").max = String(n);
  replaySummary(data);
  fitBoard();
  replayGo(0);
  $("replay-next").focus({preventScroll: true});
}

/* The board after the first `at` moves. */
function replayGo(at) {
  const R = S.replay;
  if (!R) return;
  const moves = R.data.moves;
  at = Math.max(0, Math.min(moves.length, at));
  R.at = at;
  const entries = new Map(), pencil = new Map(), wrong = new Set();
  for (const m of moves.slice(0, at)) {
    if (!m.cell || m.off) continue;
    const k = key(...m.cell);
    if (m.kind === "digit") entries.set(k, m.digit); else entries.delete(k);
    if (m.marks.length) pencil.set(k, maskOf(m.marks)); else pencil.delete(k);
    if (m.kind === "digit" && m.wrong) wrong.add(k); else wrong.delete(k);
  }
  S.entries = entries; S.pencil = pencil; S.colours = new Map();
  clearHighlights(false);
  S.hl.wrong = wrong;
  const m = at ? moves[at - 1] : null;
  const follow = [];
  if (m && m.cell && !m.off) {
    S.sel = m.cell.slice();
    S.hl.hintCells = new Set([key(...m.cell)]);
    follow.push(key(...m.cell));
  }
  if (m && m.part) {
    const nk = key(m.part.next[0], m.part.next[1]);
    S.hl.diff = new Set([nk]);
    follow.push(nk);
  }
  refreshAll();
  replayButtons();
  followCells(follow);
  $("replay-at").value = String(at);
  $("replay-first").disabled = $("replay-prev").disabled = at === 0;
  $("replay-next").disabled = $("replay-last").disabled = at === moves.length;
  const time = m && m.ms !== null ? " · " + clockText(m.ms) : "";
  $("replay-status").textContent = "Move " + at + " of " + moves.length + time;
  $("replay-move").replaceChildren();
  const line = el("div", "replay-what", m ? "Move " + at + ": " + moveText(m) + time : "Before the first move.");
  $("replay-move").appendChild(line);
  if (m && m.off) $("replay-move").appendChild(el("div", "replay-note", "Not a white cell: left off the board."));
  if (m && m.wrong) $("replay-move").appendChild(el("div", "replay-note wrong", "A wrong digit (in pink): the solver changes it later."));
  if (m && m.part) {
    $("replay-move").appendChild(el("div", "replay-note part", "Parts from the walkthrough: " + m.part.text +
      "; that cell is in orange."));
  }
  for (const b of document.querySelectorAll("#replay-box button[data-move]")) {
    b.setAttribute("aria-current", String(Number(b.dataset.move) === at));
  }
}

/* A move as a person says it: "r7c8 = 1", "r7c8: marks 1 3", "r7c8 emptied". */
function moveText(m) {
  if (!m.cell) return "control " + m.text;
  const where = cellName(...m.cell);
  if (m.kind === "digit") return where + " = " + m.digit + (m.marks.length ? " (over marks " + m.marks.join(" ") + ")" : "");
  if (m.kind === "pencil") return where + ": marks " + m.marks.join(" ");
  return where + " emptied";
}

function clockText(ms) {
  const s = ms / 1000;
  if (s >= 3600) return Math.floor(s / 3600) + ":" + String(Math.floor(s % 3600 / 60)).padStart(2, "0") + ":" +
    String(Math.floor(s % 60)).padStart(2, "0");
  return Math.floor(s / 60) + ":" + (s % 60).toFixed(1).padStart(4, "0");
}

/* What stays beside the replay: the order against the walkthrough's, the partings and the
   slowest cells, each a button that goes to its move. */
function replaySummary(data) {
  const who = data.solver || "the solver";
  const sum = $("replay-summary");
  sum.replaceChildren();
  if (!data.placed) {
    sum.textContent = "The walkthrough did not reach the solution (" + data.walk_status + "): no order to compare.";
  } else {
    sum.textContent = data.follows + " of the " + data.placed + " cells " + who + " filled for good kept to the " +
      "walkthrough's order (the cell among its next " + data.ahead + "); " + (data.placed - data.follows) +
      " parted from it.";
  }
  const go = (at, text) => {
    const b = el("button", "replay-go", text);
    b.type = "button";
    b.dataset.move = String(at);
    b.addEventListener("click", () => replayGo(at));
    return b;
  };
  const parts = $("replay-partings");
  const list = parts.querySelector("ol");
  list.replaceChildren();
  data.moves.forEach((m, i) => {
    if (!m.part) return;
    const li = document.createElement("li");
    li.appendChild(go(i + 1, "Move " + (i + 1) + ": " + cellName(...m.cell) + " (the walkthrough's cell " +
      (m.part.walk_rank + 1) + ")"));
    list.appendChild(li);
  });
  parts.hidden = !list.children.length;
  const slow = $("replay-slowest");
  slow.replaceChildren();
  if (data.slowest.length) {
    slow.appendChild(el("div", "replay-label", data.timed ? "Took longest over:" : "No times recorded; most moves:"));
    for (const s of data.slowest) {
      // to the move that filled the cell for good (else its last move)
      let at = 0;
      data.moves.forEach((m, i) => { if (m.cell && m.cell[0] === s.cell[0] && m.cell[1] === s.cell[1] && (m.final || !at)) at = i + 1; });
      const text = cellName(...s.cell) + " " + (data.timed ? (s.amount / 1000).toFixed(1) + " s" : s.amount + " moves");
      slow.appendChild(go(at, text));
    }
  } else if (!data.timed) {
    slow.textContent = "No times recorded (janko.at's records have none).";
  }
}

/* In a replay nothing is written on the grid; the buttons that would are off. */
function replayButtons() {
  if (!S.replay) return;
  for (const id of ["btn-whatif", "hint-apply", "btn-solve", "btn-clear", "btn-marks", "btn-undo",
                    "btn-redo", "pad-undo", "pad-redo", "btn-edit"]) $(id).disabled = true;
}

/* ← → Home End in a replay (true: the key was the replay's). */
function replayKey(e) {
  const R = S.replay;
  const to = {ArrowLeft: R.at - 1, ArrowRight: R.at + 1, Home: 0, End: R.data.moves.length}[e.key];
  if (to === undefined) return false;
  e.preventDefault();
  replayGo(to);
  return true;
}

/* Leave the replay: the player's own grid of the puzzle comes back. `quiet`: a new puzzle
   is opening (loadModel). */
function replayEnd(quiet) {
  const R = S.replay;
  if (!R) return;
  S.replay = null;
  document.body.classList.remove("replaying");
  $("replay-bar").hidden = true;
  $("replay-box").hidden = true;
  if (quiet) return;
  S.entries = R.saved.entries; S.pencil = R.saved.pencil; S.colours = R.saved.colours;
  S.undo = R.saved.undo; S.redo = R.saved.redo; S.usedSolve = R.saved.usedSolve;
  clearHighlights(false);
  refreshAll();
  persist();
  fitBoard();
  say("Left the replay: the grid is yours again.", "ok");
}

document.addEventListener("DOMContentLoaded", () => {
  $("btn-replay").addEventListener("click", () => replayOpenForm($("replay-open").hidden));
  $("replay-cancel").addEventListener("click", () => replayOpenForm(false));
  $("replay-file").addEventListener("change", (e) => { replayFile(e.target.files[0]); e.target.value = ""; });
  $("replay-folder").addEventListener("change", (e) => {
    const path = e.target.value;
    e.target.value = "";
    if (path) replayRequest({path}, path);
  });
  $("replay-open").addEventListener("submit", (e) => {
    e.preventDefault();
    const link = $("replay-link").value.trim();
    if (!link) { say("Paste a janko.at address (its record must be in the folder), or pick a file.", "err"); return; }
    replayRequest({link}, link);
  });
  $("replay-first").addEventListener("click", () => replayGo(0));
  $("replay-prev").addEventListener("click", () => replayGo(S.replay.at - 1));
  $("replay-next").addEventListener("click", () => replayGo(S.replay.at + 1));
  $("replay-last").addEventListener("click", () => replayGo(S.replay.data.moves.length));
  $("replay-at").addEventListener("input", (e) => replayGo(Number(e.target.value)));
  $("replay-leave").addEventListener("click", () => replayEnd(false));
});

/* deducer play: the player's tools (docs/play.md, "Player's tools").
 *
 * - highlight: every cell holding a chosen digit, written in or pencilled (Alt+digit, or
 *   the pad's ◎ Highlight mode);
 * - colours: pencil marks coloured blue or orange (the pad's two colour modes, key c);
 * - "What if": a branch of the grid. Digits written there are tried on the server
 *   (POST /api/whatif) and what follows is walked like a hint's chain; "Back to my grid"
 *   puts the entries, marks, colours and undo history back as they were;
 * - a link that reopens the position (POST /api/link; Open link reads one back);
 * - "Save my solve": the moves made, each with its time, in janko.at's notation
 *   (POST /api/record writes the x-janko file).
 *
 * It reads and changes the page's state through state.js and board.js (S, edit,
 * refreshAll, ...); the board's chain drawing is chainwalk.js's (drawChain), the frames
 * chainstep.js's.
 */
"use strict";

/* ---- highlight a digit ------------------------------------------------------------------- */
function highlightDigit(d) {
  if (!S.model) return;
  S.highlight = d;
  for (const k of S.whites) drawCell(k);
  refreshPad();
  if (!d) { say("", ""); return; }
  let held = 0, marked = 0;
  for (const k of S.whites) {
    const v = S.givens.has(k) ? S.givens.get(k) : S.entries.get(k);
    if (v === d) held++;
    else if (v === undefined && (S.pencil.get(k) || 0) & bit(d)) marked++;
  }
  say("Highlighting " + d + ": " + held + (held === 1 ? " cell holds" : " cells hold") + " it, " +
      marked + " more " + (marked === 1 ? "has" : "have") + " it pencilled in (Alt+0 or Esc: none).", "info");
}

/* ---- colour pencil marks ------------------------------------------------------------------ */
/* Mark d of the selected cell in colour n (1 blue, 2 orange): coloured, or back to plain if
   it has that colour already; a mark not yet pencilled in is added in that colour. */
function colourMark(d, n) {
  const k = key(...S.sel);
  if (S.givens.has(k) || S.entries.has(k)) {
    say("Colours are for pencil marks; " + cellName(...S.sel) + " holds a digit.", "info");
    return;
  }
  const mask = S.pencil.get(k) || 0, col = S.colours.get(k) || 0;
  const mine = bit(d) << (n === 2 ? 9 : 0), theirs = bit(d) << (n === 2 ? 0 : 9);
  const off = !!(mask & bit(d)) && !!(col & mine);
  const name = n === 2 ? "orange" : "blue";
  edit([{k, pencil: mask | bit(d), colour: off ? col & ~mine : (col | mine) & ~theirs}],
       "mark " + d + (off ? " plain" : " " + name) + " in " + cellName(...S.sel));
}

/* ---- what if: a branch of the grid -------------------------------------------------------- */
function toggleBranch() {
  if (S.branch) leaveBranch(); else enterBranch();
}

function enterBranch() {
  if (!S.model || S.branch) return;
  S.branch = {entries: new Map(S.entries), pencil: new Map(S.pencil),
              colours: new Map(S.colours), undo: S.undo.slice(), redo: S.redo.slice(),
              usedSolve: S.usedSolve};
  showBranch(true);
  endHint();
  say("What if: write a digit in a cell to see what follows from it. Nothing you do here " +
      "is kept: Back to my grid puts everything back.", "info");
}

/* Back to the player's grid: entries, marks, colours and undo history as they were. */
function leaveBranch() {
  if (!S.branch) return;
  leaveBranchState();
  endHint();
  refreshAll();
  persist();
  say("Back to your grid, as it was.", "ok");
}

function leaveBranchState() {
  const b = S.branch;
  if (b) {
    S.entries = b.entries; S.pencil = b.pencil; S.colours = b.colours;
    S.undo = b.undo; S.redo = b.redo; S.usedSolve = b.usedSolve;
    S.branch = null;
  }
  showBranch(false);
}

function showBranch(on) {
  document.body.classList.toggle("branch", on);
  $("branch-bar").hidden = !on;
  $("btn-whatif").setAttribute("aria-pressed", on ? "true" : "false");
  $("btn-whatif").textContent = on ? "Leave what if" : "What if…";
  $("board").setAttribute("aria-label", on
    ? "What if: a branch of your grid. Write a digit to see what follows; Back to my grid returns"
    : "Kakuro board: arrow keys move, 1-9 enter a digit, Shift+digit a pencil mark");
  if (S.model) refreshButtons();
}

let whatIfAnswer = null;
async function whatIf(r, c, d) {
  await busy("Working out what follows", async () => {
    const res = await api("POST", "/api/whatif", {puzzle: puzzleBody(), cell: [r, c], digit: d});
    if (!S.branch) return;  // left meanwhile
    whatIfAnswer = res;
    // the box lists the links (the message above says where they lead)
    const list = res.text.split("\n").slice(1).join("\n") || res.message;
    showHint({kind: "whatif-" + res.status, level: "full", text: list,
              highlight: {cells: [], runs: []}}, false);
    hintDone = null;
    $("hint-level").textContent = "What if " + cellName(r, c) + " were " + d + "?";
    chain.frames = ChainStep.whatIfFrames(res);
    chain.at = 0;
    $("chain").hidden = false;
    $("hint-box").classList.add("has-chain");
    $("hint-more").hidden = false;
    const places = res.proof.links.reduce((n, lk) => n + lk.placements.length, 0);
    $("branch-apply").hidden = res.status === "contradiction" || !places;
    drawChain();
    say(res.message, res.status === "contradiction" ? "warn" : "info");
    $("chain-nav").scrollIntoView({block: "nearest"});
  });
}

/* Write the digits the links placed into the branch, to go on from there. */
function applyWhatIf() {
  if (!S.branch || !whatIfAnswer) return;
  const changes = [];
  for (const lk of whatIfAnswer.proof.links) {
    for (const [r, c, d] of lk.placements) changes.push({k: key(r, c), entry: d});
  }
  endHint();
  if (edit(changes, "what follows")) say("Wrote in the " + changes.length + " digits that follow (still in the branch).", "ok");
}

/* ---- a link that reopens the position ----------------------------------------------------- */
async function copyLink() {
  if (!S.model || S.branch) return;
  await busy("Making the link", async () => {
    const res = await api("POST", "/api/link", {puzzle: puzzleBody()});
    const field = $("link-text");
    field.value = res.link;
    field.focus();
    field.select();
    let copied = false;
    try {
      await navigator.clipboard.writeText(res.link);
      copied = true;
    } catch (e) {
      try { copied = document.execCommand("copy"); } catch (e2) { copied = false; }
    }
    say((copied ? "Link copied. " : "The link is in the box: copy it from there. ") + res.message, "ok");
  });
}

async function openLink() {
  const text = $("link-text").value.trim();
  if (!text) {
    say("Paste a link into the box first (deducer's, or any puzz.link Kakuro URL).", "err",
        {cells: new Map(), field: "link-text"});
    $("link-text").focus();
    return;
  }
  await busy("Opening the link", async () => {
    const res = await api("POST", "/api/parse", {text, filename: "link.url", format: "puzzlink"});
    if (S.model && puzzleKey(res.puzzle) === puzzleKey(S.model.puzzle)) {
      leaveBranchState();
      refreshAll();
      openPosition(res);
    } else {
      loadModel(res);
    }
  });
}

/* Put a puzzle object's entries and pencil marks on the grid of the same puzzle, as one
   step that Undo takes back (nothing the player had is lost). */
function openPosition(data) {
  const p = data.puzzle;
  const entries = new Map((p.entries || []).map(([r, c, d]) => [key(r, c), d]));
  const pencil = new Map((p.pencil || []).map(([r, c, ds]) => [key(r, c), maskOf(ds)]));
  const changes = [];
  for (const k of S.whites) {
    changes.push({k, entry: entries.has(k) ? entries.get(k) : null, pencil: pencil.get(k) || 0});
  }
  if (edit(changes, "the link's position")) say("Opened the link's position (Undo brings your grid back).", "ok");
  else say("The grid already shows the link's position.", "info");
}

/* ---- save my solve ------------------------------------------------------------------------ */
/* The moves in janko.at's notation (docs/play.md): "Z1;" then per move the cell (column
   letter, row letter, 0-based over the whole grid; four digits past z), its digit or "-",
   ",," and its pencil marks if it has any, and "@" the milliseconds since the puzzle was
   opened. */
function cellToken(k) {
  const [r, c] = unkey(k);
  if (r < 26 && c < 26) return String.fromCharCode(97 + c) + String.fromCharCode(97 + r);
  const w = r < 100 && c < 100 ? 2 : 3;
  return String(c).padStart(w, "0") + String(r).padStart(w, "0");
}

function movesText() {
  let out = "Z1;";
  for (const [k, e, m, ms] of S.moves) {
    out += cellToken(k) + "," + (e === null ? "-" : e) + (m ? ",," + digitsOf(m).join("") : "") +
           "@" + Math.max(0, Math.round(ms)) + ";";
  }
  return out;
}

async function saveSolve() {
  if (!S.model || S.branch) return;
  await busy("Saving your solve", async () => {
    const res = await api("POST", "/api/record", {puzzle: puzzleBody(), moves: movesText()});
    downloadFile(res);
    say("Saved your solve (" + res.moves + " move" + (res.moves === 1 ? "" : "s") + ", each with its time) as " +
        res.filename + ": the puzzle and your moves in janko.at's notation.", "ok");
  });
}

document.addEventListener("DOMContentLoaded", () => {
  $("btn-whatif").addEventListener("click", toggleBranch);
  $("branch-back").addEventListener("click", leaveBranch);
  $("branch-apply").addEventListener("click", applyWhatIf);
  $("btn-link").addEventListener("click", copyLink);
  $("btn-open-link").addEventListener("click", openLink);
  $("link-text").addEventListener("keydown", (e) => { if (e.key === "Enter") openLink(); });
  $("link-text").addEventListener("input", () => { if (said && said.field === "link-text") say("", ""); });
  $("btn-record").addEventListener("click", saveSolve);
});

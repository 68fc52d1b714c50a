/* deducer play: checking the grid and the hints in three tiers, shown in the hint box
 * with their highlights (a hint's chain is walked on the board by chainwalk.js).
 */
"use strict";

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

function showWhole(open) {
  $("hint-text").classList.toggle("open", open);
  $("hint-more").setAttribute("aria-expanded", String(open));
  $("hint-more").textContent = open ? "Less ▴" : "Whole step ▾";
}

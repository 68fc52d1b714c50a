/* deducer play: "All steps": every deduction open on the board, simplest first.
 *
 * The hint group's "All steps" button asks the server (POST /api/allsteps, what `deducer
 * hint --all` lists) and shows the steps in the hint box as a list of buttons, each the
 * technique's name and what the step does. Picking one (a click, a tap, Enter or Space;
 * ↑ / ↓ move in the list) shows its sentence and highlights its cells and runs on the
 * board, and walks a chain step link by link as a hint's chain is walked. It reads the
 * page's state (S, puzzleBody, api, busy, showHintHighlights, chain, drawChain from
 * hints.js and chainwalk.js) and changes none of it but the highlights and the hint box;
 * hints.js's endHint()
 * calls endAllSteps() whenever the hint box is closed or taken over.
 */
"use strict";

const ALL = {res: null, at: -1};

function stepEffect(s) {
  const parts = s.placements.map(([r, c, d]) => cellName(r, c) + " = " + d);
  for (const [r, c, ds] of s.eliminations) parts.push(ds.join(", ") + " out of " + cellName(r, c));
  if (!parts.length && s.combos_removed.length) {
    parts.push(s.combos_removed.map(([run, cs]) => run + " is not " + cs.join(" or ")).join("; "));
  }
  // a placed digit leaving the other cells of its runs goes without saying
  const shown = parts.slice(0, s.placements.length || 3);
  return shown.join("; ") + (!s.placements.length && parts.length > 3 ? "; …" : "");
}

async function showAllSteps() {
  if (!S.model) return;
  await busy("Looking for every step open here", async () => {
    const res = await api("POST", "/api/allsteps", {puzzle: puzzleBody()});
    endHint();
    ALL.res = res;
    ALL.at = -1;
    const box = $("hint-box");
    box.hidden = false;
    box.className = "kind-all kind-" + res.kind;
    $("hint-level").textContent = "All steps" + (res.steps.length ? " (" + res.steps.length + ")" : "");
    $("hint-text").textContent = res.text;
    $("hint-more").hidden = true;
    $("chain").hidden = true;
    const list = $("all-steps");
    list.replaceChildren();
    res.steps.forEach((s, i) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.className = "step-pick";
      b.dataset.i = String(i);
      b.setAttribute("aria-pressed", "false");
      const name = document.createElement("b");
      name.textContent = s.name;
      b.append(name, " " + stepEffect(s));
      b.title = s.text;
      b.addEventListener("click", () => pickStep(i));
      li.appendChild(b);
      list.appendChild(li);
    });
    list.hidden = !res.steps.length;
    if (res.kind === "mistake" && res.mistakes) {
      for (const m of res.mistakes) (m.kind === "entry" ? S.hl.wrong : S.hl.wrongMarks).add(key(...m.cell));
      refreshHighlights();
    }
    box.scrollIntoView({block: "nearest"});
    const first = list.querySelector("button");
    if (first) first.focus({preventScroll: true});
  });
}

function pickStep(i) {
  const res = ALL.res;
  if (!res || !res.steps[i]) return;
  ALL.at = i;
  const s = res.steps[i];
  for (const b of document.querySelectorAll("#all-steps button")) {
    b.setAttribute("aria-pressed", String(Number(b.dataset.i) === i));
  }
  $("hint-level").textContent = "Step " + (i + 1) + " of " + res.steps.length + ": " + s.name +
    " (weight " + s.weight + ")";
  $("hint-text").textContent = s.text;
  const h = res.highlights[i] || {cells: [], runs: []};
  S.hintHl = {cells: h.cells.map(([r, c]) => key(r, c)), run: [], clue: []};
  for (const run of h.runs) {
    for (const [r, c] of run.cells) S.hintHl.run.push(key(r, c));
    if (run.clue) S.hintHl.clue.push(key(run.clue[0], run.clue[1]));
  }
  // a chain step is walked on the board link by link, like a hint's
  chain.frames = ChainStep.frames({step: s});
  chain.at = 0;
  const walk = chain.frames.length > 0;
  $("chain").hidden = !walk;
  if (walk) drawChain();
  else {
    showHintHighlights();
    followCells([...S.hintHl.cells, ...S.hintHl.run]);  // in view on a zoomed board (zoom.js)
  }
}

function endAllSteps() {
  ALL.res = null;
  ALL.at = -1;
  const list = $("all-steps");
  if (list) { list.hidden = true; list.replaceChildren(); }
}

document.addEventListener("DOMContentLoaded", () => {
  $("hint-all").addEventListener("click", showAllSteps);
  // ↑ / ↓ move in the list; the board's own keys (arrows, digits) stay with the board
  $("all-steps").addEventListener("keydown", (e) => {
    const b = e.target.closest("button.step-pick");
    if (!b) return;
    const i = Number(b.dataset.i);
    const to = e.key === "ArrowDown" ? i + 1 : e.key === "ArrowUp" ? i - 1 :
      e.key === "Home" ? 0 : e.key === "End" ? ALL.res.steps.length - 1 : null;
    if (to !== null) {
      e.preventDefault();
      const next = document.querySelector('#all-steps button[data-i="' + to + '"]');
      if (next) next.focus();
    }
    // Esc closes the list (play.js's onKey, with the focus back on the board); any other
    // key is not a digit or a move on the board
    if (e.key === "Escape") { $("board").focus({preventScroll: true}); return; }
    e.stopPropagation();
  });
});

/* deducer play: the combination helper (docs/play.md, "Combinations").
 *
 * ⊞ Combos on the pad (or the key k) opens a box that shows, for the selected cell's
 * runs, every combination of digits that makes the run's sum (the engine's tables, asked
 * of the server: POST /api/combos, what `deducer combos` prints), each struck where the
 * digits written in the run or its cells' pencil marks rule it out; then the digits every
 * combination still alive needs and those none has. A combination is a button: pressing
 * it (a tap, a click, Enter) says why it is struck, or that it is still possible. The box
 * follows the selection and every change of the grid (board.js calls combosRefresh()).
 */
"use strict";

const COMBOS = {open: false, seq: 0, timer: null, key: "deducer-play-combos"};

function combosToggle(open) {
  if (!S.model) return;
  COMBOS.open = open === undefined ? !COMBOS.open : !!open;
  $("combo-box").hidden = !COMBOS.open;
  $("pad-combos").setAttribute("aria-pressed", String(COMBOS.open));
  try { localStorage.setItem(COMBOS.key, COMBOS.open ? "1" : "0"); } catch (e) { /* off */ }
  // another panel opens: the All steps list closes (allsteps.js)
  if (COMBOS.open && typeof ALL !== "undefined" && ALL.res) endHint();
  if (COMBOS.open) combosRefresh(true);
}

/* Ask again for the selected cell (soon: a burst of keys asks once). */
function combosRefresh(now) {
  if (!COMBOS.open || !S.model) return;
  clearTimeout(COMBOS.timer);
  COMBOS.timer = setTimeout(combosFetch, now === true ? 0 : 60);
}

async function combosFetch() {
  const box = $("combo-box");
  const sel = S.sel;
  if (!sel || !S.whites.has(key(...sel))) {
    box.textContent = "Select a white cell to see its runs' combinations.";
    return;
  }
  const seq = ++COMBOS.seq;
  let res;
  try {
    res = await api("POST", "/api/combos", {puzzle: puzzleBody(), cell: sel});
  } catch (e) {
    if (seq === COMBOS.seq) box.textContent = e.message;
    return;
  }
  if (seq !== COMBOS.seq || !COMBOS.open) return;  // a later answer is on its way
  drawCombos(res);
}

function drawCombos(res) {
  const box = $("combo-box");
  box.replaceChildren();
  const why = el("div", "combo-why");
  why.setAttribute("aria-live", "polite");
  for (const run of res.runs) {
    const part = el("div", "combo-run");
    part.dataset.dir = run.dir;
    const n = run.cells.length;
    const word = run.dir === "A" ? "Across" : "Down";
    const head = el("div", "combo-head");
    const title = el("b", "", word + " " + (run.total === null ? "(no clue)" : run.total) + " in " + n);
    head.appendChild(title);
    part.appendChild(head);
    const list = el("div", "combo-list");
    if (run.total === null && run.combos.length > 12) {
      // a run without a clue: any digits (its combinations say nothing)
      list.textContent = "Any " + n + " different digits.";
      part.appendChild(list);
      box.appendChild(part);
      continue;
    }
    head.appendChild(document.createTextNode(
      " " + run.live + " of " + run.combos.length + " combination" + (run.combos.length === 1 ? "" : "s") + " left"));
    for (const c of run.combos) {
      const b = el("button", "combo" + (c.live ? "" : " struck"), c.text);
      b.type = "button";
      const said = c.live ? c.text + ": still possible" : c.text + ": struck, " + c.reason;
      b.setAttribute("aria-label", said);
      b.title = c.live ? "Still possible" : "Struck: " + c.reason;
      b.addEventListener("click", () => { why.textContent = capital(said) + "."; });
      list.appendChild(b);
    }
    part.appendChild(list);
    const digits = el("div", "combo-digits");
    if (run.live) {
      // the digits every live combination has (the run needs them), and those none has
      digits.append("in every one: ");
      digits.appendChild(el("b", "combo-need", run.needed.length ? run.needed.join(" ") : "—"));
      digits.append(" · in none: ");
      digits.appendChild(el("b", "combo-none", run.unused.length ? run.unused.join(" ") : "—"));
    } else {
      digits.textContent = "No combination is left: a digit or a mark in this run is wrong.";
      digits.classList.add("broken");
    }
    part.appendChild(digits);
    box.appendChild(part);
  }
  box.appendChild(why);
}

document.addEventListener("DOMContentLoaded", () => {
  $("pad-combos").addEventListener("click", () => combosToggle());
  let kept = null;
  try { kept = localStorage.getItem(COMBOS.key); } catch (e) { kept = null; }
  COMBOS.open = kept === "1";
  $("pad-combos").setAttribute("aria-pressed", String(COMBOS.open));
  // shown once a puzzle is open (play.js's main() opens it after this)
  const show = () => { $("combo-box").hidden = !(COMBOS.open && S.model); if (S.model) combosRefresh(true); };
  if (document.body.dataset.ready) show();
  else new MutationObserver((_, obs) => { if (document.body.dataset.ready) { obs.disconnect(); show(); } })
    .observe(document.body, {attributes: true, attributeFilter: ["data-ready"]});
});

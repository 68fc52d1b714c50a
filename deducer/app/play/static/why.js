/* deducer play: "Why not?" on a pencilled candidate.
 *
 * Beside the hint buttons, one button per pencil mark of the selected cell: "Why not 3?"
 * asks the server (POST /api/why) why that digit cannot go there and shows the steps
 * that lead to it in the hint box, their cells highlighted. It reads the page's state
 * (S, puzzleBody, api, busy, refreshHighlights from state.js and board.js) and changes
 * none of it but the highlights, so the page needs no more than a call to whyRefresh() when the
 * selection or the marks change (it also refreshes on clicks and keys itself).
 */
"use strict";

function whyGroup() {
  let g = document.getElementById("why-group");
  if (g) return g;
  const row = document.getElementById("play-row");
  if (!row) return null;
  g = document.createElement("div");
  g.className = "group";
  g.id = "why-group";
  g.setAttribute("aria-label", "why not this digit");
  row.appendChild(g);
  return g;
}

function whyRefresh() {
  const g = whyGroup();
  if (!g || typeof S === "undefined") return;
  const sel = S.sel;
  const k = sel ? key(sel[0], sel[1]) : null;
  const marks = k && !S.entries.has(k) && !S.givens.has(k) ? (S.pencil.get(k) || 0) : 0;
  const sig = k + ":" + marks;
  if (g.dataset.sig === sig) return;
  g.dataset.sig = sig;
  g.replaceChildren();
  if (!marks) return;
  const label = document.createElement("span");
  label.className = "label";
  label.textContent = "Why not?";
  g.appendChild(label);
  for (const d of digitsOf(marks)) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "why-digit";
    b.textContent = String(d);
    b.title = "Why can " + d + " not go in " + cellName(sel[0], sel[1]) + "?";
    b.setAttribute("aria-label", b.title);
    b.addEventListener("click", () => whyNot(sel[0], sel[1], d));
    g.appendChild(b);
  }
}

async function whyNot(r, c, d) {
  await busy("Working out why", async () => {
    const res = await api("POST", "/api/why", {puzzle: puzzleBody(), cell: [r, c], digit: d});
    endHint();  // the answer takes the hint box: All steps, a hint's chain close (hints.js)
    const box = document.getElementById("hint-box");
    box.hidden = false;
    document.getElementById("hint-level").textContent = "Why not " + d + " in " + cellName(r, c) + "?";
    document.getElementById("hint-text").textContent = res.text;
    box.className = "kind-why-" + res.kind;
    whyPlayButton(res, r, c, d);
    box.scrollIntoView({block: "nearest"});
    S.hl.hintCells = new Set(res.highlight.cells.map(([rr, cc]) => key(rr, cc)));
    S.hl.hintRun = new Set(); S.hl.hintClue = new Set();
    refreshHighlights();
  });
}

document.addEventListener("click", () => setTimeout(whyRefresh, 0));
document.addEventListener("keyup", () => setTimeout(whyRefresh, 0));

/* A long answer (res.long: more than 20 steps) offers to play the walkthrough instead, up
   to its step res.path, the one that removes the digit: the next step is applied (as
   "Apply hint" does) until the digit has left the cell or res.path steps were applied. */
function whyPlayButton(res, r, c, d) {
  let b = document.getElementById("why-play");
  if (!b) {
    b = document.createElement("button");
    b.id = "why-play";
    b.type = "button";
    document.getElementById("hint-text").after(b);
  }
  b.hidden = !(res.kind === "explained" && res.long);
  if (b.hidden) return;
  b.textContent = "Play the walkthrough to step " + res.path;
  b.onclick = async () => {
    b.hidden = true;
    for (let k = 0; k < res.path; k++) {
      const m = S.pencil.get(key(r, c));
      const gone = S.entries.has(key(r, c)) || (m && !(m & (1 << (d - 1))));
      if (k > 0 && gone) break;  // the digit has left the cell
      const before = S.undo.length;
      await hint("full", true);
      if (S.undo.length === before) break;  // nothing left to apply
    }
  };
}

/* deducer play: a chain step of a hint walked on the board, link by link. The frames (the
 * assumption, each link, the conclusion) are chainstep.js's, the chain walker the HTML
 * walkthrough runs too; this draws them on the play board.
 */
"use strict";

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
  // a link's text may take a line more than the last one's: the buttons the player is
  // tapping stay on screen (on a phone they may sit at its bottom edge, under the board)
  $("chain-nav").scrollIntoView({block: "nearest"});
}

function chainOff() {
  chain.frames = [];
  clearChain();
  $("hint-box").classList.remove("has-chain");
  $("hint-more").hidden = true;
  showHintHighlights();
}

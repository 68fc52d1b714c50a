/* deducer's chain walker: a chain step, link by link, for the play page and the HTML
 * walkthrough (deducer/render/html.py inlines this file into the page; the play server
 * serves it as /static/chainstep.js).
 *
 * A chain step's proof is a proof by assumption, {"assume": [r, c, digit], "links": [...]},
 * or a proof by cases, {"cases": [{"assume", "links"}, ...]} (docs/json-contract.md,
 * "Proofs"). Each link has its text, placements, eliminations, the cells its facts name and
 * the runs it reads ([row, col, "across"|"down"] of the clue square), and the last one
 * "contradiction": true. chainFrames() turns the chain steps of a hint into frames, one per
 * thing the player looks at: the assumption, each link, the conclusion. play.js draws a
 * frame with chainDraw() and steps through them with the hint box's Back / Next buttons;
 * the HTML walkthrough walks the same frames (the conclusions left out) on its board, with
 * arrows() and broken() to join the links and mark where the chain breaks.
 * whatIfFrames() does the same for the answer of "What if" (POST /api/whatif): the digit the
 * player wrote, each link that follows, and where it leads.
 */
const ChainStep = (() => {
"use strict";

const cellName = (r, c) => "r" + (r + 1) + "c" + (c + 1);
/* a sentence's first letter, but never a coordinate's (r3c9) */
const capital = (s) => (!s || /^r\d/.test(s) ? s : s[0].toUpperCase() + s.slice(1));

/* The steps of a hint answer that are chains: the reasoning that leads to it, then its own. */
function chainSteps(res) {
  const steps = [...(res.reasoning || []), res.step].filter(Boolean);
  return steps.filter((s) => s.proof && (s.proof.assume || s.proof.cases));
}

/* The frames of every chain step of a hint (empty when it has none).
   A frame: {head, text, kind: assume|link|contradiction|end, number, assume: [r, c, d],
   written: [[r, c, d]] (digits earlier links placed), placing, cells, runs (refs)}; an
   assumption's and a link's also {index (0: the assumption, k: link k), links (its case's),
   link (the link on show, or null)}. */
function chainFrames(res) {
  const steps = chainSteps(res);
  const frames = [];
  steps.forEach((step, si) => {
    const where = steps.length > 1 ? "Chain " + (si + 1) + " of " + steps.length + ": " : "";
    const cases = step.proof.cases ? step.proof.cases.filter((c) => c.assume) : [step.proof];
    cases.forEach((kase, ci) => {
      const [ar, ac, ad] = kase.assume;
      const links = (kase.links || []).filter((l) => !l.contradiction);  // the end is no link
      const suppose = "if " + cellName(ar, ac) + " were " + ad;
      const head = where + (cases.length > 1 ? "case " + (ci + 1) + " of " + cases.length + ", " : "") +
        suppose;
      const base = {assume: kase.assume, written: [], placing: [], cells: [[ar, ac]], runs: [],
                    index: 0, links: kase.links || [], link: null};
      frames.push(Object.assign({}, base, {
        kind: "assume", number: null, head: capital(head),
        text: "Suppose " + cellName(ar, ac) + " were " + ad + ". Follow the " + links.length +
              " link" + (links.length === 1 ? "" : "s") + " that this forces."}));
      frames.push(...linkFrames(kase, capital(head)));
    });
    const effect = [];
    for (const [r, c, d] of step.placements || []) effect.push(cellName(r, c) + " = " + d);
    for (const [r, c, ds] of step.eliminations || []) effect.push(ds.join(", ") + " leave" +
      (ds.length === 1 ? "s " : " ") + cellName(r, c));
    frames.push({
      kind: "end", number: null, head: where + "Conclusion",
      text: (cases.length > 1 ? "Every case agrees, so " : "So ") + (effect.join("; ") || "the step holds") + ".",
      assume: null, written: [], placing: [],
      cells: [...(step.placements || []), ...(step.eliminations || [])].map(([r, c]) => [r, c]),
      runs: [],
    });
  });
  return frames;
}

/* One frame per link of an assumption ({assume, links}), each headed "HEAD: link n of N". */
function linkFrames(kase, head) {
  const links = kase.links || [];
  const count = links.filter((l) => !l.contradiction).length;  // the end is no link
  const written = [];
  return links.map((link, li) => {
    const cells = [];
    for (const f of link.facts || []) if (f.cell) cells.push(f.cell);
    for (const [r, c] of link.placements || []) cells.push([r, c]);
    for (const [r, c] of link.eliminations || []) cells.push([r, c]);
    const frame = {
      kind: link.contradiction ? "contradiction" : "link", number: li + 1,
      head: head + (link.contradiction ? ": the contradiction" : ": link " + (li + 1) + " of " + count),
      text: (link.contradiction ? "✗ " : "(" + (li + 1) + ") ") + capital(link.text) +
            (link.contradiction ? ": a contradiction." : "."),
      assume: kase.assume, written: written.slice(), placing: link.placements || [],
      index: li + 1, links, link,
      cells, runs: (link.runs || []).concat((link.facts || []).filter((f) => f.run).map((f) => f.run)),
    };
    written.push(...(link.placements || []));
    return frame;
  });
}

/* The frames of a "What if" answer ({cell, digit, status, message, proof}): the digit
   written, each link that follows from it, and where the branch leads. */
function whatIfFrames(res) {
  const [r, c, d] = res.proof.assume;
  const links = res.proof.links || [];
  const count = links.filter((l) => !l.contradiction).length;  // the end is no link
  const head = "What if " + cellName(r, c) + " were " + d;
  const written = [];
  for (const lk of links) written.push(...(lk.placements || []));
  return [
    {kind: "assume", number: null, head, assume: res.proof.assume, written: [], placing: [],
     cells: [[r, c]], runs: [],
     text: "You wrote " + d + " in " + cellName(r, c) + ". " + (count
       ? "Follow the " + count + " link" + (count === 1 ? "" : "s") + " that follow from it."
       : links.length ? "It breaks a rule at once." : "Nothing follows from it at once.")},
    ...linkFrames(res.proof, head),
    {kind: "end", number: null, head: "Where it leads", assume: res.proof.assume,
     written: res.status === "contradiction" ? [] : written, placing: [],
     cells: [[r, c]], runs: [], text: res.message},
  ];
}

/* Where a link's number goes on the board: the cell it writes in, else the cell it narrows,
   else a cell it reads; null when it names runs only (play.js then uses the first run's clue). */
function chainBadgeCell(frame) {
  if (frame.kind === "assume" || frame.kind === "end") return null;
  if (frame.placing.length) return frame.placing[0].slice(0, 2);
  return frame.cells.length ? frame.cells[frame.cells.length - 1] : null;
}

/* The cells a link changes ({changed}) and those whose candidates it uses ({used}). */
function linkCells(link) {
  const changed = [...(link.placements || []), ...(link.eliminations || [])].map(([r, c]) => [r, c]);
  const used = (link.facts || []).filter((f) => f.cell).map((f) => f.cell.slice(0, 2));
  return {changed: unique(changed), used: unique(used)};
}

function unique(cells) {
  const seen = new Set();
  return cells.filter(([r, c]) => !seen.has(r + "," + c) && seen.add(r + "," + c));
}

/* Where a contradiction link breaks: the cells its facts leave without a candidate, else
   the cells it names, else the cells of its runs (runCells(ref) -> [[r, c]]). As
   deducer.render.walk.broken_cells, which draws the static boards. */
function broken(link, runCells) {
  const empty = (link.facts || []).filter((f) => f.cell && !(f.candidates || []).length);
  if (empty.length) return unique(empty.map((f) => f.cell.slice(0, 2)));
  const at = linkCells(link);
  const named = unique([...at.changed, ...at.used]);
  if (named.length) return named;
  return unique((link.runs || []).flatMap((ref) => runCells(ref)));
}

/* The cell a link is drawn at: the first it writes in, else the first it narrows, else
   the first (by row, then column) where it breaks; null for none (walk.link_anchor). */
function anchor(link, runCells) {
  const first = (link.placements || [])[0] || (link.eliminations || [])[0];
  if (first) return [first[0], first[1]];
  if (!link.contradiction) return null;
  const at = broken(link, runCells).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return at.length ? at[0] : null;
}

/* The arrows joining an assumption's links ({assume, links}) up to link upto: [from cell,
   to cell, link number], from the cell of each link a link rests on (its "after" list, a
   braid's, else the link before it; 0: the assumed cell) to its own (walk.chain_arrows). */
function arrows(kase, upto, runCells) {
  const links = kase.links || [];
  const anchors = [kase.assume.slice(0, 2), ...links.map((l) => anchor(l, runCells))];
  const out = [];
  for (let k = 1; k <= Math.min(upto, links.length); k++) {
    const after = links[k - 1].after;
    const from = after && after.length
      ? [...new Set(after.map(Number).filter((a) => a >= 0 && a < k))].sort((a, b) => a - b)
      : [k - 1];
    for (const s of from) {
      const a = anchors[s], b = anchors[k];
      if (a && b && (a[0] !== b[0] || a[1] !== b[1])) out.push([a, b, k]);
    }
  }
  return out;
}

return {frames: chainFrames, whatIfFrames, badgeCell: chainBadgeCell, cellName, linkCells,
        broken, anchor, arrows};
})();

/* deducer play: the editor of new puzzles: a grid of squares (white, blank, clue) made
 * into a puzzle by the server (POST /api/create), which refuses one without exactly one
 * solution.
 */
"use strict";

const ED = {rows: 0, cols: 0, cells: []};

function showView(which) {
  $("play-view").hidden = which !== "play";
  $("editor-view").hidden = which !== "editor";
  for (const id of ["play-group", "hint-group", "save-group", "link-group"]) $(id).classList.toggle("off", which !== "play");
  if (document.body.classList.contains("menu-open")) menu(false);
  if (which === "play") { $("chooser").hidden = true; fitBoard(); }
}

function newEditorGrid(rows, cols) {
  ED.rows = rows; ED.cols = cols;
  ED.cells = [];
  for (let r = 0; r < rows; r++) {
    const row = [];
    for (let c = 0; c < cols; c++) row.push(r === 0 || c === 0 ? {t: "blank"} : {t: "white"});
    ED.cells.push(row);
  }
  drawEditor();
}

function editorFromPuzzle() {
  const p = S.model.puzzle;
  ED.rows = p.rows; ED.cols = p.cols; ED.cells = [];
  for (let r = 0; r < p.rows; r++) {
    const row = [];
    for (let c = 0; c < p.cols; c++) {
      const sq = parseTok(p.grid[r][c]);
      row.push(sq.white ? {t: "white"} : (sq.down || sq.across)
        ? {t: "clue", down: sq.down, across: sq.across} : {t: "blank"});
    }
    ED.cells.push(row);
  }
  $("ed-rows").value = p.rows; $("ed-cols").value = p.cols;
  $("ed-name").value = p.name || "";
  drawEditor();
  const lost = (p.givens && p.givens.length) || p.even;
  edSay(lost ? "Note: the editor keeps the squares and clues only (givens and parity marks are dropped)." : "", "warn");
}

function drawEditor() {
  const b = $("editor-board");
  b.textContent = "";
  b.style.gridTemplateColumns = "repeat(" + ED.cols + ", var(--ecell))";
  for (let r = 0; r < ED.rows; r++) {
    for (let c = 0; c < ED.cols; c++) {
      const cell = ED.cells[r][c];
      const e = el("div", "ecell " + cell.t);
      e.dataset.r = r; e.dataset.c = c;
      e.title = cellName(r, c);
      if (cell.t === "clue") {
        const dn = el("input", "in-down"); dn.value = cell.down || "";
        const ac = el("input", "in-across"); ac.value = cell.across || "";
        for (const [inp, fld, what] of [[dn, "down", "down sum"], [ac, "across", "across sum"]]) {
          inp.type = "text"; inp.inputMode = "numeric"; inp.maxLength = 2;
          inp.setAttribute("aria-label", what + " " + cellName(r, c));
          inp.addEventListener("input", () => {
            inp.value = inp.value.replace(/[^0-9]/g, "");
            cell[fld] = inp.value;
            e.classList.remove("diff");
          });
        }
        e.appendChild(ac); e.appendChild(dn);
      }
      e.addEventListener("click", (ev) => {
        if (ev.target.tagName === "INPUT") return;
        const tool = document.querySelector("input[name=tool]:checked").value;
        if (cell.t === tool) return;
        ED.cells[r][c] = tool === "clue" ? {t: "clue", down: "", across: ""} : {t: tool};
        drawEditor();
        if (tool === "clue") {
          const inp = $("editor-board").querySelector('.ecell[data-r="' + r + '"][data-c="' + c + '"] .in-down');
          if (inp) inp.focus();
        }
      });
      b.appendChild(e);
    }
  }
}

function edSay(text, kind) { const m = $("ed-message"); m.textContent = text || ""; m.className = kind || ""; }

function editorGrid() {
  return ED.cells.map((row) => row.map((cell) => {
    if (cell.t === "white") return "";
    if (cell.t === "clue" && (cell.down || cell.across)) return (cell.down || "") + "\\" + (cell.across || "");
    return "\\";
  }));
}

async function createFromEditor() {
  for (const e of document.querySelectorAll("#editor-board .diff")) e.classList.remove("diff");
  edSay("Checking the puzzle…", "info");
  let res;
  try {
    res = await api("POST", "/api/create", {grid: editorGrid(), name: $("ed-name").value.trim() || null});
  } catch (e) {
    edSay(e.message, "err");
    if (e.data && Array.isArray(e.data.cells)) {
      for (const [r, c] of e.data.cells) {
        const x = $("editor-board").querySelector('.ecell[data-r="' + r + '"][data-c="' + c + '"]');
        if (x) x.classList.add("diff");
      }
    }
    return;
  }
  edSay("", "");
  loadModel(res);
}

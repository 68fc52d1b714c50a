/* deducer play: the server's other answers: the solution, automatic pencil marks, a fresh
 * grid, downloads and saves, and opening files (uploaded, from the folder, one of several).
 */
"use strict";

// A server's file answer ({text, mime, filename}) handed to the browser as a download
// (Save and Save my solve both answer this way).
function downloadFile(res) {
  const blob = new Blob([res.text], {type: res.mime + ";charset=utf-8"});
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url; a.download = res.filename;
  document.body.appendChild(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 5000);
}

async function solve() {
  await busy("Solving", async () => {
    const res = await api("POST", "/api/solve", {puzzle: puzzleBody()});
    S.usedSolve = true;
    finishing = false;  // the solver's grid needs no check (its "Solved." stays)
    edit(res.entries.map(([r, c, d]) => ({k: key(r, c), entry: d})), "solve");
    finishing = true;
    say(res.message, "ok", {cells: new Map([...S.whites].map((k) => [k, ""])), any: true});
  });
}

async function autoMarks() {
  await busy("Working out the pencil marks", async () => {
    const res = await api("POST", "/api/candidates", {puzzle: puzzleBody()});
    const changed = edit(res.pencil.map(([r, c, ds]) => ({k: key(r, c), pencil: maskOf(ds)})),
                         "auto pencil marks");
    say(changed ? res.message : "The pencil marks already show that.", "ok");
  });
}

function clearAll() {
  if (!S.model) return;
  const changes = [];
  for (const k of S.whites) changes.push({k, entry: null, pencil: 0});
  clearHighlights();
  if (edit(changes, "clear")) say("Cleared every entry and pencil mark (Undo brings them back).", "info");
}

async function download() {
  await busy("Preparing the file", async () => {
    const fmt = $("save-format").value;
    const res = await api("POST", "/api/export", {puzzle: puzzleBody(), format: fmt});
    downloadFile(res);
    say("Downloaded " + res.filename + ".", "ok");
  });
}

async function saveToFolder() {
  const path = $("save-path").value.trim();
  const fmt = $("save-format").value;
  if (!path) {
    say("Type a file name for the folder first (e.g. mine.txt).", "err", {cells: new Map(), field: "save-path"});
    $("save-path").focus();
    return;
  }
  await busy("Saving", async () => {
    const body = {puzzle: puzzleBody(), format: fmt, path};
    let res;
    try {
      res = await api("POST", "/api/save", body);
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 409) throw e;
      if (!window.confirm(e.message.replace("; confirm to overwrite it", "") + ". Overwrite it?")) {
        say("Not saved: the file exists.", "info");
        return;
      }
      res = await api("POST", "/api/save", Object.assign(body, {overwrite: true}));
    }
    say(res.message, "ok");
    loadFiles();
  });
}

async function openText(text, filename, name) {
  await busy("Opening " + filename, async () => {
    const res = await api("POST", "/api/parse", {text, filename, name: name || null});
    if (res.choose) choose(res, (picked) => openText(text, filename, picked));
    else { loadModel(res); replayOffer(text, filename, name); }  // a record's moves: replay.js
  });
}

/* A file holding several puzzles: the server lists their names; ask which one. */
function choose(res, open) {
  const form = $("chooser"), sel = $("chooser-name");
  $("chooser-text").textContent = res.message;
  sel.textContent = "";
  for (const n of res.choose) sel.appendChild(new Option(n, n));
  form.hidden = false;
  say("", "");
  form.onsubmit = (e) => { e.preventDefault(); form.hidden = true; open(sel.value); };
  $("chooser-cancel").onclick = () => { form.hidden = true; };
  sel.focus();
}

async function openFile(file) {
  if (!file) return;
  if (file.size > 1024 * 1024) { say(file.name + " is larger than 1 MiB; that is not a puzzle file.", "err"); return; }
  let text;
  try { text = await file.text(); } catch (e) { say("Cannot read " + file.name + ".", "err"); return; }
  await openText(text, file.name);
}

async function openServerFile(path, name) {
  if (!path) return;
  await busy("Opening " + path, async () => {
    const res = await api("GET", "/api/open?path=" + encodeURIComponent(path) +
                          (name ? "&name=" + encodeURIComponent(name) : ""));
    if (res.choose) choose(res, (picked) => openServerFile(path, picked));
    else loadModel(res);
  });
  $("server-files").value = "";
}

async function loadFiles() {
  try {
    const res = await api("GET", "/api/files");
    const sel = $("server-files");
    while (sel.options.length > 1) sel.remove(1);
    for (const f of res.files) sel.appendChild(new Option(f, f));
    sel.disabled = !res.files.length;
    sel.options[0].textContent = res.files.length ? "Open from folder…" : "(no puzzle files in the folder)";
  } catch (e) { /* the list is a convenience */ }
}

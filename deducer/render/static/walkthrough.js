// The walkthrough player (deducer/render/html.py inlines it into the page, after
// chainstep.js): replays the logged steps on the inline SVG board.
// Data (script#data): cells [[r,c]], start masks, fixed {index: [digit, kind]},
// runs [[cell indices]], refs [[r, c, "across"|"down"]] (each run's clue square),
// steps [[placements [[i,d]], eliminations [[i,mask]], cells [i], runs [id],
//         proof cells [i], proof runs [id], region (0, or [inside [i], outside [i],
//         left over [i], its area's runs [id], crossing runs [id], outline path])]],
// chains {step: {proof, placements, eliminations, tail}}: a chain step as the JSON log
//         gives it (docs/json-contract.md, "Proofs"), walked by ChainStep (chainstep.js,
//         the play page's chain walker), and the words that conclude it,
// sizes {badge, cell, arrowFrom, arrowHead, arrowTo}: the static board's (svg.py's).
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("data").textContent);
  var Z = D.sizes;
  var svg = document.getElementById("board");
  var N = D.steps.length, W = D.cells.length, SNAP = 50;
  var KIND = { given: "g", entry: "e", placed: "p" };
  var cellEl = [], digitEl = [], candEl = [];
  D.cells.forEach(function (rc, i) {
    var g = svg.querySelector('g.w[data-cell="' + rc[0] + "," + rc[1] + '"]');
    cellEl.push(g);
    digitEl.push(g.querySelector("text.d"));
    var cs = [];
    g.querySelectorAll("text.c").forEach(function (t) { cs[+t.getAttribute("data-d")] = t; });
    candEl.push(cs);
  });
  var clueEl = {};
  svg.querySelectorAll("g.cr[data-run]").forEach(function (g) {
    clueEl[g.getAttribute("data-run")] = g;
  });
  var strikes = document.getElementById("board-strikes");
  var items = document.querySelectorAll("#steps li[data-step]");
  var byStep = [];
  items.forEach(function (li) { byStep[+li.getAttribute("data-step")] = li; });
  var allBox = document.getElementById("all-cands");
  var cellRuns = D.cells.map(function () { return []; });
  D.runs.forEach(function (cells, rid) { cells.forEach(function (i) { cellRuns[i].push(rid); }); });

  // every digit the runs' combinations allow in each cell, beside the digits written
  // so far: the candidates a player would pencil in (the engine's own narrowing on top)
  function comboAllowed(s) {
    var room = D.runs.map(function (cells, rid) {
      var w = 0;
      cells.forEach(function (i) { if (s.digit[i]) w |= 1 << (s.digit[i] - 1); });
      if (D.combos[rid] === null) return 511 & ~w;
      var u = 0;
      D.combos[rid].forEach(function (c) { if ((c & w) === w) u |= c; });
      return u & ~w;
    });
    return cellRuns.map(function (rids) {
      return rids.reduce(function (m, rid) { return m & room[rid]; }, 511);
    });
  }

  // ---- replay, with a snapshot every SNAP steps --------------------------------------
  function startState() {
    var s = { masks: D.start.slice(), digit: new Array(W).fill(0), kind: new Array(W).fill("") };
    Object.keys(D.fixed).forEach(function (i) {
      s.digit[+i] = D.fixed[i][0];
      s.kind[+i] = KIND[D.fixed[i][1]] || "p";
    });
    return s;
  }
  function copy(s) {
    return { masks: s.masks.slice(), digit: s.digit.slice(), kind: s.kind.slice() };
  }
  function apply(s, st) {
    st[1].forEach(function (e) { s.masks[e[0]] &= ~e[1]; });
    st[0].forEach(function (p) {
      s.masks[p[0]] = 1 << (p[1] - 1);
      s.digit[p[0]] = p[1];
      s.kind[p[0]] = "p";
    });
  }
  var snaps = [startState()];
  (function () {
    var s = copy(snaps[0]);
    for (var k = 1; k <= N; k++) {
      apply(s, D.steps[k - 1]);
      if (k % SNAP === 0) snaps[k / SNAP] = copy(s);
    }
  })();
  function stateAt(k) {
    var s = copy(snaps[Math.floor(k / SNAP)]);
    for (var j = Math.floor(k / SNAP) * SNAP + 1; j <= k; j++) apply(s, D.steps[j - 1]);
    return s;
  }

  // ---- drawing ----------------------------------------------------------------------
  var shown = new Array(W).fill(null);
  var marked = [];
  var cur = -1;
  var badges = document.getElementById("board-badges");
  var zoom = null, focus = [[], []], CELL = Z.cell;
  var arrows = document.getElementById("board-arrows");
  var regionPath = document.getElementById("board-region");
  var SVGNS = "http://www.w3.org/2000/svg";

  // what one position shows: the board state and the marks drawn on it
  function stepView(k) {
    var st = k > 0 ? D.steps[k - 1] : [[], [], [], [], [], [], 0];
    var v = { s: stateAt(k), struck: {}, fresh: {}, hl: st[2], runs: st[3],
              pf: st[4] || [], pr: st[5] || [], as: [], bad: [], badges: [],
              region: st[6] || 0, arrows: [] };
    st[1].forEach(function (e) { v.struck[e[0]] = (v.struck[e[0]] || 0) | e[1]; });
    st[0].forEach(function (p) { v.fresh[p[0]] = p[1]; });
    return v;
  }

  function place(s, i, d, kind) {
    s.masks[i] = 1 << (d - 1);
    s.digit[i] = d;
    s.kind[i] = kind;
  }

  // a chain's cells and runs, from the JSON's [row, col] and [row, col, direction]
  var cellAt = {}, refAt = {};
  D.cells.forEach(function (rc, i) { cellAt[rc[0] + "," + rc[1]] = i; });
  D.refs.forEach(function (ref, rid) { refAt[ref.join(",")] = rid; });
  function ids(cells) {  // cell indices, ascending
    return cells.map(function (rc) { return cellAt[rc[0] + "," + rc[1]]; })
      .filter(function (i) { return i !== undefined; }).sort(function (a, b) { return a - b; });
  }
  function runIds(refs) {
    return refs.map(function (ref) { return refAt[ref.join(",")]; })
      .filter(function (rid) { return rid !== undefined; }).sort(function (a, b) { return a - b; });
  }
  function runCells(ref) {  // a run's cells [[r, c]] (ChainStep asks, for where a link breaks)
    var rid = refAt[ref.join(",")];
    return rid === undefined ? [] : D.runs[rid].map(function (i) { return D.cells[i]; });
  }
  function mask(ds) {
    return ds.reduce(function (m, d) { return m | 1 << (d - 1); }, 0);
  }

  // a chain at frame f of ChainStep.frames (f.index 0: the assumption alone): the board
  // before the step, the assumed digit written in and taken from its runs, the links
  // before f's applied, f's link marked
  function linkView(k, f) {
    var s = stateAt(k - 1), a = ids([f.assume])[0], d = f.assume[2], bit = 1 << (d - 1);
    cellRuns[a].forEach(function (rid) {
      D.runs[rid].forEach(function (i) { if (i !== a) s.masks[i] &= ~bit; });
    });
    place(s, a, d, "a");
    var v = { s: s, struck: {}, fresh: {}, hl: [], runs: [], pf: [], pr: [], as: [a],
              bad: [], badges: [], region: 0, arrows: [] };
    var j = f.index;
    ChainStep.arrows(f, j, runCells).forEach(function (ar) {
      v.arrows.push([ids([ar[0]])[0], ids([ar[1]])[0], ar[2] < j]);
    });
    for (var n = 1; n < j; n++) {
      var lk = f.links[n - 1];
      (lk.eliminations || []).forEach(function (e) { s.masks[ids([e])[0]] &= ~mask(e[2]); });
      (lk.placements || []).forEach(function (p) {
        var i = ids([p])[0];
        place(s, i, p[2], "l");
        v.badges.push([i, n, true]);
      });
    }
    if (j > 0) {
      var cur = f.link, at = ChainStep.linkCells(cur);
      (cur.eliminations || []).forEach(function (e) {
        var i = ids([e])[0];
        v.struck[i] = (v.struck[i] || 0) | mask(e[2]);
      });
      (cur.placements || []).forEach(function (p) {
        var i = ids([p])[0];
        v.fresh[i] = p[2];
        place(s, i, p[2], "l");
      });
      v.hl = ids(at.changed);
      v.pf = ids(at.used);
      v.runs = runIds(cur.runs || []);
      v.bad = cur.contradiction ? ids(ChainStep.broken(cur, runCells)) : [];
      (v.hl.length ? v.hl : v.bad).forEach(function (i) { v.badges.push([i, j, false]); });
    }
    return v;
  }

  function setClass(el, name, on) {
    if (el) el.classList.toggle(name, on);
  }

  function mark(el, name) { el.classList.add(name); marked.push(el); }

  // a link's number on a corner of its cell, centred on the grid's corner, where it covers
  // no candidate: the top-left corner, a cell's further numbers the first other corner
  // free and inside the board (svg.py's badge_places)
  var CORNERS = [[0, 0], [1, 0], [1, 1], [0, 1]];
  var frame = svg.querySelector("rect.frame");
  var right = +frame.getAttribute("x") + +frame.getAttribute("width");
  var bottom = +frame.getAttribute("y") + +frame.getAttribute("height");
  function badgePlaces(list) {
    var taken = {}, seen = {}, out = [];
    var where = function (i, k) {
      var bg = cellEl[i].querySelector("rect.bg"), size = +bg.getAttribute("width");
      return [+bg.getAttribute("x") + CORNERS[k][0] * size,
              +bg.getAttribute("y") + CORNERS[k][1] * size];
    };
    list.forEach(function (b) { taken[where(b[0], 0).join(",")] = true; });
    list.forEach(function (b) {
      var xy = where(b[0], 0);
      if (seen[b[0]]) {
        for (var k = 1; k < 4; k++) {
          var at = where(b[0], k);
          if (!taken[at.join(",")] && at[0] < right - 1 && at[1] < bottom - 1) {
            taken[at.join(",")] = true;
            xy = at;
            break;
          }
        }
      }
      seen[b[0]] = true;
      out.push([b, xy]);
    });
    return out;
  }
  function badge(i, n, old, xy) {
    var cx = xy[0], cy = xy[1];
    var g = document.createElementNS(SVGNS, "g");
    g.setAttribute("class", old ? "bd old" : "bd");
    g.setAttribute("data-cell", D.cells[i].join(","));
    var c = document.createElementNS(SVGNS, "circle");
    c.setAttribute("cx", cx); c.setAttribute("cy", cy); c.setAttribute("r", Z.badge);
    var t = document.createElementNS(SVGNS, "text");
    t.setAttribute("x", cx); t.setAttribute("y", cy + 3.2);
    if (n >= 10) t.setAttribute("class", "n2");
    t.textContent = String(n);
    g.appendChild(c); g.appendChild(t);
    badges.appendChild(g);
  }

  function draw(v) {
    var s = v.s, struck = v.struck, fresh = v.fresh;
    var showAll = allBox && allBox.checked;
    var allowed = showAll ? comboAllowed(s) : null;
    for (var i = 0; i < W; i++) {
      var d = s.digit[i], kind = fresh[i] ? "n" : s.kind[i];
      var cand = 0, x = 0;
      if (!d) {
        if (showAll) cand = s.masks[i] & allowed[i];
        else if (s.masks[i] !== D.start[i] || struck[i]) cand = s.masks[i];
        x = struck[i] || 0;
      }
      var key = d + kind + ":" + cand + ":" + x;
      if (shown[i] === key) continue;
      shown[i] = key;
      digitEl[i].textContent = d ? String(d) : "";
      digitEl[i].setAttribute("class", d ? "d " + kind : "d");
      for (var n = 1; n <= 9; n++) {
        var b = 1 << (n - 1), t = candEl[i][n];
        t.setAttribute("class", "c" + (x & b ? " x" : "") + ((cand | x) & b ? "" : " off"));
      }
    }
    marked.forEach(function (el) {
      el.classList.remove("hl", "run", "pf", "pr", "as", "bad", "in", "out", "lo");
    });
    marked = [];
    v.pr.forEach(function (rid) {
      D.runs[rid].forEach(function (i) { mark(cellEl[i], "pr"); });
      if (clueEl[rid]) mark(clueEl[rid], "pr");
    });
    v.pf.forEach(function (i) { mark(cellEl[i], "pf"); });
    v.runs.forEach(function (rid) {
      D.runs[rid].forEach(function (i) { mark(cellEl[i], "run"); });
      if (clueEl[rid]) mark(clueEl[rid], "hl");
    });
    v.hl.forEach(function (i) { mark(cellEl[i], "hl"); });
    v.as.forEach(function (i) { mark(cellEl[i], "as"); });
    v.bad.forEach(function (i) { mark(cellEl[i], "bad"); });
    // a region sum: its area green and outlined, the cells the crossing runs add purple
    var rg = v.region;
    if (rg) {
      rg[0].forEach(function (i) { mark(cellEl[i], "in"); });
      rg[1].forEach(function (i) { mark(cellEl[i], "out"); });
      rg[2].forEach(function (i) { mark(cellEl[i], "lo"); });
      rg[3].forEach(function (rid) { if (clueEl[rid]) mark(clueEl[rid], "in"); });
      rg[4].forEach(function (rid) { if (clueEl[rid]) mark(clueEl[rid], "out"); });
    }
    if (regionPath) regionPath.setAttribute("d", rg ? rg[5] : "");
    while (arrows.firstChild) arrows.removeChild(arrows.firstChild);
    v.arrows.forEach(function (ar) { arrowAt(ar[0], ar[1], ar[2]); });
    while (strikes.firstChild) strikes.removeChild(strikes.firstChild);
    Object.keys(struck).forEach(function (i) {
      for (var n = 1; n <= 9; n++) {
        if (!(struck[i] & (1 << (n - 1)))) continue;
        var t = candEl[+i][n];
        var cx = +t.getAttribute("x"), cy = +t.getAttribute("y") - 3.7;
        var l = document.createElementNS(SVGNS, "line");
        l.setAttribute("class", "xl");
        l.setAttribute("x1", cx - 4.5); l.setAttribute("y1", cy + 4.5);
        l.setAttribute("x2", cx + 4.5); l.setAttribute("y2", cy - 4.5);
        strikes.appendChild(l);
      }
    });
    while (badges.firstChild) badges.removeChild(badges.firstChild);
    badgePlaces(v.badges).forEach(function (p) { badge(p[0][0], p[0][1], p[0][2], p[1]); });
    // what a zoomed board keeps in view: the step's (or link's) cells, and with them, when
    // they fit, the cells it narrows, the assumption and the arrows
    var more = v.as.concat(v.bad, Object.keys(struck).map(Number));
    v.arrows.forEach(function (ar) { more.push(ar[0], ar[1]); });
    focus = [v.hl.concat(Object.keys(v.fresh).map(Number)), more];
    if (zoom) zoom.follow(focus);
  }

  // an arrow from one cell's centre towards another's, kept off both centres (svg.py's
  // arrow(): the same numbers)
  function arrowAt(a, b, old) {
    var A = cellEl[a].querySelector("rect.bg"), B = cellEl[b].querySelector("rect.bg");
    var h = +A.getAttribute("width") / 2;
    var ax = +A.getAttribute("x") + h, ay = +A.getAttribute("y") + h;
    var bx = +B.getAttribute("x") + h, by = +B.getAttribute("y") + h;
    var dx = bx - ax, dy = by - ay, n = Math.sqrt(dx * dx + dy * dy) || 1;
    var ux = dx / n, uy = dy / n, w = Z.arrowHead * 0.55;
    var tx = bx - ux * Z.arrowTo, ty = by - uy * Z.arrowTo;
    var hx = tx - ux * Z.arrowHead, hy = ty - uy * Z.arrowHead;
    var g = document.createElementNS(SVGNS, "g");
    g.setAttribute("class", old ? "ar old" : "ar");
    var l = document.createElementNS(SVGNS, "line");
    l.setAttribute("x1", ax + ux * Z.arrowFrom); l.setAttribute("y1", ay + uy * Z.arrowFrom);
    l.setAttribute("x2", hx); l.setAttribute("y2", hy);
    var p = document.createElementNS(SVGNS, "polygon");
    p.setAttribute("points", tx + "," + ty + " " + (hx - uy * w) + "," + (hy + ux * w) + " " +
                   (hx + uy * w) + "," + (hy - ux * w));
    g.appendChild(l); g.appendChild(p);
    arrows.appendChild(g);
  }

  function render(k) { draw(stepView(k)); }

  // scroll a list (not the page) so an item is visible
  var pane = document.getElementById("steppane");
  function reveal(li, box) {
    box = box || pane;
    if (!box || box.scrollHeight <= box.clientHeight) {
      li.scrollIntoView({ block: "nearest" });
      return;
    }
    var top = li.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
    var bottom = top + li.offsetHeight;
    // a step leaving the view, or entering the list's last third, is brought a third of
    // the way down: the reader keeps a few steps before it and sees what comes next
    // (held at the bottom edge, the next step was always hidden)
    var h = box.clientHeight, room = h - li.offsetHeight - 40;  // 40: the next step's start
    if (room < 0) box.scrollTop = top;
    else if (top < box.scrollTop || bottom > box.scrollTop + Math.min(h * 2 / 3, h - 40)) {
      box.scrollTop = Math.max(0, top - Math.min(h / 3, room));
    }
  }

  // One column (narrow windows): the list does not scroll, the page does, so revealing a
  // step in the list scrolled the whole page down to it, past the header, the board and
  // the step's text (on a deep link, to the foot of a long list). There the page is
  // scrolled, as little as it takes, to show the board and the step's text together; when
  // both do not fit, the step's text (its start, when it is taller than the window).
  var boardBox = document.querySelector(".boardwrap");
  function oneColumn() { return !!pane && getComputedStyle(pane).overflowY === "visible"; }
  function showStep() {
    var b = boardBox.getBoundingClientRect(), c = curBox.getBoundingClientRect();
    var vh = window.innerHeight;
    var top = Math.min(b.top, c.top), bottom = Math.max(b.bottom, c.bottom);
    if (bottom - top > vh) { top = c.top; bottom = c.bottom; }
    var dy = bottom - top > vh || top < 0 ? top : bottom > vh ? bottom - vh : 0;
    if (dy) window.scrollBy(0, dy);
  }

  // ---- the chain stepper: ChainStep's frames, the conclusions left out (#concl) -------
  var curBox = document.getElementById("current");
  var chainBox = document.getElementById("chain");
  var linkList = document.getElementById("links");
  var linkPos = document.getElementById("link-pos");
  var chainAt = [], link = -1;  // the frames; -1: the whole step on show

  function showChain(k) {
    var ch = k > 0 ? D.chains[k] : null;
    chainAt = [];
    link = -1;
    curBox.classList.toggle("chain", !!ch);
    chainBox.hidden = !ch;
    while (linkList.firstChild) linkList.removeChild(linkList.firstChild);
    if (!ch) return;
    chainAt = ChainStep.frames({ step: ch }).filter(function (f) { return f.kind !== "end"; });
    chainAt.forEach(function (f, p) {
      var li = document.createElement("li");
      li.setAttribute("data-link", String(p));
      if (f.index === 0) {
        li.className = "as";
        li.textContent = "If " + ChainStep.cellName(f.assume[0], f.assume[1]) + " were " +
          f.assume[2] + ":";
      } else {
        li.value = f.index;
        li.textContent = f.link.text;
        if (f.link.contradiction) li.classList.add("bad");
      }
      li.addEventListener("click", goLink.bind(null, p));
      linkList.appendChild(li);
    });
    document.getElementById("concl").textContent = ch.tail;
    setLinkPos();
  }

  function setLinkPos() {
    var f = link < 0 ? null : chainAt[link];
    linkPos.textContent = !f ? "the whole chain" : f.index === 0 ? "assumption"
      : "link " + f.index + " of " + f.links.length;
    document.body.setAttribute("data-link", link < 0 ? "" : String(link));
    linkList.querySelectorAll("li").forEach(function (li) {
      li.classList.toggle("current", +li.getAttribute("data-link") === link);
    });
    document.getElementById("link-prev").disabled = link < 0;
    document.getElementById("link-next").disabled = link >= chainAt.length - 1;
  }

  function goLink(p) {
    if (!chainAt.length) return false;
    p = Math.max(-1, Math.min(chainAt.length - 1, p));
    link = p;
    if (p < 0) render(cur);
    else draw(linkView(cur, chainAt[p]));
    setLinkPos();
    var li = linkList.querySelector('li[data-link="' + p + '"]');
    if (li) reveal(li, curBox);
    return true;
  }

  function go(k, scroll) {
    k = Math.max(0, Math.min(N, k));
    if (k === cur) return;
    render(k);
    if (byStep[cur]) byStep[cur].classList.remove("current");
    cur = k;
    var li = byStep[k];
    if (li && li.classList.contains("folded")) fold(li.getAttribute("data-in"), false);
    if (li) li.classList.add("current");
    document.body.setAttribute("data-current", String(k));
    document.getElementById("pos").textContent = k === 0 ? "Start" : "Step " + k + " of " + N;
    var rule = document.getElementById("cur-rule"), text = document.getElementById("cur-text");
    var full = li && k !== 0 ? li.querySelector(".detail .full") : null;
    var curFold = document.getElementById("cur-detail");
    if (k === 0) {
      rule.textContent = "Start";
      text.textContent = D.startText;
    } else {
      rule.textContent = li.querySelector(".rule").textContent;
      text.textContent = li.querySelector(".text").textContent;
    }
    // the step's whole case analysis, folded under its sentence
    curFold.hidden = !full;
    document.getElementById("cur-full").textContent = full ? full.textContent : "";
    showChain(k);
    curBox.scrollTop = 0;
    // the step panel above the list has its new height only now (a chain's is taller)
    if (scroll !== false) {
      if (oneColumn()) showStep();
      else if (li) reveal(li);
    }
    document.getElementById("prev").disabled = k === 0;
    document.getElementById("first").disabled = k === 0;
    document.getElementById("next").disabled = k === N;
    document.getElementById("last").disabled = k === N;
    if (history.replaceState) history.replaceState(null, "", "#step-" + k);
  }

  // a heading folds or unfolds its stretch of one easy rule
  function fold(grp, on) {
    var head = document.querySelector('#steps li.grp[data-grp="' + grp + '"]');
    if (head) head.querySelector(".tw").textContent = on ? "▸" : "▾";
    document.querySelectorAll('#steps li[data-in="' + grp + '"]').forEach(function (x) {
      x.classList.toggle("folded", on);
    });
  }
  document.querySelectorAll("#steps li.grp").forEach(function (head) {
    head.addEventListener("click", function () {
      var grp = head.getAttribute("data-grp");
      var first = document.querySelector('#steps li[data-in="' + grp + '"]');
      fold(grp, !(first && first.classList.contains("folded")));
    });
  });

  document.getElementById("first").addEventListener("click", function () { go(0); });
  document.getElementById("prev").addEventListener("click", function () { go(cur - 1); });
  document.getElementById("next").addEventListener("click", function () { go(cur + 1); });
  document.getElementById("last").addEventListener("click", function () { go(N); });
  document.getElementById("link-prev").addEventListener("click", function () { goLink(link - 1); });
  document.getElementById("link-next").addEventListener("click", function () { goLink(link + 1); });
  if (allBox) {
    allBox.addEventListener("change", function () {
      var k = cur, p = link;
      cur = -1;
      go(k, false);
      if (p >= 0) goLink(p);
    });
  }
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll("details").forEach(function (d) { d.open = true; });
  });
  items.forEach(function (li) {
    li.addEventListener("click", function () {
      go(+li.getAttribute("data-step"), false);
      // one column: the board is far above the list; a tapped step is shown on it
      if (oneColumn()) showStep();
    });
  });
  document.querySelectorAll("a[data-goto]").forEach(function (a) {
    a.addEventListener("click", function (ev) {
      ev.preventDefault();
      go(+a.getAttribute("data-goto"));
    });
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" && ev.target.type !== "checkbox") return;
    if (tag === "TEXTAREA" || tag === "SELECT") return;
    var to = null;
    if ((ev.key === "ArrowDown" || ev.key === "ArrowUp") && chainAt.length) {
      ev.preventDefault();
      goLink(link + (ev.key === "ArrowDown" ? 1 : -1));
      return;
    }
    if (ev.key === "+" || ev.key === "=") { zoom.by(1.5); return; }
    if (ev.key === "-" || ev.key === "_") { zoom.by(1 / 1.5); return; }
    if (ev.key === "0") { zoom.fit(); return; }
    if (ev.key === "ArrowRight") to = cur + 1;
    else if (ev.key === "ArrowLeft") to = cur - 1;
    else if (ev.key === "Home") to = 0;
    else if (ev.key === "End") to = N;
    if (to === null) return;
    ev.preventDefault();
    go(to);
  });
  // ---- zoom and pan: buttons, + / - / 0, Ctrl (or ⌘) + wheel, pinch, drag -------------
  // The board is scaled and moved with a CSS transform inside its box (.boardwrap, which
  // keeps the size of the whole board): z = 1 is the whole board; a zoomed board follows
  // the step or link on show, panning only when its cells leave the view.
  zoom = (function () {
    var box = document.querySelector(".boardwrap");
    var vb = svg.viewBox.baseVal;
    var z = 1, tx = 0, ty = 0, pointers = {}, gesture = null;
    var level = document.getElementById("zoom-level");
    var fit = function () {  // px a board unit takes at z = 1, and the box's size
      // the svg's own layout box (a bounding rectangle would be the transformed one)
      var sw = svg.clientWidth, sh = svg.clientHeight;
      return { f: Math.min(sw / vb.width, sh / vb.height), w: box.clientWidth,
               h: box.clientHeight };
    };
    function most() {  // a cell of about 110 px at most (at least twice the whole board)
      var cell = fit().f * CELL;
      return Math.max(2, 110 / Math.max(cell, 1));
    }
    function clamp() {
      var m = fit(), cw = vb.width * m.f * z, ch = vb.height * m.f * z;
      tx = cw <= m.w ? 0 : Math.min(0, Math.max(m.w - cw, tx));
      ty = ch <= m.h ? 0 : Math.min(0, Math.max(m.h - ch, ty));
    }
    function apply(glide) {
      clamp();
      box.classList.toggle("glide", !!glide);
      svg.style.transform = z === 1 && !tx && !ty ? "" :
        "translate(" + tx.toFixed(1) + "px," + ty.toFixed(1) + "px) scale(" + z.toFixed(3) + ")";
      box.classList.toggle("zoomed", z > 1);
      document.getElementById("zoom-out").disabled = z <= 1;
      document.getElementById("zoom-fit").disabled = z <= 1;
      document.getElementById("zoom-in").disabled = z >= most() - 1e-6;
      document.body.setAttribute("data-zoom", z.toFixed(2));
      level.textContent = z <= 1 ? "Fit" : Math.round(z * 100) + "%";
    }
    function at(nz, px, py, glide) {  // zoom to nz keeping the box point (px, py) still
      nz = Math.max(1, Math.min(most(), nz));
      tx = px - (px - tx) * nz / z;
      ty = py - (py - ty) * nz / z;
      z = nz;
      apply(glide);
    }
    function centre() { return [box.clientWidth / 2, box.clientHeight / 2]; }
    function by(k) {
      // the step's cells, not the box's middle, stay put when they are in view
      var c = centre();
      at(z * k, c[0], c[1], true);
      follow(focus);
    }
    // the board units the cells span: [x0, y0, x1, y1], or null for none
    function span(cells) {
      var x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
      cells.forEach(function (i) {
        var bg = cellEl[i] && cellEl[i].querySelector("rect.bg");
        if (!bg) return;
        var x = +bg.getAttribute("x"), y = +bg.getAttribute("y");
        x0 = Math.min(x0, x); y0 = Math.min(y0, y);
        x1 = Math.max(x1, x + CELL); y1 = Math.max(y1, y + CELL);
      });
      return x0 > x1 ? null : [x0, y0, x1, y1];
    }
    // pan, as little as it takes, so that the cells' box (with a margin) is in view;
    // centred on them when it cannot all be. ``cells``: [the step's own, the others it
    // would keep in view too when all fit]
    function follow(cells) {
      if (z <= 1 || !cells) return;
      var m = fit(), s = m.f * z, pad = CELL * s * 0.6;
      var own = span(cells[0]), all = span(cells[0].concat(cells[1]));
      var fits = function (b) {
        return b && (b[2] - b[0]) * s + 2 * pad <= m.w && (b[3] - b[1]) * s + 2 * pad <= m.h;
      };
      var b = fits(all) || !own ? all : own;
      if (!b) return;
      var L = b[0] * s + tx, T = b[1] * s + ty, R = b[2] * s + tx, B = b[3] * s + ty;
      var ntx = tx, nty = ty;
      if (R - L + 2 * pad > m.w) ntx = m.w / 2 - (L + R) / 2 + tx;
      else if (L < pad) ntx = tx + pad - L;
      else if (R > m.w - pad) ntx = tx - (R - (m.w - pad));
      if (B - T + 2 * pad > m.h) nty = m.h / 2 - (T + B) / 2 + ty;
      else if (T < pad) nty = ty + pad - T;
      else if (B > m.h - pad) nty = ty - (B - (m.h - pad));
      if (ntx !== tx || nty !== ty) {
        tx = ntx; ty = nty;
        apply(true);
      }
    }
    document.getElementById("zoom-in").addEventListener("click", function () { by(1.5); });
    document.getElementById("zoom-out").addEventListener("click", function () { by(1 / 1.5); });
    document.getElementById("zoom-fit").addEventListener("click", function () {
      z = 1; tx = 0; ty = 0;
      apply(true);
    });
    box.addEventListener("wheel", function (ev) {
      if (!(ev.ctrlKey || ev.metaKey)) return;  // a plain wheel scrolls the page
      ev.preventDefault();
      var r = box.getBoundingClientRect();
      var d = ev.deltaMode === 1 ? ev.deltaY * 16 : ev.deltaY;
      at(z * Math.exp(-d * 0.0025), ev.clientX - r.left, ev.clientY - r.top, false);
    }, { passive: false });
    // one pointer drags a zoomed board; two pinch (and drag) it
    function spread() {
      var ps = Object.keys(pointers).map(function (k) { return pointers[k]; });
      var r = box.getBoundingClientRect();
      if (ps.length === 1) return { x: ps[0].x - r.left, y: ps[0].y - r.top, d: 0 };
      var a = ps[0], b = ps[1];
      return { x: (a.x + b.x) / 2 - r.left, y: (a.y + b.y) / 2 - r.top,
               d: Math.hypot(a.x - b.x, a.y - b.y) };
    }
    box.addEventListener("pointerdown", function (ev) {
      if (ev.pointerType === "mouse" && ev.button !== 0) return;
      pointers[ev.pointerId] = { x: ev.clientX, y: ev.clientY };
      var n = Object.keys(pointers).length;
      if (n > 2 || (n === 1 && z <= 1)) { gesture = null; return; }
      try { box.setPointerCapture(ev.pointerId); } catch (e) { /* a synthetic pointer */ }
      gesture = spread();
      box.classList.add("moving");
    });
    box.addEventListener("pointermove", function (ev) {
      if (!pointers[ev.pointerId]) return;
      pointers[ev.pointerId] = { x: ev.clientX, y: ev.clientY };
      if (!gesture) return;
      ev.preventDefault();
      var now = spread();
      tx += now.x - gesture.x;
      ty += now.y - gesture.y;
      if (gesture.d && now.d) at(z * now.d / gesture.d, now.x, now.y, false);
      else apply(false);
      gesture = now;
    });
    function up(ev) {
      delete pointers[ev.pointerId];
      gesture = Object.keys(pointers).length && z > 1 ? spread() : null;
      if (!gesture) box.classList.remove("moving");
    }
    box.addEventListener("pointerup", up);
    box.addEventListener("pointercancel", up);
    window.addEventListener("resize", function () { apply(false); });
    apply(false);
    return { follow: follow, by: by, fit: function () { z = 1; tx = 0; ty = 0; apply(true); } };
  })();

  function stepOfHash() {
    var m = /^#(?:step-|s)(\d+)$/.exec(location.hash);
    return m ? +m[1] : null;
  }
  var asked = stepOfHash();
  go(asked === null ? 0 : asked, asked !== null);  // the start leaves the page at its top
  // a #step-N the reader types or follows after the page has loaded (go writes the hash
  // with replaceState, which fires no hashchange)
  window.addEventListener("hashchange", function () {
    var k = stepOfHash();
    if (k !== null) go(k);
  });
  document.body.classList.add("ready");
})();

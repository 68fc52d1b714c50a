/* deducer play: zoom and pan on a big board (docs/play.md, "Big boards").
 *
 * The board is drawn at the size fitBoard() (board.js) works out for the window; the player
 * may zoom from there: the + / − / Fit buttons above the board, Ctrl+wheel (or a
 * trackpad's pinch, which the browser sends as one) at the pointer, two fingers pinching
 * on a touch screen. A zoomed board pans in its frame (#board-wrap scrolls: the wheel,
 * the scroll bars, a finger). followCells() scrolls the frame, never the page, so that
 * the cells a hint, a chain's link, a replayed move or the selection are about are in
 * view; board.js, chainwalk.js, allsteps.js and replay.js call it.
 */
"use strict";

const ZOOM = {cell: null, fit: 52, min: 10, max: 96, pinch: null};

/* The square size to draw: the player's zoom, or the fit (fitBoard's own). */
function zoomCell(fit) {
  ZOOM.fit = fit;
  const cell = ZOOM.cell === null ? fit : ZOOM.cell;
  const label = $("zoom-level");
  if (label) label.textContent = ZOOM.cell === null ? "Fit" : Math.round(cell / fit * 100) + "%";
  if ($("zoom-in")) {
    $("zoom-in").disabled = cell >= ZOOM.max;
    $("zoom-out").disabled = cell <= ZOOM.min;
  }
  return cell;
}

/* Zoom to squares of `cell` px, keeping the board point under `at` ({x, y} in the
   frame's client coordinates; default its middle) where it is. null: fit again. */
function setZoom(cell, at) {
  if (!S.model) return;
  const wrap = $("board-wrap"), box = wrap.getBoundingClientRect();
  const before = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--cell")) || ZOOM.fit;
  const ax = at ? at.x - box.left : wrap.clientWidth / 2;
  const ay = at ? at.y - box.top : wrap.clientHeight / 2;
  const px = wrap.scrollLeft + ax, py = wrap.scrollTop + ay;
  if (cell !== null) cell = Math.max(ZOOM.min, Math.min(ZOOM.max, Math.round(cell)));
  ZOOM.cell = cell !== null && Math.abs(cell - ZOOM.fit) < 1 ? null : cell;
  fitBoard();
  const after = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--cell")) || ZOOM.fit;
  const k = after / before;
  wrap.scrollLeft = px * k - ax;
  wrap.scrollTop = py * k - ay;
}

function zoomBy(factor, at) {
  const now = ZOOM.cell === null ? ZOOM.fit : ZOOM.cell;
  setZoom(now * factor, at);
}

/* Scroll the board's frame (not the page) so that the cells `keys` ("r,c") are in view:
   all of them when they fit, else the first. Nothing moves when they are in view. */
function followCells(keys) {
  const wrap = $("board-wrap");
  const els = (keys || []).map((k) => S.cellEl.get(k)).filter(Boolean);
  if (!els.length || wrap.scrollWidth <= wrap.clientWidth && wrap.scrollHeight <= wrap.clientHeight) return;
  const frame = wrap.getBoundingClientRect();
  const rect = (e) => {
    const r = e.getBoundingClientRect();
    return {l: r.left - frame.left + wrap.scrollLeft, t: r.top - frame.top + wrap.scrollTop,
            r: r.right - frame.left + wrap.scrollLeft, b: r.bottom - frame.top + wrap.scrollTop};
  };
  let all = rect(els[0]);
  for (const e of els.slice(1)) {
    const r = rect(e);
    all = {l: Math.min(all.l, r.l), t: Math.min(all.t, r.t), r: Math.max(all.r, r.r), b: Math.max(all.b, r.b)};
  }
  const w = wrap.clientWidth, h = wrap.clientHeight;
  const want = all.r - all.l <= w && all.b - all.t <= h ? all : rect(els[0]);
  const inX = want.l >= wrap.scrollLeft && want.r <= wrap.scrollLeft + w;
  const inY = want.t >= wrap.scrollTop && want.b <= wrap.scrollTop + h;
  if (!inX) wrap.scrollLeft = (want.l + want.r) / 2 - w / 2;
  if (!inY) wrap.scrollTop = (want.t + want.b) / 2 - h / 2;
}

function pinchState(e) {
  const [a, b] = e.touches;
  return {d: Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY),
          x: (a.clientX + b.clientX) / 2, y: (a.clientY + b.clientY) / 2};
}

document.addEventListener("DOMContentLoaded", () => {
  const wrap = $("board-wrap");
  $("zoom-in").addEventListener("click", () => zoomBy(1.25));
  $("zoom-out").addEventListener("click", () => zoomBy(1 / 1.25));
  $("zoom-fit").addEventListener("click", () => setZoom(null));
  // Ctrl+wheel (a trackpad's pinch arrives so too) zooms at the pointer; the plain wheel pans
  wrap.addEventListener("wheel", (e) => {
    if (!(e.ctrlKey || e.metaKey) || !S.model) return;
    e.preventDefault();
    zoomBy(Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.002)), {x: e.clientX, y: e.clientY});
  }, {passive: false});
  // two fingers pinch; one finger pans (the frame scrolls by itself)
  wrap.addEventListener("touchstart", (e) => {
    if (e.touches.length !== 2 || !S.model) { ZOOM.pinch = null; return; }
    const p = pinchState(e);
    ZOOM.pinch = {d: p.d, cell: ZOOM.cell === null ? ZOOM.fit : ZOOM.cell};
  }, {passive: true});
  wrap.addEventListener("touchmove", (e) => {
    if (!ZOOM.pinch || e.touches.length !== 2) return;
    e.preventDefault();
    const p = pinchState(e);
    if (p.d > 0 && ZOOM.pinch.d > 0) setZoom(ZOOM.pinch.cell * p.d / ZOOM.pinch.d, {x: p.x, y: p.y});
  }, {passive: false});
  wrap.addEventListener("touchend", (e) => { if (e.touches.length < 2) ZOOM.pinch = null; });
});

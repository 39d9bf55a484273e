/* Flaming Pyramids board, a small enhancement: after a move, play the mayhem the viewer
   has not seen yet, step by step (the placed tile drops in, tiles that leave fade out
   where they were, falling tiles slide down, the recap's lines appear one by one).
   Without JavaScript the board shows the end result and the recap lists every step. */
(function () {
  if (window.flamingPyramidsBoard) { return; }
  window.flamingPyramidsBoard = true;
  var STEP = 700;  // ms between two steps

  function seenKey(board) {
    return "fp-seen:" + board.dataset.table + ":" + board.dataset.viewer;
  }

  function play(board) {
    var last = parseInt(board.dataset.last, 10);
    if (board.dataset.played === String(last)) { return; }
    board.dataset.played = String(last);
    // The board is redrawn right after load (the socket's first push) and after every
    // move: remember what was seen and when the animation started, so a redraw of the
    // same moment carries on where it was instead of starting over or stopping.
    var key = seenKey(board), now = Date.now(), rec = null;
    try { rec = JSON.parse(window.sessionStorage.getItem(key) || "null"); } catch (e) { rec = null; }
    if (!rec || rec.last !== last) {
      rec = {last: last, from: rec ? rec.last : -1, start: now};
      try { window.sessionStorage.setItem(key, JSON.stringify(rec)); } catch (e) { /* private mode */ }
    }
    var seen = rec.from, elapsed = now - rec.start;
    if (last <= seen || elapsed > 20000) { return; }
    if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) { return; }
    // The new steps of the latest turn, in log order; each gets its moment.
    var order = {}, n = 0;
    Array.prototype.forEach.call(board.querySelectorAll("[data-step]"), function (li) {
      var i = parseInt(li.dataset.step, 10);
      if (i > seen && !(i in order)) { order[i] = n++; }
    });
    if (!n) { return; }
    function at(el, i, cls) {
      el.style.setProperty("--d", (order[i] * STEP - elapsed) + "ms");
      el.classList.add(cls);
    }
    board.querySelectorAll("[data-step]").forEach(function (li) {
      var i = parseInt(li.dataset.step, 10);
      if (i in order) { at(li, i, "fp-anim"); }
    });
    board.querySelectorAll("[data-gone]").forEach(function (g) {
      var i = parseInt(g.dataset.gone, 10);
      if (i in order) { at(g, i, "fp-anim"); }
    });
    board.querySelectorAll("[data-placed]").forEach(function (t) {
      var i = parseInt(t.dataset.placed, 10);
      if (i in order) { at(t, i, "fp-appear"); }
    });
    board.querySelectorAll("[data-falls]").forEach(function (t) {
      // "step:dx:dy ..." – dx in half tiles, dy in rows, from the tile's cell now.
      var falls = t.dataset.falls.split(" ").map(function (f) { return f.split(":").map(Number); });
      for (var k = 0; k < falls.length; k++) {
        if (falls[k][0] in order) {
          t.style.setProperty("--fx", falls[k][1]);
          t.style.setProperty("--fy", falls[k][2]);
          at(t, falls[k][0], "fp-slide");
          return;
        }
      }
    });
  }

  function scan() {
    var board = document.querySelector(".fp[data-testid=fp-board]");
    if (board) { play(board); }
  }
  var queued = false;
  function later() {
    if (queued) { return; }
    queued = true;
    window.requestAnimationFrame(function () { queued = false; scan(); });
  }
  function start() {
    scan();
    // The pick form only groups the radios: it is never sent (no inline handler: CSP).
    document.addEventListener("submit", function (event) {
      if (event.target && event.target.id === "fp-pick-form") { event.preventDefault(); }
    });
    // The board is redrawn by htmx answers and socket pushes.
    new MutationObserver(later).observe(document.body, {childList: true, subtree: true});
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();

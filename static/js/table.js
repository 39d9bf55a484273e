// The table page, enhanced; every control works without this file.
// - Focus: after a move or a push replaced the focused control, focus goes to the first
//   control of the new decision, or to the game's prompt.
// - Announcements: the log lines that arrived since the last look are written to the
//   polite #live-summary region (the log itself is aria-live off: a push appends lines to it).
// - Folding: opponents' areas (details.fold) fold on a narrow screen, unless the page
//   keeps one open (data-fold-keep: a decision concerns it) or the player chose otherwise.
(function () {
  "use strict";
  var CONTROLS = "#board form.move-form button, #board label.fp-spot-label, " +
    "#board label.fp-hand-tile, #play-area form.move-form button";
  var narrow = window.matchMedia("(max-width: 760px)");
  var chosen = {};
  var lastIndex = -1;
  var lastTurn = null;

  function visible(el) {
    if (el.checkVisibility && !el.checkVisibility({visibilityProperty: true})) { return false; }
    var r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  }

  function firstControl() {
    var all = document.querySelectorAll(CONTROLS);
    for (var i = 0; i < all.length; i++) {
      if (visible(all[i])) {
        // A label stands for its radio button: focus the input it labels.
        if (all[i].tagName === "LABEL" && all[i].control) { return all[i].control; }
        return all[i];
      }
    }
    return null;
  }

  function prompt() {
    var el = document.querySelector('#board [data-testid$="-prompt"]') ||
      document.getElementById("status");
    if (el && !el.hasAttribute("tabindex")) { el.setAttribute("tabindex", "-1"); }
    return el;
  }

  function yourTurn() {
    return !!document.querySelector("#status .your-decision");
  }

  var lastFocused = null;
  var moved = false;
  document.addEventListener("focusin", function (event) { lastFocused = event.target; });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.closest && elt.closest("form.move-form")) { moved = true; }
  });

  function refocus() {
    // Only when our own move, or the push, took away the focused control; never take
    // focus from where the player is (a chat box, a form being filled).
    var lost = lastFocused !== null && !document.contains(lastFocused);
    var mine = moved;
    moved = false;
    if (!lost && !mine) { return; }
    var active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) { return; }
    var target = (yourTurn() && firstControl()) || prompt();
    // No scrolling: the prompt and first control are on the first screen anyway, and a jump
    // under the finger would move what the player is about to tap.
    if (target) { target.focus({preventScroll: true}); }
  }

  function logItems() {
    return Array.prototype.slice.call(document.querySelectorAll("#move-list li[data-n]"));
  }

  function announce() {
    var fresh = logItems().filter(function (li) {
      return parseInt(li.dataset.n, 10) > lastIndex;
    }).sort(function (a, b) { return parseInt(a.dataset.n, 10) - parseInt(b.dataset.n, 10); });
    var parts = fresh.map(function (li) { return li.textContent.trim(); });
    fresh.forEach(function (li) { lastIndex = Math.max(lastIndex, parseInt(li.dataset.n, 10)); });
    var turn = yourTurn();
    if (turn && lastTurn === false) {
      var mark = document.querySelector("#status .your-decision");
      if (mark) { parts.push(mark.textContent.trim() + "."); }
    }
    lastTurn = turn;
    var region = document.getElementById("live-summary");
    if (region && parts.length) {
      // Keep it short: the last three lines say what just happened.
      region.textContent = parts.slice(-3).join(" ");
    }
  }

  function fold(root) {
    (root || document).querySelectorAll("details.fold[data-fold]").forEach(function (d) {
      var key = d.dataset.fold;
      if (d.hasAttribute("data-fold-keep")) { d.open = true; }
      else if (Object.prototype.hasOwnProperty.call(chosen, key)) { d.open = chosen[key]; }
      else { d.open = !narrow.matches; }
    });
  }

  document.addEventListener("click", function (event) {
    var summary = event.target.closest && event.target.closest("details.fold[data-fold] > summary");
    if (summary) { chosen[summary.parentElement.dataset.fold] = !summary.parentElement.open; }
  });

  function start() {
    logItems().forEach(function (li) { lastIndex = Math.max(lastIndex, parseInt(li.dataset.n, 10)); });
    lastTurn = yourTurn();
    fold(document);
  }

  var pending = null;
  function afterUpdate() {
    // One update brings several out-of-band swaps: act once they are all in.
    if (pending) { return; }
    pending = window.setTimeout(function () {
      pending = null;
      announce();
      refocus();
    }, 0);
  }
  function foldNow() {
    // Right after the swap, before the browser paints: no flash of open folds, no jump.
    // (The event's target is the element that was replaced, so look at the document.)
    fold(document);
  }

  document.addEventListener("htmx:afterSwap", foldNow);
  document.addEventListener("htmx:oobAfterSwap", foldNow);
  document.addEventListener("htmx:afterSettle", afterUpdate);
  document.addEventListener("htmx:oobAfterSwap", afterUpdate);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();

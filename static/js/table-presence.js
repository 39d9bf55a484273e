// Presence at a table, for turn mails (games/tables/presence.py).
// A visible, recently used tab tells the server it is there: when the socket
// opens, when a push arrives (the player sees the new decision), and every
// 50 s. An idle or hidden tab stays quiet, so its turn mails go out.
(function () {
  var socket = null, used = Date.now();
  var IDLE_MS = 5 * 60 * 1000;
  ["pointerdown", "keydown", "scroll", "focus"].forEach(function (name) {
    window.addEventListener(name, function () { used = Date.now(); }, {passive: true});
  });
  function watching() {
    return document.visibilityState === "visible" && Date.now() - used < IDLE_MS;
  }
  function beat() {
    if (socket && watching()) { socket.send('{"type": "heartbeat"}'); }
  }
  document.addEventListener("htmx:wsOpen", function (e) { socket = e.detail.socketWrapper; beat(); });
  document.addEventListener("htmx:wsClose", function () { socket = null; });
  // Before the swap: a push the page drops as not newer (site.js) still shows the
  // player is looking at that decision (their own move's answer drew it).
  document.addEventListener("htmx:wsBeforeMessage", beat);
  document.addEventListener("visibilitychange", function () { used = Date.now(); beat(); });
  setInterval(beat, 50 * 1000);
})();

/* Heartbeat: a visible, recently used tab tells the server it is watching,
   so no turn mail goes out meanwhile; an idle tab goes quiet and mails resume. */
(function () {
  var socket = null, used = Date.now();
  ["pointerdown", "keydown", "scroll", "focus"].forEach(function (name) {
    window.addEventListener(name, function () { used = Date.now(); }, {passive: true});
  });
  document.addEventListener("htmx:wsOpen", function (e) { socket = e.detail.socketWrapper; });
  document.addEventListener("htmx:wsClose", function () { socket = null; });
  setInterval(function () {
    if (socket && document.visibilityState === "visible" && Date.now() - used < 5 * 60 * 1000) {
      socket.send('{"type": "heartbeat"}');
    }
  }, 50 * 1000);
})();

// The player's own socket (games/tables/player_consumer.py), on every page of a
// signed-in player: when any of their tables changes who is to move, the header
// count, the page title and the dashboard lists update at once, and if they
// allowed it in their profile a browser notification links to the table that
// now waits on them. Every page works without this file.
(function () {
  var body = document.body;
  var path = body && body.dataset.playerSocket;
  if (!path || !window.WebSocket || !window.JSON) { return; }
  var wantsNotices = body.dataset.notify === "1";
  var wait = 1000;

  function swap(id, html) {
    var old = document.getElementById(id);
    if (!old) { return; }
    var box = document.createElement("div");
    box.innerHTML = html.trim();
    var fresh = box.firstElementChild;
    if (!fresh) { return; }
    old.replaceWith(fresh);
    if (window.htmx) { window.htmx.process(fresh); }
  }

  function retitle(count) {
    var title = document.title.replace(/^\(\d+\) /, "");
    document.title = count > 0 ? "(" + count + ") " + title : title;
  }

  function notify(notice) {
    if (!notice || !wantsNotices || !("Notification" in window)) { return; }
    if (Notification.permission !== "granted") { return; }
    if (window.location.pathname === notice.path) { return; }  // this page shows that table
    var shown = new Notification(notice.title, {body: notice.body, tag: "table-" + notice.table});
    shown.onclick = function () { window.focus(); window.location.href = notice.url; };
  }

  function apply(data) {
    Object.keys(data.parts || {}).forEach(function (id) { swap(id, data.parts[id]); });
    // What the page shows now: a reconnect says so and is sent nothing if it still holds.
    if (data.seen && /^[0-9a-f]+$/.test(data.seen)) { path = path.split("?")[0] + "?seen=" + data.seen; }
    retitle(data.count || 0);
    notify(data.notify);
  }

  function connect() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + window.location.host + path);
    socket.onopen = function () { wait = 1000; body.dataset.playerLive = "1"; };
    socket.onmessage = function (event) {
      try { apply(JSON.parse(event.data)); } catch (e) { /* a bad message changes nothing */ }
    };
    socket.onclose = function (event) {
      body.dataset.playerLive = "0";
      if (event.code === 4403) { return; }  // signed out
      setTimeout(connect, wait);
      wait = Math.min(wait * 2, 30000);
    };
  }

  // Allowing notifications in the profile asks the browser for permission (a user gesture).
  var box = document.getElementById("id_notify_browser");
  if (box && "Notification" in window) {
    box.addEventListener("change", function () {
      if (box.checked && Notification.permission === "default") { Notification.requestPermission(); }
    });
  }
  connect();
})();

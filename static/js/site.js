// Small progressive enhancements; every page works without this file.
// Live table pages. The page tells its socket what it shows (seq, newest log entry),
// so the server pushes nothing when it is current and only what is new when behind;
// its htmx move requests carry the same page id, so its socket is not sent its own move.
var pageId = Math.random().toString(36).slice(2) + Date.now().toString(36);
var liveSocket = null;
function newestLogEntry() {
  var first = document.querySelector("#log-lines > li[data-n]");
  return first ? parseInt(first.dataset.n, 10) || 0 : 0;
}
function sayHello() {
  var status = document.getElementById("ws-status");
  if (!liveSocket || !status) { return; }
  liveSocket.send(JSON.stringify({type: "hello", page: pageId,
    seq: parseInt(status.dataset.seq || "0", 10), log: newestLogEntry()}));
}
document.addEventListener("htmx:wsOpen", function (event) {
  document.body.classList.add("live");
  liveSocket = event.detail.socketWrapper;
  // The server joined the table's group before accepting: the page is live from here.
  var status = document.getElementById("ws-status");
  if (status) { status.dataset.connected = "1"; }
  sayHello();
});
document.addEventListener("htmx:configRequest", function (event) {
  event.detail.headers["X-Page-Id"] = pageId;
});
document.addEventListener("htmx:afterSettle", function (event) {
  // After an htmx answer (a move), tell the socket what the page shows now.
  if (event.detail && event.detail.xhr && document.getElementById("log-lines")) { sayHello(); }
});
// A push that brings nothing newer than the page shows is dropped before it is swapped:
// it would only redraw the board under the player's finger (a tile and a spot picked, the
// move not yet confirmed). The socket pushes each event as it happens, also while the
// page's own htmx answer (its move, and bots' answers made in the same request) is on its
// way, so on a slow link such a push can arrive after that answer. The pushed #ws-status
// says the seq it was drawn from; a redraw without a new event (names, vacations, notices)
// is marked data-rev and applies at the page's own seq, never below it.
var PUSHED_STATUS = /<span\b[^>]*\bid="ws-status"[^>]*>/;
// Does this table HTML (a push, a move's answer) show nothing newer than the page?
// False when it is no table update at all (a chat line) or either seq is unreadable.
function notNewer(html) {
  var tag = PUSHED_STATUS.exec(html || "");
  var status = document.getElementById("ws-status");
  if (!tag || !status) { return false; }
  var box = document.createElement("template");
  box.innerHTML = tag[0] + "</span>";
  var drawn = box.content.firstElementChild;
  var seq = parseInt(drawn.dataset.seq, 10);
  var shown = parseInt(status.dataset.seq, 10);
  if (isNaN(seq) || isNaN(shown)) { return false; }
  return seq < shown || (seq === shown && !drawn.hasAttribute("data-rev"));
}
document.addEventListener("htmx:wsBeforeMessage", function (event) {
  var message = event.detail && event.detail.message;
  if (typeof message === "string" && notNewer(message)) { event.preventDefault(); }
});
// The same for the page's own htmx answer (its move, and the bots' answers made in the
// same request): when the socket's pushes of those events came first, the answer shows
// nothing newer and swapping it in would redraw the board under a choice already begun.
// Only a move's answer: other forms (mute, vacation) change the page at the same seq.
// It is decided when the answer arrives, in the request's own onload: a push that came
// first has replaced #play-area, the request's target, so htmx swaps into a node no longer
// in the page and fires htmx:beforeSwap there, where no listener hears it, while the
// answer's out-of-band parts (#board, #status) would still land in the page.
var staleAnswer = false;
document.addEventListener("htmx:beforeRequest", function (event) {
  var detail = event.detail;
  var xhr = detail && detail.xhr;
  var elt = detail && detail.elt;
  if (!xhr || !elt || !elt.closest || !elt.closest("form.move-form")) { return; }
  var onload = xhr.onload;
  if (typeof onload !== "function") { return; }
  xhr.onload = function () {
    staleAnswer = xhr.status === 200 && notNewer(xhr.responseText);
    try { return onload.apply(this, arguments); } finally { staleAnswer = false; }
  };
});
document.addEventListener("htmx:beforeSwap", function (event) {
  if (staleAnswer && event.detail) { event.detail.shouldSwap = false; }
});
// New log lines arrive at the top; never add a line the page already has.
document.addEventListener("htmx:oobBeforeSwap", function (event) {
  var detail = event.detail;
  if (detail && staleAnswer) { detail.shouldSwap = false; return; }  // see above
  if (!detail || !detail.target || detail.target.id !== "log-lines" || !detail.fragment) { return; }
  var newest = newestLogEntry();
  Array.prototype.slice.call(detail.fragment.querySelectorAll("li[data-n]")).forEach(function (li) {
    if (parseInt(li.dataset.n, 10) <= newest) { li.parentNode.removeChild(li); }
  });
  var empty = detail.target.querySelector(".log-empty");
  if (empty && detail.fragment.querySelector("li")) { empty.parentNode.removeChild(empty); }
});
document.addEventListener("htmx:wsClose", function () {
  document.body.classList.remove("live");
  liveSocket = null;
  var status = document.getElementById("ws-status");
  if (status) { status.dataset.connected = "0"; }
});
// Keep the "(n)" in the page title in step with the live "your turn" badge.
document.addEventListener("htmx:oobAfterSwap", function (event) {
  var target = event.detail && event.detail.target;
  if (!target || target.id !== "turn-count") { return; }
  var count = parseInt(target.dataset.count || "0", 10);
  var title = document.title.replace(/^\(\d+\) /, "");
  document.title = count > 0 ? "(" + count + ") " + title : title;
});

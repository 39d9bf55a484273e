// Small progressive enhancements; every page works without this file.
document.addEventListener("htmx:wsOpen", function () {
  document.body.classList.add("live");
});
document.addEventListener("htmx:wsClose", function () {
  document.body.classList.remove("live");
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

// Small progressive enhancements; every page works without this file.
document.addEventListener("htmx:wsOpen", function () {
  document.body.classList.add("live");
});
document.addEventListener("htmx:wsClose", function () {
  document.body.classList.remove("live");
  var status = document.getElementById("ws-status");
  if (status) { status.dataset.connected = "0"; }
});

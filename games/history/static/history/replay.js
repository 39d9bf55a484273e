/* Replay: arrow keys, Home and End step through the game; the slider jumps.
   Without JavaScript the same links and the form's button do it. */
(function () {
  "use strict";
  function ready(fn) {
    if (document.readyState !== "loading") { fn(); } else { document.addEventListener("DOMContentLoaded", fn); }
  }
  ready(function () {
    var page = document.querySelector("[data-replay]");
    if (!page) { return; }
    var links = {};
    page.querySelectorAll("a[data-key]").forEach(function (a) { links[a.getAttribute("data-key")] = a; });
    document.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) { return; }
      var target = event.target;
      var tag = target && target.tagName;
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || (target && target.isContentEditable)) { return; }
      var link = links[event.key];
      if (link && link.getAttribute("aria-disabled") !== "true") {
        event.preventDefault();
        window.location.assign(link.href);
      }
    });
    var form = page.querySelector("[data-replay-jump]");
    if (form) {
      var slider = form.querySelector("input[type=range]");
      var output = form.querySelector("output");
      var select = form.querySelector("select");
      if (slider) {
        var total = slider.getAttribute("max");
        slider.addEventListener("input", function () {
          if (output) { output.textContent = slider.value + " / " + total; }
        });
        slider.addEventListener("change", function () { form.submit(); });
      }
      if (select) { select.addEventListener("change", function () { form.submit(); }); }
    }
    // The log scrolls inside its box: bring the step's last line into it, not the page.
    var lines = page.querySelectorAll(".move-list li.current");
    var box = page.querySelector(".move-list");
    if (lines.length && box) {
      var last = lines[lines.length - 1];
      box.scrollTop = Math.max(0, last.offsetTop - box.offsetTop - box.clientHeight + last.offsetHeight + 8);
    }
  });
})();

// Table chat: progressive enhancement only; the chat works as plain forms without this.
(function () {
  "use strict";

  // A posted message can arrive twice (the htmx answer and the socket push): keep one.
  function dedupe(log) {
    var seen = {};
    Array.prototype.slice.call(log.querySelectorAll(".chat-msg")).forEach(function (item) {
      if (seen[item.id]) { item.remove(); } else { seen[item.id] = true; }
    });
  }

  function nearBottom(log) {
    return log.scrollHeight - log.scrollTop - log.clientHeight < 80;
  }

  function settle(log, follow) {
    dedupe(log);
    if (follow) { log.scrollTop = log.scrollHeight; }
  }

  var following = new WeakMap();
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.classList && target.classList.contains("chat-log")) {
      following.set(target, nearBottom(target));
    }
  });
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || !target.id || target.id.indexOf("chat-log-") !== 0) { return; }
    var log = document.getElementById(target.id);  // an outerHTML swap replaced the node
    if (log) { settle(log, following.has(target) ? following.get(target) : true); }
  });

  // When the table socket opens (first time or after a drop), fetch the logs once:
  // messages written while the page loaded or the socket was down appear too.
  document.addEventListener("htmx:wsOpen", function () {
    var panel = document.getElementById("chat");
    if (panel && panel.dataset.logsUrl && window.htmx) {
      window.htmx.ajax("GET", panel.dataset.logsUrl, {source: panel, swap: "none"});
    }
  });

  // Ctrl+Enter (or Cmd+Enter) sends.
  document.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && event.target.id === "chat-body") {
      var form = event.target.form;
      if (form) { event.preventDefault(); form.requestSubmit(); }
    }
  });

  function start() {
    // Folded on phones, unless a link or a redirect points at it.
    var narrow = window.matchMedia && window.matchMedia("(max-width: 760px)").matches;
    document.querySelectorAll("details[data-fold-narrow]").forEach(function (panel) {
      if (narrow && window.location.hash !== "#" + panel.id) { panel.open = false; }
    });
    document.querySelectorAll(".chat-log").forEach(function (log) { settle(log, true); });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else { start(); }
})();

/* Gizmos board, a small enhancement: a card with exactly one action (File, Build, Use,
   Under the deck) acts as that button when clicked anywhere. Without JavaScript the
   buttons on the cards do the same. */
(function () {
  if (window.gizmosBoard) { return; }
  window.gizmosBoard = true;

  function soleButton(card) {
    var buttons = card.querySelectorAll(".gz-acts button");
    return buttons.length === 1 ? buttons[0] : null;
  }

  function mark(root) {
    (root || document).querySelectorAll(".gz-card").forEach(function (card) {
      card.classList.toggle("is-clickable", !!soleButton(card));
    });
  }

  document.addEventListener("click", function (event) {
    var card = event.target.closest(".gz-card.is-clickable");
    if (!card || event.target.closest("button, a, input, form")) { return; }
    var button = soleButton(card);
    if (button) { button.click(); }
  });
  // The board is redrawn by htmx answers and socket pushes: mark again after each change.
  var pending = false;
  function later() {
    if (pending) { return; }
    pending = true;
    window.requestAnimationFrame(function () { pending = false; mark(); });
  }
  function start() {
    mark();
    new MutationObserver(later).observe(document.body, {childList: true, subtree: true});
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();

// Form enhancements (progressive: every form works without this file).
(function () {
  "use strict";

  function fieldOf(id) {
    var input = document.getElementById(id);
    return input ? input.closest(".field") : null;
  }

  // New table: show only the seats up to the number chosen, and the time-bank fields only
  // under a time-bank clock.
  function newTableForm(form) {
    var players = form.querySelector("#id_players");
    var clock = form.querySelector("#id_clock");
    function update() {
      var n = players ? parseInt(players.value, 10) : 0;
      form.querySelectorAll("[id^='id_seat_']").forEach(function (select) {
        var i = parseInt(select.id.replace("id_seat_", ""), 10);
        var field = select.closest(".field");
        if (field) { field.hidden = !(i < n); }
      });
      var bank = clock && clock.value === "bank";
      ["id_bank_initial", "id_bank_increment", "id_bank_cap"].forEach(function (id) {
        var field = fieldOf(id);
        if (field) { field.hidden = !bank; }
      });
    }
    if (players) { players.addEventListener("change", update); }
    if (clock) { clock.addEventListener("change", update); }
    update();
  }

  // Profile: while the time zone is still the default, offer the browser's own.
  function guessTimeZone(select) {
    var zone;
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (e) { return; }
    if (!zone || select.value !== "UTC" || zone === "UTC") { return; }
    var option = Array.prototype.find.call(select.options, function (o) { return o.value === zone; });
    if (!option) { return; }
    select.value = zone;
    var note = document.getElementById("timezone-guess");
    if (note) {
      note.textContent = (note.dataset.text || "").replace("{zone}", option.parentNode.label
        ? option.parentNode.label + " / " + option.textContent : option.textContent);
      note.hidden = false;
    }
  }

  // Sign-up: the browser's own time zone (the server keeps it only if it knows it).
  function browserTimeZone(input) {
    try { input.value = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { /* UTC */ }
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("input[data-browser-timezone]").forEach(browserTimeZone);
    document.querySelectorAll("form[data-new-table]").forEach(newTableForm);
    document.querySelectorAll("select[data-guess-timezone]").forEach(guessTimeZone);
  });
})();

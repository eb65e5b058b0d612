// Slow form posts (seating a round searches for several seconds): the submit button says the
// work is under way, with the seconds elapsed, and a second click does not post the form twice.
// Without JavaScript the form posts as before. (How long seating takes: bench/figures.md.)
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches("form[data-busy]")) return;
    if (form.getAttribute("aria-busy") === "true") {
      event.preventDefault();  // already posted: wait for the answer
      return;
    }
    var button = form.querySelector("button[type=submit], button:not([type])");
    if (!button) return;
    var label = form.dataset.busy;
    var started = Date.now();
    form.setAttribute("aria-busy", "true");
    button.classList.add("busy");
    function tick() {
      button.textContent = label + " " + Math.round((Date.now() - started) / 1000) + " s";
    }
    tick();
    setInterval(tick, 1000);
  });
  // Back from the browser's cache (the back button): the form may be posted again.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) window.location.reload();
  });
})();

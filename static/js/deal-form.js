// Deal forms (table link, referee's sheet, calculator): the small behaviours that save taps and
// keep errors in view. Everything works without this script; it only makes it quicker.
//
// - A passed deal (or a referee's ruling) disables the played fields (taker, contract, oudlers,
//   points, bonuses), so nothing stops the form from being sent and nothing hidden is posted;
//   a ruling's scores are enabled only for a ruling.
// - After the oudlers tap, the card points field takes the focus (the phone's number pad opens):
//   taker, contract, oudlers, digits, Enter.
// - The bonuses section remembers that it was opened (a hidden field), so a live update of the
//   calculator never folds it away; the server keeps it open when it holds a value or an error.
// - After a refused save, the first error is scrolled into view and its field takes the focus.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function kindOf(form) {
    var checked = form.querySelector("input[name=kind]:checked");
    return checked ? checked.value : "played";
  }

  function syncKind(form) {
    var kind = kindOf(form);
    var played = form.querySelector("fieldset[data-played]");
    if (played) played.disabled = kind === "passed" || kind === "misdeal" || kind === "ruling";
    var ruling = form.querySelector("fieldset[data-ruling]");
    if (ruling) ruling.disabled = kind !== "ruling";
  }

  function syncBonuses(form) {
    var details = form.querySelector("details.bonuses");
    var flag = details && details.querySelector("input[name=bonuses_open]");
    if (flag) flag.value = details.open ? "1" : "";
  }

  function fieldOf(error) {
    // The control an error belongs to: the first input of its field (wrapper) or fieldset.
    var holder = error.closest("[data-field]") || error.closest("fieldset") || error.parentNode;
    return holder && holder.querySelector("input:not([type=hidden]):not([disabled]), select, textarea");
  }

  // Show the first error of the page: in view, with the focus on its field. Called on load and
  // after an htmx swap that brought errors (the calculator's Compute).
  function revealFirstError(root) {
    var error = (root || document).querySelector(".errorlist, .errors[role=alert]");
    if (!error) return;
    for (var d = error.closest("details"); d; d = d.parentElement.closest("details")) d.open = true;
    // A message about the whole form goes with the field the server chose (autofocus).
    var form = error.closest("form");
    var field = error.classList.contains("errors")
      ? form && form.querySelector("[autofocus]")
      : fieldOf(error);
    var target = field && field.type === "radio" ? field.closest("fieldset") || field : field;
    error.scrollIntoView({ block: "center" });
    if (field) {
      field.focus({ preventScroll: true });
    } else {
      if (!error.hasAttribute("tabindex")) error.setAttribute("tabindex", "-1");
      error.focus({ preventScroll: true });
    }
    if (target && target !== field) target.classList.add("has-error");
  }
  window.tarotRevealFirstError = revealFirstError;

  function init(form) {
    if (form.dataset.dealFormReady) return;
    form.dataset.dealFormReady = "1";
    syncKind(form);
    syncBonuses(form);
    form.addEventListener("change", function (event) {
      var target = event.target;
      if (target.name === "kind") syncKind(form);
      if (target.name === "oudlers") {
        var points = form.querySelector("input[name=points]");
        if (points && !points.value && !points.disabled) {
          points.focus();
        }
      }
    });
    var details = form.querySelector("details.bonuses");
    if (details) {
      details.addEventListener("toggle", function () {
        syncBonuses(form);
      });
    }
  }

  function initAll(root) {
    Array.prototype.forEach.call((root || document).querySelectorAll("form.deal-form"), init);
  }

  document.addEventListener("DOMContentLoaded", function () {
    initAll(document);
    revealFirstError(document);
  });

  // htmx (the calculator, the preview): new forms after a swap; errors only after a real
  // submission, not while the user is still choosing (live updates carry live=1).
  // A changed choice asks for the result only (live=result): the form stays as the user has
  // it. Only the number of players redraws the form (its seats change).
  document.addEventListener("htmx:configRequest", function (event) {
    var trigger = event.detail.triggeringEvent;
    if (trigger && trigger.type === "change") {
      event.detail.parameters.live = trigger.target && trigger.target.name === "players"
        ? "form"
        : "result";
    }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    initAll(event.detail.target);
    var trigger = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
    if (trigger && trigger.type === "submit") revealFirstError(event.detail.target);
  });
})();

// The players page: the search box keeps the rows whose name, club, licence or team hold every
// typed word, ignoring case, accents and punctuation (as tournaments/folding.py folds text;
// « daubigne » finds « d'Aubigné » too).
(function () {
  "use strict";
  var LIGATURES = { "œ": "oe", "Œ": "oe", "æ": "ae", "Æ": "ae", "ø": "o", "Ø": "o", "ł": "l", "Ł": "l" };

  function fold(text) {
    return text
      .replace(/[œŒæÆøØłŁ]/g, function (ch) { return LIGATURES[ch]; })
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
  }

  function filter(input) {
    var words = fold(input.value).split(" ").filter(Boolean);
    var shown = 0;
    document.querySelectorAll("table.players tbody tr[data-search]").forEach(function (row) {
      var text = row.getAttribute("data-search");
      // « d'Aubigné » and « Jean-Loup » are found typed with or without their punctuation.
      var haystack = fold(text) + " " + fold(text.replace(/['’\-]/g, ""));
      var keep = words.every(function (word) { return haystack.indexOf(word) !== -1; });
      row.hidden = !keep;
      if (keep) shown += 1;
    });
    var none = document.getElementById("player-search-none");
    if (none) none.hidden = shown > 0 || !words.length;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var input = document.getElementById("player-search");
    if (!input) return;
    input.addEventListener("input", function () { filter(input); });
    // A row swapped by htmx after a check-in keeps to the current search.
    document.body.addEventListener("htmx:afterSwap", function () { filter(input); });
    if (input.value) filter(input);
  });
})();

// Projector view: show the standings page by page, then start again. No dependency.
(function () {
  "use strict";
  var root = document.querySelector(".tv");
  if (!root) return;
  var rows = Array.prototype.slice.call(root.querySelectorAll(".tv-row"));
  var perPage = parseInt(root.dataset.rowsPerPage, 10) || 12;
  var seconds = parseInt(root.dataset.pageSeconds, 10) || 10;
  var pages = Math.max(1, Math.ceil(rows.length / perPage));
  var label = root.querySelector(".tv-page");
  var page = 0;
  function show() {
    rows.forEach(function (row, i) {
      row.hidden = Math.floor(i / perPage) !== page;
    });
    if (label) label.textContent = (page + 1) + " / " + pages;
    page = (page + 1) % pages;
  }
  show();
  if (pages > 1) setInterval(show, seconds * 1000);
})();

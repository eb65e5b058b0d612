// The room's screen: page through every view (team standings, then individual standings) so
// that every player is shown once in every cycle, whatever the size of the screen.
//
// Rows are one line each (CSS); this script measures how many fit in the height left under the
// title, lays them out in as many columns as the width allows (one wide column with clubs when
// the whole field fits), and shows one page after the other. New standings fetched by live.js
// are put in at the start of the next cycle, so a cycle always shows one consistent ranking;
// the band of tables still playing is updated at once, and so is a field that fits on one page. `?secondes=N` on the address sets the
// time a page stays on screen. With prefers-reduced-motion, pages change without a fade.
// Pages are balanced (as many rows on each) and take as many columns as the width allows.
(function () {
  "use strict";
  var root = document.querySelector(".tv");
  if (!root) return;
  var holder = root.querySelector("[data-tv-views]");
  var title = root.querySelector("[data-tv-title]");
  var pager = root.querySelector("[data-tv-pager]");
  var params = new URLSearchParams(window.location.search);
  var seconds = parseFloat(params.get("secondes")) || parseFloat(root.dataset.pageSeconds) || 10;
  seconds = Math.max(0.2, seconds);
  var minColumnEm = parseFloat(root.dataset.columnEm) || 15;
  var pages = [];
  var index = -1;
  var cycles = 0;
  var timer = null;
  var paused = false;

  function views() {
    return Array.prototype.slice.call(holder.querySelectorAll(".tv-view"));
  }

  function rowsOf(view) {
    return Array.prototype.slice.call(view.querySelectorAll(".tv-row"));
  }

  // The width the widest row needs to show its whole text: rank, name (and members), total.
  function widestRow(list, rows) {
    var range = document.createRange();
    var widest = 0;
    list.style.gridAutoFlow = "row"; // one full-width column while measuring
    rows.forEach(function (row) {
      var name = row.querySelector(".tv-name");
      range.selectNodeContents(name);
      var text = range.getBoundingClientRect().width;
      var rest = row.getBoundingClientRect().width - name.getBoundingClientRect().width;
      widest = Math.max(widest, Math.ceil(text + rest + 2));
    });
    list.style.gridAutoFlow = "";
    return widest;
  }

  function measure(view) {
    var list = view.querySelector(".tv-list");
    var rows = rowsOf(view);
    views().forEach(function (v) { v.hidden = v !== view; });
    rows.forEach(function (row) { row.hidden = false; });
    list.style.gridTemplateRows = "";
    list.style.gridTemplateColumns = "";
    view.classList.remove("tv-wide");
    if (!rows.length) return [{ view: view, start: 0, end: 0 }];
    var rowHeight = rows[0].getBoundingClientRect().height || 1;
    var perColumn = Math.max(1, Math.floor((list.clientHeight + 0.5) / rowHeight));
    var fontSize = parseFloat(getComputedStyle(rows[0]).fontSize) || 16;
    var columns = 1;
    var columnWidth = minColumnEm * fontSize;
    // A team's row names its members (data-fit="content"): a column is as wide as the widest
    // row needs, so that no member's name is cut short (teams of 4 keep the whole width).
    if (view.dataset.fit === "content") columnWidth = Math.max(columnWidth, widestRow(list, rows));
    var gap = parseFloat(getComputedStyle(list).columnGap) || 0;
    if (rows.length > perColumn) {
      columns = Math.max(1, Math.floor((list.clientWidth + gap) / (columnWidth + gap)));
      // No more columns than the rows need: a short last page stays readable.
      columns = Math.min(columns, Math.ceil(rows.length / perColumn));
    }
    // Balanced pages: as few pages as the screen allows, the rows shared evenly between them
    // (12 teams where 11 fit: two pages of 6, not 11 and 1), and between the page's columns.
    var pageCount = Math.ceil(rows.length / (perColumn * columns));
    var perPage = Math.ceil(rows.length / pageCount);
    var shownRows = Math.min(perColumn, Math.ceil(perPage / columns));
    list.style.gridTemplateRows = "repeat(" + shownRows + ", " + rowHeight + "px)";
    list.style.gridTemplateColumns = "repeat(" + columns + ", minmax(0, 1fr))";
    view.classList.toggle("tv-wide", columns === 1);
    var result = [];
    for (var start = 0; start < rows.length; start += perPage) {
      result.push({ view: view, start: start, end: Math.min(rows.length, start + perPage) });
    }
    return result;
  }

  function layout() {
    var current = pages[index];
    pages = [];
    views().forEach(function (view) { pages = pages.concat(measure(view)); });
    // Keep showing the same first row after a resize.
    index = 0;
    if (current) {
      for (var i = 0; i < pages.length; i++) {
        if (pages[i].view === current.view && pages[i].start <= current.start) index = i;
      }
    }
    root.dataset.pages = String(pages.length);
  }

  // ``quiet``: the same page with new figures (no fade).
  function show(quiet) {
    var page = pages[index];
    if (!page) return;
    views().forEach(function (v) { v.hidden = v !== page.view; });
    rowsOf(page.view).forEach(function (row, i) {
      row.hidden = i < page.start || i >= page.end;
    });
    var ofView = pages.filter(function (p) { return p.view === page.view; });
    var list = page.view.querySelector(".tv-list");
    if (!quiet) {
      list.classList.remove("tv-enter");
      void list.offsetWidth; // restart the fade
      list.classList.add("tv-enter");
    }
    if (title) title.textContent = page.view.dataset.title || "";
    if (pager) {
      pager.textContent = ofView.length > 1
        ? (root.dataset.labelPage || "") + " " + (ofView.indexOf(page) + 1) + "/" + ofView.length
        : "";
    }
    root.dataset.page = String(index);
  }

  function next() {
    index += 1;
    if (index >= pages.length) {
      index = 0;
      cycles += 1;
      root.dataset.cycle = String(cycles);
      if (!pages.length) layout();
    }
    show();
    schedule();
  }

  function schedule() {
    clearTimeout(timer);
    if (!paused) timer = setTimeout(next, seconds * 1000);
  }

  holder.addEventListener("live:update", function (event) {
    event.preventDefault();
    var current = pages[index];
    var viewIndex = current ? views().indexOf(current.view) : 0;
    var start = current ? current.start : 0;
    holder.innerHTML = event.detail.fresh.innerHTML;
    pages = [];
    views().forEach(function (view) { pages = pages.concat(measure(view)); });
    var fresh = views();
    index = 0;
    for (var i = 0; i < pages.length; i++) {
      if (fresh.indexOf(pages[i].view) === viewIndex && pages[i].start <= start) index = i;
    }
    root.dataset.pages = String(pages.length);
    show(true);
  });
  document.addEventListener("live:pause", function () { paused = true; clearTimeout(timer); });
  // The screen shows no button (nobody is there to press it): P pauses and resumes, for
  // whoever has the computer's keyboard.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "p" && event.key !== "P") return;
    var toggle = document.querySelector("[data-live-control] .live-toggle");
    if (toggle) toggle.click();
  });
  document.addEventListener("live:resume", function () { paused = false; schedule(); });
  var resizing = null;
  function relayout() {
    clearTimeout(resizing);
    resizing = setTimeout(function () { layout(); show(); }, 150);
  }
  window.addEventListener("resize", relayout);
  // The band of tables still playing may take one line more or less when it is updated: the
  // rows then have less (or more) height, and are laid out again so that none is cut off.
  if (window.ResizeObserver) {
    var height = holder.clientHeight;
    new ResizeObserver(function () {
      if (holder.clientHeight === height) return;
      height = holder.clientHeight;
      relayout();
    }).observe(holder);
  }

  root.dataset.cycle = "0";
  layout();
  index = 0;
  show();
  schedule();
})();

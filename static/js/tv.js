// The room's screen: page through every view (team standings, then individual standings) so
// that every player is shown once in every cycle, whatever the size of the screen.
//
// A row takes as many lines as its name needs (a long name is never cut); this script measures
// each row at the width of a column, fills as many columns as the width allows (one wide column
// with clubs when the whole field fits) in the height left under the title, and shows one page
// after the other. New standings fetched by live.js
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

  // Each row's height when laid out in one of `columns` columns: a long name or club wraps
  // onto as many lines as it needs, so rows differ in height.
  function heightsAt(list, rows, columns) {
    list.style.gridAutoFlow = "row";
    list.style.gridTemplateRows = "";
    list.style.gridTemplateColumns = "repeat(" + columns + ", minmax(0, 1fr))";
    // Each row its own height (the list aligns its rows to the start of their grid line).
    var heights = rows.map(function (row) { return row.getBoundingClientRect().height || 1; });
    list.style.gridAutoFlow = "";
    return heights;
  }

  // Whether `count` rows from `start` fit the list's height in `columns` balanced columns
  // (filled column by column; a grid line is as tall as its tallest row).
  function fits(heights, start, count, columns, available) {
    var perColumn = Math.ceil(count / columns);
    var total = 0;
    for (var r = 0; r < perColumn; r++) {
      var tallest = 0;
      for (var c = 0; c < columns; c++) {
        var i = start + c * perColumn + r;
        if (i < start + count) tallest = Math.max(tallest, heights[i]);
      }
      total += tallest;
    }
    return total <= available + 0.5;
  }

  // The most rows from `start`, at most `most`, that fit one page (always at least one).
  function pageFrom(heights, start, most, columns, available) {
    var count = Math.min(most, heights.length - start);
    while (count > 1 && !fits(heights, start, count, columns, available)) count -= 1;
    return Math.max(1, count);
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
    var available = list.clientHeight;
    // The height of a row on one line: the shortest row, in one full-width column.
    var lineHeight = Math.min.apply(null, heightsAt(list, rows, 1));
    list.style.gridTemplateColumns = "";
    var perColumn = Math.max(1, Math.floor((available + 0.5) / lineHeight));
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
    view.classList.toggle("tv-wide", columns === 1);
    var heights = heightsAt(list, rows, columns);
    // Balanced pages: as few pages as the screen allows, the rows shared evenly between them
    // (12 teams where 11 fit: two pages of 6, not 11 and 1), and between the page's columns.
    var pageCount = 0;
    for (var at = 0; at < rows.length; pageCount++) {
      at += pageFrom(heights, at, rows.length, columns, available);
    }
    var perPage = Math.ceil(rows.length / pageCount);
    var result = [];
    for (var start = 0; start < rows.length;) {
      var count = pageFrom(heights, start, perPage, columns, available);
      result.push({ view: view, start: start, end: start + count, columns: columns });
      start += count;
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
    // The page's rows, column by column; each grid line as tall as its tallest row.
    var shown = page.view.querySelector(".tv-list");
    var count = page.end - page.start;
    if (count && page.columns) {
      var perColumn = Math.ceil(count / page.columns);
      shown.style.gridTemplateRows = "repeat(" + perColumn + ", auto)";
      shown.style.gridTemplateColumns = "repeat(" + page.columns + ", minmax(0, 1fr))";
    }
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

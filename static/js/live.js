// Public pages that follow the tournament: fetch the page again every few seconds and put the
// new figures in place (regions marked data-live="name"), without reloading the page under the
// reader's eyes. A visible button pauses and resumes the updates; the pause holds for the
// browser tab (sessionStorage). Without JavaScript the page simply stays as it was loaded.
//
// The server answers unchanged pages with 304 (ETag): the browser's cache turns that into the
// copy it holds, and the ETag tells this script that nothing changed.
//
// A region may take the update later: it receives a cancelable "live:update" event whose
// detail.fresh is the new element; calling preventDefault() leaves the swap to the listener
// (the TV screen swaps its standings at the start of a paging cycle). "live:pause" and
// "live:resume" are dispatched on the document.
(function () {
  "use strict";
  var control = document.querySelector("[data-live-control]");
  var regions = Array.prototype.slice.call(document.querySelectorAll("[data-live]"));
  if (!control || !regions.length || !window.fetch || !window.DOMParser) return;

  var params = new URLSearchParams(window.location.search);
  var seconds = parseFloat(params.get("maj")) || parseFloat(control.dataset.liveSeconds) || 30;
  seconds = Math.max(0.2, seconds);
  var button = control.querySelector("button");
  var status = control.querySelector("[data-live-status]");
  var storageKey = "tarot-live-paused";
  var paused = false;
  try {
    paused = control.dataset.livePersist !== "off" && sessionStorage.getItem(storageKey) === "1";
  } catch (e) { /* storage refused: not paused */ }
  var etag = null;
  // What the server last sent for each region (scripts may change the page's copy since).
  var served = regions.map(function (region) { return region.innerHTML; });
  var timer = null;
  var busy = false;

  function label() {
    button.textContent = paused ? control.dataset.labelResume : control.dataset.labelPause;
    control.classList.toggle("live-paused", paused);
    if (paused) say(control.dataset.labelPaused);
  }

  function say(text) {
    if (status && status.textContent !== text) status.textContent = text;
  }

  function clock() {
    var lang = document.documentElement.lang || undefined;
    return new Date().toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
  }

  var FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex]";

  // Sections a reader opened (details with an id) stay open, and the control the reader was on
  // keeps the focus, when the region is replaced.
  function swap(region, fresh) {
    var open = Array.prototype.filter.call(region.querySelectorAll("details[id]"), function (d) {
      return d.open;
    }).map(function (d) { return d.id; });
    var focused = Array.prototype.indexOf.call(
      region.querySelectorAll(FOCUSABLE), document.activeElement
    );
    region.innerHTML = fresh.innerHTML;
    open.forEach(function (id) {
      var details = document.getElementById(id);
      if (details && region.contains(details)) details.open = true;
    });
    if (focused >= 0) {
      var again = region.querySelectorAll(FOCUSABLE)[focused];
      if (again) again.focus({ preventScroll: true });
    }
  }

  function apply(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var changed = false;
    regions.forEach(function (region, i) {
      var fresh = doc.querySelector('[data-live="' + region.dataset.live + '"]');
      if (!fresh || fresh.innerHTML === served[i]) return;
      if (region.querySelector("input:focus, select:focus, textarea:focus")) {
        return; // never pull a field from under the reader's fingers; next time
      }
      changed = true;
      served[i] = fresh.innerHTML;
      var event = new CustomEvent("live:update", { detail: { fresh: fresh }, cancelable: true });
      if (region.dispatchEvent(event)) swap(region, fresh);
    });
    if (changed) say(control.dataset.labelUpdated + " " + clock());
  }

  function schedule() {
    clearTimeout(timer);
    if (!paused) timer = setTimeout(refresh, seconds * 1000);
  }

  function refresh() {
    if (paused || busy) return;
    if (document.hidden) { schedule(); return; }
    busy = true;
    fetch(window.location.href, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        var tag = response.headers.get("ETag");
        if (tag && tag === etag) return null;
        etag = tag;
        return response.text();
      })
      .then(function (html) { if (html !== null) apply(html); })
      .catch(function () { /* offline for a moment: try again at the next tick */ })
      .then(function () { busy = false; schedule(); });
  }

  button.addEventListener("click", function () {
    paused = !paused;
    try { sessionStorage.setItem(storageKey, paused ? "1" : "0"); } catch (e) { /* ignore */ }
    label();
    document.dispatchEvent(new CustomEvent(paused ? "live:pause" : "live:resume"));
    if (paused) { clearTimeout(timer); } else { say(""); refresh(); }
  });
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && !paused) refresh();
  });

  control.hidden = false;
  label();
  if (paused) document.dispatchEvent(new CustomEvent("live:pause"));
  schedule();
})();

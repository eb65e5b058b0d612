// North's phone: each deal is kept on the phone until the server has confirmed it.
//
// Saving a deal puts it in a queue in localStorage (with a random idempotency key), moves the
// form on to the next deal at once, and sends the waiting deals one by one, in order, whenever
// the network allows: now, when the browser says it is back online, when the page is shown
// again, and every few seconds while some are waiting. The server records a key only once and
// answers a resend with what it stored, so a deal sent twice is recorded once. A deal the server
// refuses (an error to correct) or cannot apply (the referee changed the sheet meanwhile: a
// conflict) stays in the list with the server's message until North deals with it.
//
// Works on plain http:// (a club room's 192.168.x.y), where browsers offer neither service
// workers nor crypto.randomUUID: the queue is localStorage, the keys come from
// crypto.getRandomValues. Where a service worker is allowed (https, localhost) it is registered
// too, so the page itself opens again offline (table-sw.js).
//
// The page also asks the server every few seconds (and whenever it is shown again) whether the
// sheet still takes deals (scoring/entry_state.py): when the referee calls time, closes the
// round, or the players begin signing, it opens again by itself and shows why, with no form. A
// deal the server no longer takes (sent late, or from the queue after a Wi-Fi drop) is listed as
// not recorded, with the server's sentence, and the page opens again the same way.
//
// Without JavaScript the form posts to the page as before (the server renders a fresh key).
(function () {
  "use strict";

  var configNode = document.getElementById("table-config");
  var form = document.querySelector("form[data-queue]");
  if (!configNode) return;
  var config = JSON.parse(configNode.dataset.config);
  var texts = config.texts;
  var statusBox = document.getElementById("queue-status");
  var STORE = "tarot-table:" + config.sheet;
  var SEND_TIMEOUT_MS = 10000;
  var RETRY_SECONDS = [2, 4, 8, 15];
  var MAX_CONFIRMED_SHOWN = 5;

  // ---- storage ---------------------------------------------------------------------------

  var memory = null; // when localStorage is refused (a private window of an old browser)

  function load() {
    var raw = null;
    try {
      raw = window.localStorage.getItem(STORE);
    } catch (e) {
      raw = memory;
    }
    var state = null;
    try {
      state = raw ? JSON.parse(raw) : null;
    } catch (e) {
      state = null;
    }
    state = state || {};
    state.queue = state.queue || [];
    state.confirmed = state.confirmed || [];
    return state;
  }

  function save(state) {
    var raw = JSON.stringify(state);
    try {
      window.localStorage.setItem(STORE, raw);
    } catch (e) {
      memory = raw;
    }
  }

  function update(change) {
    // Read, change, write: another tab of the same table may have changed the queue.
    var state = load();
    change(state);
    save(state);
    render(state);
    return state;
  }

  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map
      .call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); })
      .join("");
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (all, name) {
      return name in values ? values[name] : all;
    });
  }

  // A message with a count: ``forms`` holds it for 0, 1 and 2 or more, as the server wrote it.
  function counted(forms, n) {
    return fill(forms[Math.min(n, forms.length - 1)], { n: n });
  }

  // ---- the slot the form is for (number, dealer), moved on by the deals still waiting -------

  function counts(kind) {
    // A misdeal never counts (dealt again); a passed deal only when the tournament says.
    if (kind === "misdeal") return false;
    return kind !== "passed" || config.passedCounts;
  }

  function slotAfter(slot, kind) {
    return {
      number: slot.number + 1,
      dealer: config.after[kind][slot.dealer],
      counted: slot.counted + (counts(kind) ? 1 : 0),
    };
  }

  function localSlot(state) {
    if (config.next === null) return null;
    var slot = { number: config.next, dealer: config.dealer, counted: config.counted };
    state.queue
      .filter(function (e) {
        return e.version === "" && e.status !== "conflict" && e.status !== "stopped";
      })
      .sort(function (a, b) { return a.number - b.number; })
      .forEach(function (entry) {
        if (entry.number === slot.number) slot = slotAfter(slot, entry.kind);
      });
    return slot.counted >= config.quota ? null : slot;
  }

  // ---- the form ----------------------------------------------------------------------------

  function field(name) {
    return form.querySelector("[name=" + name + "]");
  }

  function setRadio(name, value) {
    Array.prototype.forEach.call(form.querySelectorAll("input[name=" + name + "]"), function (r) {
      r.checked = value !== null && r.value === value;
    });
  }

  function clearErrors() {
    Array.prototype.forEach.call(form.querySelectorAll(".errorlist, .errors"), function (e) {
      e.remove();
    });
    Array.prototype.forEach.call(form.querySelectorAll(".has-error"), function (e) {
      e.classList.remove("has-error");
    });
  }

  // Show the form for a new deal in ``slot``: heading, dealer, seat names, hidden fields, and
  // every choice cleared (nothing is chosen until North chooses).
  function showSlot(slot) {
    var entry = document.getElementById("entry");
    var done = document.getElementById("queue-complete");
    if (!slot) {
      if (entry) entry.hidden = true;
      if (done) done.hidden = false;
      form.dataset.mode = "new";
      dirty = false;
      return;
    }
    if (entry) entry.hidden = false;
    if (done) done.hidden = true;
    var active = config.active[slot.dealer];
    var title = form.querySelector("[data-slot=title]");
    if (title) title.textContent = fill(texts.title, { n: slot.number });
    var dealer = form.querySelector("[data-slot=dealer]");
    if (dealer) dealer.textContent = config.seats[slot.dealer].name;
    Array.prototype.forEach.call(form.querySelectorAll("[data-seat-index]"), function (node) {
      var seat = config.seats[active[parseInt(node.dataset.seatIndex, 10)]];
      var letter = node.querySelector(".seat-letter");
      var name = node.querySelector(".seat-name");
      if (letter) letter.textContent = seat.letter;
      if (name) name.textContent = seat.short;
    });
    field("number").value = slot.number;
    field("dealer").value = slot.dealer;
    field("version").value = "";
    field("key").value = newKey();
    ["taker", "contract", "oudlers"].forEach(function (name) { setRadio(name, null); });
    ["petit_au_bout", "slam"].forEach(function (name) { setRadio(name, ""); });
    setRadio("kind", "played");
    setRadio("points_camp", "attack");
    Array.prototype.forEach.call(form.querySelectorAll("input[name^=handful_]"), function (r) {
      r.checked = r.value === "";
    });
    Array.prototype.forEach.call(form.querySelectorAll("select[name^=handful_]"), function (s) {
      s.value = "";
    });
    field("points").value = "";
    var slam = field("slam_announced");
    if (slam) slam.checked = false;
    var played = form.querySelector("fieldset[data-played]");
    if (played) played.disabled = false;
    var details = form.querySelector("details.bonuses");
    if (details) details.open = false;
    var preview = document.getElementById("preview");
    if (preview) preview.innerHTML = "";
    clearErrors();
    form.dataset.mode = "new";
    dirty = false;
  }

  function label(input) {
    var node = input && form.querySelector("label[for='" + input.id + "']");
    if (!node) return "";
    var name = node.querySelector(".seat-name");
    return (name || node).textContent.trim();
  }

  // The points as the sheet's table prints them, whichever separator was typed: « 60,5 » on a
  // French page, "60.5" on an English one; "60" for 60.0.
  function pointsText(value) {
    var typed = String(value || "").trim();
    if (!/^\d+([.,]\d+)?$/.test(typed)) return typed;
    var number = parseFloat(typed.replace(",", "."));
    if (number === Math.round(number)) return String(number);
    return number.toFixed(1).replace(".", texts.decimal || ".");
  }

  function summary() {
    var kind = form.querySelector("input[name=kind]:checked");
    if (kind && (kind.value === "passed" || kind.value === "misdeal")) return label(kind);
    var parts = [
      label(form.querySelector("input[name=taker]:checked")),
      label(form.querySelector("input[name=contract]:checked")),
      counted(texts.oudlers, parseInt((form.querySelector("input[name=oudlers]:checked") || {}).value, 10)),
      pointsText(field("points").value),
    ];
    var camp = form.querySelector("input[name=points_camp]:checked");
    if (camp && camp.value !== "attack") parts[3] += " (" + label(camp) + ")";
    return parts.join(" · ");
  }

  // The browser's own "fill in this field" bubbles are in the browser's language and point at
  // hidden radio buttons: the form has novalidate, and this says what is missing, in place.
  function missing() {
    clearErrors();
    var first = null;
    Array.prototype.forEach.call(form.querySelectorAll("[data-required-message]"), function (holder) {
      if (holder.closest("fieldset[disabled]")) return;
      var inputs = holder.querySelectorAll("input, select, textarea");
      var filled = Array.prototype.some.call(inputs, function (i) {
        return i.type === "radio" || i.type === "checkbox" ? i.checked : i.value.trim() !== "";
      });
      if (filled) return;
      var list = document.createElement("ul");
      list.className = "errorlist";
      list.id = (holder.id || holder.dataset.field) + "-error";
      var item = document.createElement("li");
      item.textContent = holder.dataset.requiredMessage;
      list.appendChild(item);
      holder.appendChild(list);
      holder.classList.add("has-error");
      if (!first) first = { holder: holder, input: inputs[0], list: list };
    });
    if (first) {
      first.list.scrollIntoView({ block: "center" });
      if (first.input) first.input.focus({ preventScroll: true });
    }
    return first !== null;
  }

  var dirty = false;

  function onSubmit(event) {
    if (event.submitter && event.submitter.name === "preview") return; // the server's preview
    event.preventDefault();
    if (missing()) return;
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken" && typeof value === "string") fields.push([name, value]);
    });
    var kind = (form.querySelector("input[name=kind]:checked") || { value: "played" }).value;
    var entry = {
      key: field("key").value || newKey(),
      number: parseInt(field("number").value, 10),
      dealer: field("dealer").value,
      version: field("version").value,
      kind: kind,
      fields: fields,
      summary: summary(),
      status: "waiting",
      message: "",
      // A refused deal taken back into the form keeps its place in the order.
      at: form.dataset.at ? Number(form.dataset.at) : Date.now(),
    };
    delete form.dataset.at;
    var state = update(function (s) {
      s.queue = s.queue.filter(function (e) { return e.key !== entry.key; });
      s.queue.push(entry);
      s.confirmed = [];
    });
    reloadWhenDone = true;
    justSubmitted = entry.key;
    showSlot(localSlot(state));
    // The next deal's form starts where North looks: scroll back only if it went out of sight.
    var top = document.getElementById("queue-status") || form;
    if (top.getBoundingClientRect().top < 0) top.scrollIntoView({ block: "start" });
    flush();
  }

  // ---- sending -----------------------------------------------------------------------------

  var sending = false;
  var justSubmitted = null;
  var retryTimer = null;
  var retryIndex = 0;
  var retryAt = 0;
  var offline = false;
  var reloadWhenDone = false;
  var stopped = false; // the server no longer takes deals: the page opens again once sent

  function csrfToken() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function refreshToken() {
    // A fresh page carries a fresh token (and sets the cookie again if it was lost).
    return fetch(config.pageUrl, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.querySelector("input[name=csrfmiddlewaretoken]");
        if (!fresh) return false;
        Array.prototype.forEach.call(
          document.querySelectorAll("input[name=csrfmiddlewaretoken]"),
          function (input) { input.value = fresh.value; }
        );
        return true;
      });
  }

  function post(entry) {
    var body = new URLSearchParams();
    entry.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    body.set("key", entry.key);
    var controller = window.AbortController ? new AbortController() : null;
    var timer = setTimeout(function () { if (controller) controller.abort(); }, SEND_TIMEOUT_MS);
    return fetch(config.queueUrl, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      cache: "no-store",
      headers: { "X-CSRFToken": csrfToken(), Accept: "application/json" },
      signal: controller ? controller.signal : undefined,
    }).then(function (response) {
      clearTimeout(timer);
      var json = (response.headers.get("Content-Type") || "").indexOf("application/json") === 0;
      return (json ? response.json() : Promise.resolve(null)).then(function (data) {
        return { status: response.status, data: data };
      });
    }, function (error) {
      clearTimeout(timer);
      throw error;
    });
  }

  function nextWaiting(state) {
    // In order: a refused deal holds back the deals after it (their numbers depend on it).
    var ordered = state.queue.slice().sort(function (a, b) { return a.at - b.at; });
    for (var i = 0; i < ordered.length; i++) {
      if (ordered[i].status === "refused") return null;
      if (ordered[i].status === "waiting") return ordered[i];
    }
    return null;
  }

  function scheduleRetry() {
    clearTimeout(retryTimer);
    var seconds = RETRY_SECONDS[Math.min(retryIndex, RETRY_SECONDS.length - 1)];
    retryIndex += 1;
    retryAt = Date.now() + seconds * 1000;
    retryTimer = setTimeout(flush, seconds * 1000);
  }

  // A new deal the server has just recorded: the page's own "next deal" moves on past it, as
  // the server's page would say, so that the form stays right even when the page cannot be
  // read again (the network dropped just after the answer, or North is typing the next deal).
  function advanceConfig(entry) {
    if (entry.version !== "" || config.next === null || entry.number !== config.next) return;
    var slot = slotAfter(
      { number: config.next, dealer: config.dealer, counted: config.counted },
      entry.kind
    );
    config.next = slot.number;
    config.dealer = slot.dealer;
    config.counted = slot.counted;
  }

  function settle(entry, outcome) {
    if (outcome.saved) advanceConfig(entry);
    update(function (state) {
      var stored = state.queue.filter(function (e) { return e.key === entry.key; })[0];
      if (!stored) return;
      if (outcome.saved) {
        state.queue = state.queue.filter(function (e) { return e.key !== entry.key; });
        state.confirmed.push({ number: outcome.number, summary: entry.summary });
        state.confirmed = state.confirmed.slice(-MAX_CONFIRMED_SHOWN);
      } else {
        stored.status = outcome.status;
        stored.message = outcome.message;
        stored.errors = outcome.errors || null;
      }
    });
  }

  function flush() {
    if (sending) return;
    var entry = nextWaiting(load());
    if (!entry) {
      finished();
      return;
    }
    sending = true;
    clearTimeout(retryTimer);
    render(load());
    var triedToken = false;
    function attempt() {
      return post(entry).then(function (result) {
        var data = result.data || {};
        if (result.status === 403 && !result.data && !triedToken) {
          triedToken = true; // CSRF: the cookie or token went stale; fetch a fresh one once
          return refreshToken().then(attempt);
        }
        if (result.status >= 500 || result.status === 0 || result.status === 429) {
          throw new Error("server " + result.status);
        }
        offline = false;
        retryIndex = 0;
        if (data.status === "stopped") {
          // Time called, round closed, signing begun: the deal cannot go in any more.
          settle(entry, { status: "stopped", message: data.message || texts.stopped });
          stopped = true;
        } else if (result.status >= 200 && result.status < 300) {
          settle(entry, { saved: true, number: data.number || entry.number });
        } else if (result.status === 409) {
          settle(entry, { status: "conflict", message: data.message || texts.conflict });
        } else {
          settle(entry, {
            status: "refused",
            message: data.message || texts.refused,
            errors: data.errors,
          });
          // The deal North has just saved, refused at once (an impossible deal): back into
          // the form, with each error next to its field, unless North is typing the next one.
          if (!dirty && form && justSubmitted === entry.key) takeBack(entry.key);
        }
        return true;
      });
    }
    attempt().then(function () {
      sending = false;
      flush();
    }, function () {
      sending = false;
      offline = true;
      render(load());
      scheduleRetry();
    });
  }

  function finished() {
    var state = load();
    render(state);
    var waiting = state.queue.some(function (e) { return e.status === "waiting"; });
    if (!waiting && stopped && form) {
      stopped = false;
      window.location.replace(config.pageUrl); // shows why, without the form
      return;
    }
    if (waiting || !reloadWhenDone) return;
    if (!dirty && form && form.dataset.mode !== "edit") {
      // Everything North saved is on the server: show the sheet as the server has it.
      reloadWhenDone = false;
      window.location.replace(config.pageUrl);
    } else {
      refreshSheet();
    }
  }

  function refreshSheet() {
    fetch(config.pageUrl, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (!html) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        ["sheet", "sheet-status", "sheet-count"].forEach(function (id) {
          var fresh = doc.getElementById(id);
          var here = document.getElementById(id);
          if (fresh && here) here.replaceWith(document.importNode(fresh, true));
        });
      })
      .catch(function () {});
  }

  // ---- the sheet's state, asked again while the page is open ---------------------------------

  var watchTimer = null;

  function watchSeconds() {
    // (?maj=2 asks sooner, as on the live pages: the tests' way.)
    return parseFloat(new URLSearchParams(location.search).get("maj")) || config.watchSeconds;
  }

  function watch() {
    clearTimeout(watchTimer);
    watchTimer = setTimeout(watch, watchSeconds() * 1000);
    if (document.hidden || !config.state) return;
    fetch(config.queueUrl, {
      credentials: "same-origin",
      cache: "no-store",
      headers: { Accept: "application/json" },
    })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) {
        if (data && data.state && data.state !== config.state) {
          window.location.replace(config.pageUrl);
        }
      })
      .catch(function () {}); // no network: the queue says so; asked again later
  }

  // ---- what North sees ---------------------------------------------------------------------

  function button(text, action, key) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    b.dataset.action = action;
    b.dataset.key = key;
    return b;
  }

  function render(state) {
    if (!statusBox) return;
    statusBox.innerHTML = "";
    var waiting = state.queue.filter(function (e) { return e.status === "waiting"; });
    var problems = state.queue.filter(function (e) { return e.status !== "waiting"; });
    // Kept short, so that the next deal's form stays on the screen without scrolling while
    // deals wait (a count, one line of reassurance when the network is down, one line a deal).
    if (waiting.length) {
      var head = document.createElement("p");
      head.className = "queue-count";
      head.textContent = counted(texts.pending, waiting.length);
      if (sending && !offline) head.textContent += " — " + texts.sending;
      statusBox.appendChild(head);
      if (offline) {
        var seconds = Math.max(0, Math.round((retryAt - Date.now()) / 1000));
        var note = document.createElement("p");
        note.className = "queue-note";
        note.textContent =
          counted(texts.offline, waiting.length) + " " + fill(texts.retry, { s: seconds });
        statusBox.appendChild(note);
      }
    }
    var list = document.createElement("ul");
    list.className = "queue-list";
    var ordered = state.queue.slice().sort(function (a, b) { return a.at - b.at; });
    // More than two deals waiting: the earlier ones fold into one line (« Donne 1 – Donne 3 »),
    // so the status never takes more than two lines and the next deal stays on the screen.
    var folded = [];
    if (waiting.length > 2) {
      folded = waiting.slice().sort(function (a, b) { return a.at - b.at; }).slice(0, -1);
    }
    if (folded.length) {
      var numbers = folded.map(function (e) { return e.number; });
      var range = document.createElement("li");
      range.className = "queue-waiting queue-folded";
      range.title = texts.waiting;
      range.textContent =
        fill(texts.title, { n: Math.min.apply(null, numbers) }) + " – " +
        fill(texts.title, { n: Math.max.apply(null, numbers) });
      list.appendChild(range);
    }
    ordered
      .filter(function (entry) { return folded.indexOf(entry) < 0; })
      .forEach(function (entry) {
        var item = document.createElement("li");
        item.className = "queue-" + entry.status;
        var what = document.createElement("span");
        what.textContent = fill(texts.title, { n: entry.number }) + " · " + entry.summary;
        // A waiting deal is one line: the count above already says it waits to be sent.
        if (entry.status !== "waiting") {
          item.appendChild(what);
          var state_ = document.createElement("strong");
          state_.textContent = " — " + texts[entry.status];
          item.appendChild(state_);
        } else {
          item.title = texts.waiting;
          item.appendChild(what);
        }
        if (entry.message) {
          var why = document.createElement("p");
          why.className = "queue-message";
          why.textContent = entry.message;
          item.appendChild(why);
        }
        if (entry.status !== "waiting") {
          var actions = document.createElement("div");
          actions.className = "row";
          // (A closed round's page, or a complete sheet's, has no form to correct it in.)
          if (entry.status === "refused" && form) {
            actions.appendChild(button(texts.edit, "edit", entry.key));
          }
          actions.appendChild(button(texts.discard, "discard", entry.key));
          item.appendChild(actions);
        }
        list.appendChild(item);
      });
    state.confirmed.forEach(function (done) {
      var item = document.createElement("li");
      item.className = "queue-saved";
      item.textContent = "✓ " + fill(texts.saved, { n: done.number }) + " · " + done.summary;
      list.appendChild(item);
    });
    if (list.childNodes.length) statusBox.appendChild(list);
    statusBox.hidden = !statusBox.childNodes.length;
    statusBox.classList.toggle("has-problem", problems.length > 0);
    statusBox.classList.toggle("all-saved", !state.queue.length);
    if (offline && waiting.length) {
      clearTimeout(render.tick);
      render.tick = setTimeout(function () { render(load()); }, 1000);
    }
  }

  // A refused deal goes back into the form to be corrected; any problem can be dropped.
  function onStatusClick(event) {
    var target = event.target.closest("button[data-action]");
    if (!target) return;
    var key = target.dataset.key;
    var entry = load().queue.filter(function (e) { return e.key === key; })[0];
    if (!entry) return;
    if (target.dataset.action === "discard") {
      update(function (state) {
        state.queue = state.queue.filter(function (e) { return e.key !== key; });
      });
      if (form && form.dataset.mode !== "edit") showSlot(localSlot(load()));
      flush();
      return;
    }
    takeBack(key);
  }

  function takeBack(key) {
    var entry = load().queue.filter(function (e) { return e.key === key; })[0];
    if (!entry || !form) return;
    update(function (state) {
      state.queue = state.queue.filter(function (e) { return e.key !== key; });
    });
    restore(entry);
  }

  function restore(entry) {
    var slot = { number: entry.number, dealer: parseInt(entry.dealer, 10), counted: 0 };
    showSlot(slot);
    var values = {};
    entry.fields.forEach(function (pair) { values[pair[0]] = pair[1]; });
    Array.prototype.forEach.call(form.elements, function (input) {
      if (!input.name || !(input.name in values) || input.name === "csrfmiddlewaretoken") return;
      if (input.type === "radio" || input.type === "checkbox") {
        input.checked = values[input.name] === input.value;
      } else {
        input.value = values[input.name];
      }
    });
    field("key").value = newKey();
    var played = form.querySelector("fieldset[data-played]");
    if (played) played.disabled = values.kind === "passed" || values.kind === "misdeal";
    var details = form.querySelector("details.bonuses");
    if (details) {
      details.open = Object.keys(values).some(function (name) {
        var inside = details.querySelector("[name='" + name + "']");
        return inside && inside.type !== "hidden" && values[name] !== "";
      });
    }
    var first = showErrors(entry.errors, entry.message);
    form.dataset.mode = "edit";
    form.dataset.at = entry.at;
    var focus = first.input || first.list;
    if (focus === first.list) first.list.setAttribute("tabindex", "-1");
    first.list.scrollIntoView({ block: "center" });
    focus.focus({ preventScroll: true });
  }

  // The server's errors: each next to its field (once), the others above the form.
  function showErrors(errors, message) {
    clearErrors();
    var first = null;
    var general = [];
    Object.keys(errors || {}).forEach(function (name) {
      var holder = form.querySelector("[data-field='" + name + "']");
      if (!holder || name === "__all__") {
        general = general.concat(errors[name]);
        return;
      }
      var list = errorList(errors[name]);
      holder.appendChild(list);
      holder.classList.add("has-error");
      var details = holder.closest("details");
      if (details) details.open = true;
      if (!first) {
        first = {
          list: list,
          input: holder.querySelector("input:not([type=hidden]), select, textarea"),
        };
      }
    });
    if (!first && !general.length && message) general = [message];
    if (general.length) {
      var box = document.createElement("div");
      box.className = "errors";
      box.setAttribute("role", "alert");
      box.appendChild(errorList(general));
      var head = form.querySelector(".entry-head");
      form.insertBefore(box, head ? head.nextSibling : form.firstChild);
      first = first || { list: box, input: null };
    }
    return first;
  }

  function errorList(messages) {
    var list = document.createElement("ul");
    list.className = "errorlist";
    messages.forEach(function (text) {
      var item = document.createElement("li");
      item.textContent = text;
      list.appendChild(item);
    });
    return list;
  }

  // ---- start -------------------------------------------------------------------------------

  if (form) {
    form.setAttribute("novalidate", "");
    form.addEventListener("submit", onSubmit);
    form.addEventListener("input", function () { dirty = true; });
    form.addEventListener("change", function () { dirty = true; });
    form.dataset.mode = config.form || "new";
    if (!field("key").value) field("key").value = newKey();
  }
  if (statusBox) statusBox.addEventListener("click", onStatusClick);

  var initial = load();
  reloadWhenDone = initial.queue.some(function (e) { return e.status === "waiting"; });
  var hasErrors = form && form.querySelector(".errorlist, .errors");
  if (form && config.form === "new" && !hasErrors && initial.queue.some(function (e) {
    return e.version === "" && e.status !== "conflict";
  })) {
    showSlot(localSlot(initial));
  } else if (!form && initial.queue.length) {
    var done = document.getElementById("queue-complete");
    if (done) done.hidden = false;
  }
  render(initial);
  window.addEventListener("online", function () {
    retryIndex = 0;
    flush();
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      flush();
      watch();
    }
  });
  window.addEventListener("storage", function (event) {
    if (event.key === STORE) render(load());
  });
  flush();
  watchTimer = setTimeout(watch, watchSeconds() * 1000);

  if ("serviceWorker" in navigator && window.isSecureContext && config.swUrl) {
    navigator.serviceWorker
      .register(config.swUrl, { scope: config.swScope })
      .then(function () {
        // The first visit is not served by the worker yet: keep a copy of this page and its
        // files now, so that it opens offline from the next visit on.
        if (navigator.serviceWorker.controller || !window.caches) return;
        var urls = [config.pageUrl];
        document.querySelectorAll("link[rel=stylesheet], script[src]").forEach(function (n) {
          urls.push(n.href || n.src);
        });
        return caches.open("tarot-table-v1").then(function (cache) { return cache.addAll(urls); });
      })
      .catch(function () {});
  }
})();

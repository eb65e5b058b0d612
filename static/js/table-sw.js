// Service worker of the table links (/table/...): lets North's page open again while the club's
// Wi-Fi is down or the referee's laptop restarts. The deals themselves never go through here:
// the page keeps them in localStorage until the server confirms them (table-queue.js).
//
// Browsers run service workers only in secure contexts (https, or http://localhost): on a club
// room's plain http://192.168.x.y address this file is never used, and the page works without it.
//
// Pages and static files: network first (a page is always as fresh as the network allows), the
// last good copy when the network fails or does not answer within a few seconds.
"use strict";

var CACHE = "tarot-table-v1";
var NETWORK_WAIT_MS = 4000;

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(
        names
          .filter(function (name) { return name.indexOf("tarot-table-") === 0 && name !== CACHE; })
          .map(function (name) { return caches.delete(name); })
      );
    }).then(function () { return self.clients.claim(); })
  );
});

function fromCache(request) {
  return caches.open(CACHE).then(function (cache) {
    // (Django's pages vary on the cookie and the language: the phone's own copy is the one.)
    return cache.match(request, { ignoreVary: true }).then(function (hit) {
      // A page opened as ?donne=3 (a correction) falls back to the table's page.
      return hit || cache.match(request, { ignoreSearch: true, ignoreVary: true });
    });
  });
}

// The network's answer (kept in the cache when good); the cached copy when the network fails,
// or when it has not answered after NETWORK_WAIT_MS (then the network's answer still wins if
// there is no copy).
function networkFirst(request) {
  var network = fetch(request).then(function (response) {
    if (response.ok) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
    }
    return response;
  });
  return new Promise(function (resolve, reject) {
    var settled = false;
    function settle(fn, value) {
      if (!settled) {
        settled = true;
        fn(value);
      }
    }
    var timer = setTimeout(function () {
      fromCache(request).then(function (hit) {
        if (hit) settle(resolve, hit);
      });
    }, NETWORK_WAIT_MS);
    network.then(function (response) {
      clearTimeout(timer);
      settle(resolve, response);
    }, function (error) {
      clearTimeout(timer);
      fromCache(request).then(function (hit) {
        settle(hit ? resolve : reject, hit || error);
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;  // deals are posted by the page itself, never cached
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  var isPage = request.mode === "navigate";
  var isStatic = url.pathname.indexOf("/static/") === 0;
  if (!isPage && !isStatic) return;
  event.respondWith(networkFirst(request));
});

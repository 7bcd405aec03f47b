/* Bunco Night's service worker, for the table and player phones only (they register it
   with the scope /t/ or /p/, so host pages never have one).

   Pages: network first, so a page is never stale while the network is up; the last copy
   of each phone page answers when the network is down (a reload in a dead spot).
   Static files: a hashed name never changes, so the cached copy is served; a name
   without a hash (debug) is fetched first, like a page. The static cache is named after
   the release, so a new release (a new worker) deletes the last one's files when it
   takes over. Polls and posts are never cached: the page's own queue handles taps. */
"use strict";

var PAGES = "bunco-pages-v1";
var STATIC = "bunco-static-{{ static_build|escapejs }}";
var PHONE_PAGE = /^\/[tp]\/[A-Za-z0-9_-]+\/$/;
var HASHED = /\.[0-9a-f]{12}\.[a-z0-9]+$/;
var STATIC_URL = "{{ static_url|escapejs }}";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n !== PAGES && n !== STATIC; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

function networkFirst(request, cacheName, key) {
  key = key || request;
  return fetch(request).then(function (response) {
    if (response.ok && response.type === "basic") {
      var copy = response.clone();
      caches.open(cacheName).then(function (cache) { cache.put(key, copy); });
    }
    return response;
  }).catch(function (error) {
    return caches.match(key, { cacheName: cacheName, ignoreVary: true }).then(function (cached) {
      if (cached) return cached;
      throw error;
    });
  });
}

function cacheFirst(request) {
  return caches.match(request, { cacheName: STATIC, ignoreVary: true }).then(function (cached) {
    return cached || networkFirst(request, STATIC);
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && PHONE_PAGE.test(url.pathname)) {
    event.respondWith(networkFirst(request, PAGES, url.pathname));
  } else if (url.pathname.indexOf(STATIC_URL) === 0) {
    event.respondWith(HASHED.test(url.pathname) ? cacheFirst(request) : networkFirst(request, STATIC));
  }
});

/* A phone page's first visit came before this worker: the page sends its address and its
   static files, to be kept the same way. */
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (!data.page || !PHONE_PAGE.test(new URL(data.page, self.location).pathname)) return;
  event.waitUntil(Promise.all([
    caches.open(PAGES).then(function (cache) { return cache.add(data.page); }),
    caches.open(STATIC).then(function (cache) {
      return Promise.all((data.assets || []).filter(function (a) {
        return new URL(a, self.location).pathname.indexOf(STATIC_URL) === 0;
      }).map(function (a) {
        return cache.match(a).then(function (hit) { return hit || cache.add(a); });
      }));
    }),
  ]).catch(function () { /* offline right now: the next visit caches them */ }));
});

/* The page in a dead spot (part of the phone's page code: see js/bunco.js). The service
   worker is registered, and the parts of the page last shown are kept and put back on a
   reload. Runs as it loads, before the other bunco-*.js files read the page. Uses
   Bunco.local; gives Bunco.keepShown (only where parts are kept: bunco-page.js runs it
   after each settle). */
(function (B) {
  "use strict";

  var body = B.body, token = B.token, local = B.local;

  /* Offline reload: the table and player phones get a service worker (templates/core/sw.js)
     scoped to their own kind of page, so host pages have none. A page's first visit came
     before the worker could see it: it hands the worker its address and static files. */
  if (body.dataset.sw && "serviceWorker" in navigator) {
    var swScope = "/" + location.pathname.split("/")[1] + "/";
    var controlled = !!navigator.serviceWorker.controller;
    navigator.serviceWorker.register(body.dataset.sw, { scope: swScope }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (reg) {
      if (controlled || !reg.active) return;
      var assets = Array.prototype.map.call(
        document.querySelectorAll("link[rel=stylesheet], script[src]"),
        function (el) { return el.href || el.src; });
      reg.active.postMessage({ page: location.pathname, assets: assets });
    }).catch(function () { /* no offline reload here; everything else still works */ });
  }

  /* What this phone last showed, kept for a reload in a dead spot: the service worker's
     copy of the page is the page as it last loaded (a table phone draws every round in
     place, so that may be the night's first), and a table's round, scores and entries, or
     where a player sits now, may be long gone by. The kept parts (a table's board, header,
     tap controls and entries, a player's card) replace the page's only if they are newer
     (the version the polls send), before htmx reads the page; online, the page is as new
     as what was kept, or newer. */
  var keptIds = !body.dataset.sw ? [] : token ? ["board", "table-head", "controls", "recent", "foot"] : ["card"];
  var keptKey = "bunco-kept-" + location.pathname;
  function shownVersion(el) {
    var v = /[?&]v=([0-9.]+)/.exec((el && el.getAttribute("hx-get")) || "");
    return v ? v[1].split(".").map(Number) : null;
  }
  function newer(a, b) {
    for (var i = 0; i < Math.max(a.length, b.length); i++) {
      if ((a[i] || 0) !== (b[i] || 0)) return (a[i] || 0) > (b[i] || 0);
    }
    return false;
  }
  function keepShown() {
    var main = document.getElementById(keptIds[0]), version = shownVersion(main);
    if (!version) return;
    local.set(keptKey, JSON.stringify({
      version: version,
      parts: keptIds.map(function (id) {
        var el = document.getElementById(id);
        if (!el) return null;
        /* As drawn: no button held back for a moment, no tap waiting counted. */
        var copy = el.cloneNode(true);
        copy.querySelectorAll("[data-settling]").forEach(function (b) {
          b.removeAttribute("data-settling");
        });
        copy.querySelectorAll(".unsent-note").forEach(function (n) { n.remove(); });
        copy.querySelectorAll(".score-box.unsent").forEach(function (b) { b.classList.remove("unsent"); });
        copy.querySelectorAll(".score[data-score]").forEach(function (n) { n.textContent = n.dataset.score; });
        return copy.outerHTML;
      })
    }));
  }
  function replaceWith(el, html) {
    var parsed = document.createElement("template");
    parsed.innerHTML = html || "";
    var fresh = parsed.content.firstElementChild;
    if (!el || !fresh || fresh.id !== el.id) return;
    fresh.removeAttribute("hx-swap-oob");
    el.replaceWith(fresh);
  }
  function restoreShown() {
    var main = document.getElementById(keptIds[0]), version = shownVersion(main), kept = null;
    try { kept = JSON.parse(local.get(keptKey) || "null"); } catch (e) { kept = null; }
    if (!kept || !version || !kept.version || !kept.parts || !newer(kept.version, version)) return;
    keptIds.forEach(function (id, i) { replaceWith(document.getElementById(id), kept.parts[i]); });
  }
  if (keptIds.length) {
    restoreShown();
    keepShown();
    B.keepShown = keepShown;
  }
})(window.Bunco);

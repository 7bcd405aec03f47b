/* The table phone's queue of taps (part of the phone's page code: see js/bunco.js): kept
   on the phone, sent in order, retried, set aside. Uses Bunco.local, the banner and list
   of bunco-offline.js (setOffline, isOffline, renderParked), Bunco.showToast, and, for
   the board a tap brings back, Bunco.beforeDraw (bunco-settle.js) and followRoller
   (bunco-taps.js). Gives Bunco.queue, parked, isFlushing, cancel, forget, retry, flush,
   enqueue and refreshBoard; bunco-page.js starts the sending. */
(function (B) {
  "use strict";

  var token = B.token, local = B.local;

  /* ---- the table phone's queue ----
     Every tap is stored on the phone first and sent in order. The server acknowledges a
     tap (stored, or set aside as a late entry for the host), refuses it (shown until the
     player dismisses it), or fails (5xx: retried a few times, then parked with a clear
     message so it cannot block the taps behind it). A tap is never dropped silently. */
  var qkey = "bunco-queue-" + token;
  var pkey = "bunco-parked-" + token;
  var MAX_TRIES = 3;
  function load(key) {
    if (!token) return [];
    try { return JSON.parse(local.get(key) || "[]"); } catch (e) { return []; }
  }
  function queue() { return load(qkey); }
  function save(q) { local.set(qkey, JSON.stringify(q)); B.renderParked(); }
  function parked() { return load(pkey); }
  function saveParked(list) { local.set(pkey, JSON.stringify(list)); B.renderParked(); }
  function newNonce() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID().replace(/-/g, "");
    var a = new Uint8Array(16);
    crypto.getRandomValues(a);
    return Array.prototype.map.call(a, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  function cancel(id) {
    var q = queue();
    if (flushing && q.length && q[0].id === id) return;  /* on its way: undo it once stored */
    save(q.filter(function (i) { return i.id !== id; }));
    B.setOffline(B.isOffline(), queue().length);
  }
  function forget(id) { saveParked(parked().filter(function (i) { return i.id !== id; })); }
  function retry(id) {
    var item = parked().filter(function (i) { return i.id === id; })[0];
    if (!item) return;
    forget(id);
    item.tries = 0;
    delete item.state; delete item.error;
    var q = queue(); q.push(item); save(q);
    flush();
  }
  function park(item, state, error) {
    item.state = state;
    item.error = error;
    var list = parked(); list.push(item); saveParked(list);
  }

  function refreshBoard() {
    var board = document.getElementById("board");
    if (board && window.htmx) htmx.trigger(board, "refresh");
  }

  /* A stored tap's answer carries the table's board as the tap left it (what the poll
     would fetch): once the queue is empty it is shown as htmx would swap it, and nothing
     is fetched. Any other answer, or none, and the board is asked for as before. */
  var tapBoard = null;
  function showBoard() {
    var board = document.getElementById("board");
    var html = tapBoard;
    tapBoard = null;
    if (!html || !board || !window.htmx || !htmx.swap) { refreshBoard(); return; }
    htmx.trigger(board, "htmx:abort");  /* a poll in flight would bring an older board */
    B.beforeDraw();
    htmx.swap(board, html, { swapStyle: "outerHTML" });
    B.followRoller();
  }

  function shift(item) {
    var rest = queue();
    if (rest.length && rest[0].id === item.id) rest.shift();
    save(rest);
  }

  /* A tap's fields as sent, with how long it waited on the phone (ms: the host sees when a
     late one was tapped, docs/rules.md section 3.5). */
  function sent(item) {
    var body = new URLSearchParams(item.fields);
    if (item.at) body.set("waited", String(Math.max(0, Date.now() - item.at)));
    return body;
  }
  var flushing = false;
  function flush() {
    if (flushing || !token) return;
    var q = queue();
    /* The browser knows it has no network: keep the taps; the "online" event sends them. */
    if (q.length && navigator.onLine === false) { B.setOffline(true, q.length); return; }
    B.setOffline(false, q.length);
    if (!q.length) { showBoard(); return; }
    flushing = true;
    var item = q[0];
    fetch(item.url, {
      method: "POST",
      headers: { "Accept": "application/json" },
      body: sent(item),
      credentials: "same-origin",
    }).then(function (resp) {
      tapBoard = null;
      if (resp.status >= 500) {
        item.tries = (item.tries || 0) + 1;
        if (item.tries < MAX_TRIES) {
          var rest = queue();
          if (rest.length && rest[0].id === item.id) { rest[0].tries = item.tries; save(rest); }
          return new Promise(function (done) { setTimeout(done, 1000 * item.tries); });
        }
        shift(item);
        park(item, "failed", "");
        return;
      }
      return resp.json().catch(function () { return { ok: resp.ok }; }).then(function (data) {
        shift(item);
        if (!resp.ok || data.ok === false) {
          park(item, "refused", (data && data.error) || (resp.status === 404 ?
            "This link no longer works: the host may have made a new one. Scan the table's new code." :
            "The server refused it."));
          return;
        }
        tapBoard = data.board || null;
        if (data.late) arrivedLate(data.message);
      });
    }).then(function () {
      flushing = false;
      flush();
    }).catch(function () {
      flushing = false;
      B.setOffline(true, queue().length);
      setTimeout(flush, 2000);
    });
  }

  function enqueue(url, fields, label, effect) {
    var q = queue();
    fields.nonce = newNonce();
    q.push({ id: fields.nonce, url: url, fields: fields, label: label, tries: 0, effect: effect || null,
             at: Date.now() });
    save(q);
    flush();
  }

  /* Taps set aside for the host, arrived after their round ended (docs/rules.md section
     3.5): one message, counting those that arrived one after the other. */
  function arrivedLate(message) {
    var before = document.querySelector(".toast.late");
    var count = before ? parseInt(before.dataset.count, 10) + 1 : 1;
    B.showToast(count === 1 ?
      message || "This tap arrived after the round ended: the host will decide." :
      "These " + count + " taps arrived after the round ended here: the host will decide.",
      "error late");
    document.querySelector(".toast.late").dataset.count = String(count);
  }

  B.queue = queue;
  B.parked = parked;
  B.isFlushing = function () { return flushing; };
  B.cancel = cancel;
  B.forget = forget;
  B.retry = retry;
  B.flush = flush;
  B.enqueue = enqueue;
  B.refreshBoard = refreshBoard;
})(window.Bunco);

/* Bunco Night on a phone: taps queue on the phone and are sent in order, so nothing is
   lost or doubled when Wi-Fi drops; the bell rings with sound and vibration. Pages work
   without this script (plain forms); this makes them fast and offline-proof. */
(function () {
  "use strict";

  var body = document.body;
  var token = body.dataset.tableToken;

  /* The phone's storage, which it may refuse (a private window, a full quota): what it
     refuses is kept in this page's memory instead, so the bell, the queue of taps and
     the rest still work until the page is closed. */
  function storage(name) {
    var memory = {};
    function area() { return window[name]; }
    return {
      get: function (key) {
        var value = null;
        try { value = area().getItem(key); } catch (e) { /* refused: memory only */ }
        return value !== null ? value : (key in memory ? memory[key] : null);
      },
      set: function (key, value) {
        try { area().setItem(key, value); delete memory[key]; } catch (e) {
          memory[key] = value;
          try { area().removeItem(key); } catch (e2) { /* nothing kept there either */ }
        }
      },
      remove: function (key) {
        delete memory[key];
        try { area().removeItem(key); } catch (e) { /* nothing kept there */ }
      }
    };
  }
  var local = storage("localStorage"), session = storage("sessionStorage");
  var audio = null;

  function unlockAudio() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      if (audio.state === "suspended") audio.resume();
    } catch (e) { audio = null; }
  }
  document.addEventListener("pointerdown", unlockAudio, { once: true });

  function ring() {
    try {
      unlockAudio();
      if (audio) {
        var now = audio.currentTime;
        [[1318, 0.35], [1760, 0.2], [2637, 0.12]].forEach(function (p) {
          var osc = audio.createOscillator(), gain = audio.createGain();
          osc.type = "sine";
          osc.frequency.value = p[0];
          gain.gain.setValueAtTime(p[1], now);
          gain.gain.exponentialRampToValueAtTime(0.0001, now + 1.8);
          osc.connect(gain).connect(audio.destination);
          osc.start(now);
          osc.stop(now + 1.8);
        });
      }
    } catch (e) { /* no sound: the banner still shows */ }
    if (navigator.vibrate) navigator.vibrate([300, 120, 300, 120, 300]);
  }

  /* The bell: ring once per round when a polled fragment says it has rung. A bell taken
     back while its round is still in play (an undo: docs/rules.md section 6.2) is said so,
     and rings again if it rings again; a closed round's bell is simply over. */
  function checkBell(el) {
    if (!el) return;
    var key = "bunco-bell-" + location.pathname + "-" + el.dataset.round;
    if (el.dataset.bell !== "1") {
      if (session.get(key)) {
        session.remove(key);
        if (el.dataset.playing === "1") notice("The bell was taken back: play on.");
      }
      return;
    }
    if (session.get(key)) return;
    session.set(key, "1");
    ring();
  }

  /* The connection's state. Online, taps on their way are said only once they have waited
     SENDING_SAID: a tap answered at once shows nothing. On the table phone the banner lies
     over the table's header (css/play.css), so it never moves the buttons under a finger. */
  var offline = document.getElementById("offline");
  var offlineNow = false;
  var SENDING_SAID = 1000, sendingTimer = null;
  function setOffline(isOffline, waiting) {
    if (offlineNow !== isOffline) { offlineNow = isOffline; renderParked(); }
    if (!offline) return;
    clearTimeout(sendingTimer);
    if (!isOffline && waiting && offline.hidden) {  /* back online, it says "Sending…" at once */
      sendingTimer = setTimeout(function () { sayOffline(false, queue().length); }, SENDING_SAID);
      return;
    }
    sayOffline(isOffline, waiting);
  }
  function sayOffline(isOffline, waiting) {
    if (isOffline || waiting) {
      offline.hidden = false;
      offline.className = "offline" + (isOffline ? " is-offline" : " is-sending");
      offline.textContent = (isOffline ? "Offline. " : "Sending… ") +
        (waiting ? waiting + (waiting === 1 ? " tap waits" : " taps wait") + " on this phone" :
          "Scores will update when the connection is back.");
      if (waiting) {
        var later = document.createElement("small");
        later.textContent = " and will be sent when the connection is back.";
        offline.appendChild(later);
      }
    } else {
      offline.hidden = true;
    }
    renderUnsent();
  }

  document.body.addEventListener("htmx:sendError", function () { setOffline(true, queue().length); });
  /* A poll answered "not found": the link itself no longer works (the host made a new one,
     or called the night off). Said until a poll is answered again. */
  document.body.addEventListener("htmx:responseError", function (e) {
    if (!offline || e.detail.xhr.status !== 404) return;
    offline.hidden = false;
    offline.className = "offline is-gone";
    offline.textContent = "This link no longer works: the host may have made a new one, " +
      "or called the night off. Ask the host.";
  });
  document.body.addEventListener("htmx:afterRequest", function (e) {
    if (e.detail.successful) setOffline(false, queue().length);
  });
  document.body.addEventListener("htmx:afterSwap", function (e) {
    var board = document.getElementById("board");
    checkBell(board);
    var card = document.getElementById("card");
    checkBell(card);
    var screen = document.getElementById("screen");
    checkBell(screen);
    checkBell(document.getElementById("live-poll"));
    checkBell(document.getElementById("room-poll"));
    followRoller();
  });
  document.addEventListener("DOMContentLoaded", function () {
    showMissedMoves();
    var board = document.getElementById("board");
    if (token && board) body.dataset.movesFor = board.dataset.round;
    noteMoves(document.getElementById("board"));
    showNotice();
    ["board", "card", "screen", "live-poll", "room-poll"].forEach(function (id) {
      checkBell(document.getElementById(id));
    });
  });

  /* Where to sit next: the table phone keeps the number of the last closed round whose
     moves it has shown on a visible screen: the table saw the round end. A phone that was
     away (asleep, off the Wi-Fi, hidden) while the host closed a round and started the
     next comes back into the new round with "where to sit now" (#missed-moves: the page's,
     or asked for when the new round is drawn in place) shown over the page, its title at
     the top, until someone taps Got it. A phone new to the table has nothing to catch up on. */
  var movesKey = "bunco-moves-" + token;
  function movesShown() {
    var value = token ? local.get(movesKey) : null;
    return value === null ? null : parseInt(value, 10);
  }
  function movesRead(round) {
    var shown = movesShown();
    if (shown === null || shown < round) local.set(movesKey, String(round));
  }
  function noteMoves(board) {
    if (!token || !board) return;
    var round = parseInt(board.dataset.round || "0", 10);
    if (movesShown() === null) movesRead(round - 1);
    var showing = board.classList.contains("status-between") && !!board.querySelector(".moves") &&
      document.visibilityState === "visible";
    if (showing) movesRead(round);
  }
  document.addEventListener("visibilitychange", function () {
    noteMoves(document.getElementById("board"));
  });
  function showMissedMoves() {
    var box = document.getElementById("missed-moves");
    var shown = movesShown();
    if (!box || shown === null || box.open) return;
    var round = parseInt(box.dataset.round, 10);
    if (shown >= round) return;
    var ok = box.querySelector("[data-missed-ok]");
    ok.addEventListener("click", function () { box.close(); });
    box.addEventListener("close", function () { movesRead(round); });
    if (box.showModal) box.showModal(); else box.setAttribute("open", "");
    /* It opens at its title, not scrolled down to the Got it button it focuses. */
    box.scrollTop = 0;
    hold([ok]);  /* it opened under a finger, maybe */
  }
  /* A new round drawn in place, on a phone that did not show the closed round's moves:
     where everyone sits now is asked for, once. */
  function catchUpOnMoves(board) {
    var shown = movesShown(), round = parseInt(board.dataset.round || "0", 10);
    var started = board.classList.contains("status-playing") ||
      board.classList.contains("status-not_seated");
    /* Once it is decided (and said, if it had to be): for the tests, data-moves-for. */
    function decided() { body.dataset.movesFor = String(round); }
    if (!started || shown === null || shown >= round - 1 || !body.dataset.movesUrl) {
      decided();
      return;
    }
    fetch(body.dataset.movesUrl, { headers: { "Accept": "text/html" }, credentials: "same-origin" })
      .then(function (resp) { return resp.status === 200 ? resp.text() : ""; })
      .then(function (html) {
        var parsed = document.createElement("template");
        parsed.innerHTML = html;
        var box = parsed.content.getElementById("missed-moves");
        var now = document.getElementById("board");
        if (!box || !now || now.dataset.round !== board.dataset.round) return;
        var old = document.getElementById("missed-moves");
        if (old && old.open) return;
        if (old) old.remove();
        document.getElementById("table-head").after(box);
        showMissedMoves();
      })
      .catch(function () { /* offline: the next new round, or a reload, says it */ })
      .then(decided);
  }

  /* The table phone's screen stays on while a round is in play (Screen Wake Lock API) and
     may sleep between rounds. The browser drops the lock when the page is hidden, so it is
     asked for again when the page is visible. Without the API the screen dims as before. */
  var wakeLock = null;
  function roundInPlay() {
    var board = document.getElementById("board");
    return !!(token && board && board.classList.contains("status-playing"));
  }
  function keepAwake() {
    if (!navigator.wakeLock) return;
    if (roundInPlay() && document.visibilityState === "visible") {
      if (wakeLock) return;
      wakeLock = "asking";
      navigator.wakeLock.request("screen").then(function (lock) {
        wakeLock = lock;
        lock.addEventListener("release", function () { if (wakeLock === lock) wakeLock = null; });
        if (!roundInPlay()) letSleep();
      }).catch(function () { wakeLock = null; });
    } else if (!roundInPlay()) {
      letSleep();
    }
  }
  function letSleep() {
    if (!wakeLock || wakeLock === "asking") return;
    var lock = wakeLock;
    wakeLock = null;
    lock.release().catch(function () {});
  }
  document.addEventListener("visibilitychange", keepAwake);
  /* After the settle, not the swap: htmx keeps the old class on a swapped element until then. */
  document.body.addEventListener("htmx:afterSettle", keepAwake);
  document.addEventListener("DOMContentLoaded", keepAwake);

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
    document.body.addEventListener("htmx:afterSettle", keepShown);
  }

  /* Screen readers hear what a poll changed: the scores on the table phone, the seat on a
     player's page (the fragments say it in words, in data-announce). The bell banners are
     role="alert" and speak for themselves. */
  var announcer = document.getElementById("announce");
  function announcement() {
    return Array.prototype.map.call(document.querySelectorAll("[data-announce]"),
      function (el) { return el.dataset.announce; }).join(" ");
  }
  var announced = announcement();
  document.body.addEventListener("htmx:afterSwap", function () {
    var now = announcement();
    if (announcer && now && now !== announced) announcer.textContent = now;
    announced = now;
  });

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
  function save(q) { local.set(qkey, JSON.stringify(q)); renderParked(); }
  function parked() { return load(pkey); }
  function saveParked(list) { local.set(pkey, JSON.stringify(list)); renderParked(); }
  function newNonce() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID().replace(/-/g, "");
    var a = new Uint8Array(16);
    crypto.getRandomValues(a);
    return Array.prototype.map.call(a, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  /* One message at a time, at the bottom of the screen over the buttons: a newer one
     replaces it, a tap on it or the next tap on the table's buttons clears it, and it goes
     by itself after six seconds. A keyboard closes it too: Escape, or its Close button;
     it never takes the focus, which stays on the button that was pressed. It never
     covers Done, an Undo, or the button it answers (Done refused: someone has not rolled
     yet), so a player can still tap them while it shows, nor where to sit next once a
     round is over: placeClear finds it a place clear of them, again whenever the page
     scrolls or changes. */
  function showError(text, near) { showToast(text, "error", near); }
  /* A notice outlives a reload that follows it at once (someone reloads the page): it is
     kept for as long as it shows, and the reloaded page shows it again. */
  var noticeKey = "bunco-notice-" + location.pathname;
  function notice(text) {
    session.set(noticeKey, text);
    showNotice();
  }
  function showNotice() {
    var text = session.get(noticeKey);
    if (!text) return;
    showToast(text, "notice");
    setTimeout(function () { session.remove(noticeKey); }, 6000);
  }
  var placeToast = null;
  var focusedBefore = null;  /* where the focus was before it reached a Close button */
  function showToast(text, kind, near) {
    clearError();
    var box = document.createElement("div");
    box.className = "toast " + kind;
    /* The Close button first, floated right: the text wraps round it, not under it. */
    var close = document.createElement("button");
    close.type = "button";
    close.className = "toast-close";
    close.setAttribute("aria-label", "Close this message");
    close.addEventListener("focus", function (e) { focusedBefore = e.relatedTarget; });
    var words = document.createElement("span");
    words.setAttribute("role", kind === "error" ? "alert" : "status");
    words.textContent = text;
    box.append(close, words);
    box.addEventListener("click", function () { clearError(); });
    document.body.appendChild(box);
    placeToast = function () { if (box.isConnected) placeClear(box, near ? near() : null); };
    placeToast();
    setTimeout(function () { if (box.isConnected) removeToasts([box]); }, 6000);
  }
  /* Escape closes the message, unless it closes a dialog (who rolled the bunco). */
  document.addEventListener("keydown", function (e) {
    if (e.key !== "Escape" || document.querySelector("dialog[open]")) return;
    if (document.querySelector(".toast")) clearError();
  });
  /* A message closed while its Close button had the focus gives it back where it was. */
  function removeToasts(boxes) {
    var back = boxes.some(function (box) { return box.contains(document.activeElement); });
    boxes.forEach(function (box) { box.remove(); });
    if (back && focusedBefore && focusedBefore.isConnected) focusedBefore.focus();
    if (back) focusedBefore = null;
  }

  /* The buttons a message leaves uncovered, and where to sit next. */
  var UNCOVERED = "button.done, button.undo, #recent button, #board :is(.moves, .arrivals) li";
  /* And, for a tap's "not entered", what the players look at and tap next. */
  var TAPPED_NEXT = ".score-box, #taps button, #taps label";
  var TOAST_GAP = 6;  /* px between the message and a button it keeps clear of */
  function placeClear(box, near) {
    var style = box.style, height = window.innerHeight;
    var width = document.documentElement.clientWidth;
    box.classList.remove("placed", "beside");
    style.top = style.right = style.maxHeight = "";
    /* Where the stylesheet puts it: at the bottom of the screen, at most so tall; and how
       far down it starts when at the top (below a notch). */
    var home = box.getBoundingClientRect();
    var left = home.left, bottom = home.bottom, most = parseFloat(getComputedStyle(box).maxHeight);
    box.classList.add("placed");
    var top = box.getBoundingClientRect().top;
    var buttons = Array.prototype.slice.call(document.querySelectorAll(
      box.classList.contains("not-entered") ? UNCOVERED + ", " + TAPPED_NEXT : UNCOVERED));
    if (near) buttons.push(near);
    var keep = buttons.map(function (b) { return b.getBoundingClientRect(); }).filter(function (r) {
      return r.width > 0 && r.bottom > 0 && r.top < height;
    });
    /* The bottom of the screen, or the top while the button it answers is in the lower
       half; else the other; else a gap between the buttons. */
    var nearRect = near && near.getBoundingClientRect();
    var upFirst = !!nearRect && nearRect.top + nearRect.height / 2 > height / 2;
    function rank(span) {
      var atBottom = span.b === bottom, atTop = span.a === top;
      return upFirst ? (atTop ? 0 : atBottom ? 1 : 2) : (atBottom ? 0 : atTop ? 1 : 2);
    }
    /* Full width; else beside the buttons on the right (the Undo column), clear of the
       full-width ones (Done). */
    var widths = [{ right: width - left, beside: false }];
    var column = Math.min.apply(null, keep.filter(function (r) { return r.left > width / 3; })
      .map(function (r) { return r.left; }));
    if (isFinite(column) && column - TOAST_GAP - left >= width * 0.4) {
      widths.push({ right: Math.floor(column - TOAST_GAP), beside: true });
    }
    var spot = null, roomiest = null;
    widths.some(function (w) {
      box.classList.toggle("beside", w.beside);
      style.right = (width - w.right) + "px";
      style.maxHeight = "none";
      var tall = Math.min(box.offsetHeight, most);
      var spans = clearSpans(keep, left, w.right, top, bottom);
      spans.forEach(function (s) {
        if (!roomiest || s.b - s.a > roomiest.tall) roomiest = { w: w, top: s.a, tall: s.b - s.a };
      });
      var fit = spans.filter(function (s) { return s.b - s.a >= tall; });
      fit.sort(function (p, q) { return rank(p) - rank(q); });
      if (fit.length) {
        spot = { w: w, top: fit[0].b === bottom ? bottom - tall : fit[0].a, tall: tall };
      }
      return spot;
    });
    /* Nowhere clear is tall enough: the roomiest gap, the message scrolling inside it. */
    spot = spot || roomiest;
    if (!spot) {  /* no room at all: where the stylesheet puts it */
      box.classList.remove("placed", "beside");
      style.top = style.right = style.maxHeight = "";
      return;
    }
    box.classList.toggle("beside", spot.w.beside);
    style.right = (width - spot.w.right) + "px";
    style.top = spot.top + "px";
    style.maxHeight = spot.tall + "px";
  }
  /* The stretches from ``top`` to ``bottom`` crossed by no kept-clear button between
     ``left`` and ``right``, top first: [{a, b}]. */
  function clearSpans(keep, left, right, top, bottom) {
    var taken = keep.filter(function (r) {
      return r.right + TOAST_GAP > left && r.left - TOAST_GAP < right;
    }).map(function (r) { return [r.top - TOAST_GAP, r.bottom + TOAST_GAP]; });
    taken.sort(function (p, q) { return p[0] - q[0]; });
    var spans = [], from = top;
    taken.forEach(function (t) {
      if (t[0] > from) spans.push({ a: from, b: Math.min(t[0], bottom) });
      from = Math.max(from, t[1]);
    });
    if (bottom > from) spans.push({ a: from, b: bottom });
    return spans.filter(function (s) { return s.b > s.a; });
  }
  function replaceToast() { if (placeToast) placeToast(); }
  window.addEventListener("scroll", replaceToast, { passive: true });
  window.addEventListener("resize", replaceToast);
  document.addEventListener("bunco:textsize", replaceToast);
  /* A swap adds, moves or removes buttons (a new entry's Undo, Done at the bell). */
  document.body.addEventListener("htmx:afterSettle", replaceToast);
  /* A refused button's form is swapped by the board's refresh: the button is found again
     (its form's action, and its own name and value) wherever it now is. */
  function buttonOf(form, button) {
    var selector = "form[action='" + CSS.escape(form.getAttribute("action") || "") + "'] " +
      (button && button.name ? "button[name='" + CSS.escape(button.name) + "'][value='" +
        CSS.escape(button.value) + "']" : "button");
    return function () {
      return button && button.isConnected ? button : document.querySelector(selector);
    };
  }
  /* All messages; or (``tapping``: the next tap is entered) all but a tap's "not entered",
     which that tap must not hide: the finger tapped twice, and one of them is lost. */
  function clearError(tapping) {
    var all = Array.prototype.slice.call(document.querySelectorAll(".toast"));
    var gone = all.filter(function (box) { return !tapping || !box.classList.contains("not-entered"); });
    if (gone.length === all.length) placeToast = null;
    removeToasts(gone);
  }

  /* Taps the server refused or could not store stay listed until the player decides.
     Offline, the taps waiting on the phone are listed too, each with Cancel for a mis-tap,
     so nobody taps a roll twice because the score has not moved. */
  function renderParked() {
    var box = document.getElementById("queue");
    if (!box) return;
    var list = parked();
    var waiting = offlineNow ? queue() : [];
    box.hidden = !list.length && !waiting.length;
    box.textContent = "";
    /* Newest first, as "Last entries" below them read. */
    waiting.forEach(function (item, i) {
      var row = document.createElement("div");
      row.className = "parked waiting";
      var text = document.createElement("p");
      text.textContent = "Not sent yet: " + (item.label || "a tap");
      row.appendChild(text);
      if (!(flushing && i === 0)) {
        row.appendChild(button("Cancel", function () { cancel(item.id); })).classList.add("undo");
      }
      box.insertBefore(row, box.firstChild);
    });
    list.forEach(function (item) {
      var row = document.createElement("div");
      row.className = "parked " + item.state;
      var text = document.createElement("p");
      text.textContent = (item.state === "refused" ? "Not stored: " : "Not saved yet (the server had a problem): ") +
        (item.label || "a tap") + (item.error ? ". " + item.error : ".");
      row.appendChild(text);
      if (item.state === "failed") {
        row.appendChild(button("Send again", function () { retry(item.id); }));
      }
      row.appendChild(button(item.state === "refused" ? "OK" : "Discard", function () { forget(item.id); }));
      box.appendChild(row);
    });
    renderUnsent();
    sayDice();
  }
  /* Offline, and while taps take their time to be sent (the banner says so), the score
     counts the taps waiting on the phone for the round on the screen, as each tap's
     button says it scores (data-points, data-reset; the dice entry's data-dice-points),
     and the side's box says so: "+2 not sent yet". Nothing moves: the note lies over the
     side's label. The server's count replaces it as the taps are stored. */
  function renderUnsent() {
    var board = document.getElementById("board");
    if (!token || !board) return;
    var marked = !!offline && !offline.hidden && !offline.classList.contains("is-gone");
    var scores = {}, before = {}, unknown = {}, touched = {};
    board.querySelectorAll(".score[data-score]").forEach(function (el) {
      scores[el.dataset.side] = before[el.dataset.side] = parseInt(el.dataset.score, 10);
    });
    /* A tap stored whose answer the phone has not heard (the Wi-Fi dropped it) is among the
       latest entries already, by its nonce: not counted twice. */
    var stored = {};
    document.querySelectorAll("#recent li[data-nonce]").forEach(function (li) { stored[li.dataset.nonce] = true; });
    if (marked && board.dataset.playing === "1") {
      queue().forEach(function (item) {
        var effect = item.effect, side = effect && String(effect.side);
        if (!effect || stored[item.id] || item.fields.round !== board.dataset.round || !(side in scores)) return;
        touched[side] = true;
        if (effect.reset) scores[side] = 0;
        else if (effect.points === null) unknown[side] = true;
        else scores[side] += effect.points;
      });
    }
    board.querySelectorAll(".score[data-score]").forEach(function (el) {
      var side = el.dataset.side, box = el.closest(".score-box");
      var note = box.querySelector(".unsent-note");
      el.textContent = touched[side] ? scores[side] + (unknown[side] ? "+?" : "") : el.dataset.score;
      box.classList.toggle("unsent", !!touched[side]);
      if (!touched[side]) {
        if (note) note.remove();
        return;
      }
      var more = scores[side] - before[side];
      if (!note) {
        note = document.createElement("span");
        note.className = "unsent-note";
        box.appendChild(note);
      }
      note.textContent = (unknown[side] ? "+?" : (more < 0 ? "−" : "+") + Math.abs(more)) + " not sent yet";
    });
  }
  /* What a tap does to its side's score, as its button (or the dice entry) says. */
  function tapEffect(form, button, fields) {
    var seat = parseInt(fields.seat, 10), points = parseInt(button.dataset.points, 10);
    if (fields.tap === "dice") {
      var faces = [], dice = document.getElementById("foot"), table = {};
      for (var i = 1; fields["d" + i]; i++) faces.push(fields["d" + i]);
      try { table = JSON.parse((dice && dice.dataset.dicePoints) || "{}"); } catch (e) { table = {}; }
      points = table[faces.sort().join("")];
    }
    return {
      side: form.dataset.teams === "1" ? (seat - 1) % 2 : seat - 1,
      points: typeof points === "number" && !isNaN(points) ? points : null,
      reset: button.hasAttribute("data-reset")
    };
  }
  function button(text, onClick) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "secondary";
    b.textContent = text;
    b.addEventListener("click", onClick);
    return b;
  }
  function cancel(id) {
    var q = queue();
    if (flushing && q.length && q[0].id === id) return;  /* on its way: undo it once stored */
    save(q.filter(function (i) { return i.id !== id; }));
    setOffline(offlineNow, queue().length);
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
    beforeDraw();
    htmx.swap(board, html, { swapStyle: "outerHTML" });
    followRoller();
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
    if (q.length && navigator.onLine === false) { setOffline(true, q.length); return; }
    setOffline(false, q.length);
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
      setOffline(true, queue().length);
      setTimeout(flush, 2000);
    });
  }
  window.addEventListener("online", flush);

  function enqueue(url, fields, label, effect) {
    var q = queue();
    fields.nonce = newNonce();
    q.push({ id: fields.nonce, url: url, fields: fields, label: label, tries: 0, effect: effect || null,
             at: Date.now() });
    save(q);
    flush();
  }

  /* The tap controls on the screen (#taps in #controls): drawn anew, in place, when the
     table's round or status changes (controlsDrawn), kept as they are otherwise. */
  var taps = null, seatKey = "";
  function currentSeat() {
    var checked = taps.querySelector("input[name=seat]:checked");
    return checked ? parseInt(checked.value, 10) : 1;
  }
  function setSeat(n) {
    var radio = taps.querySelector("input[name=seat][value='" + n + "']");
    if (radio) radio.checked = true;
    session.set(seatKey, String(n));
  }
  /* Two phones at one table follow each other's rolls: the board says whose roll the
     table's entries make it (a miss passes the dice). When another phone's taps move it,
     and this phone has no taps of its own waiting, its "Who's rolling?" follows. This
     phone's own taps moved its choice when they were tapped (``ownRoller``: where they
     leave the dice), so the board they bring back moves nothing, and a choice made by hand
     since stays until the table's entries move on. */
  var roller = null, ownRoller = null;
  function followRoller() {
    var board = document.getElementById("board");
    if (!taps || !board || !board.dataset.roller) return;
    var now = board.dataset.roller;
    if (queue().length) return;  /* this phone's own taps are still on their way */
    if (now === ownRoller) ownRoller = null;
    else if (roller !== null && now !== roller) setSeat(now);
    roller = now;
  }
  function controlsDrawn() {
    taps = document.getElementById("taps");
    seatKey = taps ? "bunco-seat-" + token + "-" + taps.dataset.round : "";
    roller = ownRoller = null;
    if (!taps) return;
    var remembered = session.get(seatKey);
    if (remembered) setSeat(remembered);
    followRoller();
  }
  if (token) controlsDrawn();

  /* A poll or a tap's answer brings the tap controls (#controls, #foot) with the board:
     those on the screen stay (with the seat picked and the dice entered) unless the
     table's round or status changed, their key (docs/rules.md section 2.3). */
  document.body.addEventListener("htmx:oobBeforeSwap", function (e) {
    var target = e.detail.target, fresh = e.detail.fragment && e.detail.fragment.firstElementChild;
    var key = target && target.dataset.controlsKey;
    if (key !== undefined && fresh && fresh.dataset.controlsKey === key) e.detail.shouldSwap = false;
  });
  var shownControls = document.getElementById("controls");
  function afterDraw() {
    var controls = document.getElementById("controls");
    if (!token || controls === shownControls) return;
    shownControls = controls;
    controlsDrawn();
    var board = document.getElementById("board");
    /* Where everyone sat at the start of a round that has moved on is no longer news. */
    var missed = document.getElementById("missed-moves");
    var started = board && /\bstatus-(playing|not_seated)\b/.test(board.className);
    if (missed && !(started && missed.dataset.round === String(board.dataset.round - 1))) {
      if (missed.open) missed.close();
      missed.remove();
    }
    if (board) catchUpOnMoves(board);
  }

  /* ---- A tap lands on what the finger saw (docs/rules.md section 2.3) ----
     A poll or a tap's answer may draw buttons anew (a new round, Done, the round closed)
     or move them (the bell's banner above them, a new entry above an Undo). For SETTLE ms
     after, a button (or a name chip, a die face) that was not where it is now takes no
     tap of a finger: it lets pointers through (css/play.css), so the tap enters nothing,
     and the phone says so. The finger meant what was there before. A keyboard, whose
     focus stays where it is, is not held back. */
  var SETTLE = 600;
  var GUARDED = "#board button, #controls button, #controls label, #recent button, #foot button, #foot label";
  function guardKey(el) {
    var named = el.control || el;
    var form = named.form || named.closest("form");
    return [form ? form.getAttribute("action") + "#" + (form.id || "") : "", named.name || "",
      named.value || named.textContent.trim()].join("|");
  }
  function placesNow() {
    var places = {};
    document.querySelectorAll(GUARDED).forEach(function (el) {
      var r = el.getBoundingClientRect();
      places[guardKey(el)] = [r.top, r.left];
    });
    return places;
  }
  var placesBefore = null;
  function beforeDraw() { if (token) placesBefore = placesNow(); }  /* the table phone's only */
  document.body.addEventListener("htmx:beforeSwap", function (e) {
    if (e.detail.shouldSwap !== false) beforeDraw();
  });
  var settling = [];
  function hold(els) {
    if (!els.length) return;
    els.forEach(function (el) { el.dataset.settling = "1"; });
    settling = settling.concat(els);
    setTimeout(function () {
      els.forEach(function (el) { delete el.dataset.settling; });
      settling = settling.filter(function (el) { return els.indexOf(el) === -1; });
    }, SETTLE);
  }
  function holdMoved() {
    var before = placesBefore;
    placesBefore = null;
    if (!before) return;
    hold(Array.prototype.filter.call(document.querySelectorAll(GUARDED), function (el) {
      var was = before[guardKey(el)], r = el.getBoundingClientRect();
      return !el.dataset.settling &&
        (!was || Math.abs(was[0] - r.top) > 3 || Math.abs(was[1] - r.left) > 3);
    }));
  }
  /* The news (the bell, a tie, Done, the round over, where to sit next) is at the top of
     the page: when it changes, the page shows its top, wherever the player had scrolled
     (the buttons this moves are held back like any others). */
  var newsShown = null;
  function showNews() {
    var board = document.getElementById("board");
    if (!token || !board) return;
    var news = board.dataset.round + "-" + board.dataset.news;
    if (newsShown !== null && news !== newsShown && window.scrollY > 0) window.scrollTo(0, 0);
    newsShown = news;
  }
  document.addEventListener("DOMContentLoaded", showNews);
  /* After the settle, not the swap: htmx keeps the old class on a swapped element until then. */
  document.body.addEventListener("htmx:afterSettle", function () {
    noteMoves(document.getElementById("board"));
    afterDraw();
    showNews();
    renderUnsent();
    holdMoved();
    sayDice();
  });
  /* Taps set aside for the host, arrived after their round ended (docs/rules.md section
     3.5): one message, counting those that arrived one after the other. */
  function arrivedLate(message) {
    var before = document.querySelector(".toast.late");
    var count = before ? parseInt(before.dataset.count, 10) + 1 : 1;
    showToast(count === 1 ?
      message || "This tap arrived after the round ended: the host will decide." :
      "These " + count + " taps arrived after the round ended here: the host will decide.",
      "error late");
    document.querySelector(".toast.late").dataset.count = String(count);
  }
  /* A finger on a button that has just appeared or moved: not entered, and said so. */
  /* Taps refused one after the other (a double tap) are counted in one message. */
  function notEnteredText(count) {
    return "The screen moved: " + (count === 1 ? "that tap was" :
      "those " + count + " taps were") + " not entered. Look, then tap again.";
  }
  function notEntered(near) {
    var before = document.querySelector(".toast.not-entered");
    var count = before ? parseInt(before.dataset.count, 10) + 1 : 1;
    showToast(notEnteredText(count), "error not-entered", function () {
      return near.isConnected ? near : document.querySelector("#taps button[name=tap]");
    });
    document.querySelector(".toast.not-entered").dataset.count = String(count);
  }
  /* A finger down on a tap button, and whether its tap reached the form (tapped). */
  var pressed = null, tapped = false;
  document.addEventListener("pointerdown", function (e) {
    judgeTap();  /* a click comes before the next finger down, or not at all */
    pressed = null;
    var hit = settling.filter(function (el) {
      var r = el.getBoundingClientRect();
      return el.isConnected && e.clientX >= r.left && e.clientX <= r.right &&
        e.clientY >= r.top && e.clientY <= r.bottom;
    })[0];
    if (hit) { notEntered(hit); return; }
    pressed = e.target.closest ? e.target.closest("button[name=tap]") : null;
  }, true);
  /* A tap button pressed whose tap never reached the form (drawn anew under the finger
     between its down and its up, or the finger slid off it): not entered, and said so.
     Judged after the click that follows the finger's up, not at a fixed time after the
     up: a finger's click comes a task or more later (later still while the phone is busy
     offline), and a tap entered, or waiting on the phone, is never said lost. A click
     that never comes is judged at the next finger down, or after CLICK_LATE ms. */
  var CLICK_LATE = 1000;
  var unclicked = null;  /* {button, timer}: a tap button released, its click not yet seen */
  function judgeTap() {
    var press = unclicked;
    unclicked = null;
    if (!press) return;
    clearTimeout(press.timer);
    if (!tapped) notEntered(press.button);
  }
  document.addEventListener("pointerup", function () {
    var button = pressed;
    pressed = null;
    if (!button) return;
    judgeTap();  /* the one before, if its click never came */
    tapped = false;
    unclicked = { button: button, timer: setTimeout(judgeTap, CLICK_LATE) };
  }, true);
  document.addEventListener("click", function () {
    if (unclicked) setTimeout(judgeTap, 0);  /* after its submit, which the click makes */
  }, true);
  document.addEventListener("pointercancel", function () { pressed = null; }, true);

  /* A tap on the tap controls: queued with the round, the seat and what it scored, as its
     own form says them (the form of the controls it was made on). */
  document.addEventListener("change", function (e) {
    if (taps && e.target.form === taps && e.target.name === "seat") session.set(seatKey, e.target.value);
  });
  document.addEventListener("submit", function (e) {
    if (!taps || e.target !== taps) return;
    e.preventDefault();
    tapped = true;
    var button = e.submitter;
    if (!button) return;
    clearError(true);
    var form = taps, tap = button.value;
    var fields = { tap: tap, seat: String(currentSeat()), round: form.dataset.round };
    if (tap === "dice") {
      var dice = parseInt(form.dataset.dice || "3", 10);
      for (var i = 1; i <= dice; i++) {
        var d = checkedIn(form, "d" + i);
        if (!d) {
          showError("Tap a face for each of the " + (dice === 2 ? "two" : "three") + " dice.",
            function () { return button; });
          return;
        }
        fields["d" + i] = d.value;
      }
    }
    var dialog = document.getElementById("who-bunco");
    if (button.hasAttribute("data-ask-roller") && dialog && dialog.showModal) {
      dialog.returnValue = "";
      dialog.querySelectorAll("button[value]:not([value=''])").forEach(function (b) {
        b.classList.toggle("current", b.value === fields.seat);
        b.classList.toggle("secondary", b.value !== fields.seat);
      });
      dialog.showModal();
      var current = dialog.querySelector("button.current");
      if (current) current.focus();
      dialog.addEventListener("close", function onClose() {
        dialog.removeEventListener("close", onClose);
        if (!dialog.returnValue) return;
        if (!form.isConnected) { notEntered(button); return; }  /* the round changed meanwhile */
        fields.seat = dialog.returnValue;
        enqueue(form.action, fields, describe(button, fields.seat), tapEffect(form, button, fields));
        flash(button);
      });
      return;
    }
    enqueue(form.action, fields, describe(button, fields.seat), tapEffect(form, button, fields));
    flash(button);
    if (tap === "dice") {
      diceTap = { id: fields.nonce, who: seatName(fields.seat) };
    } else {
      diceTap = diceSaid = null;  /* another tap: the line no longer names the latest */
      var said = document.querySelector("[data-dice-said]");
      if (said) said.textContent = "";
    }
    sayDice();
    /* "· Ann starts" is no longer news; its room is kept, so nothing moves under a finger. */
    var starts = form.querySelector("legend .first-roller");
    if (starts) starts.style.visibility = "hidden";
    if (tap === "miss" || (tap === "dice" && diceMiss(fields))) {
      setSeat(parseInt(fields.seat, 10) % parseInt(form.dataset.seats, 10) + 1);
    }
    ownRoller = String(currentSeat());
    if (tap === "dice") {
      Array.prototype.forEach.call(form.elements, function (el) {
        if (/^d[0-9]$/.test(el.name)) el.checked = false;
      });
    }
  });
  /* The dice entry lies below the entries, where the score and the new entry are out of
     sight: what the latest dice entered is said beside it, as they go and once stored,
     until another tap is made or that entry is undone. */
  var diceTap = null;  /* {id, who}: the latest dice tapped */
  var diceSaid = null;  /* the id of the entry the line names as entered */
  function recentRow(id) {
    return document.querySelector("#recent li[data-nonce='" + CSS.escape(id) + "']");
  }
  function sayDice() {
    var said = document.querySelector("[data-dice-said]");
    if (!said) return;
    if (!diceTap) {
      if (diceSaid && !recentRow(diceSaid)) { said.textContent = ""; diceSaid = null; }
      return;
    }
    var id = diceTap.id;
    var row = recentRow(id);
    var text;
    if (row) {
      text = "Entered: " + row.querySelector(".entry-what").textContent.trim() + " for " +
        row.querySelector(".entry-who").textContent.trim() + ".";
      diceTap = null;
      diceSaid = id;
    } else if (queue().some(function (i) { return i.id === id; })) {
      text = (offlineNow ? "Not sent yet: " : "Sending: ") + "the dice for " + diceTap.who + "…";
    } else if (parked().some(function (i) { return i.id === id; })) {
      text = "Not stored: the dice for " + diceTap.who + " (see above).";
    } else {
      text = "Sent: the dice for " + diceTap.who + ".";
    }
    said.textContent = text;
  }
  /* The radio named ``name`` checked among the form's controls (the dice entry lies
     outside the form, tied to it by its form attribute). */
  function checkedIn(form, name) {
    return Array.prototype.filter.call(form.elements, function (el) {
      return el.name === name && el.checked;
    })[0] || null;
  }
  /* Dice that pass to the next seat, as the Miss button does (docs/rules.md sections 2.2
     and 9.2): no die shows the mark, and they are not all the same (three of a kind, or
     doubles with two dice, score or roll again). */
  function diceMiss(fields) {
    var mark = taps.dataset.mark, faces = [];
    for (var i = 1; fields["d" + i]; i++) faces.push(fields["d" + i]);
    var same = faces.every(function (f) { return f === faces[0]; });
    return !!mark && faces.indexOf(mark) === -1 && !same;
  }
  /* "+2 for Ann": what a tap was, to name it if it cannot be stored. */
  function describe(button, seat) {
    var label = button.firstChild ? button.firstChild.textContent.trim() : button.value;
    var name = seatName(seat);
    return label + (name ? " for " + name : "");
  }
  /* Who sits in ``seat``, as its chip names them ("" if no chip does). */
  function seatName(seat) {
    var chip = taps.querySelector("input[name=seat][value='" + seat + "'] + span");
    return chip ? chip.firstChild.textContent.trim() : "";
  }
  function flash(button) {
    button.classList.add("sent");
    setTimeout(function () { button.classList.remove("sent"); }, 350);
  }

  /* Done, Undo and tie-break buttons inside the polled board: send with fetch. */
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.matches || !form.matches("form[data-js-post]")) return;
    e.preventDefault();
    clearError();
    var data = new URLSearchParams(new FormData(form, e.submitter));
    var near = buttonOf(form, e.submitter);
    fetch(form.action, { method: "POST", headers: { "Accept": "application/json" }, body: data })
      .then(function (resp) { return resp.json().catch(function () { return { ok: resp.ok }; }); })
      .then(function (data) {
        if (data && data.ok === false) showError(data.error, near);
        refreshBoard();
      })
      .catch(function () { showError("No connection: try again when you are back online.", near); });
  });

  /* Bonanza: the caller's own hand is not counted, so its cards-left box is hidden. */
  var caller = document.getElementById("caller");
  function hideCallerCards() {
    document.querySelectorAll(".cards-left label[data-player]").forEach(function (label) {
      label.hidden = label.dataset.player === caller.value;
    });
  }
  if (caller) { caller.addEventListener("change", hideCallerCards); hideCallerCards(); }

  if (token) { renderParked(); flush(); }
})();

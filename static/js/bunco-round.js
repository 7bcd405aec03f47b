/* A round drawn in place on the table phone (part of the phone's page code: see
   js/bunco.js): where to sit now, for a phone that missed the round's end; the tap
   controls kept or drawn anew; the news at the top shown; the screen kept on while a
   round is in play. Uses Bunco.local, Bunco.hold (bunco-settle.js) and controlsDrawn
   (bunco-taps.js); gives Bunco.noteMoves, showMissedMoves, keepAwake, afterDraw and
   showNews, which bunco-page.js runs at load and after each settle. */
(function (B) {
  "use strict";

  var body = B.body, token = B.token, local = B.local;

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
    B.hold([ok]);  /* it opened under a finger, maybe */
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
    B.controlsDrawn();
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

  B.noteMoves = noteMoves;
  B.showMissedMoves = showMissedMoves;
  B.keepAwake = keepAwake;
  B.afterDraw = afterDraw;
  B.showNews = showNews;
})(window.Bunco);

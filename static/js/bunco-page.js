/* What runs when, on the phone's pages (part of the phone's page code: see js/bunco.js):
   the events several of the bunco-*.js files answer (the page loaded, a swap, a settle)
   are listened to here, in this order; then Done, Undo and tie-break forms sent with
   fetch, the Bonanza caller's box, and, every file being in, the queue's sending. Uses
   what the other files give on Bunco; gives nothing. */
(function (B) {
  "use strict";

  var body = B.body, token = B.token;

  /* After a swap: the bell a polled fragment says has rung, the roller another phone
     moved, what screen readers hear. */
  document.body.addEventListener("htmx:afterSwap", function (e) {
    var board = document.getElementById("board");
    B.checkBell(board);
    var card = document.getElementById("card");
    B.checkBell(card);
    var screen = document.getElementById("screen");
    B.checkBell(screen);
    B.checkBell(document.getElementById("live-poll"));
    B.checkBell(document.getElementById("room-poll"));
    B.followRoller();
  });
  document.body.addEventListener("htmx:afterSwap", B.announce);

  /* At load: where to sit now if missed, a notice kept over a reload, the bell, the
     screen kept on, the news. */
  document.addEventListener("DOMContentLoaded", function () {
    B.showMissedMoves();
    var board = document.getElementById("board");
    if (token && board) body.dataset.movesFor = board.dataset.round;
    B.noteMoves(document.getElementById("board"));
    B.showNotice();
    ["board", "card", "screen", "live-poll", "room-poll"].forEach(function (id) {
      B.checkBell(document.getElementById(id));
    });
  });
  document.addEventListener("DOMContentLoaded", B.keepAwake);
  document.addEventListener("DOMContentLoaded", B.showNews);

  /* After the settle, not the swap: htmx keeps the old class on a swapped element until then. */
  document.body.addEventListener("htmx:afterSettle", B.keepAwake);
  if (B.keepShown) document.body.addEventListener("htmx:afterSettle", B.keepShown);
  /* A swap adds, moves or removes buttons (a new entry's Undo, Done at the bell). */
  document.body.addEventListener("htmx:afterSettle", B.replaceToast);
  /* Then the moves seen, a round drawn in place, the news, the unsent score, the buttons
     that moved held back, the dice line. */
  document.body.addEventListener("htmx:afterSettle", function () {
    B.noteMoves(document.getElementById("board"));
    B.afterDraw();
    B.showNews();
    B.renderUnsent();
    B.holdMoved();
    B.sayDice();
  });

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
  /* Done, Undo and tie-break buttons inside the polled board: send with fetch. */
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.matches || !form.matches("form[data-js-post]")) return;
    e.preventDefault();
    B.clearError();
    var data = new URLSearchParams(new FormData(form, e.submitter));
    var near = buttonOf(form, e.submitter);
    fetch(form.action, { method: "POST", headers: { "Accept": "application/json" }, body: data })
      .then(function (resp) { return resp.json().catch(function () { return { ok: resp.ok }; }); })
      .then(function (data) {
        if (data && data.ok === false) B.showError(data.error, near);
        B.refreshBoard();
      })
      .catch(function () { B.showError("No connection: try again when you are back online.", near); });
  });

  /* Bonanza: the caller's own hand is not counted, so its cards-left box is hidden. */
  var caller = document.getElementById("caller");
  function hideCallerCards() {
    document.querySelectorAll(".cards-left label[data-player]").forEach(function (label) {
      label.hidden = label.dataset.player === caller.value;
    });
  }
  if (caller) { caller.addEventListener("change", hideCallerCards); hideCallerCards(); }

  /* Sending, once every file is in: the taps left on the phone now, and when it is back
     online. */
  window.addEventListener("online", B.flush);
  if (token) { B.renderParked(); B.flush(); }
})(window.Bunco);

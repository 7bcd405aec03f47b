/* A tap lands on what the finger saw (part of the phone's page code: see js/bunco.js):
   buttons a swap drew anew or moved are held back for a moment, and a tap they refuse,
   or that never reached its form, is said not entered. Uses Bunco.token and
   Bunco.showToast; gives Bunco.beforeDraw, hold, holdMoved (run after each settle by
   bunco-page.js), notEntered, and tapReached (bunco-taps.js: a tap reached its form). */
(function (B) {
  "use strict";

  var token = B.token;

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
  /* A finger on a button that has just appeared or moved: not entered, and said so. */
  /* Taps refused one after the other (a double tap) are counted in one message. */
  function notEnteredText(count) {
    return "The screen moved: " + (count === 1 ? "that tap was" :
      "those " + count + " taps were") + " not entered. Look, then tap again.";
  }
  function notEntered(near) {
    var before = document.querySelector(".toast.not-entered");
    var count = before ? parseInt(before.dataset.count, 10) + 1 : 1;
    B.showToast(notEnteredText(count), "error not-entered", function () {
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

  B.beforeDraw = beforeDraw;
  B.hold = hold;
  B.holdMoved = holdMoved;
  B.notEntered = notEntered;
  B.tapReached = function () { tapped = true; };
})(window.Bunco);

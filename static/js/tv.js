/* The seating TV (templates/nights/tv.html). A TV cannot scroll: a night with more tables
   than one screen holds comes in pages, and they turn by themselves as the room screen's
   do; the page shown stays shown when the chart's poll brings it again. The grid fills
   the screen whatever the names; a card whose names do not fit it gets smaller names, a
   step at a time, and only when even the smallest cannot hold a word is it broken. */
(function () {
  "use strict";
  var TURN_MS = 8000, STEP = 0.05, SMALLEST = 0.5;
  var shown = 0;

  function overflows(card) {
    return card.scrollHeight > card.clientHeight || card.scrollWidth > card.clientWidth;
  }

  function fit(page) {
    var cards = Array.prototype.slice.call(page.querySelectorAll(".table-card"));
    cards.forEach(function (card) {
      card.style.removeProperty("--tv-fit");
      card.classList.remove("tv-break");
    });
    var scale = 1, crowded = cards.filter(overflows);
    while (crowded.length && scale > SMALLEST) {
      scale = Math.max(SMALLEST, scale - STEP);
      crowded.forEach(function (card) { card.style.setProperty("--tv-fit", scale.toFixed(2)); });
      crowded = crowded.filter(overflows);
    }
    crowded.forEach(function (card) { card.classList.add("tv-break"); });
  }

  function show() {
    var pages = document.querySelectorAll("#tv-chart [data-tv-page]");
    if (!pages.length) return;
    shown = shown % pages.length;
    pages.forEach(function (p, i) { p.hidden = i !== shown; });
    fit(pages[shown]);
  }

  show();
  setInterval(function () { shown += 1; show(); }, TURN_MS);
  document.body.addEventListener("htmx:afterSwap", show);
  window.addEventListener("resize", show);
})();

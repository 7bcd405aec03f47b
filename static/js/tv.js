/* The seating TV (templates/nights/tv.html), whose pages js/pages.js turns. The grid fills
   the screen whatever the names; a card whose names do not fit it gets smaller names, a
   step at a time, and only when even the smallest cannot hold a word is it broken. */
(function () {
  "use strict";
  var STEP = 0.05, SMALLEST = 0.5;

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

  /* Every page shown, each time: its cards' room changes with the screen. */
  function fitShown() {
    document.querySelectorAll("#tv-chart [data-page]").forEach(function (page) {
      if (!page.hidden) fit(page);
    });
  }

  document.body.addEventListener("bunco:page", function (event) { fit(event.target); });
  window.addEventListener("resize", fitShown);
  fitShown();
})();

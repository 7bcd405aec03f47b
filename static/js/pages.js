/* Pages on a screen nobody scrolls: the seating TV (templates/nights/tv.html) and the room
   screen (templates/play/room.html). The server shares the tables out evenly over as few
   pages as hold them, each a [data-page] that says "Page N of M"; this shows one at a
   time and turns them every few seconds (the script's data-turn-ms). A poll that swaps the pages, or a table on
   one, keeps the page shown. Only this hides a page: without scripts every page shows,
   one under another, and the screen scrolls ("paged" on <html> tells the stylesheet
   which). A page shown is told so ("bunco:page"), for a screen that fits it (js/fit.js). */
(function () {
  "use strict";
  var TURN_MS = parseInt(document.currentScript.dataset.turnMs, 10) || 8000;
  var shown = 0;
  document.documentElement.classList.add("paged");

  function show() {
    var pages = document.querySelectorAll("[data-page]");
    if (!pages.length) return;
    shown = shown % pages.length;
    pages.forEach(function (p, i) { p.hidden = i !== shown; });
    pages[shown].dispatchEvent(new CustomEvent("bunco:page", { bubbles: true }));
  }

  show();
  setInterval(function () { shown += 1; show(); }, TURN_MS);
  /* Synchronous with the swap, so a page swapped in is never painted shown by mistake. */
  document.body.addEventListener("htmx:afterSwap", show);
})();

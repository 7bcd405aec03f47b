/* Boxes on a screen nobody scrolls, each of which must hold its names whole: the seating
   TV's table cards (templates/nights/tv.html) and the room screen's tables and side column
   (templates/play/room.html), whose pages js/pages.js turns. The stylesheet gives each
   [data-fit] box its size and hides what overflows it; a box whose text does not fit gets
   smaller text (its --fit, a share of the stylesheet's size, which the stylesheet
   multiplies in), a step at a time, down to the share its data-fit says. Only when even
   that cannot hold a word is the word broken ("fit-break"): a broken word reads better
   from across a room than a tiny one. */
(function () {
  "use strict";
  var STEP = 0.05;

  function overflows(box) {
    return box.scrollHeight > box.clientHeight || box.scrollWidth > box.clientWidth;
  }

  function smallest(box) {
    return parseFloat(box.getAttribute("data-fit")) || 0.5;
  }

  function fit(boxes) {
    boxes.forEach(function (box) {
      box.style.removeProperty("--fit");
      box.classList.remove("fit-break");
    });
    var scale = 1, crowded = boxes.filter(overflows);
    while (crowded.length) {
      scale -= STEP;
      crowded = crowded.filter(function (box) {
        if (scale < smallest(box) - 0.001) {
          box.classList.add("fit-break");
          return false;
        }
        box.style.setProperty("--fit", scale.toFixed(2));
        return true;
      }).filter(overflows);
    }
  }

  /* The boxes inside ``root`` that show: those of a page hidden (js/pages.js) are fitted
     when it is shown. */
  function shown(root) {
    return Array.prototype.slice.call(root.querySelectorAll("[data-fit]")).filter(function (box) {
      return !box.closest("[hidden]");
    });
  }

  function fitShown() { fit(shown(document)); }

  document.body.addEventListener("bunco:page", function (event) { fit(shown(event.target)); });
  /* A poll's answer: a screen drawn again, or a table, or the side column's facts. Once
     settled: until then htmx gives a box swapped in by its id the old box's style and
     classes (its --fit too), and takes them back after. */
  document.body.addEventListener("htmx:afterSettle", fitShown);
  window.addEventListener("resize", fitShown);
  fitShown();
})();

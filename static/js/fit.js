/* Boxes on a screen nobody scrolls, each of which must hold its names whole: the seating
   TV's table cards (templates/nights/tv.html) and the room screen's tables and side column
   (templates/play/room.html), whose pages js/pages.js turns. The stylesheet gives each
   [data-fit] box its size and hides what overflows it; a box whose text does not fit
   (cut off, or reaching into its padding) gets smaller text (its --fit, a share of the
   stylesheet's size, which the stylesheet multiplies in), a step at a time (then back up
   to within a hundredth of what fits), down to the share its data-fit says (or, left
   empty, the data-fit-smallest of the grid around it). Only when even that cannot hold a
   word is the word broken ("fit-break"): a broken word reads better from across a room
   than a tiny one. The tables of a room screen's grid end at one size, the smallest any
   needed. A box with ranked rows (the room screen's standings, [data-rank-row]) first
   shows as many of them as fit, and its .room-more says how many more there are. Prizes
   under a room screen's tables give way to the side column when the page cannot hold
   them ([data-gives-way], see fit). When the screen is fitted, <html> says so
   (data-fitted="1"). */
(function () {
  "use strict";
  var STEP = 0.05;

  function overflows(box) {
    return box.scrollHeight > box.clientHeight || box.scrollWidth > box.clientWidth || spills(box);
  }

  /* Whether a text of the box reaches into its padding (or past it): the padding is the
     card's margin, and a name pushed past a table's score, or a last row at the card's
     foot, no more fits than one cut off. A text inside a part of the box that clips it
     (a standings name ended with "…") is left to that part. */
  function spills(box) {
    var r = box.getBoundingClientRect(), style = getComputedStyle(box);
    var left = r.left + box.clientLeft + parseFloat(style.paddingLeft) - 0.5;
    var top = r.top + box.clientTop + parseFloat(style.paddingTop) - 0.5;
    var right = r.left + box.clientLeft + box.clientWidth - parseFloat(style.paddingRight) + 0.5;
    var bottom = r.top + box.clientTop + box.clientHeight - parseFloat(style.paddingBottom) + 0.5;
    var walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT), range = document.createRange();
    while (walk.nextNode()) {
      var text = walk.currentNode;
      if (!text.data.trim() || clipped(text.parentElement, box)) continue;
      range.selectNodeContents(text);
      var rects = range.getClientRects();
      for (var i = 0; i < rects.length; i++) {
        var q = rects[i];
        if (q.width && (q.left < left || q.right > right || q.top < top || q.bottom > bottom)) return true;
      }
    }
    return false;
  }

  function clipped(el, box) {
    for (; el && el !== box; el = el.parentElement) {
      if (getComputedStyle(el).overflowX !== "visible") return true;
    }
    return false;
  }

  function smallest(box) {
    var own = parseFloat(box.getAttribute("data-fit"));
    if (own) return own;
    var grid = box.closest("[data-fit-smallest]");
    return (grid && parseFloat(grid.getAttribute("data-fit-smallest"))) || 0.5;
  }

  /* As many ranked rows as fit the box, in order, the rest hidden; "and N more" says how
     many players it leaves out of data-total. */
  function trimRows(box) {
    var rows = Array.prototype.slice.call(box.querySelectorAll("[data-rank-row]"));
    var more = box.querySelector(".room-more");
    if (!rows.length || !more) return;
    var total = parseInt(more.getAttribute("data-total"), 10) || rows.length;
    var count = more.querySelector("[data-more]");
    var shown = rows.length;
    function show(n) {
      rows.forEach(function (row, i) { row.hidden = i >= n; });
      shown = n;
      more.hidden = shown >= total;
      count.textContent = String(total - shown);
    }
    /* Too tall, that is: fewer rows never make the box narrower. */
    function tall() { return box.scrollHeight > box.clientHeight; }
    show(rows.length);
    if (!tall()) return;
    /* The most rows that fit, found by halves: rows differ in height (a long name wraps). */
    var low = 0, high = rows.length - 1;
    while (low < high) {
      var mid = Math.ceil((low + high) / 2);
      show(mid);
      if (tall()) high = mid - 1; else low = mid;
    }
    show(low);
  }

  function fitBoxes(boxes) {
    boxes.forEach(function (box) {
      box.style.removeProperty("--fit");
      box.classList.remove("fit-break");
    });
    boxes.forEach(trimRows);
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
    boxes.forEach(refine);
    evenGrids(boxes);
    return boxes.filter(function (box) { return box.classList.contains("fit-break") && overflows(box); });
  }

  /* The boxes shown inside ``root`` fitted. A box that gives way ([data-gives-way]: the
     room screen's prizes under its tables or in its grid's empty cells) and cannot hold
     its text even at its smallest, or whose tables cannot, is hidden and the side
     column's copy ([data-stands-in]) shown instead: the tables' names come first. */
  function fit(root) {
    var swapped = place(true);
    var full = fitBoxes(shown(swapped ? document : root));
    var away = ways().filter(function (box) {
      var page = box.closest("[data-page]") || document.body;
      return full.some(function (crowded) { return crowded === box || page.contains(crowded); });
    });
    if (away.length) {
      place(false);
      fitBoxes(shown(document));
    }
    document.documentElement.setAttribute("data-fitted", "1");
  }

  function ways() {
    return Array.prototype.slice.call(document.querySelectorAll("[data-gives-way]")).filter(function (box) {
      return !box.closest("[hidden]");
    });
  }

  /* The prizes where the server put them (``home``), or given way to the side column;
     whether that changed anything. */
  function place(home) {
    var changed = false;
    document.querySelectorAll("[data-gives-way], [data-stands-in]").forEach(function (box) {
      var hide = box.hasAttribute("data-gives-way") ? !home : home;
      if (box.hidden !== hide) {
        box.hidden = hide;
        changed = true;
      }
    });
    return changed;
  }

  /* A step is coarse: a box made smaller takes back what it can of the last step, a
     hundredth at a time, so its text is no smaller than it needs. */
  function refine(box) {
    var fitted = parseFloat(box.style.getPropertyValue("--fit"));
    if (!fitted || box.classList.contains("fit-break")) return;
    for (var f = fitted + 0.01; f < fitted + STEP - 0.001; f += 0.01) {
      box.style.setProperty("--fit", f.toFixed(2));
      if (overflows(box)) {
        box.style.setProperty("--fit", (f - 0.01).toFixed(2));
        return;
      }
    }
  }

  /* The tables of a room screen's grid ([data-fit-smallest]) all take the size the most
     crowded of them needed: a page reads evenly. */
  function evenGrids(boxes) {
    var grids = [];
    boxes.forEach(function (box) {
      var grid = box.parentElement.closest("[data-fit-smallest]");
      if (grid && grids.indexOf(grid) < 0) grids.push(grid);
    });
    grids.forEach(function (grid) {
      /* A box with a smallest share of its own (the prizes in a grid's empty cells) is
         not one of its tables. */
      var inside = boxes.filter(function (box) {
        return grid.contains(box) && !box.getAttribute("data-fit");
      });
      var least = Math.min.apply(null, inside.map(function (box) {
        return parseFloat(box.style.getPropertyValue("--fit")) || 1;
      }));
      if (least < 1) inside.forEach(function (box) { box.style.setProperty("--fit", least.toFixed(2)); });
    });
  }

  /* The boxes inside ``root`` that show: those of a page hidden (js/pages.js) are fitted
     when it is shown. */
  function shown(root) {
    return Array.prototype.slice.call(root.querySelectorAll("[data-fit]")).filter(function (box) {
      return !box.closest("[hidden]");
    });
  }

  function fitShown() { fit(document); }

  document.body.addEventListener("bunco:page", function (event) { fit(event.target); });
  /* A poll's answer: a screen drawn again, or a table, or the side column's facts. Once
     settled: until then htmx gives a box swapped in by its id the old box's style and
     classes (its --fit too), and takes them back after. */
  document.body.addEventListener("htmx:afterSettle", fitShown);
  window.addEventListener("resize", fitShown);
  fitShown();
})();

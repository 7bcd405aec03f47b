/* "Bigger text" on a phone page, remembered by the phone. Loaded in <head> without defer,
   so the class is on <html> before the first paint: no flash of small text. */
(function () {
  "use strict";
  var KEY = "bunco-text-bigger";
  var root = document.documentElement;
  function stored() {
    try { return localStorage.getItem(KEY) === "1"; } catch (e) { return false; }
  }
  root.classList.toggle("text-bigger", stored());

  /* Names wrap between their words, never inside one ("Gwendol-yn"), and are never made
     smaller than the page's own text. Where the longest word of a [data-fit-words] box (a
     roller's chip, a side's names, a score button) is wider than the box, its text is
     made smaller until the word fits, but no smaller than the box's size without Bigger
     text (nor than the page's text): pressing Bigger text never makes a name smaller. A
     chip whose name does not fit even so takes a whole row ("fit-wide"), its name at full
     size again. Only a word too long for that (a pasted e-mail address) is broken, by the
     stylesheet, at that smallest size: a broken word reads better than a tiny one. */
  var canvas = null;
  function widestWord(el) {
    canvas = canvas || document.createElement("canvas");
    var context = canvas.getContext("2d"), widest = 0;
    var walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      var style = getComputedStyle(node.parentNode);
      context.font = style.fontStyle + " " + style.fontWeight + " " + style.fontSize + " " +
        style.fontFamily;
      /* A line may break after a hyphen ("Fontaine-Baxter"), as between words. */
      node.data.replace(/-/g, "- ").split(/\s+/).forEach(function (word) {
        if (word) widest = Math.max(widest, context.measureText(word).width);
      });
    }
    return widest;
  }
  /* The room a box's words have, and the size its text needs for the longest to fit it
     (its own size when it fits). A pixel to spare: the canvas and the page may round a
     width differently. */
  function needs(el) {
    var style = getComputedStyle(el), size = parseFloat(style.fontSize);
    var room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 1;
    var widest = widestWord(el);
    if (room <= 0 || widest <= room) return size;
    return Math.floor(size * room / widest * 10) / 10;
  }
  /* Whether a chip's name takes more than two lines. */
  function tall(el) {
    var style = getComputedStyle(el);
    var inner = el.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    return inner > 2.5 * parseFloat(style.lineHeight);
  }
  function fitWords() {
    var boxes = Array.prototype.slice.call(document.querySelectorAll("[data-fit-words]"));
    boxes.forEach(function (el) {
      el.style.fontSize = "";
      var chip = el.closest(".chip");
      if (chip) chip.classList.remove("fit-wide");
    });
    /* Names longer than two lines of half a row take a smaller size, the same for every
       chip of the table (the stylesheet's, never below nine tenths of the page's text):
       four long names then still take two rows of the first screen. */
    var roller = document.querySelector(".roller");
    var three = !!roller && roller.closest("[data-seats]").getAttribute("data-seats") === "3";
    if (roller) {
      roller.classList.remove("long-names", "two-rows");
      if (Array.prototype.some.call(roller.querySelectorAll(".chip span"), tall)) {
        roller.classList.add("long-names");
      }
    }
    /* The least each box is given: its size without Bigger text, or the page's text size
       without it if that is less (a score button's big label may shrink to it). */
    var bigger = root.classList.contains("text-bigger");
    if (bigger) root.classList.remove("text-bigger");
    var text = parseFloat(getComputedStyle(root).fontSize);
    var least = boxes.map(function (el) {
      return Math.min(text, parseFloat(getComputedStyle(el).fontSize));
    });
    if (bigger) root.classList.add("text-bigger");
    boxes.forEach(function (el, i) { fit(el, least[i]); });
    /* Three at a table: a row of three chips, unless a name's word does not fit a third of
       the row: then two chips a row, the third taking the second row whole. */
    if (three && roller.querySelector(".chip.fit-wide")) {
      roller.classList.add("two-rows");
      boxes.forEach(function (el, i) {
        var chip = el.closest(".chip");
        if (!chip) return;
        el.style.fontSize = "";
        chip.classList.remove("fit-wide");
        fit(el, least[i]);
      });
    }
    if (roller && !three) widenLoners(roller);
    cutNames();
  }
  /* A box's text made as small as its longest word needs, but no smaller than ``least``;
     a chip whose word does not fit even so is marked to take a whole row. */
  function fit(el, least) {
    var chip = el.closest(".chip");
    var size = parseFloat(getComputedStyle(el).fontSize), fits = needs(el);
    if (fits >= size) return;
    if (fits < least && chip) {
      chip.classList.add("fit-wide");
      fits = needs(el);
      if (fits >= size) return;
    }
    el.style.fontSize = Math.max(least, fits) + "px";
  }
  /* Who rolled each of the table's latest entries, on its line beside Undo: whole where
     the line has room, else cut at its end, the "…" right before the colon (the page's
     text-overflow would leave a gap there). Where that would leave less than the name's
     first word, or less than six letters, the entry takes two lines (css/play.css), the name cut only if longer than its
     line. The cut name is drawn by the stylesheet (data-cut); the page's text, which a
     screen reader reads, stays the whole name. */
  function cutNames() {
    document.querySelectorAll(".recent li").forEach(function (li) {
      var el = li.querySelector(".entry-who");
      if (!el) return;
      var full = el.textContent;
      li.classList.remove("two-lines");
      el.removeAttribute("data-cut");
      el.textContent = full;
      if (el.scrollWidth <= el.clientWidth) return;
      if (cut(el, full) >= Math.max(full.split(/\s+/)[0].length, 6)) return;
      li.classList.add("two-lines");
      el.removeAttribute("data-cut");
      el.textContent = full;
      if (el.scrollWidth > el.clientWidth) cut(el, full);
    });
  }
  /* ``full`` in ``el`` (too long for it) cut to the most letters that fit with "…", drawn
     over the name kept for screen readers: how many letters are shown. */
  function cut(el, full) {
    var room = el.getBoundingClientRect().width - 0.5;
    var trial = document.createElement("span");
    el.textContent = "";
    el.appendChild(trial);
    var chars = Array.from(full), low = 1, high = chars.length - 1;
    function shown(n) { return chars.slice(0, n).join("").trimEnd() + "\u2026"; }
    while (low < high) {
      var middle = Math.ceil((low + high) / 2);
      trial.textContent = shown(middle);
      if (trial.getBoundingClientRect().width <= room) low = middle; else high = middle - 1;
    }
    trial.className = "visually-hidden";
    trial.textContent = full;
    el.dataset.cut = shown(low);
    return low;
  }
  /* A chip left alone in its row by a name that takes a whole row takes the row too when
     its own name wraps: it then needs fewer lines. */
  function widenLoners(roller) {
    var alone = null;
    roller.querySelectorAll(".chip").forEach(function (chip) {
      if (chip.classList.contains("fit-wide")) {
        if (alone) widen(alone);
        alone = null;
      } else {
        alone = alone ? null : chip;
      }
    });
    if (alone) widen(alone);
  }
  function widen(chip) {
    var span = chip.querySelector("span");
    var style = getComputedStyle(span);
    var inner = span.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    if (inner > 1.5 * parseFloat(style.lineHeight)) chip.classList.add("fit-wide");
  }
  window.addEventListener("resize", fitWords);
  /* A poll or a tap's answer draws the board again, with its sides' names. */
  document.addEventListener("htmx:afterSettle", fitWords);

  document.addEventListener("DOMContentLoaded", function () {
    fitWords();
    var button = document.querySelector("[data-text-size]");
    if (!button) return;
    function show() { button.setAttribute("aria-pressed", String(root.classList.contains("text-bigger"))); }
    button.hidden = false;
    show();
    button.addEventListener("click", function () {
      var bigger = !root.classList.contains("text-bigger");
      root.classList.toggle("text-bigger", bigger);
      try { localStorage.setItem(KEY, bigger ? "1" : "0"); } catch (e) { /* kept for this page only */ }
      show();
      fitWords();
      /* What else is placed by the text's size (js/bunco-toast.js: the message over the buttons). */
      document.dispatchEvent(new Event("bunco:textsize"));
    });
  });
})();

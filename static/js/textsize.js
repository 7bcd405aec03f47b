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

  /* Names wrap between their words, never inside one ("Gwendol-yn"): where the longest
     word of a [data-fit-words] box (a roller's chip, a side's names, a score button) is
     wider than the box, its text is made smaller until the word fits, down to SMALLEST of
     its size. A word too long even then (a pasted e-mail address) is left to the
     stylesheet, which breaks it anywhere rather than let it run off the screen. */
  var SMALLEST = 0.65;
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
  function fitWords() {
    document.querySelectorAll("[data-fit-words]").forEach(function (el) {
      el.style.fontSize = "";
      var style = getComputedStyle(el);
      /* A pixel to spare: the canvas and the page may round a width differently. */
      var room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 1;
      var widest = widestWord(el);
      if (room <= 0 || widest <= room) return;
      var size = parseFloat(style.fontSize);
      el.style.fontSize = Math.max(size * SMALLEST, Math.floor(size * room / widest * 10) / 10) + "px";
    });
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
      /* What else is placed by the text's size (js/bunco.js: the message over the buttons). */
      document.dispatchEvent(new Event("bunco:textsize"));
    });
  });
})();

/* Keyboard users keep their place when htmx swaps a part of the page. A button pressed in
   a night's attendance or dues, a roster card or a table phone's entries is replaced by a
   new copy of itself (or by what comes after it), and the focus would fall back to the
   top of the page. Once the swap has settled, a focus that was lost goes to the new copy
   (the same form's button with the same name and value), else to another button of the
   same form, else to the first control in the same part of the page (the nearest
   element with an id), else to that part itself. A swapped-in [autofocus] (a question
   asked, whose safe answer takes the focus) is left alone: htmx has focused it. */
(function () {
  "use strict";

  var CONTROLS = "button, a[href], summary, select";
  var last = null;

  function actionOf(el) {
    var form = el.form || el.closest("form");
    return form ? form.getAttribute("action") : null;
  }
  function visible(el) { return el.getClientRects().length > 0; }

  document.addEventListener("focusin", function (e) {
    var el = e.target;
    if (!el.matches || !el.matches(CONTROLS)) { last = null; return; }
    var place = el.parentElement && el.parentElement.closest("[id]");
    last = {
      el: el, tag: el.tagName, name: el.name || "", value: el.value || "",
      href: el.getAttribute("href"), action: actionOf(el), place: place ? place.id : null
    };
  });

  function restore() {
    if (!last || last.el.isConnected) return;
    if (document.activeElement && document.activeElement !== document.body) return;
    var was = last;
    var place = was.place ? document.getElementById(was.place) : null;
    var controls = Array.prototype.filter.call(
      (place || document).querySelectorAll(CONTROLS), visible);
    var sameForm = controls.filter(function (c) { return was.action && actionOf(c) === was.action; });
    var to = controls.filter(function (c) {
      return c.tagName === was.tag && (c.name || "") === was.name && (c.value || "") === was.value &&
        actionOf(c) === was.action && c.getAttribute("href") === was.href;
    })[0] || sameForm[0] || (place && controls[0]);
    if (!to && place) {
      if (!place.hasAttribute("tabindex")) place.setAttribute("tabindex", "-1");
      to = place;
    }
    if (to) to.focus({ preventScroll: true });  // a poll's redraw must not move the page
  }
  document.addEventListener("htmx:afterSettle", restore);
})();

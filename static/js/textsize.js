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

  document.addEventListener("DOMContentLoaded", function () {
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
    });
  });
})();

/* Copy buttons: <button data-copy="ID"> copies the text of the element with that id.
   Without JavaScript the buttons stay hidden and the text can be selected by hand. */
(function () {
  "use strict";
  function show() {
    document.querySelectorAll("button[data-copy]").forEach(function (b) { b.hidden = false; });
  }
  function done(button, words) {
    var status = button.parentElement.querySelector(".copied");
    if (status) status.textContent = words;
  }
  function selectText(el) {
    var range = document.createRange();
    range.selectNodeContents(el);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
  function fallback(button, source) {
    selectText(source);
    var copied = false;
    try { copied = document.execCommand("copy"); } catch (err) { copied = false; }
    done(button, copied ? "Copied ✓" : "Selected: copy it from the menu");
  }
  document.addEventListener("click", function (e) {
    var button = e.target.closest("button[data-copy]");
    if (!button) return;
    var source = document.getElementById(button.dataset.copy);
    if (!source) return;
    var text = source.textContent;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { done(button, "Copied ✓"); },
        function () { fallback(button, source); });
    } else {
      fallback(button, source);
    }
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", show);
  else show();
})();

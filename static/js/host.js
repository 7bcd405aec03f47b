/* Host pages: small conveniences on top of forms that work without JavaScript.
   - form[data-confirm]: ask before submitting (the server still checks everything).
   - form[data-autosubmit]: submit when a choice changes; its [data-autosubmit-hide]
     button is only needed without JavaScript. */
(function () {
  "use strict";
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (form.matches && form.matches("form[data-confirm]") && !window.confirm(form.dataset.confirm)) {
      e.preventDefault();
      e.stopImmediatePropagation();
    }
  }, true);
  document.addEventListener("change", function (e) {
    var form = e.target.form;
    if (form && form.hasAttribute("data-autosubmit")) form.requestSubmit();
  });
  function hideButtons() {
    document.querySelectorAll("form[data-autosubmit] [data-autosubmit-hide]").forEach(function (b) {
      b.hidden = true;
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", hideButtons);
  else hideButtons();
})();

/* Host pages: small conveniences on top of forms that work without JavaScript.
   - form[data-confirm]: ask before submitting (the server still checks everything).
   - form[data-autosubmit]: submit when a choice changes; its [data-autosubmit-hide]
     button is only needed without JavaScript.
   - [data-checks="id"]: picking or typing something in it checks the radio of that id
     (a substitute picked is "I found someone"; the server reads it so too).
   - A button that htmx sends and that fails says so (not found, the server's error, no
     connection), where the host is looking, until a request succeeds or it is tapped. */
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
  function checkRadio(e) {
    var box = e.target;
    if (!box.matches || !box.matches("[data-checks]") || !box.value.trim()) return;
    var radio = document.getElementById(box.dataset.checks);
    if (radio) radio.checked = true;
  }
  document.addEventListener("change", checkRadio);
  document.addEventListener("input", checkRadio);
  function hideButtons() {
    document.querySelectorAll("form[data-autosubmit] [data-autosubmit-hide]").forEach(function (b) {
      b.hidden = true;
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", hideButtons);
  else hideButtons();

  /* Closed by a tap anywhere on it, its Close button (a keyboard reaches it) or Escape. */
  var alertBox = null, alertText = null;
  function say(text) {
    if (!alertBox) {
      alertBox = document.createElement("div");
      alertBox.className = "host-alert";
      alertBox.setAttribute("role", "alert");
      alertText = document.createElement("span");
      alertText.className = "host-alert-text";
      var close = document.createElement("button");
      close.type = "button";
      close.className = "host-alert-close";
      close.setAttribute("aria-label", "Close this message");
      close.textContent = "\u00d7";
      alertBox.append(alertText, close);
      alertBox.addEventListener("click", function () { alertBox.hidden = true; });
      document.addEventListener("keydown", function (e) {
        if (e.key === "Escape") alertBox.hidden = true;
      });
      document.body.appendChild(alertBox);
    }
    alertText.textContent = text;
    alertBox.hidden = false;
  }
  function isRead(e) {  /* a poll or a section fetched, not a change sent */
    var config = e.detail.requestConfig;
    return !!config && String(config.verb).toLowerCase() === "get";
  }
  document.addEventListener("htmx:responseError", function (e) {
    if (e.detail.xhr.status === 404) {
      say("That is no longer there: it was deleted or changed in another tab. Reload the page.");
    } else {
      say(isRead(e) ? "This page could not be brought up to date. It keeps trying."
        : "The server could not do that. Try again, or reload the page.");
    }
  });
  document.addEventListener("htmx:sendError", function (e) {
    say(isRead(e) ? "No connection: this page is not up to date until you are back online."
      : "No connection: that was not saved. Try again once you are back online.");
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    if (e.detail.successful && alertBox) alertBox.hidden = true;
  });
})();

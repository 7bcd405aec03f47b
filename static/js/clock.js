/* The countdown of a timed round (docs/rules.md section 3.8). The server's clock decides:
   a page counts down from the seconds the server put in data-seconds-left, and at zero
   asks the server (data-clock-url, a POST; host pages have none: their poll asks), then
   refreshes the polled element named in data-refresh, so the bell shows at once. The
   page never decides the time is up by itself. */
(function () {
  "use strict";

  function text(seconds) {
    var m = Math.floor(seconds / 60), s = seconds % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  function refresh(el) {
    var target = document.getElementById(el.dataset.refresh || "");
    if (target && window.htmx) window.htmx.trigger(target, "refresh");
  }

  function ask(el) {
    var url = el.dataset.clockUrl;
    if (!url) { refresh(el); return; }
    fetch(url, { method: "POST", headers: { "Accept": "application/json" }, credentials: "same-origin" })
      .then(function (resp) { return resp.json(); })
      .then(function (data) {
        if (data && data.seconds_left > 0) {
          /* This phone ran ahead of the server: count the rest down again. */
          run(el, data.seconds_left);
        } else {
          refresh(el);
        }
      })
      .catch(function () { setTimeout(function () { if (el.isConnected) ask(el); }, 5000); });
  }

  function run(el, seconds) {
    var out = el.querySelector("[data-clock-text]") || el;
    var end = Date.now() + seconds * 1000;
    var timer = setInterval(tick, 250);
    function tick() {
      if (!el.isConnected) { clearInterval(timer); return; }
      var left = Math.max(0, Math.ceil((end - Date.now()) / 1000));
      out.textContent = left > 0 ? text(left) : "Time's up";
      el.classList.toggle("clock-low", left > 0 && left <= 60);
      el.classList.toggle("time-up", left === 0);
      if (left === 0) { clearInterval(timer); ask(el); }
    }
    tick();
  }

  /* A page rendered at zero asks once, not on every refresh that follows. */
  var askedAtZero = {};

  function start(root) {
    (root || document).querySelectorAll("[data-seconds-left]").forEach(function (el) {
      if (el.dataset.clockStarted) return;
      el.dataset.clockStarted = "1";
      var seconds = parseInt(el.dataset.secondsLeft, 10);
      if (isNaN(seconds)) return;
      if (seconds > 0) {
        run(el, seconds);
      } else if (!el.closest("[data-bell='1']") && !askedAtZero[el.dataset.refresh]) {
        /* The time is up but this page has not seen the bell yet. */
        askedAtZero[el.dataset.refresh] = true;
        ask(el);
      }
    });
  }

  document.addEventListener("DOMContentLoaded", function () { start(); });
  document.addEventListener("htmx:afterSwap", function () { start(); });
})();

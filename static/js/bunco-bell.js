/* The bell and what screen readers hear (part of the phone's page code: see js/bunco.js).
   Uses Bunco.session, and Bunco.notice (bunco-toast.js) for a bell taken back; gives
   Bunco.checkBell and Bunco.announce, which bunco-page.js runs after each swap. */
(function (B) {
  "use strict";

  var session = B.session;
  var audio = null;

  function unlockAudio() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      if (audio.state === "suspended") audio.resume();
    } catch (e) { audio = null; }
  }
  document.addEventListener("pointerdown", unlockAudio, { once: true });

  function ring() {
    try {
      unlockAudio();
      if (audio) {
        var now = audio.currentTime;
        [[1318, 0.35], [1760, 0.2], [2637, 0.12]].forEach(function (p) {
          var osc = audio.createOscillator(), gain = audio.createGain();
          osc.type = "sine";
          osc.frequency.value = p[0];
          gain.gain.setValueAtTime(p[1], now);
          gain.gain.exponentialRampToValueAtTime(0.0001, now + 1.8);
          osc.connect(gain).connect(audio.destination);
          osc.start(now);
          osc.stop(now + 1.8);
        });
      }
    } catch (e) { /* no sound: the banner still shows */ }
    if (navigator.vibrate) navigator.vibrate([300, 120, 300, 120, 300]);
  }

  /* The bell: ring once per round when a polled fragment says it has rung. A bell taken
     back while its round is still in play (an undo: docs/rules.md section 6.2) is said so,
     and rings again if it rings again; a closed round's bell is simply over. */
  function checkBell(el) {
    if (!el) return;
    var key = "bunco-bell-" + location.pathname + "-" + el.dataset.round;
    if (el.dataset.bell !== "1") {
      if (session.get(key)) {
        session.remove(key);
        if (el.dataset.playing === "1") B.notice("The bell was taken back: play on.");
      }
      return;
    }
    if (session.get(key)) return;
    session.set(key, "1");
    ring();
  }

  /* Screen readers hear what a poll changed: the scores on the table phone, the seat on a
     player's page (the fragments say it in words, in data-announce). The bell banners are
     role="alert" and speak for themselves. */
  var announcer = document.getElementById("announce");
  function announcement() {
    return Array.prototype.map.call(document.querySelectorAll("[data-announce]"),
      function (el) { return el.dataset.announce; }).join(" ");
  }
  var announced = announcement();
  function announce() {
    var now = announcement();
    if (announcer && now && now !== announced) announcer.textContent = now;
    announced = now;
  }

  B.checkBell = checkBell;
  B.announce = announce;
})(window.Bunco);

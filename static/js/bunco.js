/* Bunco Night on a phone: taps queue on the phone and are sent in order, so nothing is
   lost or doubled when Wi-Fi drops; the bell rings with sound and vibration. Pages work
   without these scripts (plain forms); they make them fast and offline-proof.

   The table phone's and the player's pages (and the host's live board) load these plain
   scripts with defer, in this order (templates/play/_bunco_scripts.html):
     bunco.js          this one: the shared object window.Bunco, the table's token, storage
     bunco-reload.js   the service worker; the page as last shown, for a reload offline
     bunco-bell.js     the bell's sound and vibration; what screen readers hear of a poll
     bunco-toast.js    the one message at a time over the buttons
     bunco-offline.js  the connection banner, the taps waiting or refused, the unsent score
     bunco-queue.js    the queue of taps: kept on the phone, sent in order, retried, parked
     bunco-round.js    a round drawn in place: where to sit, the controls, the news, awake
     bunco-settle.js   a tap lands on what the finger saw: moved buttons held back a moment
     bunco-taps.js     the tap controls: who is rolling, a tap queued, what the dice entered
     bunco-page.js     what runs at load and after each swap, in order; Done and Undo forms
   Each is one closure. What the others use goes on window.Bunco; each calls the others'
   functions through it when it runs, never as it loads. So the order matters for what a
   file does at once (bunco-reload.js puts back the page before the others read it), for
   listeners of the same event (bunco-page.js holds those several files answer), and to
   start sending only once every file is in (bunco-page.js, last). */
(function () {
  "use strict";

  var body = document.body;
  var B = window.Bunco = { body: body, token: body.dataset.tableToken };

  /* The phone's storage, which it may refuse (a private window, a full quota): what it
     refuses is kept in this page's memory instead, so the bell, the queue of taps and
     the rest still work until the page is closed. */
  function storage(name) {
    var memory = {};
    function area() { return window[name]; }
    return {
      get: function (key) {
        var value = null;
        try { value = area().getItem(key); } catch (e) { /* refused: memory only */ }
        return value !== null ? value : (key in memory ? memory[key] : null);
      },
      set: function (key, value) {
        try { area().setItem(key, value); delete memory[key]; } catch (e) {
          memory[key] = value;
          try { area().removeItem(key); } catch (e2) { /* nothing kept there either */ }
        }
      },
      remove: function (key) {
        delete memory[key];
        try { area().removeItem(key); } catch (e) { /* nothing kept there */ }
      }
    };
  }
  B.local = storage("localStorage");
  B.session = storage("sessionStorage");
})();

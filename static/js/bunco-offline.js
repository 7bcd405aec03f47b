/* What the phone says of its connection and of the taps it holds (part of the phone's
   page code: see js/bunco.js): the banner (offline, sending, the link gone), the taps
   waiting or refused with their buttons, and the score counting the taps not sent yet.
   Uses Bunco.queue, parked, isFlushing, cancel, retry, forget (bunco-queue.js) and
   Bunco.sayDice (bunco-taps.js); gives Bunco.setOffline, isOffline, renderParked and
   renderUnsent. */
(function (B) {
  "use strict";

  var token = B.token;

  /* The connection's state. Online, taps on their way are said only once they have waited
     SENDING_SAID: a tap answered at once shows nothing. On the table phone the banner lies
     over the table's header (css/play.css), so it never moves the buttons under a finger. */
  var offline = document.getElementById("offline");
  var offlineNow = false;
  var SENDING_SAID = 1000, sendingTimer = null;
  function setOffline(isOffline, waiting) {
    if (offlineNow !== isOffline) { offlineNow = isOffline; renderParked(); }
    if (!offline) return;
    clearTimeout(sendingTimer);
    if (!isOffline && waiting && offline.hidden) {  /* back online, it says "Sending…" at once */
      sendingTimer = setTimeout(function () { sayOffline(false, B.queue().length); }, SENDING_SAID);
      return;
    }
    sayOffline(isOffline, waiting);
  }
  function sayOffline(isOffline, waiting) {
    if (isOffline || waiting) {
      offline.hidden = false;
      offline.className = "offline" + (isOffline ? " is-offline" : " is-sending");
      offline.textContent = (isOffline ? "Offline. " : "Sending… ") +
        (waiting ? waiting + (waiting === 1 ? " tap waits" : " taps wait") + " on this phone" :
          "Scores will update when the connection is back.");
      if (waiting) {
        var later = document.createElement("small");
        later.textContent = " and will be sent when the connection is back.";
        offline.appendChild(later);
      }
    } else {
      offline.hidden = true;
    }
    renderUnsent();
  }

  document.body.addEventListener("htmx:sendError", function () { setOffline(true, B.queue().length); });
  /* A poll answered "not found": the link itself no longer works (the host made a new one,
     or called the night off). Said until a poll is answered again. */
  document.body.addEventListener("htmx:responseError", function (e) {
    if (!offline || e.detail.xhr.status !== 404) return;
    offline.hidden = false;
    offline.className = "offline is-gone";
    offline.textContent = "This link no longer works: the host may have made a new one, " +
      "or called the night off. Ask the host.";
  });
  document.body.addEventListener("htmx:afterRequest", function (e) {
    if (e.detail.successful) setOffline(false, B.queue().length);
  });

  /* Taps the server refused or could not store stay listed until the player decides.
     Offline, the taps waiting on the phone are listed too, each with Cancel for a mis-tap,
     so nobody taps a roll twice because the score has not moved. */
  function renderParked() {
    var box = document.getElementById("queue");
    if (!box) return;
    var list = B.parked();
    var waiting = offlineNow ? B.queue() : [];
    box.hidden = !list.length && !waiting.length;
    box.textContent = "";
    /* Newest first, as "Last entries" below them read. */
    waiting.forEach(function (item, i) {
      var row = document.createElement("div");
      row.className = "parked waiting";
      var text = document.createElement("p");
      text.textContent = "Not sent yet: " + (item.label || "a tap");
      row.appendChild(text);
      if (!(B.isFlushing() && i === 0)) {
        row.appendChild(button("Cancel", function () { B.cancel(item.id); })).classList.add("undo");
      }
      box.insertBefore(row, box.firstChild);
    });
    list.forEach(function (item) {
      var row = document.createElement("div");
      row.className = "parked " + item.state;
      var text = document.createElement("p");
      text.textContent = (item.state === "refused" ? "Not stored: " : "Not saved yet (the server had a problem): ") +
        (item.label || "a tap") + (item.error ? ". " + item.error : ".");
      row.appendChild(text);
      if (item.state === "failed") {
        row.appendChild(button("Send again", function () { B.retry(item.id); }));
      }
      row.appendChild(button(item.state === "refused" ? "OK" : "Discard", function () { B.forget(item.id); }));
      box.appendChild(row);
    });
    renderUnsent();
    B.sayDice();
  }
  /* Offline, and while taps take their time to be sent (the banner says so), the score
     counts the taps waiting on the phone for the round on the screen, as each tap's
     button says it scores (data-points, data-reset; the dice entry's data-dice-points),
     and the side's box says so: "+2 not sent yet". Nothing moves: the note lies over the
     side's label. The server's count replaces it as the taps are stored. */
  function renderUnsent() {
    var board = document.getElementById("board");
    if (!token || !board) return;
    var marked = !!offline && !offline.hidden && !offline.classList.contains("is-gone");
    var scores = {}, before = {}, unknown = {}, touched = {};
    board.querySelectorAll(".score[data-score]").forEach(function (el) {
      scores[el.dataset.side] = before[el.dataset.side] = parseInt(el.dataset.score, 10);
    });
    /* A tap stored whose answer the phone has not heard (the Wi-Fi dropped it) is among the
       latest entries already, by its nonce: not counted twice. */
    var stored = {};
    document.querySelectorAll("#recent li[data-nonce]").forEach(function (li) { stored[li.dataset.nonce] = true; });
    if (marked && board.dataset.playing === "1") {
      B.queue().forEach(function (item) {
        var effect = item.effect, side = effect && String(effect.side);
        if (!effect || stored[item.id] || item.fields.round !== board.dataset.round || !(side in scores)) return;
        touched[side] = true;
        if (effect.reset) scores[side] = 0;
        else if (effect.points === null) unknown[side] = true;
        else scores[side] += effect.points;
      });
    }
    board.querySelectorAll(".score[data-score]").forEach(function (el) {
      var side = el.dataset.side, box = el.closest(".score-box");
      var note = box.querySelector(".unsent-note");
      el.textContent = touched[side] ? scores[side] + (unknown[side] ? "+?" : "") : el.dataset.score;
      box.classList.toggle("unsent", !!touched[side]);
      if (!touched[side]) {
        if (note) note.remove();
        return;
      }
      var more = scores[side] - before[side];
      if (!note) {
        note = document.createElement("span");
        note.className = "unsent-note";
        box.appendChild(note);
      }
      note.textContent = (unknown[side] ? "+?" : (more < 0 ? "−" : "+") + Math.abs(more)) + " not sent yet";
    });
  }
  function button(text, onClick) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "secondary";
    b.textContent = text;
    b.addEventListener("click", onClick);
    return b;
  }

  B.setOffline = setOffline;
  B.isOffline = function () { return offlineNow; };
  B.renderParked = renderParked;
  B.renderUnsent = renderUnsent;
})(window.Bunco);

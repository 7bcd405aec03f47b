/* The table phone's tap controls (part of the phone's page code: see js/bunco.js): who
   is rolling, followed across the table's phones; a tap queued with what it scores; the
   line saying what the latest dice entered. Uses Bunco.session, the queue's enqueue,
   queue and parked, Bunco.isOffline, the messages (clearError, showError) and
   bunco-settle.js (notEntered, tapReached); gives Bunco.controlsDrawn, followRoller and
   sayDice. */
(function (B) {
  "use strict";

  var token = B.token, session = B.session;

  /* The tap controls on the screen (#taps in #controls): drawn anew, in place, when the
     table's round or status changes (controlsDrawn), kept as they are otherwise. */
  var taps = null, seatKey = "";
  function currentSeat() {
    var checked = taps.querySelector("input[name=seat]:checked");
    return checked ? parseInt(checked.value, 10) : 1;
  }
  function setSeat(n) {
    var radio = taps.querySelector("input[name=seat][value='" + n + "']");
    if (radio) radio.checked = true;
    session.set(seatKey, String(n));
  }
  /* Two phones at one table follow each other's rolls: the board says whose roll the
     table's entries make it (a miss passes the dice). When another phone's taps move it,
     and this phone has no taps of its own waiting, its "Who's rolling?" follows. This
     phone's own taps moved its choice when they were tapped (``ownRoller``: where they
     leave the dice), so the board they bring back moves nothing, and a choice made by hand
     since stays until the table's entries move on. */
  var roller = null, ownRoller = null;
  function followRoller() {
    var board = document.getElementById("board");
    if (!taps || !board || !board.dataset.roller) return;
    var now = board.dataset.roller;
    if (B.queue().length) return;  /* this phone's own taps are still on their way */
    if (now === ownRoller) ownRoller = null;
    else if (roller !== null && now !== roller) setSeat(now);
    roller = now;
  }
  function controlsDrawn() {
    taps = document.getElementById("taps");
    seatKey = taps ? "bunco-seat-" + token + "-" + taps.dataset.round : "";
    roller = ownRoller = null;
    if (!taps) return;
    var remembered = session.get(seatKey);
    if (remembered) setSeat(remembered);
    followRoller();
  }
  if (token) controlsDrawn();

  /* A tap on the tap controls: queued with the round, the seat and what it scored, as its
     own form says them (the form of the controls it was made on). */
  document.addEventListener("change", function (e) {
    if (taps && e.target.form === taps && e.target.name === "seat") session.set(seatKey, e.target.value);
  });
  document.addEventListener("submit", function (e) {
    if (!taps || e.target !== taps) return;
    e.preventDefault();
    B.tapReached();
    var button = e.submitter;
    if (!button) return;
    B.clearError(true);
    var form = taps, tap = button.value;
    var fields = { tap: tap, seat: String(currentSeat()), round: form.dataset.round };
    if (tap === "dice") {
      var dice = parseInt(form.dataset.dice || "3", 10);
      for (var i = 1; i <= dice; i++) {
        var d = checkedIn(form, "d" + i);
        if (!d) {
          B.showError("Tap a face for each of the " + (dice === 2 ? "two" : "three") + " dice.",
            function () { return button; });
          return;
        }
        fields["d" + i] = d.value;
      }
    }
    var dialog = document.getElementById("who-bunco");
    if (button.hasAttribute("data-ask-roller") && dialog && dialog.showModal) {
      dialog.returnValue = "";
      dialog.querySelectorAll("button[value]:not([value=''])").forEach(function (b) {
        b.classList.toggle("current", b.value === fields.seat);
        b.classList.toggle("secondary", b.value !== fields.seat);
      });
      dialog.showModal();
      var current = dialog.querySelector("button.current");
      if (current) current.focus();
      dialog.addEventListener("close", function onClose() {
        dialog.removeEventListener("close", onClose);
        if (!dialog.returnValue) return;
        if (!form.isConnected) { B.notEntered(button); return; }  /* the round changed meanwhile */
        fields.seat = dialog.returnValue;
        B.enqueue(form.action, fields, describe(button, fields.seat), tapEffect(form, button, fields));
        flash(button);
      });
      return;
    }
    B.enqueue(form.action, fields, describe(button, fields.seat), tapEffect(form, button, fields));
    flash(button);
    if (tap === "dice") {
      diceTap = { id: fields.nonce, who: seatName(fields.seat) };
    } else {
      diceTap = diceSaid = null;  /* another tap: the line no longer names the latest */
      var said = document.querySelector("[data-dice-said]");
      if (said) said.textContent = "";
    }
    sayDice();
    /* "· Ann starts" is no longer news; its room is kept, so nothing moves under a finger. */
    var starts = form.querySelector("legend .first-roller");
    if (starts) starts.style.visibility = "hidden";
    if (tap === "miss" || (tap === "dice" && diceMiss(fields))) {
      setSeat(parseInt(fields.seat, 10) % parseInt(form.dataset.seats, 10) + 1);
    }
    ownRoller = String(currentSeat());
    if (tap === "dice") {
      Array.prototype.forEach.call(form.elements, function (el) {
        if (/^d[0-9]$/.test(el.name)) el.checked = false;
      });
    }
  });
  /* The dice entry lies below the entries, where the score and the new entry are out of
     sight: what the latest dice entered is said beside it, as they go and once stored,
     until another tap is made or that entry is undone. */
  var diceTap = null;  /* {id, who}: the latest dice tapped */
  var diceSaid = null;  /* the id of the entry the line names as entered */
  function recentRow(id) {
    return document.querySelector("#recent li[data-nonce='" + CSS.escape(id) + "']");
  }
  function sayDice() {
    var said = document.querySelector("[data-dice-said]");
    if (!said) return;
    if (!diceTap) {
      if (diceSaid && !recentRow(diceSaid)) { said.textContent = ""; diceSaid = null; }
      return;
    }
    var id = diceTap.id;
    var row = recentRow(id);
    var text;
    if (row) {
      text = "Entered: " + row.querySelector(".entry-what").textContent.trim() + " for " +
        row.querySelector(".entry-who").textContent.trim() + ".";
      diceTap = null;
      diceSaid = id;
    } else if (B.queue().some(function (i) { return i.id === id; })) {
      text = (B.isOffline() ? "Not sent yet: " : "Sending: ") + "the dice for " + diceTap.who + "…";
    } else if (B.parked().some(function (i) { return i.id === id; })) {
      text = "Not stored: the dice for " + diceTap.who + " (see above).";
    } else {
      text = "Sent: the dice for " + diceTap.who + ".";
    }
    said.textContent = text;
  }
  /* The radio named ``name`` checked among the form's controls (the dice entry lies
     outside the form, tied to it by its form attribute). */
  function checkedIn(form, name) {
    return Array.prototype.filter.call(form.elements, function (el) {
      return el.name === name && el.checked;
    })[0] || null;
  }
  /* Dice that pass to the next seat, as the Miss button does (docs/rules.md sections 2.2
     and 9.2): no die shows the mark, and they are not all the same (three of a kind, or
     doubles with two dice, score or roll again). */
  function diceMiss(fields) {
    var mark = taps.dataset.mark, faces = [];
    for (var i = 1; fields["d" + i]; i++) faces.push(fields["d" + i]);
    var same = faces.every(function (f) { return f === faces[0]; });
    return !!mark && faces.indexOf(mark) === -1 && !same;
  }
  /* "+2 for Ann": what a tap was, to name it if it cannot be stored. */
  function describe(button, seat) {
    var label = button.firstChild ? button.firstChild.textContent.trim() : button.value;
    var name = seatName(seat);
    return label + (name ? " for " + name : "");
  }
  /* Who sits in ``seat``, as its chip names them ("" if no chip does). */
  function seatName(seat) {
    var chip = taps.querySelector("input[name=seat][value='" + seat + "'] + span");
    return chip ? chip.firstChild.textContent.trim() : "";
  }
  /* What a tap does to its side's score, as its button (or the dice entry) says. */
  function tapEffect(form, button, fields) {
    var seat = parseInt(fields.seat, 10), points = parseInt(button.dataset.points, 10);
    if (fields.tap === "dice") {
      var faces = [], dice = document.getElementById("foot"), table = {};
      for (var i = 1; fields["d" + i]; i++) faces.push(fields["d" + i]);
      try { table = JSON.parse((dice && dice.dataset.dicePoints) || "{}"); } catch (e) { table = {}; }
      points = table[faces.sort().join("")];
    }
    return {
      side: form.dataset.teams === "1" ? (seat - 1) % 2 : seat - 1,
      points: typeof points === "number" && !isNaN(points) ? points : null,
      reset: button.hasAttribute("data-reset")
    };
  }
  function flash(button) {
    button.classList.add("sent");
    setTimeout(function () { button.classList.remove("sent"); }, 350);
  }

  B.controlsDrawn = controlsDrawn;
  B.followRoller = followRoller;
  B.sayDice = sayDice;
})(window.Bunco);

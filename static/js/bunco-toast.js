/* Messages over the buttons (part of the phone's page code: see js/bunco.js): one at a
   time, placed clear of the buttons a player still needs. Uses Bunco.session (a notice
   outlives a reload); gives Bunco.showToast (bunco-queue.js and bunco-settle.js make
   their own kinds with it), showError, notice, showNotice, clearError, and replaceToast
   (bunco-page.js runs it after each settle). */
(function (B) {
  "use strict";

  var session = B.session;

  /* One message at a time, at the bottom of the screen over the buttons: a newer one
     replaces it, a tap on it or the next tap on the table's buttons clears it, and it goes
     by itself after six seconds. A keyboard closes it too: Escape, or its Close button;
     it never takes the focus, which stays on the button that was pressed. It never
     covers Done, an Undo, or the button it answers (Done refused: someone has not rolled
     yet), so a player can still tap them while it shows, nor where to sit next once a
     round is over: placeClear finds it a place clear of them, again whenever the page
     scrolls or changes. */
  function showError(text, near) { showToast(text, "error", near); }
  /* A notice outlives a reload that follows it at once (someone reloads the page): it is
     kept for as long as it shows, and the reloaded page shows it again. */
  var noticeKey = "bunco-notice-" + location.pathname;
  function notice(text) {
    session.set(noticeKey, text);
    showNotice();
  }
  function showNotice() {
    var text = session.get(noticeKey);
    if (!text) return;
    showToast(text, "notice");
    setTimeout(function () { session.remove(noticeKey); }, 6000);
  }
  var placeToast = null;
  var focusedBefore = null;  /* where the focus was before it reached a Close button */
  function showToast(text, kind, near) {
    clearError();
    var box = document.createElement("div");
    box.className = "toast " + kind;
    /* The Close button first, floated right: the text wraps round it, not under it. */
    var close = document.createElement("button");
    close.type = "button";
    close.className = "toast-close";
    close.setAttribute("aria-label", "Close this message");
    close.addEventListener("focus", function (e) { focusedBefore = e.relatedTarget; });
    var words = document.createElement("span");
    words.setAttribute("role", kind === "error" ? "alert" : "status");
    words.textContent = text;
    box.append(close, words);
    box.addEventListener("click", function () { clearError(); });
    document.body.appendChild(box);
    placeToast = function () { if (box.isConnected) placeClear(box, near ? near() : null); };
    placeToast();
    setTimeout(function () { if (box.isConnected) removeToasts([box]); }, 6000);
  }
  /* Escape closes the message, unless it closes a dialog (who rolled the bunco). */
  document.addEventListener("keydown", function (e) {
    if (e.key !== "Escape" || document.querySelector("dialog[open]")) return;
    if (document.querySelector(".toast")) clearError();
  });
  /* A message closed while its Close button had the focus gives it back where it was. */
  function removeToasts(boxes) {
    var back = boxes.some(function (box) { return box.contains(document.activeElement); });
    boxes.forEach(function (box) { box.remove(); });
    if (back && focusedBefore && focusedBefore.isConnected) focusedBefore.focus();
    if (back) focusedBefore = null;
  }

  /* The buttons a message leaves uncovered, and where to sit next. */
  var UNCOVERED = "button.done, button.undo, #recent button, #board :is(.moves, .arrivals) li";
  /* And, for a tap's "not entered", what the players look at and tap next. */
  var TAPPED_NEXT = ".score-box, #taps button, #taps label";
  var TOAST_GAP = 6;  /* px between the message and a button it keeps clear of */
  function placeClear(box, near) {
    var style = box.style, height = window.innerHeight;
    var width = document.documentElement.clientWidth;
    box.classList.remove("placed", "beside");
    style.top = style.right = style.maxHeight = "";
    /* Where the stylesheet puts it: at the bottom of the screen, at most so tall; and how
       far down it starts when at the top (below a notch). */
    var home = box.getBoundingClientRect();
    var left = home.left, bottom = home.bottom, most = parseFloat(getComputedStyle(box).maxHeight);
    box.classList.add("placed");
    var top = box.getBoundingClientRect().top;
    var buttons = Array.prototype.slice.call(document.querySelectorAll(
      box.classList.contains("not-entered") ? UNCOVERED + ", " + TAPPED_NEXT : UNCOVERED));
    if (near) buttons.push(near);
    var keep = buttons.map(function (b) { return b.getBoundingClientRect(); }).filter(function (r) {
      return r.width > 0 && r.bottom > 0 && r.top < height;
    });
    /* The bottom of the screen, or the top while the button it answers is in the lower
       half; else the other; else a gap between the buttons. */
    var nearRect = near && near.getBoundingClientRect();
    var upFirst = !!nearRect && nearRect.top + nearRect.height / 2 > height / 2;
    function rank(span) {
      var atBottom = span.b === bottom, atTop = span.a === top;
      return upFirst ? (atTop ? 0 : atBottom ? 1 : 2) : (atBottom ? 0 : atTop ? 1 : 2);
    }
    /* Full width; else beside the buttons on the right (the Undo column), clear of the
       full-width ones (Done). */
    var widths = [{ right: width - left, beside: false }];
    var column = Math.min.apply(null, keep.filter(function (r) { return r.left > width / 3; })
      .map(function (r) { return r.left; }));
    if (isFinite(column) && column - TOAST_GAP - left >= width * 0.4) {
      widths.push({ right: Math.floor(column - TOAST_GAP), beside: true });
    }
    var spot = null, roomiest = null;
    widths.some(function (w) {
      box.classList.toggle("beside", w.beside);
      style.right = (width - w.right) + "px";
      style.maxHeight = "none";
      var tall = Math.min(box.offsetHeight, most);
      var spans = clearSpans(keep, left, w.right, top, bottom);
      spans.forEach(function (s) {
        if (!roomiest || s.b - s.a > roomiest.tall) roomiest = { w: w, top: s.a, tall: s.b - s.a };
      });
      var fit = spans.filter(function (s) { return s.b - s.a >= tall; });
      fit.sort(function (p, q) { return rank(p) - rank(q); });
      if (fit.length) {
        spot = { w: w, top: fit[0].b === bottom ? bottom - tall : fit[0].a, tall: tall };
      }
      return spot;
    });
    /* Nowhere clear is tall enough: the roomiest gap, the message scrolling inside it. */
    spot = spot || roomiest;
    if (!spot) {  /* no room at all: where the stylesheet puts it */
      box.classList.remove("placed", "beside");
      style.top = style.right = style.maxHeight = "";
      return;
    }
    box.classList.toggle("beside", spot.w.beside);
    style.right = (width - spot.w.right) + "px";
    style.top = spot.top + "px";
    style.maxHeight = spot.tall + "px";
  }
  /* The stretches from ``top`` to ``bottom`` crossed by no kept-clear button between
     ``left`` and ``right``, top first: [{a, b}]. */
  function clearSpans(keep, left, right, top, bottom) {
    var taken = keep.filter(function (r) {
      return r.right + TOAST_GAP > left && r.left - TOAST_GAP < right;
    }).map(function (r) { return [r.top - TOAST_GAP, r.bottom + TOAST_GAP]; });
    taken.sort(function (p, q) { return p[0] - q[0]; });
    var spans = [], from = top;
    taken.forEach(function (t) {
      if (t[0] > from) spans.push({ a: from, b: Math.min(t[0], bottom) });
      from = Math.max(from, t[1]);
    });
    if (bottom > from) spans.push({ a: from, b: bottom });
    return spans.filter(function (s) { return s.b > s.a; });
  }
  function replaceToast() { if (placeToast) placeToast(); }
  window.addEventListener("scroll", replaceToast, { passive: true });
  window.addEventListener("resize", replaceToast);
  document.addEventListener("bunco:textsize", replaceToast);
  /* All messages; or (``tapping``: the next tap is entered) all but a tap's "not entered",
     which that tap must not hide: the finger tapped twice, and one of them is lost. */
  function clearError(tapping) {
    var all = Array.prototype.slice.call(document.querySelectorAll(".toast"));
    var gone = all.filter(function (box) { return !tapping || !box.classList.contains("not-entered"); });
    if (gone.length === all.length) placeToast = null;
    removeToasts(gone);
  }

  B.showToast = showToast;
  B.showError = showError;
  B.notice = notice;
  B.showNotice = showNotice;
  B.clearError = clearError;
  B.replaceToast = replaceToast;
})(window.Bunco);

// Tavolo's play page: pick a card (tap, click, keyboard or drag) and drop it on a meld, the
// "new meld" slot or the hand. Every move is posted to the server through htmx, and the board that
// comes back is the truth: the card moves at once, quietly marked as waiting, and the server's board
// replaces it (a refused move is put back, and the notice says why).
(function () {
  "use strict";

  var lifted = null; // the picked-up card: {id, from}
  var lastMoved = null;
  var pending = null; // the move shown before the server answered: how to put it back
  var hintAsked = false;
  var refocus = null; // a selector for what had the keyboard's focus before U, to give it back

  function board() { return document.getElementById("board"); }
  // the page's words for what this script writes, in the player's language (base.html's data-words)
  var words = JSON.parse(document.body.dataset.words || "{}");
  function say(key, english) { return words[key] || english; }
  function playing() { var b = board(); return b && !b.classList.contains("done") && !pending; }

  // htmx sends the CSRF token in a header with every request it makes, and every POST an id of its
  // own: the server applies a request once however often it arrives (nginx sends it again to
  // another host when the first died with it), and answers a repeat with the turn as it stands
  function requestId() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }
  document.addEventListener("htmx:configRequest", function (event) {
    var meta = document.querySelector('meta[name="csrf-token"]');
    if (meta) { event.detail.headers["X-CSRFToken"] = meta.content; }
    if (String(event.detail.verb).toLowerCase() !== "get") { event.detail.headers["X-Tavolo-Request"] = requestId(); }
  });

  // today's page for a visitor without a session comes without a token (one copy serves them all):
  // before its first POST, the page asks for one, which brings the session cookie with it
  var asking = null;
  function tokenFirst() {
    if (!asking) {
      var meta = document.querySelector('meta[name="csrf-token"]');
      asking = fetch(meta.dataset.src, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (answer) {
          if (!answer.ok) { throw new Error(String(answer.status)); }
          return answer.json();
        })
        .then(function (given) {
          meta.content = given.token;
          Array.prototype.forEach.call(document.querySelectorAll('input[name="csrf_token"]'), function (input) {
            input.value = given.token;
          });
        })
        .finally(function () { asking = null; });
    }
    return asking;
  }
  document.addEventListener("htmx:confirm", function (event) {
    var meta = document.querySelector('meta[name="csrf-token"]');
    if (!meta || meta.content || String(event.detail.verb).toLowerCase() === "get") { return; }
    event.preventDefault();
    tokenFirst().then(function () { event.detail.issueRequest(true); }, function () { putBack(); unanswered(); });
  });

  // no answer the page can show (the network is down, or the server is restarting): say so where
  // the server's own notices go, so that a tap never seems to do nothing
  function unanswered() {
    var notice = document.getElementById("notice");
    if (!notice) { return; }
    var line = document.createElement("p");
    line.className = "notice-text error";
    line.textContent = "⚠ " + say("unanswered", "The server did not answer. Check the connection and try again.");
    notice.replaceChildren(line);
  }
  document.addEventListener("htmx:sendError", function () { putBack(); unanswered(); });
  document.addEventListener("htmx:responseError", function () { putBack(); unanswered(); });

  function cardElement(id) { return document.querySelector('#board .card[data-card="' + id + '"]'); }

  function putDown() {
    if (lifted) {
      var el = cardElement(lifted.id);
      if (el) { el.classList.remove("lifted"); el.setAttribute("aria-pressed", "false"); }
    }
    lifted = null;
    var b = board();
    if (b) { b.classList.remove("lifting"); }
  }

  function lift(el) {
    putDown();
    lifted = { id: el.dataset.card, from: el.dataset.from, joker: el.classList.contains("joker") };
    el.classList.add("lifted");
    el.setAttribute("aria-pressed", "true");
    board().classList.add("lifting");
  }

  function send(to) {
    if (!lifted) { return; }
    var move = { card: lifted.id, from: lifted.from, to: to };
    lastMoved = move.card;
    putDown();
    showMove(move);
    htmx.ajax("POST", board().dataset.moveUrl, {
      target: "#board", swap: "outerHTML", values: move
    });
  }

  // the move at once, before the server's answer: the card goes where it was dropped, marked as
  // waiting, and the board says it is busy; the server's board then replaces all of it
  function showMove(move) {
    var b = board();
    var el = cardElement(move.card);
    if (!el) { return; }
    var into = null, made = null;
    if (move.to === "hand") {
      into = b.querySelector(".hand");
    } else if (move.to === "new") {
      var slot = b.querySelector(".table .new-meld");
      made = document.createElement("div");
      made.className = "meld meld-incomplete pending-meld";
      into = document.createElement("div");
      into.className = "meld-cards";
      made.appendChild(into);
      if (slot) { slot.parentNode.insertBefore(made, slot); }
    } else {
      into = b.querySelector('.table .meld[data-meld="' + move.to + '"] .meld-cards');
    }
    if (!into) { return; }
    pending = { el: el, parent: el.parentNode, next: el.nextSibling, made: made };
    var notice = document.getElementById("notice");
    if (notice) { notice.replaceChildren(); } // an earlier refusal is no longer news
    into.appendChild(el);
    el.classList.add("pending");
    b.classList.add("busy");
    b.setAttribute("aria-busy", "true");
  }

  // the server refused the move, or did not answer: the card goes back where it was
  function putBack() {
    if (!pending) { return; }
    var p = pending;
    pending = null;
    if (!p.el.isConnected) { return; } // the server's board has replaced it
    p.parent.insertBefore(p.el, p.next);
    p.el.classList.remove("pending");
    if (p.made) { p.made.remove(); }
    var b = board();
    if (b) { b.classList.remove("busy"); b.removeAttribute("aria-busy"); }
    lastMoved = null;
  }

  // a hand card may go back to the hand; a table card only when it is a joker and the rules send a
  // freed joker there (german-jokers); the server checks again either way
  function mayGoToHand() {
    return lifted.from !== "hand" && (lifted.id.charAt(0) === "h" || (lifted.joker && board().dataset.jokersToHand === "1"));
  }

  // what a tap means depends on what is lifted and where the tap lands
  function tapCard(el) {
    if (!lifted) { lift(el); return; }
    if (lifted.id === el.dataset.card) { putDown(); return; }
    var from = el.dataset.from;
    if (from === "hand") {
      if (mayGoToHand()) { send("hand"); } else { lift(el); }
      return;
    }
    if (from === lifted.from) { lift(el); return; }
    send(from);
  }

  document.addEventListener("click", function (event) {
    if (!playing()) { return; }
    var el = event.target.closest("#board .card[data-card]");
    if (el) { tapCard(el); return; }
    var target = event.target.closest("#board [data-meld]");
    if (target && lifted) {
      var to = target.dataset.meld;
      if (to === "hand" && !mayGoToHand()) { putDown(); return; }
      if (to !== lifted.from) { send(to); }
    }
  });

  // keyboard: arrows move between cards and slots, Enter or Space picks up and drops (the cards
  // are buttons), U undoes, Escape puts the card down
  function stops() {
    return Array.prototype.slice.call(document.querySelectorAll("#board .card[data-card], #board .new-meld"));
  }
  document.addEventListener("keydown", function (event) {
    if (!playing() || event.altKey || event.ctrlKey || event.metaKey) { return; }
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea") { return; }
    if (event.key === "u" || event.key === "U") {
      var undo = document.getElementById("undo");
      if (undo && !undo.disabled) {
        event.preventDefault();
        var focused = document.activeElement;
        refocus = null;
        if (focused && focused.closest && focused.closest("#board")) {
          refocus = focused.dataset.card ? '#board .card[data-card="' + focused.dataset.card + '"]'
            : focused.id ? "#" + focused.id : "#undo";
        }
        undo.click();
      }
      return;
    }
    if (event.key === "Escape") { putDown(); return; }
    var step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    var jump = { ArrowDown: 1, ArrowUp: -1 }[event.key];
    if (!step && !jump) { return; }
    var all = stops();
    if (!all.length) { return; }
    var here = all.indexOf(document.activeElement);
    var next;
    if (step) {
      next = here < 0 ? 0 : (here + step + all.length) % all.length;
    } else {
      next = here < 0 ? 0 : nextGroup(all, here, jump);
    }
    event.preventDefault();
    all[next].focus();
  });
  // Up and Down go to the first card of the meld above or below (the hand and the new-meld slot
  // count as one each)
  function group(el) { return el.closest("[data-meld]"); }
  function nextGroup(all, here, jump) {
    var from = group(all[here]);
    var i = here;
    for (var n = 0; n < all.length; n++) {
      i = (i + jump + all.length) % all.length;
      if (group(all[i]) !== from) {
        if (jump < 0) { // to the first card of that group
          var g = group(all[i]);
          while (i > 0 && group(all[i - 1]) === g) { i--; }
        }
        return i;
      }
    }
    return here;
  }

  // drag and drop, where there is a mouse
  document.addEventListener("dragstart", function (event) {
    var el = event.target.closest && event.target.closest("#board .card[data-card]");
    if (!el || !playing()) { return; }
    lift(el);
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", el.dataset.card);
  });
  function dropTarget(event) { return event.target.closest && event.target.closest("#board [data-meld]"); }
  document.addEventListener("dragover", function (event) {
    var target = dropTarget(event);
    if (target && lifted) {
      event.preventDefault();
      target.classList.add("drop-target");
    }
  });
  document.addEventListener("dragleave", function (event) {
    var target = dropTarget(event);
    if (target) { target.classList.remove("drop-target"); }
  });
  document.addEventListener("drop", function (event) {
    var target = dropTarget(event);
    if (!target || !lifted) { return; }
    event.preventDefault();
    target.classList.remove("drop-target");
    var to = target.dataset.meld;
    if (to === lifted.from || (to === "hand" && !mayGoToHand())) { putDown(); return; }
    send(to);
  });
  document.addEventListener("dragend", function () {
    Array.prototype.forEach.call(document.querySelectorAll(".drop-target"), function (el) {
      el.classList.remove("drop-target");
    });
  });

  // after the server's board arrives: show where the card went and keep the keyboard focus on it
  // what the page scrolls into view must clear the sticky tray, whose height varies (a hint's words
  // make it taller)
  function clearTray() {
    var tray = document.getElementById("tray");
    document.documentElement.style.scrollPaddingBottom = tray ? tray.offsetHeight + 8 + "px" : "";
  }

  // (a swap that left the shown move on the page put a refusal in the notice: the move goes back)
  // End turn or Give up answers with the result: the eye goes to its heading, wherever the page was
  var hadResult = false;
  document.addEventListener("htmx:beforeSwap", function () {
    hadResult = Boolean(document.getElementById("result"));
  });
  document.addEventListener("htmx:afterSwap", function () {
    var result = document.getElementById("result");
    if (result && !hadResult) {
      (result.querySelector("h2") || result).scrollIntoView({ block: "start" });
    }
    lifted = null;
    clearTray();
    putBack();
    startCountdowns();
    if (hintAsked) {
      hintAsked = false;
      var hinted = document.querySelector("#board .table .hinted-meld, #board .table .card.hinted") ||
        document.getElementById("hint");
      if (hinted) { hinted.scrollIntoView({ block: "nearest" }); }
    }
    if (refocus) {
      var again = document.querySelector(refocus);
      refocus = null;
      if (again && !again.disabled) { again.focus({ preventScroll: true }); }
    }
    if (!lastMoved) { return; }
    var el = cardElement(lastMoved);
    lastMoved = null;
    if (el) {
      el.classList.add("arrived");
      el.focus({ preventScroll: true });
      el.scrollIntoView({ block: "nearest" });
    }
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt && event.detail.elt.closest && event.detail.elt.closest("form");
    if (form && form.querySelector("#hint-button")) { hintAsked = true; }
  });

  // End turn, while it cannot end the turn, says why instead of doing nothing
  document.addEventListener("click", function (event) {
    var off = event.target.closest('#end-turn[aria-disabled="true"]');
    if (off) {
      event.preventDefault();
      var why = document.getElementById("end-turn-why");
      if (why) { why.hidden = false; }
      return;
    }
    if (event.target.closest("#board [data-put-down]")) { putDown(); }
  }, true);

  // a copy button copies its text; the share button opens the phone's share sheet where the browser
  // has one, with the spoiler-free text and the puzzle's link, and copies both elsewhere
  function copyText(button, source, text) {
    var done = function () { button.textContent = say("copied", "Copied"); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { selectText(source); });
    } else {
      selectText(source);
      try { if (document.execCommand("copy")) { done(); } } catch (e) { /* the text stays selected */ }
    }
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy]");
    if (!button) { return; }
    var source = document.getElementById(button.dataset.copy);
    if (!source) { return; }
    copyText(button, source, source.textContent.trim());
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-share]");
    if (!button) { return; }
    var source = document.getElementById(button.dataset.share);
    if (!source) { return; }
    var text = source.textContent.trim(), url = button.dataset.shareUrl || "";
    var whole = url ? text + "\n" + url : text;
    if (typeof navigator.share === "function") {
      navigator.share(url ? { text: text, url: url } : { text: text }).catch(function (error) {
        // closing the sheet is the player's choice; any other refusal falls back to a copy
        if (!error || error.name !== "AbortError") { copyText(button, source, whole); }
      });
      return;
    }
    copyText(button, source, whole);
  });
  function selectText(el) {
    var range = document.createRange();
    range.selectNodeContents(el);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  // countdown to the next puzzle
  var ticking = null;
  function startCountdowns() {
    if (ticking) { return; }
    ticking = setInterval(function () {
      var clocks = document.querySelectorAll("time.countdown");
      if (!clocks.length) { clearInterval(ticking); ticking = null; return; }
      Array.prototype.forEach.call(clocks, function (el) {
        var left = Math.max(0, Math.floor((Date.parse(el.getAttribute("datetime")) - Date.now()) / 1000));
        var h = Math.floor(left / 3600), m = Math.floor(left % 3600 / 60), s = left % 60;
        el.textContent = left ? h + ":" + (m < 10 ? "0" : "") + m + ":" + (s < 10 ? "0" : "") + s : say("reload", "now: reload");
      });
    }, 1000);
  }

  // a timed turn: the clock counts down to the server's deadline; at zero the server is asked to end
  // the turn (it restores the table), and the board it answers with shows the result
  var turnTicking = null;
  function startTurnClock() {
    if (turnTicking) { clearInterval(turnTicking); turnTicking = null; }
    var clock = document.getElementById("turn-clock");
    if (!clock) { return; }
    var ends = Date.parse(clock.getAttribute("datetime"));
    var asked = false;
    function tick() {
      var left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
      var m = Math.floor(left / 60), s = left % 60;
      clock.textContent = "⏱ " + m + ":" + (s < 10 ? "0" : "") + s;
      clock.classList.toggle("low", left <= 30 && left > 10);
      clock.classList.toggle("out", left <= 10);
      if (left === 0 && !asked) {
        asked = true;
        clearInterval(turnTicking); turnTicking = null;
        // the server allows a few seconds for the last move to arrive: ask once they are over
        setTimeout(function () {
          htmx.ajax("POST", clock.dataset.timeUpUrl, { target: "#board", swap: "outerHTML" });
        }, 3500);
      }
    }
    tick();
    turnTicking = setInterval(tick, 250);
  }
  document.addEventListener("htmx:afterSettle", startTurnClock);

  // the player's day is their own: tell the server the browser's time zone, and reload today's
  // page once if the server guessed another date
  function localDate() {
    var d = new Date();
    var pad = function (n) { return (n < 10 ? "0" : "") + n; };
    return d.getFullYear() + "-" + pad(d.getMonth() + 1) + "-" + pad(d.getDate());
  }
  function syncTimeZone() {
    var tz;
    try { tz = Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (e) { return; }
    if (!tz) { return; }
    var b = board();
    var cookie = document.cookie.split("; ").filter(function (c) { return c.indexOf("tz=") === 0; })[0];
    var known = cookie ? decodeURIComponent(cookie.slice(3)) : "";
    if (known !== tz) {
      // Secure wherever the page itself came over HTTPS, as the server's own cookies are
      document.cookie = "tz=" + encodeURIComponent(tz) + "; path=/; max-age=34560000; samesite=lax" +
        (location.protocol === "https:" ? "; secure" : "");
    }
    if (b && b.dataset.today === "1" && b.dataset.day !== localDate() && b.dataset.tz !== tz &&
        !sessionStorage.getItem("tavolo-tz-reload")) {
      sessionStorage.setItem("tavolo-tz-reload", "1");
      window.location.reload();
    }
  }

  // the first visit's walkthrough: shown once, Next and Back step through it, Skip or Start playing
  // close it for good
  var TUTORIAL_SEEN = "tavolo-tutorial-seen";
  function tutorial() {
    var slot = document.getElementById("tutorial-slot");
    if (!slot || typeof HTMLDialogElement !== "function") { return; }
    var seen;
    try { seen = localStorage.getItem(TUTORIAL_SEEN); } catch (e) { return; }
    if (seen) { return; }
    htmx.ajax("GET", slot.dataset.src, { target: "#tutorial-slot", swap: "innerHTML" }).then(openTutorial);
  }
  function openTutorial() {
    var dialog = document.getElementById("tutorial");
    if (!dialog) { return; }
    var steps = dialog.querySelectorAll(".tutorial-step");
    var at = 0;
    function show(n) {
      at = n;
      Array.prototype.forEach.call(steps, function (step, i) { step.hidden = i !== n; });
      dialog.querySelector("#tutorial-back").hidden = n === 0;
      dialog.querySelector("#tutorial-next").hidden = n === steps.length - 1;
      dialog.querySelector("#tutorial-done").hidden = n !== steps.length - 1;
    }
    dialog.querySelector("#tutorial-next").addEventListener("click", function () { show(at + 1); });
    dialog.querySelector("#tutorial-back").addEventListener("click", function () { show(at - 1); });
    dialog.addEventListener("close", function () {
      try { localStorage.setItem(TUTORIAL_SEEN, dialog.returnValue || "closed"); } catch (e) { /* shown again */ }
    });
    show(0);
    dialog.showModal();
  }

  document.addEventListener("DOMContentLoaded", function () {
    tutorial();
    clearTray();
    syncTimeZone();
    startCountdowns();
    startTurnClock();
  });
})();

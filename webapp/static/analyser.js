// Tavolo's analyser: the card palette types cards into the table or the hand field, so a position
// can be entered with taps alone. The form works without this script; the palette then stays hidden.
(function () {
  "use strict";

  var target = "table";
  // the page's words for what this script writes, in the player's language (base.html's data-words)
  var words = JSON.parse(document.body.dataset.words || "{}");
  function say(key, english) { return words[key] || english; }
  var SUITS = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };

  function field() { return document.getElementById(target); }

  function setTarget(name) {
    target = name;
    Array.prototype.forEach.call(document.querySelectorAll(".palette-target"), function (button) {
      button.setAttribute("aria-pressed", button.dataset.target === name ? "true" : "false");
    });
  }

  // the page's own suit letters (an Italian C is cuori), as the server reads them
  var palette = document.querySelector("[data-palette]");
  var OWN = JSON.parse((palette && palette.dataset.suits) || "{}");

  // a typed token as the engine writes it (10H, JK), or null when it is no card (or an ambiguous one)
  function normal(token) {
    var text = token.toUpperCase();
    if (text === "JK" || text === "JOKER" || text === "🃏") { return "JK"; }
    var suit = text.slice(-1);
    if (SUITS[suit]) { suit = SUITS[suit]; } else if (OWN[suit] !== undefined) { suit = OWN[suit]; }
    var rank = text.slice(0, -1);
    if (rank === "T") { rank = "10"; }
    return /^(A|[2-9]|10|J|Q|K)$/.test(rank) && /^[SHDC]$/.test(suit) ? rank + suit : null;
  }

  // how many of each card the two fields hold, against what the chosen rules have
  function refresh() {
    var rules = document.getElementById("rules");
    if (!rules) { return; }
    var option = rules.options[rules.selectedIndex];
    var decks = Number(option.dataset.decks || 2);
    var jokers = Number(option.dataset.jokers || 0);
    var counts = {};
    ["table", "hand"].forEach(function (name) {
      var el = document.getElementById(name);
      (el ? el.value : "").split(/[\s,\/;]+/).forEach(function (token) {
        var card = token && normal(token);
        if (card) { counts[card] = (counts[card] || 0) + 1; }
      });
    });
    Array.prototype.forEach.call(document.querySelectorAll("[data-palette] [data-token]"), function (button) {
      var token = normal(button.dataset.token);
      var allowed = token === "JK" ? jokers : decks;
      var left = allowed - (counts[token] || 0);
      button.disabled = left <= 0;
      button.dataset.left = String(Math.max(left, 0));
      button.title = left > 0 ? say("left", "left: %s").replace("%s", left) : say("none_left", "none left in these rules");
    });
    var joker = document.querySelector(".palette-joker");
    if (joker) { joker.hidden = jokers === 0; }
  }

  function append(text) {
    var el = field();
    if (!el) { return; }
    var value = el.value.replace(/\s+$/, "");
    el.value = value ? value + " " + text : text;
    refresh();
  }

  function back() {
    var el = field();
    if (!el) { return; }
    var value = el.value.replace(/\s+$/, "");
    value = value.slice(-1) === "/" ? value.slice(0, -1) : value.replace(/[^\s\/]+$/, "");
    el.value = value.replace(/\s+$/, "");
    refresh();
  }

  document.addEventListener("click", function (event) {
    var chooser = event.target.closest(".palette-target");
    if (chooser) { setTarget(chooser.dataset.target); return; }
    var action = event.target.closest("[data-palette-action]");
    if (action) {
      if (action.dataset.paletteAction === "meld") { setTarget("table"); append("/"); } else { back(); }
      return;
    }
    var card = event.target.closest("[data-palette] [data-token]");
    if (card && !card.disabled) { append(card.dataset.token); }
  });

  document.addEventListener("focusin", function (event) {
    var id = event.target.id;
    if (id === "table" || id === "hand") { setTarget(id); }
  });
  document.addEventListener("input", function (event) {
    if (event.target.closest && event.target.closest(".analyser-form")) { refresh(); }
  });
  document.addEventListener("change", function (event) {
    if (event.target.id === "rules") { refresh(); }
  });

  function start() {
    var palette = document.querySelector("[data-palette]");
    if (!palette) { return; }
    palette.hidden = false;
    setTarget(target);
    refresh();
  }
  // A refused position keeps the last answer on the page (marked as the earlier one), and the view
  // goes to the first problem: the player reads what is wrong where they typed it.
  var kept = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var refused = event.detail.xhr && event.detail.xhr.status >= 400;
    kept = refused ? document.getElementById("analysis") : null;
  });
  function afterSwap() {
    var section = document.getElementById("analyser");
    if (!section) { return; }
    if (kept && !document.getElementById("analysis")) {
      var note = document.createElement("p");
      note.className = "muted earlier-note";
      note.textContent = say("earlier_answer", "The last answer, to the position before:");
      kept.classList.add("earlier");
      kept.insertBefore(note, kept.firstChild);
      section.appendChild(kept);
    }
    kept = null;
    var problem = section.querySelector(".problems li");
    if (problem) {
      var where = problem.closest(".field") || problem;
      where.scrollIntoView({ block: "start" });
      var input = where.querySelector("textarea, input, select");
      if (input) { input.focus({ preventScroll: true }); }
    }
    start();
  }
  // The chain length's cell asks for itself after the page; refused for now (429 one solve at a time
  // or budget spent, 503 solver busy) it asks again by itself after the answer's Retry-After, a few
  // times, saying so; then it shows its link again, with why.
  var CHAIN_TRIES = 3;
  var CHAIN_MOST_WAIT = 120;
  document.addEventListener("htmx:beforeOnLoad", function (event) {
    var cell = event.detail.elt;
    if (!cell || cell.id !== "chain-length" || !cell.classList.contains("chain-pending")) { return; }
    var xhr = event.detail.xhr;
    var status = xhr ? xhr.status : 0;
    if (status !== 429 && status !== 503) { return; }
    // the refusal's notice is for a board's notice line, which this page has not: the cell says it
    event.preventDefault();
    var wait = parseInt(xhr.getResponseHeader("Retry-After") || "", 10);
    wait = Math.min(Math.max(isNaN(wait) ? 2 : wait, 1), CHAIN_MOST_WAIT);
    var tries = Number(cell.dataset.tries || 0) + 1;
    cell.dataset.tries = String(tries);
    var note = cell.querySelector(".chain-note");
    if (!note) {
      note = document.createElement("span");
      note.className = "chain-note";
      note.setAttribute("role", "status");
      cell.insertBefore(note, cell.firstChild);
    }
    if (tries >= CHAIN_TRIES) {
      cell.classList.remove("chain-retrying");
      note.textContent = say("chain_gave_up", "The solver is busy: the chain length was not worked out.") + " ";
      return;
    }
    cell.classList.add("chain-retrying");
    note.textContent = say("chain_retry", "The solver is busy: trying again in %s s.").replace("%s", wait);
    setTimeout(function () {
      if (document.body.contains(cell)) { htmx.trigger(cell, "chain-retry"); }
    }, wait * 1000);
  });
  document.addEventListener("DOMContentLoaded", start);
  document.addEventListener("htmx:afterSwap", afterSwap);
})();

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

  // a typed token as the palette writes it (10H, JK), or null when it is no card
  function normal(token) {
    var text = token.toUpperCase();
    if (text === "JK" || text === "JOKER" || text === "🃏") { return "JK"; }
    var suit = text.slice(-1);
    suit = SUITS[suit] || suit;
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
      var token = button.dataset.token;
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
  document.addEventListener("DOMContentLoaded", start);
  document.addEventListener("htmx:afterSwap", afterSwap);
})();

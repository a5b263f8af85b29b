// Tavolo's rush and streak runs: the run's clock and two keys. The cards move with play.js, as on
// every board. The clock only shows the seconds the server counted when it drew the board: the
// server keeps the time, and at zero the page asks it for the board it now has (the end, usually).
(function () {
  "use strict";

  var ticking = null;
  function startClock() {
    if (ticking) { clearInterval(ticking); ticking = null; }
    var clock = document.getElementById("run-clock");
    if (!clock) { return; }
    // counted from when this board arrived, on the browser's steady clock, never its calendar clock
    var ends = performance.now() + Number(clock.dataset.seconds) * 1000;
    var asked = false;
    function tick() {
      var left = Math.max(0, Math.ceil((ends - performance.now()) / 1000));
      var m = Math.floor(left / 60), s = left % 60;
      clock.textContent = "⏱ " + m + ":" + (s < 10 ? "0" : "") + s;
      clock.classList.toggle("low", left <= 30);
      if (left === 0 && !asked) {
        asked = true;
        clearInterval(ticking); ticking = null;
        // the server allows a few seconds for the last move to arrive: ask once they are over
        setTimeout(function () {
          if (clock.isConnected) {
            htmx.ajax("POST", clock.dataset.timeUpUrl, { target: "#board", swap: "outerHTML" });
          }
        }, 3500);
      }
    }
    tick();
    ticking = setInterval(tick, 250);
  }
  document.addEventListener("DOMContentLoaded", startClock);
  document.addEventListener("htmx:afterSettle", startClock);

  // a new puzzle of the run opens at its top (the clock, then the table), wherever the last one's
  // table was scrolled to
  var shown = null;
  function toNewPuzzle() {
    var board = document.querySelector("#board.run-board");
    var puzzle = board ? board.dataset.puzzle || "" : "";
    if (shown !== null && puzzle && puzzle !== shown) {
      var still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      board.scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
    }
    shown = puzzle;
  }
  document.addEventListener("DOMContentLoaded", toNewPuzzle);
  document.addEventListener("htmx:afterSettle", toNewPuzzle);

  // on a keyboard: E ends the turn, S skips the puzzle (U undoes, in play.js)
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea") { return; }
    var board = document.querySelector("#board.run-board:not(.done)");
    if (!board) { return; }
    var key = event.key.toLowerCase();
    var button = key === "e" ? document.getElementById("end-turn") : key === "s" ? document.getElementById("skip") : null;
    if (button) { event.preventDefault(); button.click(); }
  });
}());

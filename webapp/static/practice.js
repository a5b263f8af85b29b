// Practice's chooser: the tier buttons follow the theme chosen, and another preset shows its own
// themes. The page says the same without this script (the server draws the buttons for the preset
// and theme in the address, and refuses a pair the pool does not hold with the tiers that have it).
(function () {
  "use strict";

  function follow() {
    var form = document.getElementById("practice-form");
    if (!form) { return; }
    var offer = JSON.parse(form.dataset.offer);
    var rules = form.querySelector("#rules"), theme = form.querySelector("#theme");
    function update() {
      var tiers = (offer[rules.value] || {})[theme.value] || [];
      form.querySelectorAll("button[name=tier]").forEach(function (button) {
        button.disabled = button.value === "rating" ? tiers.length === 0 : tiers.indexOf(button.value) < 0;
      });
    }
    rules.addEventListener("change", function () {
      // each preset has its own themes: the server lists them
      var address = new URL(window.location.href);
      address.searchParams.set("rules", rules.value);
      address.searchParams.delete("theme");
      window.location.assign(address.toString());
    });
    theme.addEventListener("change", update);
    update();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", follow);
  } else {
    follow();
  }
})();

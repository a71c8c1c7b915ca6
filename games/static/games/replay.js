// The replay slider: moving it shows the position after that many turns (?ply=N, or ?turn=N
// when a turn takes several steps, as in Celtic Knot). The
// Show button does the same without this script.
(function () {
  "use strict";
  function setUp() {
    var form = document.getElementById("replay-slider");
    if (!form) return;
    var range = document.getElementById("replay-ply");
    var out = document.getElementById("replay-out");
    var show = document.getElementById("replay-show");
    if (show) show.hidden = true;
    range.addEventListener("input", function () { out.textContent = range.value; });
    range.addEventListener("change", function () { form.submit(); });
  }
  setUp();
  window.addEventListener("celtic:refreshed", setUp);
})();

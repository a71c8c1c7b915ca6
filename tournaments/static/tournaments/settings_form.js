// The tournament settings form: show only the fieldset of the chosen format (the others are
// hidden and disabled, so their fields are not sent). Without this script every format's
// fieldset shows, and the server takes the chosen format's fields only.
(function () {
  "use strict";
  var format = document.querySelector("select[name=format]");
  if (!format) return;
  var fieldsets = document.querySelectorAll("fieldset[data-format]");
  function showChosen() {
    fieldsets.forEach(function (fieldset) {
      var chosen = fieldset.getAttribute("data-format") === format.value;
      fieldset.hidden = !chosen;
      fieldset.disabled = !chosen;
    });
  }
  format.addEventListener("change", showChosen);
  showChosen();
})();

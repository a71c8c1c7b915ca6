// Click-to-play on the game page: click (or focus and press Enter on) a dashed demand cell
// to see the tiles you may play there; clicking one fills the move field and submits.
// The legal moves come from the server as JSON (#legal-moves); without this script the
// notation field still works.
(function () {
  "use strict";
  var dataNode = document.getElementById("legal-moves");
  var form = document.getElementById("move-form");
  if (!dataNode || !form) return;
  var data = JSON.parse(dataNode.textContent);
  var input = form.querySelector("input[name=notation]");
  var palette = document.getElementById("palette");
  var paletteCell = document.getElementById("palette-cell");
  var ownRow = document.getElementById("palette-own");
  var neutralRow = document.getElementById("palette-neutral");
  var hint = form.querySelector(".js-hint");
  if (hint) hint.hidden = false;

  var byCell = {};
  data.moves.forEach(function (move) {
    (byCell[move.cell] = byCell[move.cell] || []).push(move);
  });

  var selected = null;

  function choose(move) {
    input.value = move.notation;
    form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    if (form.requestSubmit) form.requestSubmit(); else form.submit();
  }

  function tileButton(move) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "tile-choice";
    button.title = move.label;
    button.setAttribute("aria-label", "Play " + move.label);
    button.innerHTML = data.icons[move.icon] + '<span class="choice-text">' +
      move.notation.split(" ").slice(1).join(" ") + "</span>";
    button.addEventListener("click", function () { choose(move); });
    button.addEventListener("mouseenter", function () { input.value = move.notation; });
    button.addEventListener("focus", function () { input.value = move.notation; });
    return button;
  }

  function open(cell, rect) {
    if (selected) selected.classList.remove("selected");
    selected = rect;
    rect.classList.add("selected");
    paletteCell.textContent = cell;
    ownRow.replaceChildren();
    neutralRow.replaceChildren();
    (byCell[cell] || []).forEach(function (move) {
      var neutral = / n$/.test(move.notation);
      (neutral ? neutralRow : ownRow).appendChild(tileButton(move));
    });
    ownRow.hidden = !ownRow.children.length;
    neutralRow.hidden = !neutralRow.children.length;
    palette.hidden = false;
    var first = palette.querySelector(".tile-choice");
    if (first) first.focus({ preventScroll: true });
    palette.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }

  function close() {
    palette.hidden = true;
    if (selected) { selected.classList.remove("selected"); selected.focus(); }
    selected = null;
  }

  document.querySelectorAll(".board .demand.playable").forEach(function (rect) {
    var cell = rect.getAttribute("data-cell");
    rect.addEventListener("click", function () { open(cell, rect); });
    rect.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        open(cell, rect);
      }
    });
  });
  document.getElementById("palette-close").addEventListener("click", close);
  palette.addEventListener("keydown", function (event) {
    if (event.key === "Escape") close();
  });
})();

// Click-to-play on the game page. Click (or Tab to, and press Enter or Space on) a dashed
// demand cell to see the tiles you may play there; arrow keys move between those cells and
// between the tiles. Picking a tile shows it on the board; Confirm plays it and Cancel
// clears it. A player who turned confirmation off in their profile plays it at once.
// The legal moves come from the server as JSON (#legal-moves); without this script the
// notation field still works.
(function () {
  "use strict";
  function setUp() {
    var dataNode = document.getElementById("legal-moves");
    var form = document.getElementById("move-form");
    if (!dataNode || !form) return;
    var data = JSON.parse(dataNode.textContent);
    var confirmFirst = form.getAttribute("data-confirm") !== "0";
    var input = form.querySelector("input[name=notation]");
    var palette = document.getElementById("palette");
    var paletteCell = document.getElementById("palette-cell");
    var ownRow = document.getElementById("palette-own");
    var neutralRow = document.getElementById("palette-neutral");
    var confirmBar = document.getElementById("confirm-bar");
    var confirmMove = document.getElementById("confirm-move");
    var confirmButton = document.getElementById("confirm-play");
    var hint = form.querySelector(".js-hint");
    var board = document.querySelector(".board-frame svg.board");
    if (hint) hint.hidden = false;
    var SVG = "http://www.w3.org/2000/svg";

    var byCell = {};
    data.moves.forEach(function (move) {
      (byCell[move.cell] = byCell[move.cell] || []).push(move);
    });
    var cells = Array.prototype.slice.call(document.querySelectorAll(".board .demand.playable"));

    var selected = null;
    var preview = null;

    function submit() {
      form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
      if (form.requestSubmit) form.requestSubmit(); else form.submit();
    }

    function clearPreview() {
      if (preview) preview.remove();
      preview = null;
      confirmBar.hidden = true;
      form.classList.remove("previewing");
    }

    // Draw the chosen tile in its cell: the demand rectangle is inset 8 units in its cell.
    function showPreview(move, rect) {
      clearPreview();
      var x = parseFloat(rect.getAttribute("x")) - 8;
      var y = parseFloat(rect.getAttribute("y")) - 8;
      var size = parseFloat(rect.getAttribute("width")) + 16;
      var icon = new DOMParser().parseFromString(data.icons[move.icon], "image/svg+xml");
      var tile = document.importNode(icon.documentElement, true);
      tile.setAttribute("x", x);
      tile.setAttribute("y", y);
      tile.setAttribute("width", size);
      tile.setAttribute("height", size);
      tile.removeAttribute("role");
      preview = document.createElementNS(SVG, "g");
      preview.setAttribute("class", "preview");
      preview.setAttribute("data-cell", move.cell);
      preview.setAttribute("aria-hidden", "true");
      preview.appendChild(tile);
      board.appendChild(preview);
      confirmMove.textContent = move.notation;
      confirmBar.hidden = false;
      form.classList.add("previewing");
    }

    function choose(move) {
      input.value = move.notation;
      if (!confirmFirst) { submit(); return; }
      var rect = selected;
      closePalette(false);
      showPreview(move, rect);
      selected = rect;
      rect.classList.add("selected");
      confirmButton.focus({ preventScroll: true });
      confirmBar.scrollIntoView({ block: "nearest", behavior: "smooth" });
    }

    function tileButton(move) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "tile-choice";
      button.title = move.label;
      button.setAttribute("data-notation", move.notation);
      button.setAttribute("aria-label", (confirmFirst ? "Show " : "Play ") + move.label);
      button.innerHTML = data.icons[move.icon] + '<span class="choice-text">' +
        move.notation.split(" ").slice(1).join(" ") + "</span>";
      button.addEventListener("click", function () { choose(move); });
      return button;
    }

    function openPalette(cell, rect) {
      clearPreview();
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

    function closePalette(refocus) {
      palette.hidden = true;
      if (selected) {
        selected.classList.remove("selected");
        if (refocus) selected.focus();
      }
      selected = null;
    }

    function cancel() {
      var rect = selected;
      clearPreview();
      closePalette(false);
      input.value = "";
      if (rect) { rect.classList.remove("selected"); rect.focus(); }
    }

    // The playable cell nearest to ``from`` in the arrow's direction (files a-i, ranks 1-9).
    function coordinates(rect) {
      var name = rect.getAttribute("data-cell");
      return { file: name.charCodeAt(0) - 97, rank: parseInt(name.slice(1), 10) };
    }
    var DIRECTIONS = {
      ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1],
    };
    function neighbour(from, key) {
      var step = DIRECTIONS[key];
      var here = coordinates(from);
      var best = null;
      var bestScore = Infinity;
      cells.forEach(function (rect) {
        if (rect === from) return;
        var there = coordinates(rect);
        var along = (there.file - here.file) * step[0] + (there.rank - here.rank) * step[1];
        if (along <= 0) return;
        var across = Math.abs((there.file - here.file) * step[1]) +
          Math.abs((there.rank - here.rank) * step[0]);
        var score = along + 2 * across;
        if (score < bestScore) { best = rect; bestScore = score; }
      });
      return best;
    }

    cells.forEach(function (rect) {
      var cell = rect.getAttribute("data-cell");
      rect.addEventListener("click", function () { openPalette(cell, rect); });
      rect.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          openPalette(cell, rect);
        } else if (DIRECTIONS[event.key]) {
          event.preventDefault();
          var next = neighbour(rect, event.key);
          if (next) next.focus();
        }
      });
    });

    palette.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { closePalette(true); return; }
      if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
      var tiles = Array.prototype.slice.call(palette.querySelectorAll(".tile-choice"));
      var index = tiles.indexOf(document.activeElement);
      if (index < 0) return;
      event.preventDefault();
      var step = event.key === "ArrowRight" ? 1 : -1;
      tiles[(index + step + tiles.length) % tiles.length].focus();
    });
    document.getElementById("palette-close").addEventListener("click", function () {
      closePalette(true);
    });
    document.getElementById("confirm-cancel").addEventListener("click", cancel);
    confirmBar.addEventListener("keydown", function (event) {
      if (event.key === "Escape") cancel();
    });
    form.addEventListener("submit", function () {
      form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    });
  }
  setUp();
  window.addEventListener("celtic:refreshed", setUp);
})();

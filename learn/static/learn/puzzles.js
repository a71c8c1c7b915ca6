// The puzzles page: lay tiles on each 5x5 grid; the server checks every tile laid.
// A tile that breaks a rule is taken back and the reason shown; a full grid is judged.
(function () {
  "use strict";
  var script = document.getElementById("puzzle-script");
  var iconsNode = document.getElementById("puzzle-icons");
  if (!script || !iconsNode) { return; }
  var checkUrl = script.getAttribute("data-check-url");
  var icons = JSON.parse(iconsNode.textContent);
  var csrfInput = document.querySelector("input[name=csrfmiddlewaretoken]");
  var csrf = csrfInput ? csrfInput.value : "";
  var SIZE = 5;
  var PER_SHAPE = 5;

  function setupPuzzle(section) {
    var name = section.getAttribute("data-puzzle");
    var cells = Array.prototype.slice.call(section.querySelectorAll(".puzzle-cell"));
    var picker = section.querySelector(".puzzle-picker");
    var status = section.querySelector(".puzzle-status");
    var grid = cells.map(function () { return "-"; });
    var selected = null;

    function rows(layout) {
      var out = [];
      for (var r = 0; r < SIZE; r++) { out.push(layout.slice(r * SIZE, (r + 1) * SIZE).join(" ")); }
      return out;
    }

    function label(index) {
      return "Row " + (Math.floor(index / SIZE) + 1) + ", column " + (index % SIZE + 1);
    }

    function draw(index) {
      var cell = cells[index];
      var sides = grid[index];
      cell.innerHTML = sides === "-" ? "" : icons[sides].icon;
      countLeft();
      cell.setAttribute("aria-label", label(index) + ": " + (sides === "-" ? "empty" : sides));
    }

    function countLeft() {
      Array.prototype.forEach.call(section.querySelectorAll(".puzzle-left [data-shape]"), function (node) {
        var letter = node.getAttribute("data-shape");
        var used = grid.filter(function (s) { return s !== "-" && icons[s].shape === letter; }).length;
        node.querySelector("strong").textContent = String(PER_SHAPE - used);
      });
    }

    function select(index) {
      selected = index;
      cells.forEach(function (c, i) { c.classList.toggle("selected", i === index); });
      status.textContent = "Choose a tile for row " + (Math.floor(index / SIZE) + 1) +
        ", column " + (index % SIZE + 1) + ".";
    }

    function nextEmpty(from) {
      for (var step = 1; step <= grid.length; step++) {
        var index = (from + step) % grid.length;
        if (grid[index] === "-") { return index; }
      }
      return null;
    }

    function check(layout, onAnswer) {
      fetch(checkUrl, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
        body: JSON.stringify({ puzzle: name, rows: rows(layout) })
      }).then(function (response) {
        return response.json().then(function (data) { return { status: response.status, data: data }; });
      }).then(function (answer) {
        if (answer.status !== 200) { status.textContent = answer.data.error || "The check failed."; return; }
        onAnswer(answer.data);
      }).catch(function () {
        status.textContent = "The check could not reach the server; try again.";
      });
    }

    function lay(sides) {
      if (selected === null) { return; }
      var index = selected;
      var attempt = grid.slice();
      attempt[index] = sides;
      check(attempt, function (data) {
        status.textContent = data.message;
        section.classList.toggle("solved", data.ok && data.complete);
        if (data.ok || data.complete) {
          grid = attempt;
          draw(index);
          cells[index].classList.toggle("wrong", !data.ok);
          var next = nextEmpty(index);
          if (next !== null && !data.complete) { select(next); status.textContent = data.message; }
        } else {
          cells[index].classList.add("refused");
          setTimeout(function () { cells[index].classList.remove("refused"); }, 600);
        }
      });
    }

    Object.keys(icons).forEach(function (sides) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "picker-tile";
      button.innerHTML = icons[sides].icon;
      button.setAttribute("aria-label", "Lay the tile open " + sides);
      button.title = sides;
      button.addEventListener("click", function () { lay(sides); });
      picker.appendChild(button);
    });

    cells.forEach(function (cell, index) {
      cell.disabled = false;
      cell.addEventListener("click", function () { select(index); });
    });

    select(0);
    status.textContent = "Lay a tile on the highlighted cell, or choose another cell.";

    section.querySelector(".puzzle-clear").addEventListener("click", function () {
      if (selected === null) { return; }
      grid[selected] = "-";
      draw(selected);
      cells[selected].classList.remove("wrong");
      section.classList.remove("solved");
      status.textContent = "Cell cleared.";
    });
    section.querySelector(".puzzle-reset").addEventListener("click", function () {
      grid = cells.map(function () { return "-"; });
      cells.forEach(function (c, i) { draw(i); c.classList.remove("wrong"); });
      section.classList.remove("solved");
      select(0);
      status.textContent = "Lay a tile on the highlighted cell, or choose another cell.";
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll(".puzzle[data-puzzle]"), setupPuzzle);
}());

// Live pages: poll a small JSON endpoint (#live's data-live-url) every ~12 s and, when an
// opponent has moved, show the new position (the game page) or the new lists ("your
// games") in place, without reloading the page. The tab title starts with "● Your turn" while a move of yours is awaited.
// Someone in the middle of choosing a move is not interrupted: a note offers the reload.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.fetch) return;
  var PERIOD_MS = window.celticLivePeriodMs || 12000;  // tests shorten it
  var MARK = "● Your turn — ";
  var url = live.getAttribute("data-live-url");
  var known = signature(null);
  var baseTitle = document.title.replace(/^● (\(\d+\) )?Your turn — /, "");

  // What the page shows: the game's ply, or each of the player's games with its ply.
  function signature(body) {
    if (!body) {
      return live.hasAttribute("data-signature") ?
        live.getAttribute("data-signature") : live.getAttribute("data-ply");
    }
    if (body.games) {
      return body.games.map(function (g) { return g.id + ":" + g.ply; }).join(",");
    }
    return String(body.ply);
  }

  function setTitle(waiting) {
    var count = waiting > 1 ? "(" + waiting + ") " : "";
    document.title = waiting ? "● " + count + "Your turn — " + baseTitle : baseTitle;
  }

  function busy() {
    var form = document.getElementById("move-form");
    var palette = document.getElementById("palette");
    var active = document.activeElement;
    return Boolean(
      (form && form.classList.contains("previewing")) ||
      (palette && !palette.hidden) ||
      (active && (active.tagName === "INPUT" || active.tagName === "TEXTAREA") &&
        active.type !== "range" && active.value)
    );
  }

  // A fetch cut short because the page is being left must not reload it.
  var leaving = false;
  window.addEventListener("pagehide", function () { leaving = true; });
  window.addEventListener("beforeunload", function () { leaving = true; });

  // Screen readers hear the change: the swapped content's own live regions are new nodes.
  var announcer = document.createElement("p");
  announcer.className = "visually-hidden";
  announcer.setAttribute("role", "status");
  document.body.appendChild(announcer);
  function announce(text) { announcer.textContent = text; }

  // Swap in the page's new content (the board, lists, clocks) without reloading: the
  // scripts of the page set themselves up again on "celtic:refreshed".
  function refresh() {
    return fetch(window.location.href, {
      credentials: "same-origin", headers: { Accept: "text/html" },
    })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.querySelector("main");
        var here = document.querySelector("main");
        if (!fresh || !here || !doc.getElementById("live")) throw new Error("no live page");
        here.replaceWith(document.importNode(fresh, true));
        live = document.getElementById("live");
        known = signature(null);
        baseTitle = doc.title.replace(/^● (\(\d+\) )?Your turn — /, "");
        setTitle(parseInt(live.getAttribute("data-your-turn") || "0", 10));
        announce(live.getAttribute("data-your-turn") !== "0" ?
          "Your opponent has moved: it is your turn." : "The game has moved on.");
        window.dispatchEvent(new Event("celtic:refreshed"));
      })
      .catch(function () { if (!leaving) window.location.reload(); });
  }

  function check() {
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (body) {
        if (!body) return;
        var waiting = body.games ? body.your_turn : (body.your_turn ? 1 : 0);
        setTitle(waiting);
        if (signature(body) === known) return;
        if (busy()) {
          live.hidden = false;
          return null;
        }
        return refresh();
      })
      .catch(function () { /* offline for a moment: try again next time */ })
      .then(function () { window.setTimeout(check, PERIOD_MS); });
  }

  setTitle(parseInt(live.getAttribute("data-your-turn") || "0", 10));
  window.setTimeout(check, PERIOD_MS);
})();

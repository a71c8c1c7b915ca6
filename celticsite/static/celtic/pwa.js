// Registers the site's service worker (/sw.js), which shows push notifications and opens the
// game they name. Nothing else depends on it: pages work the same without JavaScript.
(function () {
  "use strict";
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(function () { /* push stays off */ });
  }
})();

// The profile page's "Turn on notifications on this device": asks the browser for permission,
// subscribes through its push service with the server's VAPID public key, and posts the
// subscription (endpoint and keys) with the form it fills. Without JavaScript, or in a
// browser without the Push API, the button stays hidden and a note says why.
(function () {
  "use strict";
  var form = document.getElementById("push-subscribe");
  if (!form) return;
  var button = document.getElementById("push-on");
  var note = document.getElementById("push-note");
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    note.textContent = "This browser cannot receive push notifications.";
    return;
  }
  button.hidden = false;

  function keyBytes(base64url) {
    var padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  button.addEventListener("click", function () {
    button.disabled = true;
    note.textContent = "Asking your browser…";
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") throw new Error("Notifications are blocked for this site in your browser's settings.");
      return navigator.serviceWorker.register("/sw.js").then(function () { return navigator.serviceWorker.ready; });
    }).then(function (registration) {
      return registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(form.getAttribute("data-vapid-key"))
      });
    }).then(function (subscription) {
      var data = subscription.toJSON();
      form.elements.endpoint.value = data.endpoint;
      form.elements.p256dh.value = data.keys.p256dh;
      form.elements.auth.value = data.keys.auth;
      form.elements.name.value = navigator.userAgent.slice(0, 100);
      form.submit();
    }).catch(function (error) {
      note.textContent = "Could not turn notifications on: " + error.message;
      button.disabled = false;
    });
  });
})();

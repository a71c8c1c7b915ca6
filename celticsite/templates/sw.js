// The site's service worker (served at /sw.js so that its scope is the whole site). It shows
// the Web Push notifications the server sends (a JSON payload: title, body, url) and opens
// the page a notification names when it is clicked, reusing a tab already on it. It caches
// nothing: every page still comes from the server, and works without JavaScript.
"use strict";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = { body: event.data.text() }; }
  var title = data.title || "Celtic!";
  event.waitUntil(self.registration.showNotification(title, {
    body: data.body || "",
    icon: "{{ icon }}",
    badge: "{{ icon }}",
    tag: data.url || "celtic",
    data: { url: data.url || "/" }
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (target.origin !== self.location.origin) target = new URL("/", self.location.origin);
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (tabs) {
    for (var i = 0; i < tabs.length; i++) {
      if (tabs[i].url === target.href && "focus" in tabs[i]) return tabs[i].focus();
    }
    return self.clients.openWindow(target.href);
  }));
});

"""What makes the site installable: the web app manifest and the service worker, served from
the site's root so that the worker's scope is every page (docs/NOTIFICATIONS.md)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static


def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: shows pushes and opens the game; browsers check it again on each visit."""
    response = render(
        request,
        "sw.js",
        {"icon": static("celtic/icon-192.png")},
        content_type="application/javascript; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"
    return response


def manifest(request: HttpRequest) -> HttpResponse:
    """``/manifest.webmanifest``: name, colours and icons for installing the site."""
    return render(request, "manifest.webmanifest", content_type="application/manifest+json")

"""Web pages for players (placeholder views; the board pages follow)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "games/home.html")


def challenges(request: HttpRequest) -> HttpResponse:
    return render(request, "games/home.html")

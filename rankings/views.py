"""Ranking pages: the list and a player's page. Thin: selectors do the reading."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import urlencode

from accounts.countries import COUNTRIES
from rankings import conf, selectors
from rankings.chart import rating_chart

#: Players per page of the ranking list.
PAGE_SIZE = 100


def _kind(request: HttpRequest) -> str:
    """The ``kind`` asked for, if the site hosts it; else the default kind."""
    kind = request.GET.get("kind", "").strip()
    return kind if kind in selectors.known_kinds() else conf.DEFAULT_KIND


def ranking_page(request: HttpRequest) -> HttpResponse:
    kind = _kind(request)
    country = request.GET.get("country", "").strip().upper()
    if country not in COUNTRIES:
        country = ""
    include_inactive = request.GET.get("active") == "false"
    rows = selectors.ranking_rows(kind=kind, country=country, include_inactive=include_inactive)
    page = Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
    query = {"kind": kind} if kind != conf.DEFAULT_KIND else {}
    if country:
        query["country"] = country
    if include_inactive:
        query["active"] = "false"
    kinds = selectors.kinds_with_results()
    return render(
        request,
        "rankings/ranking_list.html",
        {
            "kind": kind,
            "kind_name": selectors.kind_name(kind),
            "kinds": [(each, selectors.kind_name(each)) for each in kinds],
            "rating_system": conf.rating_system(kind),
            "entries": [selectors.ranking_entry(row) for row in page],
            "page": page,
            "page_query": urlencode(query) + "&" if query else "",
            "country": country,
            "country_name": COUNTRIES.get(country, ""),
            "countries": sorted(
                (
                    (code, COUNTRIES.get(code, code))
                    for code in selectors.ranking_countries(kind=kind)
                ),
                key=lambda item: item[1],
            ),
            "include_inactive": include_inactive,
            "csv_url": reverse("rankings_api:export") + (f"?{urlencode(query)}" if query else ""),
            "order_by": conf.order_by(),
            "active_days": conf.active_days(),
            "provisional_games": conf.provisional_games(),
            "rank_change_days": conf.RANK_CHANGE_DAYS,
        },
    )


def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    kind = _kind(request)
    player = selectors.player_get(player_id=player_id)
    if player is None:
        raise Http404("No such ranking player.")
    history = selectors.player_history(player=player, kind=kind)
    return render(
        request,
        "rankings/player_detail.html",
        {
            "player": player,
            "kind": kind,
            "kind_name": selectors.kind_name(kind),
            "rating_system": conf.rating_system(kind),
            "country_name": COUNTRIES.get(player.country, player.country),
            "entry": selectors.player_entry(player=player, kind=kind),
            "history": list(reversed(history)),
            "tournaments": selectors.player_tournaments(history=history),
            "chart": rating_chart([entry.rating_after for entry in history]),
            "order_by": conf.order_by(),
            "provisional_games": conf.provisional_games(),
        },
    )

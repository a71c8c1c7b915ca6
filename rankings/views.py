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


def ranking_page(request: HttpRequest) -> HttpResponse:
    country = request.GET.get("country", "").strip().upper()
    if country not in COUNTRIES:
        country = ""
    include_inactive = request.GET.get("active") == "false"
    rows = selectors.ranking_rows(country=country, include_inactive=include_inactive)
    page = Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
    query = {"country": country} if country else {}
    if include_inactive:
        query["active"] = "false"
    return render(
        request,
        "rankings/ranking_list.html",
        {
            "entries": [selectors.ranking_entry(row) for row in page],
            "page": page,
            "page_query": urlencode(query) + "&" if query else "",
            "country": country,
            "country_name": COUNTRIES.get(country, ""),
            "countries": sorted(
                ((code, COUNTRIES.get(code, code)) for code in selectors.ranking_countries()),
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
    player = selectors.player_get(player_id=player_id)
    if player is None:
        raise Http404("No such ranking player.")
    history = selectors.player_history(player=player)
    return render(
        request,
        "rankings/player_detail.html",
        {
            "player": player,
            "country_name": COUNTRIES.get(player.country, player.country),
            "entry": selectors.player_entry(player=player),
            "history": list(reversed(history)),
            "tournaments": selectors.player_tournaments(history=history),
            "chart": rating_chart([entry.elo_after for entry in history]),
            "order_by": conf.order_by(),
            "provisional_games": conf.provisional_games(),
        },
    )

from django.apps import AppConfig


class DemoConfig(AppConfig):
    """Demo data for a newcomer (``manage.py seed_demo``, run by ``make run``): players,
    games, a message and challenges.

    It sits above the apps it fills (games, accounts, moderation, notifications), so none of
    them imports another to make demo data; the tournaments', leagues' and ladders' own demo
    commands build on it (its players and their password).
    """

    name = "demo"
    verbose_name = "Demo data"

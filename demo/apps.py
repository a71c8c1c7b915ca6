from django.apps import AppConfig


class DemoConfig(AppConfig):
    """Demo data for a newcomer (``manage.py seed_demo``, run by ``make run``).

    It sits on top of the apps it fills (games, accounts, moderation, notifications) so that
    none of them needs to import another to make demo data.
    """

    name = "demo"
    verbose_name = "Demo data"

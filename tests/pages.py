"""Helpers for tests of the web pages with Django's test client."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpResponse
from django.test import Client


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def messages_of(response: HttpResponse) -> list[str]:
    """The messages shown on the page (after ``follow=True``, those of the last one)."""
    return [str(m) for m in response.context["messages"]] if response.context else []


def field_errors(response: HttpResponse) -> dict[str, list[str]]:
    """The errors of the page's ``form``, by field (``__all__``: those on top)."""
    return {field: list(errs) for field, errs in response.context["form"].errors.items()}

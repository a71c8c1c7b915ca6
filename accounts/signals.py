"""Hooks other apps subscribe to, so that accounts needs to know nothing of them."""

from __future__ import annotations

from django.dispatch import Signal

# Sent by ``accounts.services.user_suspend`` inside its transaction, after the account is
# deactivated, with ``user``, ``actor`` and ``reason``. A receiver's error rolls the
# suspension back. The games app closes the user's open challenges and seeks here.
user_suspended = Signal()

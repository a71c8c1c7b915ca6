"""Hooks other apps subscribe to, so that accounts needs to know nothing of them."""

from __future__ import annotations

from django.dispatch import Signal

# Sent by ``accounts.services.user_suspend`` inside its transaction, after the account is
# deactivated, with ``user``, ``actor`` and ``reason``. A receiver's error rolls the
# suspension back. The games app closes the user's open challenges and seeks here.
user_suspended = Signal()

# The three below are sent after the causing transaction commits; notifications queues the
# emails (``notifications.apps``).
# email=<the address as typed>, request_id=<hex>: someone asked for reset links. Nothing has
# looked the address up yet: the receiver does, in a worker, so the request does the same
# work whether or not an account uses the address.
password_reset_requested = Signal()
# user=<a pending account>: email it the link that confirms its address.
signup_pending = Signal()
# user=<the account that already has the address>: someone tried to sign up with it.
signup_address_taken = Signal()

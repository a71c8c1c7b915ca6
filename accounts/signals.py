"""Hooks other apps subscribe to, so that accounts needs to know nothing of them."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

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

#: Wrappers around a change to a user's pauses (a vacation starting or ending, a new time
#: zone), each called with ``user`` and ``now`` and entered inside the change's transaction
#: before it is made, left after. The games app registers the one that keeps each running
#: game's time left across the change (``games.services.clock_pauses_changing``).
PauseChangeWrapper = Callable[..., AbstractContextManager[Any]]
_pause_change_wrappers: dict[str, PauseChangeWrapper] = {}


def pause_change_wrapper_register(name: str, wrapper: PauseChangeWrapper) -> None:
    """Register ``wrapper`` (from ``AppConfig.ready()``; the same ``name`` twice keeps one)."""
    _pause_change_wrappers[name] = wrapper


def pause_change_wrappers(*, user: Any, now: datetime) -> list[AbstractContextManager[Any]]:
    """The registered wrappers for a change to ``user``'s pauses at ``now``, ready to enter."""
    return [wrapper(user=user, now=now) for wrapper in _pause_change_wrappers.values()]

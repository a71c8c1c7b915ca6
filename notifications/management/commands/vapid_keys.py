"""``manage.py vapid_keys``: make the VAPID key pair Web Push needs, unless there is one.

Settings take the pair from ``WEBPUSH_VAPID_PUBLIC_KEY`` and ``WEBPUSH_VAPID_PRIVATE_KEY``;
without them, from ``var/vapid.json`` (``WEBPUSH_VAPID_KEYS_FILE``), which this command
writes (readable by its owner only) when it is missing. ``make run`` runs it. A new pair
makes every existing subscription useless, so an existing file is never replaced.
"""

from __future__ import annotations

import json
import os
from typing import Any

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.core.management.base import BaseCommand
from py_vapid import Vapid, b64urlencode


def vapid_pair() -> dict[str, str]:
    """A new pair, base64url: the raw private key and the uncompressed public point (what
    ``pushManager.subscribe`` takes as ``applicationServerKey``)."""
    vapid = Vapid()
    vapid.generate_keys()
    private = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
    public = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return {"public": b64urlencode(public), "private": b64urlencode(private)}


class Command(BaseCommand):
    help = "Write a VAPID key pair for Web Push to var/vapid.json unless one is configured."

    def handle(self, *args: Any, **options: Any) -> None:
        if os.environ.get("WEBPUSH_VAPID_PUBLIC_KEY") and os.environ.get(
            "WEBPUSH_VAPID_PRIVATE_KEY"
        ):
            self.stdout.write("VAPID keys come from the environment.")
            return
        path = settings.WEBPUSH_VAPID_KEYS_FILE
        if path.exists():
            self.stdout.write(f"VAPID keys already in {path}.")
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as keys:
            json.dump(vapid_pair(), keys)
        self.stdout.write(f"New VAPID keys written to {path}.")

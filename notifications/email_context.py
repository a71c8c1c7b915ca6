"""An email's template context as JSON, stored on its outbox row and read back by the worker.

Plain values (None, booleans, numbers, strings, lists, dicts with string keys) are stored as
they are. A model instance is stored as a reference (``{"$model": "games.game", "pk": 7}``)
and read again by the worker, so only what does not change belongs behind a reference: a
value a template shows that changes as the game goes on (the ply, the deadline) goes into
the context itself. Dates, times, durations, Decimals and Fractions are tagged so they come
back as the same type. Anything else is refused when the email is queued, with its key.
"""

from __future__ import annotations

import enum
from collections import defaultdict
from collections.abc import Mapping
from datetime import date, datetime, timedelta
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.apps import apps
from django.db import models
from django.utils.dateparse import parse_date, parse_datetime

MODEL = "$model"
_TAGS = ("$datetime", "$date", "$timedelta", "$decimal", "$fraction")


class ContextObjectMissing(LookupError):
    """A model instance the context refers to no longer exists."""


def context_dump(context: Mapping[str, Any]) -> dict[str, Any]:
    """``context`` as JSON-serialisable data; TypeError names the key of a value it cannot
    store (pass plain values, e.g. a dict instead of a dataclass)."""
    return {_key(key): _dump(value, path=str(key)) for key, value in context.items()}


def _key(key: Any) -> str:
    if not isinstance(key, str):
        raise TypeError(f"email context keys must be strings, not {type(key).__name__} {key!r}")
    return key


def _dump(value: Any, *, path: str) -> Any:
    if isinstance(value, enum.Enum):
        value = value.value
    if value is None:
        return None
    if isinstance(value, bool | int | float | str):
        return _plain(value)
    if isinstance(value, models.Model):
        if value.pk is None:
            raise TypeError(f"email context {path}: an unsaved {value._meta.label} has no id")
        return {MODEL: value._meta.label_lower, "pk": value.pk}
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise TypeError(f"email context {path}: the datetime {value} has no time zone")
        return {"$datetime": value.isoformat()}
    if isinstance(value, date):
        return {"$date": value.isoformat()}
    if isinstance(value, timedelta):
        return {"$timedelta": [value.days, value.seconds, value.microseconds]}
    if isinstance(value, Decimal):
        return {"$decimal": str(value)}
    if isinstance(value, Fraction):
        return {"$fraction": str(value)}
    if isinstance(value, Mapping):
        return {_key(k): _dump(v, path=f"{path}.{k}") for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_dump(item, path=f"{path}[{index}]") for index, item in enumerate(value)]
    raise TypeError(
        f"email context {path}: cannot store a {type(value).__name__}; pass plain values "
        "(str, int, dict, list, date, a saved model instance)"
    )


def _plain(value: bool | int | float | str) -> bool | int | float | str:
    """A subclass of str or int as the plain value."""
    for kind in (bool, int, float, str):
        if isinstance(value, kind):
            return kind(value)
    return value


def context_load(data: Mapping[str, Any]) -> dict[str, Any]:
    """The context ``context_dump`` stored, model instances read again (one query per
    model); ContextObjectMissing when one has been deleted."""
    wanted: dict[str, set[Any]] = defaultdict(set)
    _references(data, wanted)
    loaded = {label: _instances(label, pks) for label, pks in wanted.items()}
    return {key: _load(value, loaded) for key, value in data.items()}


def _references(value: Any, wanted: dict[str, set[Any]]) -> None:
    if isinstance(value, dict):
        if MODEL in value:
            wanted[value[MODEL]].add(value["pk"])
            return
        for item in value.values():
            _references(item, wanted)
    elif isinstance(value, list):
        for item in value:
            _references(item, wanted)


def _instances(label: str, pks: set[Any]) -> dict[Any, models.Model]:
    try:
        model = apps.get_model(label)
    except (LookupError, ValueError) as exc:
        raise ContextObjectMissing(f"the email refers to an unknown model {label!r}") from exc
    found = model._default_manager.in_bulk(pks)
    missing = sorted(pks - set(found), key=str)
    if missing:
        ids = ", ".join(f"#{pk}" for pk in missing)
        raise ContextObjectMissing(f"{model._meta.label} {ids} no longer exists")
    return found


def _load(value: Any, loaded: Mapping[str, Mapping[Any, models.Model]]) -> Any:
    if isinstance(value, list):
        return [_load(item, loaded) for item in value]
    if not isinstance(value, dict):
        return value
    if MODEL in value:
        return loaded[value[MODEL]][value["pk"]]
    if len(value) == 1 and next(iter(value)) in _TAGS:
        return _tagged(*next(iter(value.items())))
    return {key: _load(item, loaded) for key, item in value.items()}


def _tagged(tag: str, raw: Any) -> Any:
    if tag == "$datetime":
        return parse_datetime(raw)
    if tag == "$date":
        return parse_date(raw)
    if tag == "$timedelta":
        days, seconds, microseconds = raw
        return timedelta(days=days, seconds=seconds, microseconds=microseconds)
    if tag == "$decimal":
        return Decimal(raw)
    return Fraction(raw)

"""Events to JSON and back, generically from their dataclass fields, with upcasters.

Encoding keeps types exact so that a decoded log folds to an identical state: tuples,
datetimes, texts and terms carry a marker (``{"$t": [...]}``, ``{"$dt": "..."}``, ...).
Each event type has a version (``VERSIONS``, default 1); when an event changes shape,
bump its version and register an upcaster from the old version, so stored logs keep
replaying.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import datetime
from typing import Any

from nightfall.engine import events as ev
from nightfall.engine.text import Term, Text

Payload = dict[str, Any]
Upcaster = Callable[[Payload], Payload]

#: current version of each event type whose shape has changed (others: 1)
VERSIONS: dict[str, int] = {}
#: (type name, old version) -> function turning that payload into the next version
UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def version_of(type_name: str) -> int:
    return VERSIONS.get(type_name, 1)


def register_upcaster(type_name: str, from_version: int, upcaster: Upcaster) -> None:
    UPCASTERS[(type_name, from_version)] = upcaster


def encode_value(value: Any) -> Any:
    if isinstance(value, tuple):
        return {"$t": [encode_value(v) for v in value]}
    if isinstance(value, list):
        return [encode_value(v) for v in value]
    if isinstance(value, dict):
        return {"$d": [[encode_value(k), encode_value(v)] for k, v in value.items()]}
    if isinstance(value, datetime):
        return {"$dt": value.isoformat(), "tz": getattr(value.tzinfo, "key", None)}
    if isinstance(value, Text):
        return {"$text": value.msgid, "params": encode_value(dict(value.params))}
    if isinstance(value, Term):
        return {"$term": [value.domain, value.id]}
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"cannot store a {type(value).__name__} in an event")


def decode_value(value: Any) -> Any:
    if isinstance(value, list):
        return [decode_value(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "$t" in value:
        return tuple(decode_value(v) for v in value["$t"])
    if "$d" in value:
        return {decode_value(k): decode_value(v) for k, v in value["$d"]}
    if "$dt" in value:
        moment = datetime.fromisoformat(value["$dt"])
        if value.get("tz"):
            from zoneinfo import ZoneInfo

            moment = moment.astimezone(ZoneInfo(value["tz"]))
        return moment
    if "$text" in value:
        return Text(value["$text"], decode_value(value["params"]))
    if "$term" in value:
        return Term(*value["$term"])
    raise ValueError(f"unknown encoded value {value!r}")


def encode(event: ev.Event) -> tuple[str, int, Payload]:
    """(type name, version, payload) of an event."""
    payload = {f.name: encode_value(getattr(event, f.name)) for f in dataclasses.fields(event)}
    return event.type_name, version_of(event.type_name), payload


def decode(type_name: str, version: int, payload: Payload) -> ev.Event:
    """Rebuild an event, upcasting an old payload step by step to the current version."""
    cls = ev.EVENT_TYPES.get(type_name)
    if cls is None:
        raise ValueError(f"unknown event type {type_name!r}")
    while version < version_of(type_name):
        payload = UPCASTERS[(type_name, version)](payload)
        version += 1
    return cls(**{key: decode_value(value) for key, value in payload.items()})


def audience(event: ev.Event) -> str:
    """Who may see an event: ``public``, ``player:NAME`` or ``gm`` (the web uses it)."""
    if isinstance(event, (ev.Announced, ev.Posted, ev.GmPosted, ev.PhaseStarted,
                          ev.PlayerJoined, ev.GameEnded, ev.PlayerLeft, ev.VotesCounted)):
        return "public"
    if isinstance(event, ev.NoticeSent):
        return f"player:{event.player}"
    if isinstance(event, ev.Submitted) and event.slot in ("vote", "elect"):
        return "public"
    return "gm"

"""Settings of the web app: where the database is, the signing secret, live-update timing.

Every value has a default that suits a single process on one machine (``./run``); the
environment can override them (``NIGHTFALL_DATABASE_URL``, ``NIGHTFALL_SECRET``,
``NIGHTFALL_BASE_URL``, ``NIGHTFALL_SUBMIT_RATE``, ``NIGHTFALL_SUBMIT_BURST``,
``NIGHTFALL_CREATION_KEYS``).
"""

from __future__ import annotations

import hmac
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from nightfall.links import base_url


@dataclass(frozen=True)
class Settings:
    #: SQLAlchemy URL of the event store (``None``: ``NIGHTFALL_DATABASE_URL`` or
    #: ``sqlite:///nightfall.db``)
    database_url: str | None = None
    #: key that signs the CSRF and flash cookies; random per process unless configured
    secret_key: str = field(default_factory=lambda: os.environ.get("NIGHTFALL_SECRET")
                            or secrets.token_urlsafe(32))
    #: how the links printed and shown to the GM begin (no trailing slash)
    #: (``NIGHTFALL_BASE_URL``, see :mod:`nightfall.links`, which the CLI reads too)
    base_url: str = field(default_factory=base_url)
    #: seconds between two looks at the game's head in the live-update stream (SQLite)
    sse_interval: float = 1.0
    #: on PostgreSQL the stream wakes on a notification; it still looks at the head after
    #: this many seconds without one, in case a notification was lost
    sse_safety_poll: float = 20.0
    #: a live-update stream ends after this many seconds (the browser reconnects)
    sse_max_seconds: float = 300.0
    #: mark cookies ``Secure`` (behind HTTPS)
    secure_cookies: bool = False
    #: moves and posts through one player's link: at most this many per minute on average
    #: (0: no limit; ``NIGHTFALL_SUBMIT_RATE``), counted in the database so that every
    #: server process shares the limit …
    submit_rate: float = field(default_factory=lambda: _number("NIGHTFALL_SUBMIT_RATE", 30.0))
    #: … and at most this many at once (``NIGHTFALL_SUBMIT_BURST``)
    submit_burst: int = field(default_factory=lambda: int(_number("NIGHTFALL_SUBMIT_BURST",
                                                                  10)))
    #: who may create games (issue 18): empty, anybody who reaches the site (``./run`` on
    #: localhost); else only who brings one of these keys — the site's admin hands out
    #: ``BASE/new?key=KEY`` as an invite link (``NIGHTFALL_CREATION_KEYS``, comma-separated)
    creation_keys: frozenset[str] = field(default_factory=lambda: creation_keys_from_env())


def creation_keys_from_env() -> frozenset[str]:
    """The keys of ``NIGHTFALL_CREATION_KEYS`` (comma-separated; blanks ignored)."""
    raw = os.environ.get("NIGHTFALL_CREATION_KEYS", "")
    return frozenset(key.strip() for key in raw.split(",") if key.strip())


def creation_allowed(settings: Settings, key: object) -> bool:
    """May somebody bringing ``key`` create a game? Always on an open site; else only with
    one of the site's keys (compared in constant time: the key is a password)."""
    if not settings.creation_keys:
        return True
    if not isinstance(key, str) or not key:
        return False
    given = key.encode("utf-8", "replace")
    return any(hmac.compare_digest(given, known.encode("utf-8"))
               for known in settings.creation_keys)


def _number(variable: str, default: float) -> float:
    """A non-negative number from the environment (``default`` if unset)."""
    raw = os.environ.get(variable, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{variable}={raw!r} is not a number") from None
    if not value >= 0:
        raise ValueError(f"{variable}={raw!r} must not be negative")
    return value


def secret_from_file(path: Path) -> str:
    """The secret kept in ``path`` (created with mode 0600 on first use), so signed cookies
    survive a restart of the server.

    Several processes started together must end up with the same secret (a form served by
    one is posted to another): the file is written whole under a temporary name and linked
    into place, which fails if another process won the race; then its secret is read.
    """
    if path.exists():
        return path.read_text(encoding="utf-8").strip()
    secret = secrets.token_urlsafe(32)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    temporary.touch(mode=0o600)
    try:
        temporary.write_text(secret, encoding="utf-8")
        try:
            os.link(temporary, path)
        except FileExistsError:
            return path.read_text(encoding="utf-8").strip()
    finally:
        temporary.unlink()
    return secret

"""Settings of the web app: where the database is, the signing secret, live-update timing.

Every value has a default that suits a single process on one machine (``./run``); the
environment can override them (``NIGHTFALL_DATABASE_URL``, ``NIGHTFALL_SECRET``,
``NIGHTFALL_BASE_URL``).
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    #: SQLAlchemy URL of the event store (``None``: ``NIGHTFALL_DATABASE_URL`` or
    #: ``sqlite:///nightfall.db``)
    database_url: str | None = None
    #: key that signs the CSRF and flash cookies; random per process unless configured
    secret_key: str = field(default_factory=lambda: os.environ.get("NIGHTFALL_SECRET")
                            or secrets.token_urlsafe(32))
    #: how the links printed and shown to the GM begin (no trailing slash)
    base_url: str = field(default_factory=lambda: os.environ.get(
        "NIGHTFALL_BASE_URL", "http://127.0.0.1:8000").rstrip("/"))
    #: seconds between two looks at the game's head in the live-update stream
    sse_interval: float = 1.0
    #: a live-update stream ends after this many seconds (the browser reconnects)
    sse_max_seconds: float = 300.0
    #: mark cookies ``Secure`` (behind HTTPS)
    secure_cookies: bool = False


def secret_from_file(path: Path) -> str:
    """The secret kept in ``path`` (created with mode 0600 on first use), so signed cookies
    survive a restart of the server."""
    if path.exists():
        return path.read_text(encoding="utf-8").strip()
    secret = secrets.token_urlsafe(32)
    path.touch(mode=0o600)
    path.write_text(secret, encoding="utf-8")
    return secret

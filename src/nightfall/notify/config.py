"""Where messages go and how hard the worker tries: read once from the environment.

``NIGHTFALL_SMTP_URL`` (``smtp://``, ``smtp+starttls://``, ``smtps://``, optionally with
``user:password@``), ``NIGHTFALL_MAIL_FROM``, ``NIGHTFALL_BASE_URL`` (how every link in a
message begins; the web app's ``Settings.base_url`` reads the same variable) and
``NIGHTFALL_ALLOW_PRIVATE_CHANNELS`` (let channel URLs reach private and loopback
addresses: for a site whose chat server runs next to it, and for the tests).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from urllib.parse import unquote, urlsplit

from nightfall.links import base_url

SMTP_SCHEMES = {"smtp": 25, "smtp+starttls": 587, "smtps": 465}


class ConfigError(ValueError):
    """A setting that cannot be used (the message names the variable)."""


@dataclass(frozen=True)
class SmtpTarget:
    """A parsed ``NIGHTFALL_SMTP_URL``; :meth:`shown` hides the password."""

    scheme: str
    host: str
    port: int
    user: str | None = None
    password: str | None = field(default=None, repr=False)

    def shown(self) -> str:
        who = f"{self.user}:***@" if self.user else ""
        return f"{self.scheme}://{who}{self.host}:{self.port}"


def parse_smtp_url(url: str) -> SmtpTarget:
    parts = urlsplit(url.strip())
    if parts.scheme not in SMTP_SCHEMES:
        raise ConfigError(f"NIGHTFALL_SMTP_URL: the scheme must be one of "
                          f"{', '.join(sorted(SMTP_SCHEMES))} (got {parts.scheme or 'none'!r})")
    if not parts.hostname:
        raise ConfigError("NIGHTFALL_SMTP_URL: no host")
    try:
        port = parts.port or SMTP_SCHEMES[parts.scheme]
    except ValueError:
        raise ConfigError("NIGHTFALL_SMTP_URL: the port is not a number") from None
    user = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password else None
    return SmtpTarget(parts.scheme, parts.hostname, port, user, password)


def env_base_url() -> str:
    """``NIGHTFALL_BASE_URL`` without a trailing slash, else the local default: the one
    place where the links printed, shown (``web.settings.Settings.base_url``) and sent
    take their start from."""
    return base_url()


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


@dataclass(frozen=True)
class NotifyConfig:
    #: how links in messages begin (no trailing slash)
    base_url: str = field(default_factory=env_base_url)
    #: the mail server; ``None``: e-mails wait in the outbox (the GM page says so)
    smtp: SmtpTarget | None = None
    mail_from: str = "Nightfall <nightfall@localhost>"
    #: channel URLs may reach private and loopback addresses
    allow_private: bool = False
    #: tries per message before it is marked failed, and the pause after the n-th failed
    #: try: ``retry_base * 2**(n-1)`` seconds, at most ``retry_max``
    max_attempts: int = 5
    retry_base: float = 30.0
    retry_max: float = 3600.0
    #: quick tries inside one claim (stamina, with backoff) before the try counts as failed
    quick_tries: int = 2
    quick_wait: float = 0.5
    #: a claimed row not marked sent within this many seconds is claimed again (its worker
    #: is taken for dead: see docs/notifications.md on what this can send twice)
    lease_seconds: float = 120.0
    #: seconds the SMTP and HTTP connections may take
    timeout: float = 20.0
    #: rows one claim takes
    batch: int = 20

    @classmethod
    def from_env(cls) -> NotifyConfig:
        smtp_url = os.environ.get("NIGHTFALL_SMTP_URL", "").strip()
        config = cls(
            smtp=parse_smtp_url(smtp_url) if smtp_url else None,
            mail_from=os.environ.get("NIGHTFALL_MAIL_FROM", "").strip() or cls.mail_from,
            allow_private=_flag("NIGHTFALL_ALLOW_PRIVATE_CHANNELS"),
        )
        return replace(config,
                       retry_base=_seconds("NIGHTFALL_RETRY_BASE", config.retry_base),
                       lease_seconds=_seconds("NIGHTFALL_LEASE_SECONDS", config.lease_seconds))


def _seconds(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not a number") from None
    if not value > 0:
        raise ConfigError(f"{name}={raw!r} must be positive")
    return value

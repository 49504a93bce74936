"""Chat and push channels through Apprise: checking a URL, showing it masked, sending.

A channel URL holds its secret (a webhook token, an ntfy topic, a bot key): it is stored,
used, and shown back only masked (:func:`masked`); Apprise's own log, which may spell out
URLs, is kept out of the application's log (its logger does not propagate) and only read,
with the URL's parts blanked, as the failure text the GM sees. A URL whose host is a
private, loopback or link-local address is refused — the server must not be made to call
into its own network — unless the site allows it (``NIGHTFALL_ALLOW_PRIVATE_CHANNELS``).
"""

from __future__ import annotations

import ipaddress
import logging
import socket
import threading
from urllib.parse import urlsplit

import apprise

from nightfall.engine.text import N_, Text
from nightfall.notify.contacts import BadContact
from nightfall.notify.mail import PermanentFailure, TemporaryFailure

#: Apprise schemes that do not reach a chat or push service but the machine itself
FORBIDDEN_SCHEMES = frozenset({"syslog", "rsyslog", "windows", "macosx", "dbus", "kde",
                               "glib", "gnome", "qt"})
_sending = threading.local()


class _Hush(logging.Filter):
    """Drops what the HTTP library logs on this thread while it sends a channel message
    (its debug lines name the request's path: a webhook's secret)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not getattr(_sending, "active", False)


logging.getLogger("urllib3.connectionpool").addFilter(_Hush())


def _plugin(url: str) -> object | None:
    # Apprise's own log spells out URLs: it must not reach the site's log (set on each
    # use: a logging configuration, e.g. Alembic's at migration, may have reset it)
    logging.getLogger("apprise").propagate = False
    try:
        return apprise.Apprise.instantiate(url.strip())
    except Exception:
        return None


def masked(url: str) -> str:
    """``scheme://host/…`` with every secret part hidden: a host that is no host name (a
    webhook id) shows two characters, the path and the credentials nothing."""
    parts = urlsplit(url.strip())
    host = parts.hostname or ""
    if "." not in host and host != "localhost":
        host = host[:2] + "…" if host else "…"
    port = f":{parts.port}" if _port(url) else ""
    return f"{parts.scheme}://{host}{port}/…"


def _port(url: str) -> int | None:
    try:
        return urlsplit(url.strip()).port
    except ValueError:
        return None


def _private(host: str) -> bool:
    """Whether ``host`` is or resolves to an address inside this machine or its network."""
    try:
        infos = socket.getaddrinfo(host, None)
    except (OSError, UnicodeError):
        return False  # unknown: the send will fail and say so
    for info in infos:
        address = ipaddress.ip_address(info[4][0])
        if (address.is_private or address.is_loopback or address.is_link_local
                or address.is_reserved or address.is_multicast or address.is_unspecified):
            return True
    return False


def check(url: str, allow_private: bool) -> str:
    """The URL's masked form if it can be used, else :class:`BadContact` saying why."""
    scheme = urlsplit(url.strip()).scheme.lower()
    if not scheme:
        raise BadContact(Text(N_("That is not a channel URL (e.g. ntfy://ntfy.sh/topic).")))
    if scheme in FORBIDDEN_SCHEMES:
        raise BadContact(Text(N_("Channels of the kind {scheme} are not allowed here."),
                              {"scheme": scheme}))
    plugin = _plugin(url)
    if plugin is None:
        raise BadContact(Text(N_("Unknown or unusable channel URL of the kind {scheme}."),
                              {"scheme": scheme}))
    host = str(getattr(plugin, "host", "") or "")
    if not allow_private and host and _contacted(plugin, host) and _private(host):
        raise BadContact(Text(N_("That channel points into a private network, which "
                                 "this site does not allow.")))
    return masked(url)


def _contacted(plugin: object, host: str) -> bool:
    """Whether the server calls ``host`` itself: a host name or address does, while for a
    service with one fixed endpoint (Discord, Telegram, Slack) the "host" of its URL is an
    account or webhook id, sent to that endpoint."""
    if "." in host or ":" in host or host == "localhost":
        return True
    fixed = (getattr(type(plugin), name, None) for name in ("notify_url", "webhook_url"))
    return not any(isinstance(value, str) and value.startswith("https://") for value in fixed)


def _blank(text: str, url: str) -> str:
    """``text`` with the URL and its secret parts blanked out."""
    parts = urlsplit(url.strip())
    secrets = [url.strip(), parts.password or "", parts.username or "", parts.path,
               parts.query, *[p for p in parts.path.split("/") if len(p) >= 4]]
    if parts.hostname and "." not in parts.hostname:
        secrets.append(parts.hostname)
    for secret in sorted({s for s in secrets if s}, key=len, reverse=True):
        text = text.replace(secret, "…")
    return text


def send(url: str, title: str, body: str, allow_private: bool, timeout: float) -> None:
    """Send one notification; :class:`TemporaryFailure` (with the service's answer) if it
    did not go through, :class:`PermanentFailure` if the URL may no longer be used."""
    try:
        check(url, allow_private)
    except BadContact as bad:
        raise PermanentFailure(bad.text.msgid) from None
    plugin = _plugin(url)
    assert plugin is not None
    for attribute in ("socket_connect_timeout", "socket_read_timeout"):
        if hasattr(plugin, attribute):
            setattr(plugin, attribute, timeout)
    _sending.active = True  # Apprise's log reaches only this capture (see _plugin)
    try:
        with apprise.LogCapture(level=logging.WARNING) as captured:  # type: ignore[no-untyped-call]
            done = plugin.notify(body=body, title=title)  # type: ignore[attr-defined]
            answer = captured.getvalue()
    finally:
        _sending.active = False
    if not done:
        raise TemporaryFailure(_blank(answer.strip() or "not delivered", url)[:900])

"""CSRF protection: a signed double-submit cookie.

Every response carries a cookie ``nf_csrf`` holding a random value and its HMAC under the
server's secret (``value.signature``; ``HttpOnly``, ``SameSite=Lax``). Every form the
server renders repeats the value in a hidden field ``csrf_token`` (htmx requests may send
it as the header ``X-CSRF-Token`` instead). A state-changing request is accepted only if
the cookie's signature is valid and the field equals the cookie's value.

Why this design: the pages are reached by private links, not by a login session, so
there is no server-side session to keep a token in; a double-submit cookie needs no
storage and works across processes. Another site can make a browser *send* the cookie
(a cross-site form post, though ``SameSite=Lax`` already stops that in current
browsers) but cannot *read* it to fill in the field; the signature stops a cookie
planted from a sibling domain, which the plain double-submit pattern would accept.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from fastapi import Request

from nightfall.engine.text import N_

COOKIE = "nf_csrf"
FIELD = "csrf_token"
HEADER = "x-csrf-token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class CsrfFailed(Exception):
    """The request failed the CSRF check; nothing was changed."""

    message = N_("The form has expired or did not come from this site. Nothing was changed: "
                 "reload the page and try again.")


def _sign(secret: str, value: str) -> str:
    return hmac.new(secret.encode(), value.encode(), hashlib.sha256).hexdigest()


def same(sent: str, expected: str) -> bool:
    """Constant-time equality of two texts; any text may come in (``compare_digest`` on
    ``str`` raises ``TypeError`` for non-ASCII, which was a 500 found by the fuzz tests)."""
    return hmac.compare_digest(sent.encode("utf-8", "surrogatepass"),
                               expected.encode("utf-8", "surrogatepass"))


def new_cookie(secret: str) -> tuple[str, str]:
    """(token for the forms, cookie value)."""
    value = secrets.token_urlsafe(24)
    return value, f"{value}.{_sign(secret, value)}"


def token_of(secret: str, cookie: str | None) -> str | None:
    """The form token inside a validly signed cookie, else ``None``."""
    if not cookie or "." not in cookie:
        return None
    value, _, signature = cookie.rpartition(".")
    if not same(signature, _sign(secret, value)):
        return None
    return value


async def verify(request: Request) -> None:
    """FastAPI dependency for every state-changing route (raises :class:`CsrfFailed`)."""
    if request.method in SAFE_METHODS:
        return
    expected = getattr(request.state, "csrf_from_cookie", None)
    sent = request.headers.get(HEADER)
    if sent is None:
        form = await request.form()
        field = form.get(FIELD)
        sent = field if isinstance(field, str) else None
    if not expected or not sent or not same(sent, expected):
        raise CsrfFailed()

"""Rate limit of the submissions (moves and posts) through one player's private link (and
the posts through an observer's, I6.7).

A link that floods the game with submissions (a script, a stuck key, a leaked link) gets
HTTP 429 with ``Retry-After`` and a page in the player's language; nothing is changed.
The count lives in the database (``EventStore.take_slot``), so several server processes
sharing one PostgreSQL enforce one limit. Settings: ``submit_rate`` per minute and
``submit_burst`` at once (:class:`~nightfall.web.settings.Settings`).
"""

from __future__ import annotations

import math

from fastapi import Request
from starlette.concurrency import run_in_threadpool

from nightfall.engine.text import N_
from nightfall.store import UnknownGame
from nightfall.store.repository import hash_token
from nightfall.web.i18n import page_locale
from nightfall.web.routes.common import service
from nightfall.web.security import Access, ObserverAccess, PlayerAccess


class TooManySubmissions(Exception):
    """Over the limit: answer 429; nothing was changed."""

    title = N_("Too many submissions")
    message = N_("You have sent too many moves or posts in a short time. Nothing was "
                 "changed: wait {seconds} seconds and try again.")

    def __init__(self, retry_after: int, locale: str) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after
        self.locale = locale


def _locale(request: Request, game_id: str, player: str) -> str:
    svc = service(request)
    try:
        game_locale: str | None = svc.meta(game_id).locale
    except UnknownGame:
        game_locale = None
    own = svc.store.player_settings(game_id, player).get("locale")
    return page_locale(request, own, game_locale)


async def submissions(request: Request, access: PlayerAccess) -> None:
    """Dependency of every player's form: take one slot of the link's limit, or raise
    :class:`TooManySubmissions` (after the CSRF check and the token: a forged or wrong
    request counts for nobody)."""
    await _take(request, access)


async def observer_posts(request: Request, access: ObserverAccess) -> None:
    """Dependency of an observer's post form: the same limit, per observer link."""
    await _take(request, access)


async def _take(request: Request, access: Access) -> None:
    settings = request.app.state.settings
    if settings.submit_rate <= 0:
        return
    svc = service(request)
    wait = await run_in_threadpool(
        svc.store.take_slot, "p:" + hash_token(access.token), svc.clock.now(),
        60.0 / settings.submit_rate, max(int(settings.submit_burst), 1))
    if wait > 0:
        locale = await run_in_threadpool(_locale, request, access.game_id, access.player or "")
        raise TooManySubmissions(max(math.ceil(wait), 1), locale)

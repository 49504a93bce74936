"""Who is asking: private links carry a token, the store keeps only its hash.

``/p/{token}/…`` pages belong to the player holding the token, ``/gm/{token}/…`` pages to
the game master, ``/o/{token}/…`` pages to an observer the GM let into the thread (Island
I6.7). A token that is unknown, revoked, or of the wrong kind (a player's
token on a GM page, or the reverse) gets the same plain 404 as a page that does not
exist, so a wrong link reveals nothing — not even whether the game exists.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, Request
from starlette.concurrency import run_in_threadpool

from nightfall.engine.text import N_
from nightfall.store import UnknownGame

#: headers on every response: no framing, no sniffing, no referrer (the URL is a secret),
#: scripts and styles only from this server (htmx is served from /static, no CDN)
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
}
#: private pages are never stored by the browser or a proxy
PRIVATE_HEADERS = {"Cache-Control": "no-store", "X-Robots-Tag": "noindex"}


class NotFound(Exception):
    """Answer 404 with a page that says nothing about why."""

    message = N_("This page does not exist, or the link is no longer valid.")


class Forbidden(Exception):
    """Answer 403: the page exists but is not for this reader (now)."""

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message)
        self.message = message
        self.params = params


@dataclass(frozen=True)
class Access:
    token: str
    game_id: str
    player: str | None  # None: the game master
    #: the player's own settings (``timezone``, ``locale``; ``None``: the game's)
    settings: dict[str, str | None] = field(default_factory=dict, compare=False)
    #: an observer's link: ``player`` is his name, and he is no player (I6.7)
    observer: bool = False

    @property
    def is_gm(self) -> bool:
        return self.player is None and not self.observer


async def _resolve(request: Request, token: str) -> Access:
    """The link's holder: from this process's token cache when it knows the token (no
    thread, no query), else looked up in the thread pool."""
    if not token or len(token) > 200:
        raise NotFound()
    store = request.app.state.service.store
    holder = store.known_holder(token) or await run_in_threadpool(store.holder, token)
    if holder is None:
        raise NotFound()
    return Access(token, holder.game_id, holder.player,
                  {"timezone": holder.timezone, "locale": holder.locale}, holder.observer)


async def player_access(request: Request, token: str) -> Access:
    """Dependency: the player whose private link this is (404 for anything else)."""
    access = await _resolve(request, token)
    if access.is_gm or access.observer:
        raise NotFound()
    return access


async def observer_access(request: Request, token: str) -> Access:
    """Dependency: the observer whose link this is (404 for anything else)."""
    access = await _resolve(request, token)
    if not access.observer or access.player is None:
        raise NotFound()
    return access


async def gm_access(request: Request, token: str) -> Access:
    """Dependency: the game master of the game (404 for anything else)."""
    access = await _resolve(request, token)
    if not access.is_gm:
        raise NotFound()
    return access


def known_game(request: Request, game_id: str) -> str:
    """Dependency: a game id that exists (404 otherwise)."""
    if len(game_id) > 32 or not game_id.isprintable():  # NUL: a 500 on PostgreSQL
        raise NotFound()
    try:
        request.app.state.service.meta(game_id)
    except UnknownGame:
        raise NotFound() from None
    return game_id


#: route parameters: the holder of a player's link, of an observer's, of the GM link, an
#: existing game id
PlayerAccess = Annotated[Access, Depends(player_access)]
ObserverAccess = Annotated[Access, Depends(observer_access)]
GmAccess = Annotated[Access, Depends(gm_access)]
GameId = Annotated[str, Depends(known_game)]

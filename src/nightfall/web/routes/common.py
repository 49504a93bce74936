"""Helpers the route modules share: loading a game up to date, the reader's language and
time zone, and turning engine rejections into messages."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from datetime import datetime
from typing import Any, TypeVar

from fastapi import Request
from starlette.concurrency import run_in_threadpool

from nightfall.engine import Command, Game
from nightfall.engine.text import TermNames
from nightfall.i18n import known_zone
from nightfall.service import GameService
from nightfall.store import GameMeta, UnknownGame
from nightfall.store.cache import Loaded
from nightfall.web.i18n import Translator, page_locale
from nightfall.web.pages import LogEntry
from nightfall.web.security import NotFound

T = TypeVar("T")


def service(request: Request) -> GameService:
    svc: GameService = request.app.state.service
    return svc


def now(request: Request) -> datetime:
    return service(request).clock.now()


def load(request: Request, game_id: str) -> Game:
    """The game, brought up to date first if a deadline passed while nobody looked.

    Runs in the thread pool (``load_async``). One round trip reads the game's row and the
    events this process has not seen yet (``GameService.read``); the row and the whole log
    stay on the request, so the page's ``meta`` and ``log`` need no further query. The
    game is shared with this process's other readers: pages only look at it."""
    svc = service(request)
    try:
        info, loaded = svc.read(game_id)
        if info.next_deadline is not None and svc.clock.now() >= info.next_deadline:
            svc.tick(game_id, run_hooks=False)  # a forum read is the scheduler's work
            info, loaded = svc.read(game_id)
    except UnknownGame:
        raise NotFound() from None
    request.state.game_meta = info
    request.state.game_log = (game_id, loaded.log)
    request.state.game_loaded = loaded
    enter_scope(loaded.game)
    return loaded.game


def enter_scope(game: Game) -> None:
    """Render the rest of this request in ``game``'s scope of term names (a rule file's
    own titles, issue 20; a built-in rule set: the global table). A request shows one
    game, and each request (and each call into the thread pool) runs in a copy of the
    context, so the scope never reaches another request's page."""
    TermNames.enter(game.ruleset.term_scope)


def remembered(request: Request, game: Game, key: Hashable, compute: Callable[[], T]) -> T:
    """``compute()``, or what it gave for ``key`` at the same head of the same game in
    this process (``Loaded.remember``): only for ``game`` as this request's ``load`` read
    it, so a value is never taken for another game or head."""
    loaded = getattr(request.state, "game_loaded", None)
    if isinstance(loaded, Loaded) and loaded.game is game:
        return loaded.remember(key, compute)
    return compute()


def view_of(request: Request, game: Game, player: str | None) -> dict[str, Any]:
    """``game.view(player)``: the projection for that reader (``None``: the public), kept
    under his name for this head. Shared: read it, never change it."""
    return remembered(request, game, ("view", player), lambda: game.view(player))


def legal_of(request: Request, game: Game, player: str) -> tuple[Command, ...]:
    """``game.legal_commands(player)`` at this head, kept under his name."""
    return remembered(request, game, ("legal", player),
                      lambda: tuple(game.legal_commands(player)))


async def load_async(request: Request, game_id: str) -> Game:
    game = await run_in_threadpool(load, request, game_id)
    enter_scope(game)  # the thread pool's copy of the context ended with ``load``
    return game


async def log_async(request: Request, game_id: str) -> Sequence[LogEntry]:
    """The whole log: the one ``load`` read for this request, else a query."""
    known = getattr(request.state, "game_log", None)
    if isinstance(known, tuple) and known[0] == game_id:
        log: Sequence[LogEntry] = known[1]
        return log
    return await run_in_threadpool(service(request).store.log, game_id)


def meta(request: Request, game_id: str) -> GameMeta:
    """The game's row: the one ``load`` read for this request, else a query."""
    known = getattr(request.state, "game_meta", None)
    if isinstance(known, GameMeta) and known.id == game_id:
        return known
    try:
        return service(request).meta(game_id)
    except UnknownGame:
        raise NotFound() from None


def translator(request: Request, game: Game | None = None, game_id: str | None = None,
               player: str | None = None, settings: Mapping[str, str | None] | None = None
               ) -> Translator:
    """The page's language and the reader's time zone (his own, else the game's); the
    player's ``settings`` are read unless given (his token's lookup brings them)."""
    if settings is None:
        settings = {"timezone": None, "locale": None}
        if game_id is not None and player is not None:
            settings = service(request).store.player_settings(game_id, player)
    game_locale = game.state.locale if game is not None else None
    locale = page_locale(request, settings.get("locale"), game_locale)
    tz = known_zone(settings.get("timezone")) or (
        known_zone(game.state.options.get("timezone")) if game is not None else None)
    return Translator(locale, tz)


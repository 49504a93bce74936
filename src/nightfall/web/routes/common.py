"""Helpers the route modules share: loading a game up to date, the reader's language and
time zone, and turning engine rejections into messages."""

from __future__ import annotations

from datetime import datetime, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from fastapi import Request
from starlette.concurrency import run_in_threadpool

from nightfall.engine import Game
from nightfall.service import GameService
from nightfall.store import GameMeta, UnknownGame
from nightfall.web.i18n import Translator, page_locale
from nightfall.web.pages import LogEntry
from nightfall.web.security import NotFound


def service(request: Request) -> GameService:
    svc: GameService = request.app.state.service
    return svc


def now(request: Request) -> datetime:
    return service(request).clock.now()


def zone(name: object) -> tzinfo | None:
    if not isinstance(name, str) or not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def load(request: Request, game_id: str) -> Game:
    """The game, brought up to date first if a deadline passed while nobody looked.

    Runs in the thread pool (``load_async``); it keeps the game's row of the ``games``
    table on the request, so the page's later ``meta`` needs no second query on the
    event loop (a blocking query there would stall every request of the process)."""
    svc = service(request)
    try:
        info = svc.meta(game_id)
        if info.next_deadline is not None and svc.clock.now() >= info.next_deadline:
            svc.tick(game_id)
            info = svc.meta(game_id)
        request.state.game_meta = info
        return svc.load(game_id)
    except UnknownGame:
        raise NotFound() from None


async def load_async(request: Request, game_id: str) -> Game:
    return await run_in_threadpool(load, request, game_id)


async def log_async(request: Request, game_id: str) -> list[LogEntry]:
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


async def translator_async(request: Request, game: Game | None = None,
                           game_id: str | None = None, player: str | None = None
                           ) -> Translator:
    """``translator`` for a player's page: his settings are a query, so it runs in the
    thread pool, not on the event loop."""
    return await run_in_threadpool(translator, request, game, game_id, player)


def translator(request: Request, game: Game | None = None, game_id: str | None = None,
               player: str | None = None) -> Translator:
    """The page's language and the reader's time zone (his own, else the game's)."""
    settings: dict[str, str | None] = {"timezone": None, "locale": None}
    if game_id is not None and player is not None:
        settings = service(request).store.player_settings(game_id, player)
    game_locale = game.state.locale if game is not None else None
    locale = page_locale(request, settings.get("locale"), game_locale)
    tz = zone(settings.get("timezone")) or (
        zone(game.state.options.get("timezone")) if game is not None else None)
    return Translator(locale, tz)


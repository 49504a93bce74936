"""Public pages: the start page, a game's thread (read only), sign-up, the status post or
newspaper, and the full reveal once the game is over."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from nightfall.engine import Rejected, SetupError
from nightfall.engine.phase import SIGNUP
from nightfall.engine.text import N_, Text
from nightfall.i18n import SUPPORTED_LOCALES, known_zone
from nightfall.notify.contacts import BadContact
from nightfall.web import csrf, pages
from nightfall.web.bodies import clip
from nightfall.web.i18n import Translator, supported
from nightfall.web.render import page, redirect
from nightfall.web.routes.common import (
    load_async,
    log_async,
    meta,
    now,
    service,
    translator,
)
from nightfall.web.security import Forbidden, GameId
from nightfall.web.texts import (
    game_title,
    log_by_phase,
    ruleset_name,
    status_text,
    status_title,
)

router = APIRouter()
NAME_LIMIT, DESCRIPTION_LIMIT = 40, 200
ZONE_LIMIT = 64  # the longest time zone name

#: time zones offered at sign-up (any IANA name typed in is accepted too)
COMMON_ZONES = ("Europe/Berlin", "Europe/Vienna", "Europe/Zurich", "Europe/London",
                "Europe/Moscow", "Europe/Kyiv", "Asia/Yekaterinburg", "Asia/Novosibirsk",
                "America/New_York", "America/Los_Angeles", "UTC")


def game_context(request: Request, game_id: str, game: Any, tr: Translator) -> dict[str, Any]:
    info = meta(request, game_id)
    return {"game_id": game_id, "game": game, "state": game.state,
            "title": game_title(game, info.title, tr),
            "ruleset_label": tr(ruleset_name(game.state.ruleset)),
            "status_label": tr(status_title(game.state.ruleset, game.ruleset)),
            "deadline": game.state.deadline if game.state.phase.is_play() else None}


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> Response:
    tr = translator(request)
    games = await run_in_threadpool(service(request).store.list_games)
    return page(request, "home.html", tr,
                open_games=[g for g in games if g.phase == SIGNUP],
                running=[g for g in games if g.phase != SIGNUP and not g.ended],
                finished=[g for g in reversed(games) if g.ended],  # newest first
                names={g.id: tr(ruleset_name(g.ruleset)) for g in games})


@router.get("/g/{game_id}", response_class=HTMLResponse)
async def public_thread(request: Request, game_id: GameId) -> Response:
    game = await load_async(request, game_id)
    tr = translator(request, game)
    log = await log_async(request, game_id)
    entries = pages.thread(log, pages.public_slots(game))
    return page(request, "thread.html", tr, **game_context(request, game_id, game, tr),
                thread_page=pages.thread_page(
                    entries, pages.page_number(request.query_params.get("page"))),
                view=game.view(None), me=None, vote_forms=[], post_block=None,
                events_url=f"/g/{game_id}/events", self_url=f"/g/{game_id}")


@router.get("/g/{game_id}/entries", response_class=HTMLResponse)
async def public_thread_entries(request: Request, game_id: GameId) -> Response:
    """What a reader of the newest page is missing (``?after=N``): see
    :func:`thread_entries`."""
    game = await load_async(request, game_id)
    tr = translator(request, game)
    log = await log_async(request, game_id)
    return thread_entries(request, tr, game_id, game, pages.thread(
        log, pages.public_slots(game)), game.view(None))


def thread_entries(request: Request, tr: Translator, game_id: str, game: Any,
                   entries: list[pages.ThreadEntry], view: Any) -> Response:
    """The live update of a thread page: the entries after number ``?after=N``, the
    votes they replaced and the head, as htmx swaps (``thread_entries.html``), instead
    of the whole page for every post. More than a page of them (a reader away for long,
    or a junk ``after``): the page reloads itself (``HX-Refresh``)."""
    after = pages.page_number(request.query_params.get("after"))
    new, replaced = pages.thread_since(entries, 0 if after is None else after)
    if after is None or len(new) > pages.THREAD_PAGE_SIZE:
        return Response(status_code=200, headers={"HX-Refresh": "true"},
                        media_type="text/html")
    return page(request, "thread_entries.html", tr,
                **game_context(request, game_id, game, tr), entries=new,
                replaced=replaced, view=view,
                after=new[-1].number if new else after)


@router.get("/g/{game_id}/signup", response_class=HTMLResponse)
async def signup_form(request: Request, game_id: GameId) -> Response:
    game = await load_async(request, game_id)
    tr = translator(request, game)
    return _signup_page(request, game_id, game, tr)


def _signup_page(request: Request, game_id: str, game: Any, tr: Translator,
                 error: Text | None = None, values: dict[str, str] | None = None,
                 status_code: int = 200) -> Response:
    default_zone = str(game.state.options.get("timezone") or "UTC")
    return page(request, "signup.html", tr, status_code=status_code,
                **game_context(request, game_id, game, tr),
                open=game.state.phase.kind == SIGNUP, error=error,
                values=values or {"timezone": default_zone, "locale": game.state.locale},
                zones=COMMON_ZONES, locales=SUPPORTED_LOCALES,
                players=list(game.state.players.values()))


@router.post("/g/{game_id}/signup", dependencies=[Depends(csrf.verify)])
async def signup(request: Request, game_id: GameId) -> Response:
    form = await request.form()
    values = {key: str(form.get(key) or "").strip()
              for key in ("name", "description", "timezone", "locale", "email")}
    game = await load_async(request, game_id)
    tr = translator(request, game)
    error: Text | None = None
    if not values["name"]:
        error = Text(N_("A player needs a name."))
    elif len(values["name"]) > NAME_LIMIT or any(not c.isprintable() for c in values["name"]):
        error = Text(N_("A name has at most {limit} printable characters."),
                     {"limit": NAME_LIMIT})
    elif len(values["description"]) > DESCRIPTION_LIMIT:
        error = Text(N_("The description has at most {limit} characters."),
                     {"limit": DESCRIPTION_LIMIT})
    elif values["timezone"] and known_zone(values["timezone"]) is None:
        error = Text(N_("Unknown time zone {zone}."),
                     {"zone": clip(values["timezone"], ZONE_LIMIT)})
    if error is None:
        try:
            token = await run_in_threadpool(
                service(request).signup, game_id, values["name"], values["description"],
                values["timezone"] or None, supported(values["locale"]),
                values["email"][:320] or None)
        except (Rejected, SetupError) as rejected:
            error = rejected.reason
        except BadContact as bad:  # an unusable address: nothing was written
            error = bad.text
    if error is not None:  # written back for correction, but never more than fits
        shown = {key: clip(value, limit) for (key, value), limit in zip(
            values.items(), (NAME_LIMIT, DESCRIPTION_LIMIT, ZONE_LIMIT, 8, 320),
            strict=True)}
        return _signup_page(request, game_id, game, tr, error, shown, status_code=400)
    if values["email"]:
        return redirect(request, f"/p/{token}", Text(N_(
            "Welcome, {name}! This page is your private link: bookmark it and show it to "
            "nobody. A confirmation link is on its way to {address}."),
            {"name": values["name"], "address": values["email"]}))
    return redirect(request, f"/p/{token}", Text(N_(
        "Welcome, {name}! This page is your private link: bookmark it and show it to "
        "nobody."), {"name": values["name"]}))


@router.get("/g/{game_id}/status", response_class=HTMLResponse)
async def status(request: Request, game_id: GameId) -> Response:
    game = await load_async(request, game_id)
    tr = translator(request, game)
    return page(request, "status.html", tr, **game_context(request, game_id, game, tr),
                text=status_text(game.state, tr, game.ruleset), view=game.view(None),
                game_zone=str(game.state.options.get("timezone") or "UTC"),
                events_url=f"/g/{game_id}/events")


@router.get("/g/{game_id}/reveal", response_class=HTMLResponse)
async def reveal(request: Request, game_id: GameId) -> Response:
    game = await load_async(request, game_id)
    tr = translator(request, game)
    if not game.state.ended:
        raise Forbidden(N_("The full reveal is shown when the game is over."))
    log = await log_async(request, game_id)
    return page(request, "reveal.html", tr, **game_context(request, game_id, game, tr),
                view=game.view(None), groups=log_by_phase(log, game.ruleset, tr),
                notices=pages.all_notices(log, game.ruleset),
                factions={p: game.ruleset.faction_of(s.role)
                          for p, s in game.state.players.items()},
                now=now(request))

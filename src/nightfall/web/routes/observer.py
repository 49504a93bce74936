"""An observer's pages (Island I6.7): the thread with his post form, its live updates and
his view as JSON. An observer is an outsider the GM let in with an observer link; he sees
what the public sees (``Game.view`` gives him the public projection) and may post, marked
as an observer, where the rule set lets observers post; he never votes or acts."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response, StreamingResponse

from nightfall.engine import Command
from nightfall.engine.text import N_, Text
from nightfall.web import csrf, forms, limits, pages
from nightfall.web.render import page, redirect
from nightfall.web.routes import public
from nightfall.web.routes.api import paged
from nightfall.web.routes.common import load_async, log_async, now, translator
from nightfall.web.routes.player import submit_post
from nightfall.web.routes.public import game_context
from nightfall.web.routes.sse import response, stream
from nightfall.web.security import Access, ObserverAccess

router = APIRouter()


async def _thread_page(request: Request, access: Access, error: Text | None = None,
                       status_code: int = 200, draft: str = "") -> Response:
    game = await load_async(request, access.game_id)
    tr = translator(request, game, settings=access.settings)
    name = access.player or ""
    log = await log_async(request, access.game_id)
    block = (Text(N_("The game is over.")) if game.state.ended else
             forms.probe(game, Command("post", by=name, text="·"), now(request)))
    return page(
        request, "thread.html", tr, status_code=status_code,
        **game_context(request, access.game_id, game, tr),
        thread_page=pages.thread_page(pages.thread(log, pages.public_slots(game)),
                                      pages.page_number(request.query_params.get("page"))),
        view=game.view(name),
        me=name, observer=True, error=error, draft=draft, base=f"/o/{access.token}",
        vote_forms=[], post_block=block,
        events_url=f"/o/{access.token}/events", self_url=f"/o/{access.token}")


@router.get("/o/{token}/entries", response_class=HTMLResponse)
async def observer_entries(request: Request, access: ObserverAccess) -> Response:
    """The live update of the observer's thread page (``?after=N``, see
    :func:`nightfall.web.routes.public.thread_entries`)."""
    game = await load_async(request, access.game_id)
    tr = translator(request, game, settings=access.settings)
    log = await log_async(request, access.game_id)
    return public.thread_entries(request, tr, access.game_id, game, pages.thread(
        log, pages.public_slots(game)), game.view(access.player or ""))


@router.get("/o/{token}", response_class=HTMLResponse)
async def observer_thread(request: Request, access: ObserverAccess) -> Response:
    return await _thread_page(request, access)


@router.get("/o/{token}/thread", response_class=HTMLResponse)
async def observer_thread_again(request: Request, access: ObserverAccess) -> Response:
    """The same page under the name the navigation gives a thread (``base/thread``)."""
    return await _thread_page(request, access)


@router.post("/o/{token}/post",
             dependencies=[Depends(csrf.verify), Depends(limits.observer_posts)])
async def observer_post(request: Request, access: ObserverAccess) -> Response:
    """A post by the observer; a refused one (the engine's reason, in his language) gives
    the page again with his draft kept, as a player's refused post does."""
    error, status_code, text = await submit_post(request, access)
    if error is not None:
        return await _thread_page(request, access, error, status_code, draft=text)
    return redirect(request, f"/o/{access.token}#bottom")


@router.get("/o/{token}/events")
async def observer_events(request: Request, access: ObserverAccess) -> StreamingResponse:
    """The public stream: an observer learns nothing a reader of the thread does not."""
    return response(stream(request, access.game_id, None, False, access.token,
                           holder=access.player))


@router.get("/api/o/{token}")
async def observer_view(request: Request, access: ObserverAccess) -> dict[str, Any]:
    game = await load_async(request, access.game_id)
    name = access.player or ""
    return {"id": access.game_id, "observer": name, "view": paged(request, game.view(name))}

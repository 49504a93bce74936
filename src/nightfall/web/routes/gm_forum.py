"""The GM's forum thread (issue 17): link the game to its thread, count it now, unlink.
The section itself is built by :mod:`nightfall.web.forum_thread`; the counts made at a
vote deadline come from the scheduler (:mod:`nightfall.service.forum_link`)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from nightfall.engine.text import N_, Text
from nightfall.service.forum_link import ForumLinks, LinkError
from nightfall.service.votecount import parse_alias
from nightfall.web import csrf
from nightfall.web import forum_thread as forum_section
from nightfall.web.render import redirect
from nightfall.web.routes.common import load_async, translator
from nightfall.web.routes.gm import _dashboard, _not_running
from nightfall.web.security import GmAccess
from nightfall.web.votecount import ALIASES_LIMIT, CountError

router = APIRouter()


def _forum(request: Request) -> ForumLinks:
    forum: ForumLinks = request.app.state.forum
    return forum


@router.post("/gm/{token}/forum", dependencies=[Depends(csrf.verify)])
async def link_thread(request: Request, access: GmAccess) -> Response:
    """Link the game to its thread (replacing a link); nothing is read yet."""
    form = await request.form()
    game = await load_async(request, access.game_id)
    tr = translator(request, game)
    try:
        stopped = _not_running(game)
        if stopped is not None:
            raise stopped
        given = forum_section.read_link_form(form)
        link = await run_in_threadpool(_forum(request).link, access.game_id, given.url,
                                       given.credentials, given.auto_submit,
                                       given.review_minutes)
    except CountError as error:
        return await _dashboard(request, access, error.text(tr), error.status)
    except LinkError as error:
        return await _dashboard(request, access, error.text, 400)
    return redirect(request, f"/gm/{access.token}#forum-thread", Text(N_(
        "The game is linked to {url}. The thread is read at each vote deadline."),
        {"url": link.url}))


@router.post("/gm/{token}/forum/unlink", dependencies=[Depends(csrf.verify)])
async def unlink_thread(request: Request, access: GmAccess) -> Response:
    await run_in_threadpool(_forum(request).unlink, access.game_id)
    return redirect(request, f"/gm/{access.token}#forum-thread", Text(N_(
        "The game is no longer linked to a forum thread; its counts are kept.")))


@router.post("/gm/{token}/forum/count", dependencies=[Depends(csrf.verify)])
async def count_thread(request: Request, access: GmAccess) -> Response:
    """Read and count the linked thread now (kept with the others; nothing submitted)."""
    form = await request.form()
    game = await load_async(request, access.game_id)
    tr = translator(request, game)
    raw = form.get("aliases")
    text = raw if isinstance(raw, str) else ""
    aliases: dict[str, list[str]] = {}
    try:
        stopped = _not_running(game)
        if stopped is not None:
            raise stopped
        if len(text) > ALIASES_LIMIT:
            raise CountError(400, N_("The aliases have at most {limit} characters."),
                             limit=ALIASES_LIMIT)
        for number, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                try:
                    player, spellings = parse_alias(line)
                except ValueError:
                    raise CountError(400, N_("Line {line} of the aliases is not "
                                             "“Name=Alias,Alias”: {entry}"),
                                     line=number, entry=line.strip()) from None
                aliases.setdefault(player, []).extend(spellings)
        count = await run_in_threadpool(_forum(request).count_now, access.game_id, aliases)
    except CountError as error:
        return await _dashboard(request, access, error.text(tr), error.status)
    except LinkError as error:
        return await _dashboard(request, access, error.text, 409)
    if count.error is not None:  # the GM is told; nothing changed (the count is kept)
        return await _dashboard(request, access, count.error, 502)
    return await _dashboard(request, access)

"""Live updates by server-sent events: ``post`` (a new post, the game master's too, or a
public vote), ``phase`` (a
stage closed, a new phase, an announcement, an undo) and, on a player's own stream,
``notice`` (a new private notice for him). The GM's stream also says ``change`` for any
new event.

The stream looks at the game's head (``meta(game_id).head_seq``) and reads only the events
after the last one it saw, so it works whichever process wrote them. On PostgreSQL it
looks when this process's listener (``nightfall.web.live``) hears the commit's
notification, and otherwise only every ``sse_safety_poll`` seconds; on SQLite (one
process) it polls every ``sse_interval`` seconds. A public or player stream never names
an event it does not show, nor the head's number: a secret night action changes the head
but sends nothing, and the keep-alives come as if it had not happened (every poll on
SQLite, on a fixed beat of ``sse_safety_poll`` seconds on PostgreSQL).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import AbstractContextManager, nullcontext

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from nightfall.engine import events as ev
from nightfall.store import UnknownGame
from nightfall.web import pages
from nightfall.web.live import LiveHub, Subscription
from nightfall.web.routes.common import service
from nightfall.web.security import GameId, GmAccess, PlayerAccess

router = APIRouter()

PHASE_EVENTS = (ev.PhaseStarted, ev.StageClosed, ev.RolledBack, ev.DeadlineChanged,
                ev.Announced, ev.GameEnded, ev.PlayerLeft)


def classify(event: ev.Event, player: str | None, gm: bool, public_slots: frozenset[str]
             ) -> set[str]:
    names: set[str] = set()
    if gm:
        names.add("change")
    public_vote = isinstance(event, ev.Submitted | ev.SubmissionWithdrawn) and (
        event.slot in public_slots)
    if isinstance(event, ev.Posted | ev.GmPosted) or public_vote:
        names.add("post")
    elif isinstance(event, PHASE_EVENTS):
        names.add("phase")
    elif isinstance(event, ev.NoticeSent) and (gm or event.player == player):
        names.add("notice")
    elif isinstance(event, ev.PlayerJoined | ev.PlayerWithdrew):
        names.add("phase")
    return names


def still_valid(request: Request, token: str | None, game_id: str, player: str | None
                ) -> bool:
    """Whether the link ``token`` (``None``: the public stream) still belongs to the
    holder it was opened for: a revoked or reissued link does not."""
    if token is None:
        return True
    holder = service(request).store.holder(token)
    return holder is not None and (holder.game_id, holder.player) == (game_id, player)


async def stream(request: Request, game_id: str, player: str | None, gm: bool,
                 token: str | None = None, *, holder: str | None = None,
                 ) -> AsyncIterator[str]:
    """The stream of one reader: ``player`` is whose private notices it names (``None``:
    the public stream), ``token`` the link it was opened with and ``holder`` who holds
    that link if not ``player`` (an observer reads the public stream with his own link):
    once the link is revoked or reissued, the stream ends (issue 18)."""
    owner = player if holder is None else holder
    live: LiveHub | None = getattr(request.app.state, "live", None)
    # subscribe before the first look at the head, so no commit falls between the two
    watching: AbstractContextManager[Subscription | None] = (
        live.subscribe(game_id) if live is not None else nullcontext())
    with watching as subscription:
        settings = request.app.state.settings
        svc = service(request)
        try:
            head = (await run_in_threadpool(svc.meta, game_id)).head_seq
        except UnknownGame:
            return
        slots = pages.public_slots(await run_in_threadpool(svc.load, game_id))
        started = time.monotonic()
        #: when the next keep-alive is due: on a fixed beat, not when a commit woke us, so
        #: a hidden event (a secret night action) changes nothing a reader could time
        beat = started + settings.sse_safety_poll
        yield "retry: 3000\n\n"
        while (left := settings.sse_max_seconds - (time.monotonic() - started)) > 0:
            if await request.is_disconnected():
                return
            if subscription is None:
                await asyncio.sleep(settings.sse_interval)
            else:
                await subscription.wait(min(beat - time.monotonic(), left))
            if not await run_in_threadpool(still_valid, request, token, game_id, owner):
                return  # the link was revoked or reissued: nothing more goes out on it
            current = (await run_in_threadpool(svc.meta, game_id)).head_seq
            names: set[str] = set()
            if current != head:
                log = await run_in_threadpool(svc.store.log, game_id, head - 1)
                head = current
                for _, _, event in log:
                    names |= classify(event, player, gm, slots)
            # the head's number only for the GM: it counts hidden events too
            for name in sorted(names):
                yield f"event: {name}\ndata: {current if gm else name}\n\n"
            if not names and (subscription is None or time.monotonic() >= beat):
                yield ": keep-alive\n\n"
            if time.monotonic() >= beat:
                beat = time.monotonic() + settings.sse_safety_poll


def response(body: AsyncIterator[str]) -> StreamingResponse:
    return StreamingResponse(body, media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@router.get("/g/{game_id}/events")
async def public_events(request: Request, game_id: GameId
                        ) -> StreamingResponse:
    return response(stream(request, game_id, None, False))


@router.get("/p/{token}/events")
async def player_events(request: Request, access: PlayerAccess
                        ) -> StreamingResponse:
    return response(stream(request, access.game_id, access.player, False, access.token))


@router.get("/gm/{token}/events")
async def gm_events(request: Request, access: GmAccess
                    ) -> StreamingResponse:
    return response(stream(request, access.game_id, None, True, access.token))

"""A small JSON API over the same access rules as the pages: the public view of a game,
a player's own view with his legal commands, the game master's view.

The views' ``thread`` is paged like the thread page (``?page=N``, 50 entries a page,
pages counted from the oldest; the newest by default), with ``view.thread_page`` saying
which page of how many.

Only the game master's view carries the log's head (``head_seq``): it grows with every
event, a secret night action too, so a public or player view showing it would tell anybody
when (and how many) hidden moves were made."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from nightfall.engine.text import to_data
from nightfall.web import pages
from nightfall.web.routes.common import legal_of, load_async, meta, view_of
from nightfall.web.security import GameId, GmAccess, PlayerAccess

router = APIRouter(prefix="/api")


def _command(command: Any) -> dict[str, Any]:
    return {"action": command.action, "targets": list(command.all_targets),
            "choice": command.choice}


@router.get("/g/{game_id}")
async def public_view(request: Request, game_id: GameId) -> dict[str, Any]:
    game = await load_async(request, game_id)
    return {"id": game_id, "view": paged(request, view_of(request, game, None))}


def paged(request: Request, view: Any) -> dict[str, Any]:
    """A view as data with one page of its thread (``?page=N``, default the newest).
    The page is taken before the view is turned into data, so only its entries are."""
    number = pages.page_number(request.query_params.get("page"))
    thread = view.get("thread") if isinstance(view, dict) else None
    if isinstance(thread, list | tuple):
        part, _, _ = pages.page_slice(len(thread), number)
        view = {**view, "thread": list(thread[part])}
        data = to_data(view)
        assert isinstance(data, dict)
        return pages.paged_view(data, number, total=len(thread), sliced=True)
    data = to_data(view)
    assert isinstance(data, dict)
    return pages.paged_view(data, number)


@router.get("/p/{token}")
async def player_view(request: Request, access: PlayerAccess
                      ) -> dict[str, Any]:
    game = await load_async(request, access.game_id)
    player = access.player or ""
    return {"id": access.game_id, "player": player,
            "view": paged(request, view_of(request, game, player)),
            "legal": [_command(c) for c in legal_of(request, game, player)]}


@router.get("/gm/{token}")
async def gm_view(request: Request, access: GmAccess) -> dict[str, Any]:
    game = await load_async(request, access.game_id)
    state = game.state
    awaiting = game.ruleset.awaiting_inputs(state) if state.phase.is_play() else None
    return {"id": access.game_id, "head_seq": meta(request, access.game_id).head_seq,
            "view": paged(request, pages.gm_view(game)),
            "awaiting": sorted(list(a) for a in awaiting) if awaiting is not None else None,
            "submissions": [{"player": s.player, "slot": s.slot, "action": s.action,
                             "targets": list(s.targets), "choice": s.choice}
                            for s in state.submissions.values()]}

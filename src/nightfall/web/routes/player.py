"""The player's private pages (the link is the login): his page with role, items,
notices, actions and submissions; the thread with his post and vote forms."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from nightfall.engine import Command, Game, Rejected, SetupError
from nightfall.engine import events as ev
from nightfall.engine.text import N_, Term, Text
from nightfall.web import csrf, forms, limits, pages
from nightfall.web.bodies import clip
from nightfall.web.explain import item_explanation, role_explanation
from nightfall.web.i18n import Translator
from nightfall.web.render import page, redirect
from nightfall.web.routes import public
from nightfall.web.routes.common import (
    legal_of,
    load_async,
    log_async,
    now,
    remembered,
    service,
    translator,
    view_of,
)
from nightfall.web.routes.notify import player_panel
from nightfall.web.routes.public import game_context
from nightfall.web.security import Access, PlayerAccess

router = APIRouter()
POST_LIMIT = 10_000


async def _tr(request: Request, access: Access, game: Game) -> Translator:
    """The player's language and zone: his settings came with his token's lookup."""
    return translator(request, game, access.game_id, access.player, settings=access.settings)


def _public_slots(request: Request, game: Game) -> frozenset[str]:
    return remembered(request, game, ("public_slots",), lambda: pages.public_slots(game))


def _public_votes(request: Request, game: Game) -> bool:
    return bool(_public_slots(request, game))


def _post_block(request: Request, game: Game, player: str) -> Text | None:
    """Why ``player`` cannot post now (``None``: he can)."""
    if game.state.ended:
        return Text(N_("The game is over."))
    return forms.probe(game, Command("post", by=player, text="·"), now(request))


async def _private_page(request: Request, access: Access, error: Text | None = None,
                        status_code: int = 200) -> Response:
    game = await load_async(request, access.game_id)
    tr = await _tr(request, access, game)
    player = access.player or ""
    log = await log_async(request, access.game_id)
    view = view_of(request, game, player)
    me = view.get("me", {})
    public_votes = _public_votes(request, game)
    legal = legal_of(request, game, player)
    items = [(i["id"], i["used"], item_explanation(i["id"])) for i in me.get("items", [])]
    return page(
        request, "player.html", tr, status_code=status_code,
        **game_context(request, access.game_id, game, tr),
        access=access, me=me, view=view, player=player, error=error,
        role_text=role_explanation(game.ruleset, me.get("role")),
        faction=game.ruleset.faction_of(me.get("role")),
        items=items, notices=pages.notices(log, game.ruleset, player),
        action_forms=forms.action_forms(game, player, tr, thread=False,
                                        public_votes=public_votes, legal=legal),
        thread_votes=public_votes and bool(forms.action_forms(
            game, player, tr, thread=True, public_votes=True, legal=legal)),
        base=f"/p/{access.token}", events_url=f"/p/{access.token}/events",
        notify=await run_in_threadpool(player_panel, request, access))


@router.get("/p/{token}", response_class=HTMLResponse)
async def private_page(request: Request, access: PlayerAccess) -> Response:
    return await _private_page(request, access)


async def _thread_page(request: Request, access: Access, error: Text | None = None,
                       status_code: int = 200, draft: str = "") -> Response:
    game = await load_async(request, access.game_id)
    tr = await _tr(request, access, game)
    player = access.player or ""
    log = await log_async(request, access.game_id)
    slots = _public_slots(request, game)
    public_votes = bool(slots)
    # the thread is the same for every reader of this head (public events only)
    entries = remembered(request, game, ("thread",), lambda: pages.thread(log, slots))
    return page(
        request, "thread.html", tr, status_code=status_code,
        **game_context(request, access.game_id, game, tr),
        thread_page=pages.thread_page(
            entries, pages.page_number(request.query_params.get("page"))),
        view=view_of(request, game, player),
        me=player, error=error, draft=draft, base=f"/p/{access.token}",
        vote_forms=forms.action_forms(game, player, tr, thread=True, public_votes=public_votes,
                                      legal=legal_of(request, game, player))
        if public_votes else [],
        post_block=_post_block(request, game, player),
        events_url=f"/p/{access.token}/events", self_url=f"/p/{access.token}/thread")


@router.get("/p/{token}/thread", response_class=HTMLResponse)
async def thread_page(request: Request, access: PlayerAccess) -> Response:
    return await _thread_page(request, access)


@router.get("/p/{token}/thread/entries", response_class=HTMLResponse)
async def thread_entries(request: Request, access: PlayerAccess) -> Response:
    """The live update of the player's thread page (``?after=N``, see
    :func:`nightfall.web.routes.public.thread_entries`)."""
    game = await load_async(request, access.game_id)
    tr = await _tr(request, access, game)
    log = await log_async(request, access.game_id)
    return public.thread_entries(request, tr, access.game_id, game, pages.thread(
        log, pages.public_slots(game)), game.view(access.player or ""))


def stale_form(game: Game, form: Any) -> Text | None:
    """A form made for a phase that is over (an old tab): say so, change nothing."""
    sent = form.get("phase")
    if isinstance(sent, str) and sent and sent != game.state.phase_label:
        return Text(N_("This form was made for {old}, which is over; now it is {now}. Nothing "
                       "was changed — here is the current page."),
                    {"old": Term("phase", sent), "now": Term("phase", game.state.phase_label)})
    return None


_stale = stale_form


@router.post("/p/{token}/act",
             dependencies=[Depends(csrf.verify), Depends(limits.submissions)])
async def act(request: Request, access: PlayerAccess) -> Response:
    """A move from an action form. Accepted or refused, the answer is a redirect to the
    page the form was on (Post/Redirect/Get) with the message shown once there, so a
    refresh never offers to send the form again. Only a form our pages never make (a
    missing or garbled field) is answered in place with 400."""
    form = await request.form()
    back = "thread" if form.get("from") == "thread" else "page"
    render = _thread_page if back == "thread" else _private_page
    url = f"/p/{access.token}" + ("/thread" if back == "thread" else "")
    lang = request.query_params.get("lang")
    if lang:
        url += "?" + urlencode({"lang": lang})
    game = await load_async(request, access.game_id)
    stale = _stale(game, form)
    if stale is not None:
        return redirect(request, url, stale, kind="error")
    try:
        command = forms.command_from_form(access.player or "", form)
        events = await run_in_threadpool(service(request).submit, access.game_id, command)
    except forms.BadInput as bad:
        return await render(request, access, bad.text, 400)
    except (Rejected, SetupError) as rejected:
        return redirect(request, url, rejected.reason, kind="error")
    return redirect(request, url, saved_message(game, command, events))


def saved_message(game: Game, command: Command, events: Sequence[ev.Event]) -> Text:
    """What the player just sent, in words, and whether he may still change it: "Saved:
    abduct → Derpy. You can change it until the deadline." rather than a bare "Done:
    abduct", which left him guessing which target was stored. When his input was the
    last one the stage waited for (early close, C2.3), the stage has closed: say so."""
    action = Term("action", command.action)
    if command.action == "unvote":
        return Text(N_("Your vote is withdrawn."))
    closed = any(isinstance(e, ev.StageClosed) for e in events)
    settled = closed or any(isinstance(e, ev.Announced | ev.StatusChanged | ev.PlayerLeft)
                            for e in events)
    chosen: list[str | Term] = list(command.all_targets)
    if command.choice is not None:
        chosen.insert(0, choice_term(game, command.choice))
    params: dict[str, object] = {"action": action, "chosen": tuple(chosen)}
    if closed:
        return Text(N_("Saved: {action} → {chosen}. That was the last input this stage "
                       "waited for: it has closed.") if chosen else
                    N_("Saved: {action}. That was the last input this stage waited for: "
                       "it has closed."), params)
    if not chosen:
        return Text(N_("Saved: {action}."), params)
    if settled:
        return Text(N_("Saved: {action} → {chosen}."), params)
    if game.state.deadline is None:  # reopened by an undo: no deadline to speak of
        return Text(N_("Saved: {action} → {chosen}. You can change it until the phase "
                       "closes."), params)
    return Text(N_("Saved: {action} → {chosen}. You can change it until the deadline."),
                params)


def choice_term(game: Game, choice: str) -> str | Term:
    """A command's choice as a term the reader's language names (a role, an item, an
    answer), else as sent."""
    if choice in game.ruleset.roles:
        return Term("role", choice)
    if choice in game.ruleset.item_ids:
        return Term("item", choice)
    if choice in ("yes", "no"):
        return Term("answer", choice)
    return choice


async def submit_post(request: Request, access: Access) -> tuple[Text | None, int, str]:
    """Post the form's text in the thread for the link's holder (a player or, I6.7, an
    observer): ``(None, 303, text)`` when stored, else the reason, its status code (409 for
    a stale tab, 400 otherwise) and the text to write back into the form."""
    form = await request.form()
    raw = form.get("text")
    text = raw.strip() if isinstance(raw, str) else ""
    game = await load_async(request, access.game_id)
    error: Text | None = stale_form(game, form)
    status_code = 409 if error is not None else 400
    if error is None and not text:
        error = Text(N_("A post needs some text."))
    elif error is None and len(text) > POST_LIMIT:
        error = Text(N_("The text is too long (at most {limit} characters)."),
                     {"limit": POST_LIMIT})
    if error is None:
        try:
            await run_in_threadpool(service(request).submit, access.game_id,
                                    Command("post", by=access.player, text=text))
        except (Rejected, SetupError) as rejected:
            error = rejected.reason
    return error, (303 if error is None else status_code), text


@router.post("/p/{token}/post",
             dependencies=[Depends(csrf.verify), Depends(limits.submissions)])
async def post(request: Request, access: PlayerAccess) -> Response:
    error, status_code, text = await submit_post(request, access)
    if error is not None:
        return await _thread_page(request, access, error, status_code,
                                  draft=clip(text, POST_LIMIT))
    return redirect(request, f"/p/{access.token}/thread#bottom")

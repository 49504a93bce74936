"""Notification pages: confirming an address, one-click unsubscribe (RFC 8058), "send me
my link again", a player's address, preferences and push channel, the GM's channels,
reminders and message list (with resend), the calendar feeds and the mail catcher's page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from nightfall.engine.text import N_, Text
from nightfall.notify import calendar
from nightfall.notify.contacts import KIND_TITLES, KINDS, UNSUBSCRIBED, BadContact, Contact
from nightfall.notify.service import Channel, Message
from nightfall.notify.worker import not_sending_reason
from nightfall.web import csrf, pages
from nightfall.web.i18n import Translator
from nightfall.web.render import page, redirect
from nightfall.web.routes.common import load_async, log_async, service, translator
from nightfall.web.security import Access, GameId, GmAccess, NotFound, PlayerAccess

router = APIRouter()
#: "send me my link again": at most one request per address every this many seconds
LINK_AGAIN_INTERVAL, LINK_AGAIN_BURST = 60.0, 3
SAME_ANSWER = N_("If this address belongs to a player of this game and is confirmed, a new "
                 "private link is on its way to it (the old link stops working).")


#: the outbox statuses as the GM's page names them
STATUS_NAMES = {"held": N_("waiting for the address's confirmation"), "pending": N_("waiting"),
                "sending": N_("sending"), "sent": N_("delivered"), "failed": N_("failed"),
                "skipped": N_("not needed")}


def _notes(request: Request) -> Any:
    return service(request).notifications


# -- what the player's page and the GM's dashboard show ----------------------------------------
@dataclass(frozen=True)
class PlayerPanel:
    contact: Contact | None
    kinds: list[tuple[str, str, bool]]
    push_shown: str | None


def player_panel(request: Request, access: Access) -> PlayerPanel:
    """His address and its state, his preferences and (masked) push channel."""
    contact = _notes(request).contact(access.game_id, access.player or "")
    kinds = [(kind, KIND_TITLES[kind], contact.wants(kind) if contact else default)
             for kind, default in KINDS.items()]
    from nightfall.notify.channels import masked

    push = masked(contact.push_url) if contact and contact.push_url else None
    return PlayerPanel(contact, kinds, push)


@dataclass(frozen=True)
class GmPanel:
    messages: list[Message]
    channels: list[Channel]
    reminder_minutes: int
    mail_off: Text | None


def gm_panel(request: Request, game_id: str) -> GmPanel:
    notes = _notes(request)
    return GmPanel(notes.messages(game_id), notes.list_channels(game_id),
                   notes.reminder_minutes(game_id), not_sending_reason(notes.config))


# -- confirming and unsubscribing (the links in the mails) -------------------------------------
def _key_page(request: Request, tr: Translator, title: str, message: str, action: str | None,
              button: str | None, status_code: int = 200) -> Response:
    return page(request, "notify_key.html", tr, status_code=status_code, title=title,
                message=message, action=action, button=button)


@router.get("/email/confirm/{key}", response_class=HTMLResponse)
async def confirm_form(request: Request, key: str) -> Response:
    """A page with a button: a mail scanner that opens the link confirms nothing."""
    tr = translator(request)
    return _key_page(request, tr, tr(N_("Confirm your e-mail address")),
                     tr(N_("Press the button to confirm that this address may receive the "
                           "game's messages.")), f"/email/confirm/{key}", tr(N_("Confirm")))


@router.post("/email/confirm/{key}", dependencies=[Depends(csrf.verify)])
async def confirm(request: Request, key: str) -> Response:
    tr = translator(request)
    contact = await run_in_threadpool(_notes(request).confirm, key)
    if contact is None:
        return _key_page(request, tr, tr(N_("Not found")),
                         tr(N_("This confirmation link is unknown or was already used.")),
                         None, None, status_code=404)
    return _key_page(request, tr, tr(N_("Address confirmed")),
                     tr(N_("Thank you, {name}: your address is confirmed. Your private link "
                           "is on its way to it."), name=contact.player), None, None)


@router.get("/email/unsubscribe/{key}", response_class=HTMLResponse)
async def unsubscribe_form(request: Request, key: str) -> Response:
    tr = translator(request)
    known = await run_in_threadpool(_notes(request).by_unsubscribe_key, key)
    if known is None:
        raise NotFound()
    return _key_page(request, tr, tr(N_("Stop e-mail")),
                     tr(N_("No more e-mail from this game to {address}? You can switch it on "
                           "again on your page."), address=known.email or "—"),
                     f"/email/unsubscribe/{key}", tr(N_("Stop e-mail")))


@router.post("/email/unsubscribe/{key}")
async def unsubscribe(request: Request, key: str) -> Response:
    """One-click unsubscribe (RFC 8058): a mail client POSTs ``List-Unsubscribe=One-Click``
    here without a cookie, so this route takes no CSRF token: the key is the authority,
    and all it can do is switch e-mail off."""
    tr = translator(request)
    contact = await run_in_threadpool(_notes(request).unsubscribe, key)
    if contact is None:
        raise NotFound()
    return _key_page(request, tr, tr(N_("E-mail stopped")),
                     tr(N_("No more e-mail goes to {address} from this game."),
                        address=contact.email or "—"), None, None)


# -- "send me my link again" --------------------------------------------------------------------
@router.post("/g/{game_id}/link", dependencies=[Depends(csrf.verify)])
async def link_again(request: Request, game_id: GameId) -> Response:
    """Answered the same whether the address is known or not (and limited per address),
    so the form tells nobody who plays."""
    form = await request.form()
    raw = form.get("email")
    address = raw.strip()[:320] if isinstance(raw, str) else ""
    svc = service(request)
    if address:
        wait = await run_in_threadpool(svc.store.take_slot, f"link:{game_id}:{address.lower()}",
                                       svc.clock.now(), LINK_AGAIN_INTERVAL, LINK_AGAIN_BURST)
        if wait <= 0:
            await run_in_threadpool(svc.notifications.send_link_again, game_id, address)
    return redirect(request, f"/g/{game_id}#link", Text(SAME_ANSWER))


# -- the player's own settings -------------------------------------------------------------------
@router.post("/p/{token}/email", dependencies=[Depends(csrf.verify)])
async def player_email(request: Request, access: PlayerAccess) -> Response:
    form = await request.form()
    raw = form.get("email")
    address = raw.strip()[:320] if isinstance(raw, str) else ""
    notes = _notes(request)
    back = f"/p/{access.token}#notify"
    if form.get("remove"):
        await run_in_threadpool(notes.remove_email, access.game_id, access.player or "")
        return redirect(request, back, Text(N_("Your e-mail address is removed.")))
    try:
        await run_in_threadpool(notes.set_email, access.game_id, access.player or "", address,
                                False, access.token)
    except BadContact as bad:
        return redirect(request, back, bad.text, kind="error")
    return redirect(request, back, Text(N_(
        "A confirmation link is on its way to {address}. Nothing else is sent there until "
        "you follow it."), {"address": address}))


@router.post("/p/{token}/notify", dependencies=[Depends(csrf.verify)])
async def player_preferences(request: Request, access: PlayerAccess) -> Response:
    form = await request.form()
    notes = _notes(request)
    back = f"/p/{access.token}#notify"
    chosen = {kind: form.get("kind_" + kind) is not None for kind in KINDS}
    contact = await run_in_threadpool(notes.contact, access.game_id, access.player or "")
    await run_in_threadpool(notes.set_preferences, access.game_id, access.player or "",
                            chosen, form.get("mail_on") is not None and contact is not None
                            and contact.email_state == UNSUBSCRIBED)
    raw = form.get("push")
    push = raw.strip()[:2000] if isinstance(raw, str) else ""
    if push or form.get("push_remove"):
        try:
            await run_in_threadpool(notes.set_push, access.game_id, access.player or "",
                                    None if form.get("push_remove") else push)
        except BadContact as bad:
            return redirect(request, back, bad.text, kind="error")
    return redirect(request, back, Text(N_("Your notification settings are saved.")))


# -- the GM's channels, reminders and messages ---------------------------------------------------
@router.post("/gm/{token}/channels", dependencies=[Depends(csrf.verify)])
async def gm_channels(request: Request, access: GmAccess) -> Response:
    form = await request.form()
    notes = _notes(request)
    back = f"/gm/{access.token}#notify"
    remove = form.get("remove")
    if isinstance(remove, str) and remove:
        await run_in_threadpool(notes.remove_channel, access.game_id, remove)
        return redirect(request, back, Text(N_("The channel is removed.")))
    raw = form.get("url")
    url = raw.strip()[:2000] if isinstance(raw, str) else ""
    try:
        channel = await run_in_threadpool(notes.add_channel, access.game_id, url)
    except BadContact as bad:
        return redirect(request, back, bad.text, kind="error")
    return redirect(request, back, Text(N_("Channel added: {shown}"), {"shown": channel.shown}))


@router.post("/gm/{token}/reminders", dependencies=[Depends(csrf.verify)])
async def gm_reminders(request: Request, access: GmAccess) -> Response:
    form = await request.form()
    back = f"/gm/{access.token}#notify"
    raw = form.get("minutes")
    try:
        minutes = int(raw.strip()) if isinstance(raw, str) else -1
        await run_in_threadpool(_notes(request).set_reminder_minutes, access.game_id, minutes)
    except ValueError:
        return redirect(request, back, Text(N_("Reminders are 0 (none) to {limit} minutes "
                                               "before a deadline."), {"limit": 60 * 24 * 7}),
                        kind="error")
    except BadContact as bad:
        return redirect(request, back, bad.text, kind="error")
    return redirect(request, back, Text(N_("Reminders: {minutes} minutes before each "
                                           "deadline (0: none)."), {"minutes": minutes}))


@router.post("/gm/{token}/resend", dependencies=[Depends(csrf.verify)])
async def gm_resend(request: Request, access: GmAccess) -> Response:
    form = await request.form()
    raw = form.get("message")
    back = f"/gm/{access.token}#notify"
    number = int(raw) if isinstance(raw, str) and raw.isdigit() else -1
    made = await run_in_threadpool(_notes(request).resend, access.game_id, number)
    if made is None:
        return redirect(request, back, Text(N_("That message cannot be sent again (a private "
                                               "link: issue a new one instead).")),
                        kind="error")
    return redirect(request, back, Text(N_("The message is queued again.")))


# -- calendars -----------------------------------------------------------------------------------
ICS_TYPE = "text/calendar; charset=utf-8"


async def _feed(request: Request, game_id: str, player: str | None) -> Response:
    """The deadlines in the reader's language (a player's own, else the game's)."""
    game = await load_async(request, game_id)
    log = await log_async(request, game_id)
    info = await run_in_threadpool(_reader, request, game_id, game, player)
    base = request.app.state.settings.base_url
    body = calendar.feed(game_id, [e for _, _, e in pages.effective(log)], info,
                         f"{base}/g/{game_id}")
    return Response(body, media_type=ICS_TYPE,
                    headers={"Content-Disposition": f'inline; filename="{game_id}.ics"'})


def _reader(request: Request, game_id: str, game: Any, player: str | None) -> Any:
    svc = service(request)
    with svc.engine.connect() as conn:
        return svc.notifier.reader(conn, game_id, game, player)


@router.get("/g/{game_id}/calendar.ics")
async def public_calendar(request: Request, game_id: GameId) -> Response:
    return await _feed(request, game_id, None)


@router.get("/p/{token}/calendar.ics")
async def player_calendar(request: Request, access: PlayerAccess) -> Response:
    return await _feed(request, access.game_id, access.player)


# -- the mail catcher's page ---------------------------------------------------------------------
@router.get("/mail/{key}", response_class=HTMLResponse)
async def caught_mail(request: Request, key: str) -> Response:
    catcher = getattr(request.app.state, "mail_catcher", None)
    if catcher is None or key != getattr(request.app.state, "mail_catcher_key", None):
        raise NotFound()
    tr = translator(request)
    return page(request, "mail_catcher.html", tr, caught=catcher.messages())

"""The game master's pages: create a game; the dashboard (sign-ups, deal, start, who has
submitted what, the pending resolution previewed, close/extend/skip/modkill/undo and the
rule set's own acts, posts in the thread and messages to one player, the players' links,
the observers' links, I6.7)."""

from __future__ import annotations

import math
import secrets
from collections import Counter
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from nightfall.engine import Game, Rejected, SetupError
from nightfall.engine.commands import GM_ACTIONS
from nightfall.engine.guests import ADMIT, OBSERVER
from nightfall.engine.phase import SETUP, SIGNUP
from nightfall.engine.talk import TALK_ACTIONS, TEXT_LIMIT
from nightfall.engine.text import N_, Term, Text
from nightfall.i18n import SUPPORTED_LOCALES, known_zone
from nightfall.rulesets import RULESET_IDS, get_ruleset
from nightfall.service.outlook import after_close, shortening_ends_stage
from nightfall.service.votecount import GameCount, counts_votes, game_count, submit_votes
from nightfall.web import csrf, decisions, pages, votecount
from nightfall.web import forum_thread as forum_section
from nightfall.web.bodies import clip
from nightfall.web.i18n import Translator, supported
from nightfall.web.render import page, redirect
from nightfall.web.routes.common import load_async, log_async, meta, now, service, translator
from nightfall.web.routes.notify import STATUS_NAMES, gm_panel
from nightfall.web.routes.public import COMMON_ZONES, DESCRIPTION_LIMIT, NAME_LIMIT, game_context
from nightfall.web.security import Access, GmAccess
from nightfall.web.settings import creation_allowed
from nightfall.web.texts import ruleset_name

router = APIRouter()
#: the core's GM acts offered on the dashboard (``undo`` has its own button)
CORE_ACTS = ("advance", "extend", "shorten", "skip", "modkill")
MINUTES_LIMIT = 60 * 24 * 14


def available_rulesets() -> list[str]:
    found = []
    for ruleset_id in RULESET_IDS:
        try:
            get_ruleset(ruleset_id)
        except Exception:  # a rule set still being written must not break the page
            continue
        found.append(ruleset_id)
    return found


# -- creating a game --------------------------------------------------------------------------
def _new_page(request: Request, tr: Translator, ruleset_id: str, error: Text | None = None,
              values: dict[str, Any] | None = None, status_code: int = 200,
              key: str = "", rules_error: Text | None = None,
              rules_problems: list[str] | None = None, rules_text: str = "") -> Response:
    """``/new``: a built-in rule set's form, and the rule-file upload (issue 20,
    ``routes/gm_rules.py``) with a refused file's problems and pasted text."""
    from nightfall.service.rules import shipped_files

    rulesets = available_rulesets()
    if ruleset_id not in rulesets:
        ruleset_id = rulesets[0]
    plugin = get_ruleset(ruleset_id)
    return page(request, "new_game.html", tr, status_code=status_code, error=error,
                ruleset_id=ruleset_id, rulesets=[(r, tr(ruleset_name(r))) for r in rulesets],
                options=plugin.choosable_options(), option_titles=plugin.option_titles,
                values=values or {}, creation_key=clip(key, 200),
                locales=SUPPORTED_LOCALES, zones=COMMON_ZONES,
                # the language the GM reads this page in (issue 18: a game made from the
                # English page opened in Russian); he may pick the rule set's own
                default_locale=tr.locale,
                shipped=[(s.name, s.title) for s in shipped_files()],
                rules_error=rules_error, rules_problems=rules_problems or [],
                rules_text=rules_text)


CREATION_CLOSED = N_("Creating games on this site needs a creation key: ask the site's "
                     "administrator for an invite link.")


def _creation_refused(request: Request, tr: Translator, key: object) -> Response | None:
    """The page that turns away a GM without a valid creation key on a closed site
    (issue 18, docs/hosting.md); ``None`` when he may create games."""
    if creation_allowed(request.app.state.settings, key):
        return None
    wrong = isinstance(key, str) and bool(key)
    return page(request, "new_game_closed.html", tr, status_code=403,
                error=Text(N_("That creation key is not valid.")) if wrong else None,
                message=Text(CREATION_CLOSED))


@router.get("/new", response_class=HTMLResponse)
async def new_game_form(request: Request) -> Response:
    tr = translator(request)
    key = request.query_params.get("key", "")
    refused = _creation_refused(request, tr, key)
    if refused is not None:
        return refused
    return _new_page(request, tr, request.query_params.get("ruleset", ""), key=key)


def parse_options(defaults: dict[str, Any], form: Any) -> dict[str, Any]:
    """The options of a create form, typed like the rule set's defaults."""
    options: dict[str, Any] = {}
    for key, default in defaults.items():
        raw = form.get("opt_" + key)
        if isinstance(default, bool):
            options[key] = raw is not None
            continue
        value = raw.strip() if isinstance(raw, str) else ""
        if value == "":
            continue
        if isinstance(default, int):
            try:
                options[key] = int(value)
            except ValueError:
                raise SetupError(N_("The option {option} needs a whole number."),
                                 option=key) from None
        else:
            if key == "timezone" and known_zone(value) is None:
                raise SetupError(N_("Unknown time zone {zone}."), zone=clip(value, 64))
            options[key] = value
    return options


@router.post("/new", dependencies=[Depends(csrf.verify)])
async def create_game(request: Request) -> Response:
    form = await request.form()
    tr = translator(request)
    refused = _creation_refused(request, tr, form.get("key"))
    if refused is not None:
        return refused
    key = str(form.get("key") or "")
    ruleset_id = str(form.get("ruleset") or "")
    # written back into the form after a refusal: each value clipped to what a field takes
    values = {k[:100]: clip(v, 200) for k, v in form.items()
              if isinstance(v, str) and k != csrf.FIELD}
    if ruleset_id not in available_rulesets():
        return _new_page(request, tr, "", Text(N_("Choose a rule set.")), values, 400, key)
    plugin = get_ruleset(ruleset_id)
    title = str(form.get("title") or "").strip()
    seed_raw = str(form.get("seed") or "").strip()
    try:
        if len(title) > 200:
            raise SetupError(N_("The title has at most {limit} characters."), limit=200)
        locale = supported(str(form.get("locale") or "")) or None
        if form.get("locale") and locale is None:
            raise SetupError(N_("Unknown language {locale}."),
                             locale=clip(str(form.get("locale")), 20))
        try:
            seed = int(seed_raw) if seed_raw else secrets.randbelow(1_000_000)
        except ValueError:
            raise SetupError(N_("The seed must be a whole number.")) from None
        options = parse_options(plugin.choosable_options(), form)
        created = await run_in_threadpool(service(request).create, ruleset_id, seed, options,
                                          locale, title)
    except (SetupError, Rejected) as error:
        return _new_page(request, tr, ruleset_id, error.reason, values, 400, key)
    return redirect(request, f"/gm/{created.gm_token}", Text(N_(
        "The game is created. This page is your game-master link: bookmark it and show it "
        "to nobody.")))


# -- the dashboard ------------------------------------------------------------------------------
async def _dashboard(request: Request, access: Access, error: Text | None = None,
                     status_code: int = 200, new_links: dict[str, str] | None = None,
                     forum_count: votecount.Section | None = None,
                     draft: dict[str, str] | None = None,
                     forum_thread: forum_section.ThreadSection | None = None,
                     confirm_shorten: int | None = None,
                     new_observer_links: dict[str, str] | None = None) -> Response:
    """The dashboard; ``draft`` is a refused post or message (``action``, ``target``,
    ``text``), written back into its form so the GM does not type it again;
    ``confirm_shorten`` the minutes of a shortening that would end the stage, asked again
    with what closing would leave the players (issue 18)."""
    game = await load_async(request, access.game_id)
    tr = translator(request, game)
    log = await log_async(request, access.game_id)
    state = game.state
    counted = counts_votes(game)  # the rule set says how its votes are written
    if forum_count is None and counted:
        forum_count = votecount.section(_game_count(request, access, game))
    if forum_thread is None and counted:
        forum_thread = await run_in_threadpool(
            forum_section.section, request.app.state.forum, access.game_id,
            state.phase_label, request.app.state.settings.secret_key)
    presets = game.ruleset.presets()
    try:
        default_roles: tuple[str, ...] = game.ruleset.roles_for(len(state.players))
    except (ValueError, KeyError):
        default_roles = ()
    in_play = state.phase.is_play()
    base_url = request.app.state.settings.base_url
    moment = now(request)
    observers_allowed = OBSERVER in game.ruleset.thread_guests  # I6.7
    links = (await run_in_threadpool(service(request).store.observer_links, access.game_id)
             if observers_allowed else {})
    return page(
        request, "gm.html", tr, status_code=status_code,
        **game_context(request, access.game_id, game, tr),
        access=access, error=error, base=f"/gm/{access.token}",
        rows=pages.dashboard_rows(game), view=pages.gm_view(game),
        preview=pages.preview(game, moment) if in_play else None,
        suggested_deadline=_suggested_deadline(game, moment, tr) if in_play else "",
        close_outlook=after_close(game, moment) if in_play else None,
        confirm_shorten=confirm_shorten,
        zone_name=str(getattr(tr.tz, "key", None) or "UTC"),
        awaiting=game.ruleset.awaiting_inputs(state) if in_play else None,
        presets=presets, default_roles=Counter(default_roles),
        roles=list(game.ruleset.roles), core_acts=CORE_ACTS,
        gm_acts=decisions.gm_acts(game.ruleset),
        pending=decisions.pending(game) if in_play else [],
        alive=state.alive(), players=list(state.players),
        announcements=list(reversed(state.announcements))[:30],
        can_undo=any(e for _, _, e in pages.effective(log) if type(e).__name__ == "StageClosed"),
        signup_open=state.phase.kind == SIGNUP, dealt=state.phase.kind == SETUP,
        in_play=in_play, new_links=new_links or {}, base_url=base_url,
        signup_url=f"{base_url}/g/{access.game_id}/signup",
        events_url=f"/gm/{access.token}/events", forum_count=forum_count,
        forum_thread=forum_thread,
        can_talk=in_play or state.ended, text_limit=TEXT_LIMIT, draft=draft or {},
        gm_messages=pages.gm_messages(log),
        notify=await run_in_threadpool(gm_panel, request, access.game_id),
        status_names=STATUS_NAMES, observers_allowed=observers_allowed,
        observer_rows=[(name, links.get(name, False)) for name in state.observers],
        new_observer_links=new_observer_links or {})


def _suggested_deadline(game: Game, moment: datetime, tr: Translator) -> str:
    """What the "set a new deadline" form offers (after an undo the stage has none): the
    moment the stage's own rule gives from now, as a ``datetime-local`` value in the
    game's zone; empty for a stage whose rule set gives it no deadline."""
    state = game.state
    rule = game.ruleset.deadline_rule(state, state.phase)
    if rule is None:
        return ""
    local = rule.after(moment).astimezone(tr.tz) if tr.tz else rule.after(moment)
    return local.strftime("%Y-%m-%dT%H:%M")


def _minutes_until(form: Any, game: Game, moment: datetime, tr: Translator) -> int:
    """The minutes from now to the form's ``until`` (a ``datetime-local`` value, read in
    the game's time zone), for a stage without a deadline; refused if not ahead."""
    raw = _field(form, "until", 40)
    try:
        chosen = datetime.fromisoformat(raw)
    except ValueError:
        raise Rejected(N_("Give the new deadline as a date and time.")) from None
    if chosen.tzinfo is None:
        chosen = chosen.replace(tzinfo=tr.tz or UTC)
    try:
        seconds = (chosen - moment).total_seconds()
    except OverflowError:  # year 1 or 9999 with an offset
        raise Rejected(N_("Give the new deadline as a date and time.")) from None
    if seconds <= 0:
        raise Rejected(N_("The new deadline must lie ahead: it is {now} now."), now=moment)
    return min(math.ceil(seconds / 60), MINUTES_LIMIT)


@router.get("/gm/{token}", response_class=HTMLResponse)
async def dashboard(request: Request, access: GmAccess) -> Response:
    return await _dashboard(request, access)


def _field(form: Any, name: str, limit: int = 200) -> str:
    value = form.get(name)
    return value.strip()[:limit] if isinstance(value, str) else ""


@router.post("/gm/{token}/players", dependencies=[Depends(csrf.verify)])
async def add_player(request: Request, access: GmAccess) -> Response:
    form = await request.form()
    name, description = _field(form, "name", 1000), _field(form, "description", 1000)
    if not name:
        return await _dashboard(request, access, Text(N_("A player needs a name.")), 400)
    if len(name) > NAME_LIMIT or any(not c.isprintable() for c in name):
        return await _dashboard(request, access, Text(
            N_("A name has at most {limit} printable characters."), {"limit": NAME_LIMIT}), 400)
    if len(description) > DESCRIPTION_LIMIT:
        return await _dashboard(request, access, Text(
            N_("The description has at most {limit} characters."),
            {"limit": DESCRIPTION_LIMIT}), 400)
    try:
        token = await run_in_threadpool(service(request).signup, access.game_id, name,
                                        description)
    except (Rejected, SetupError) as error:
        return await _dashboard(request, access, error.reason, 400)
    return await _dashboard(request, access, new_links={name: _player_url(request, token)})


def _player_url(request: Request, token: str) -> str:
    return f"{request.app.state.settings.base_url}/p/{token}"


@router.post("/gm/{token}/withdraw", dependencies=[Depends(csrf.verify)])
async def withdraw(request: Request, access: GmAccess) -> Response:
    form = await request.form()
    name = _field(form, "name")
    try:
        await run_in_threadpool(service(request).withdraw, access.game_id, name)
    except (Rejected, SetupError) as error:
        return await _dashboard(request, access, error.reason, 400)
    return redirect(request, f"/gm/{access.token}",
                    Text(N_("{name} withdraws."), {"name": name}))


def _picked_roles(game: Game, form: Any) -> list[str]:
    roles: list[str] = []
    for role in game.ruleset.roles:
        raw = _field(form, "role_" + role) or "0"
        try:
            count = int(raw)
        except ValueError:
            raise SetupError(N_("The number of {role} must be a whole number."),
                             role=Term("role", role)) from None
        if count < 0 or count > 100:
            raise SetupError(N_("The number of {role} must be between 0 and 100."),
                             role=Term("role", role))
        roles += [role] * count
    if not roles:
        raise SetupError(N_("Pick at least one role."))
    return roles


@router.post("/gm/{token}/deal", dependencies=[Depends(csrf.verify)])
async def deal(request: Request, access: GmAccess) -> Response:
    form = await request.form()
    mode = _field(form, "mode")
    game = await load_async(request, access.game_id)
    try:
        if mode == "preset":
            preset = _field(form, "preset")
            await run_in_threadpool(service(request).deal, access.game_id, preset or "?")
        elif mode == "pick":
            await run_in_threadpool(service(request).deal, access.game_id, None,
                                    _picked_roles(game, form))
        elif mode == "default":
            await run_in_threadpool(service(request).deal, access.game_id)
        else:
            raise SetupError(N_("Choose how to deal the roles."))
    except (Rejected, SetupError) as error:
        return await _dashboard(request, access, error.reason, 400)
    return redirect(request, f"/gm/{access.token}", Text(N_("The roles are dealt.")))


@router.post("/gm/{token}/start", dependencies=[Depends(csrf.verify)])
async def start(request: Request, access: GmAccess) -> Response:
    try:
        await run_in_threadpool(service(request).start, access.game_id)
    except (Rejected, SetupError) as error:
        return await _dashboard(request, access, error.reason, 400)
    return redirect(request, f"/gm/{access.token}", Text(N_("The game has started.")))


@router.post("/gm/{token}/act", dependencies=[Depends(csrf.verify)])
async def gm_act(request: Request, access: GmAccess) -> Response:
    form = await request.form()
    action = _field(form, "action", 40)
    game = await load_async(request, access.game_id)
    sent_phase = _field(form, "phase", 40)
    if sent_phase and sent_phase != game.state.phase_label:
        return await _dashboard(request, access, Text(
            N_("This form was made for {old}, which is over; now it is {now}. Nothing was "
               "changed — here is the current page."),
            {"old": Term("phase", sent_phase), "now": Term("phase", game.state.phase_label)}),
            409)
    svc = service(request)
    choice: str | None = None
    if action in TALK_ACTIONS:
        return await _talk(request, access, action, form)
    if action == ADMIT:  # an observer comes with his link (I6.7)
        return await _admit(request, access, _field(form, "target", 1000))
    try:
        if action == "undo":
            await run_in_threadpool(svc.undo, access.game_id)
            undone = await load_async(request, access.game_id)
            if undone.state.deadline is None and undone.state.phase.is_play():
                return redirect(request, f"/gm/{access.token}#no-deadline", Text(N_(
                    "Undone. The phase has no deadline now: set a new one below, or close it "
                    "by hand.")))
            return redirect(request, f"/gm/{access.token}", Text(N_(
                "Undone. The phase runs until its old deadline, {deadline}."),
                {"deadline": translator(request, undone).moment(undone.state.deadline)}))
        elif action == "set_deadline":
            if game.state.deadline is not None:
                raise Rejected(N_("This phase has a deadline: extend or shorten it."))
            until = _minutes_until(form, game, now(request), translator(request, game))
            await run_in_threadpool(svc.gm, access.game_id, "extend", None, until)
        elif action in GM_ACTIONS or action in game.ruleset.gm_actions:
            minutes: int | None = None
            if action in ("extend", "shorten"):
                raw = _field(form, "minutes", 20)
                try:
                    minutes = int(raw)
                except ValueError:
                    raise Rejected(N_("Give a positive number of minutes.")) from None
                if not 0 < minutes <= MINUTES_LIMIT:
                    raise Rejected(N_("Give a positive number of minutes."))
                if (action == "shorten" and _field(form, "confirm_end") != "yes"
                        and shortening_ends_stage(game, now(request), minutes)):
                    return await _dashboard(request, access, status_code=409,
                                            confirm_shorten=minutes)
            target = _field(form, "target") or None
            if action == "modkill" and target is None:
                raise Rejected(N_("Choose a player."))
            choice = _field(form, "choice", 100) or None
            if choice is not None:  # offered by name; a name typed by hand counts too
                choice = decisions.choice_id(game.ruleset, action, choice,
                                             translator(request, game))
            await run_in_threadpool(
                svc.gm, access.game_id, action, target, minutes,
                _field(form, "text", 2000) or None, choice)
        else:
            raise Rejected(N_("Unknown command {action}."), action=action or "—")
    except (Rejected, SetupError) as error:
        return await _dashboard(request, access, error.reason, 400)
    done = "overrule" if action == "violation" and choice in decisions.OVERRULE else action
    return redirect(request, f"/gm/{access.token}", Text(N_("Done: {action}."), {
        "action": Term("gm", done)}))


async def _talk(request: Request, access: GmAccess, action: str, form: Any) -> Response:
    """``say`` (a post in the thread) or ``tell`` (a message to one player): the whole
    text as written (the engine trims it and refuses an empty or too long one), never
    clipped like the short fields of the other acts."""
    raw = form.get("text")
    text = raw if isinstance(raw, str) else ""
    target = _field(form, "target") or None
    try:
        await run_in_threadpool(service(request).gm, access.game_id, action, target, None,
                                text, None)
    except (Rejected, SetupError) as error:
        return await _dashboard(request, access, error.reason, 400, draft={
            "action": action, "target": target or "", "text": clip(text, TEXT_LIMIT)})
    return redirect(request, f"/gm/{access.token}#talk", Text(N_("Done: {action}."), {
        "action": Term("gm", action)}))


@router.post("/gm/{token}/links", dependencies=[Depends(csrf.verify)])
async def new_links(request: Request, access: GmAccess) -> Response:
    """Issue new private links (the old ones stop working): tokens are stored only as
    hashes, so a link can be shown once, when it is made."""
    form = await request.form()
    who = _field(form, "player")
    game = await load_async(request, access.game_id)
    names = list(game.state.players) if who == "*" else [who]
    if not who or any(name not in game.state.players for name in names):
        return await _dashboard(request, access, Text(N_("Choose a player.")), 400)
    notes = service(request).notifications  # mailed to a confirmed address, too
    links = {}
    for name in names:
        token = await run_in_threadpool(notes.reissue, access.game_id, name)
        links[name] = _player_url(request, token)
    return await _dashboard(request, access, new_links=links)


@router.post("/gm/{token}/revoke", dependencies=[Depends(csrf.verify)])
async def revoke_link(request: Request, access: GmAccess) -> Response:
    """Revoke a player's private link without issuing a new one (a leaked or shared link):
    from now on it gets the same 404 as an unknown link, until the GM issues a new one."""
    form = await request.form()
    who = _field(form, "player")
    store = service(request).store
    try:
        await run_in_threadpool(store.revoke_access, access.game_id, who)
    except LookupError:
        return await _dashboard(request, access, Text(N_("Choose a player.")), 400)
    return redirect(request, f"/gm/{access.token}", Text(N_(
        "The private link of {name} no longer works. Give him a new one with “New link” "
        "when you want."), {"name": who}))


# -- observers (I6.7) ---------------------------------------------------------------------------
def _observer_url(request: Request, token: str) -> str:
    return f"{request.app.state.settings.base_url}/o/{token}"


async def _admit(request: Request, access: Access, name: str) -> Response:
    """Let an outsider in as an observer and show his link once (only its hash is kept);
    the engine refuses a taken name or a rule set without observers, in the GM's words."""
    try:
        token = await run_in_threadpool(service(request).admit_observer, access.game_id,
                                        name)
    except (Rejected, SetupError) as error:
        return await _dashboard(request, access, error.reason, 400)
    return await _dashboard(request, access,
                            new_observer_links={name.strip(): _observer_url(request, token)})


@router.post("/gm/{token}/observers", dependencies=[Depends(csrf.verify)])
async def add_observer(request: Request, access: GmAccess) -> Response:
    form = await request.form()
    return await _admit(request, access, _field(form, "name", 1000))


@router.post("/gm/{token}/observers/link", dependencies=[Depends(csrf.verify)])
async def observer_link(request: Request, access: GmAccess) -> Response:
    """A new link for an observer (the old one stops working), or his link revoked: from
    then on it gets the same 404 as an unknown link, until the GM issues a new one."""
    form = await request.form()
    name, op = _field(form, "name"), _field(form, "op")
    store = service(request).store
    try:
        if op == "new":
            token = await run_in_threadpool(store.issue_token, access.game_id, name, True)
            return await _dashboard(request, access, new_observer_links={
                name: _observer_url(request, token)})
        if op != "revoke":
            raise LookupError(op)
        await run_in_threadpool(store.revoke_access, access.game_id, name, True)
    except LookupError:
        return await _dashboard(request, access, Text(N_("Choose an observer.")), 400)
    return redirect(request, f"/gm/{access.token}#observers", Text(N_(
        "The observer link of {name} no longer works. Give him a new one with “New link” "
        "when you want."), {"name": name}))


# -- counting a forum thread's votes (see nightfall.web.votecount) --------------------------
def _game_count(request: Request, access: Access, game: Game) -> GameCount:
    return game_count(game, meta(request, access.game_id).locale)


def _not_running(game: Game) -> votecount.CountError | None:
    if counts_votes(game):
        return None
    return votecount.CountError(409, N_(
        "Votes can be counted only while the game is running. Nothing was changed."))


@router.post("/gm/{token}/votecount", dependencies=[Depends(csrf.verify)])
async def count_forum_votes(request: Request, access: GmAccess) -> Response:
    """Count the votes of uploaded thread pages as ``nightfall votecount --game`` does;
    nothing is stored (the GM submits the votes with the next form)."""
    form = await request.form()
    game = await load_async(request, access.game_id)
    stopped = _not_running(game)
    if stopped is not None:
        return await _dashboard(request, access, stopped.text(translator(request, game)),
                                stopped.status)
    known = _game_count(request, access, game)
    shown = votecount.section(known, form)
    try:
        uploads = await votecount.read_uploads(form)
        shown.count = await run_in_threadpool(votecount.make_count, uploads, known, shown)
    except votecount.CountError as error:
        return await _dashboard(request, access, error.text(translator(request, game)),
                                error.status, forum_count=shown)
    votecount.seal(shown.count, request.app.state.settings.secret_key, access.game_id,
                   game.state.phase_label)
    return await _dashboard(request, access, forum_count=shown)


@router.post("/gm/{token}/votecount/submit", dependencies=[Depends(csrf.verify)])
async def submit_forum_votes(request: Request, access: GmAccess) -> Response:
    """Submit the counted votes as ``nightfall votecount --submit`` does: each at its
    post's time, in one transaction, each accepted or refused by the engine."""
    form = await request.form()
    game = await load_async(request, access.game_id)
    tr = translator(request, game)
    try:
        stopped = _not_running(game)
        if stopped is not None:
            raise stopped
        phase, votes = votecount.unseal(form.get("votes"), form.get("seal"),
                                        request.app.state.settings.secret_key, access.game_id)
    except votecount.CountError as error:
        return await _dashboard(request, access, error.text(tr), error.status)
    if phase != game.state.phase_label:
        return await _dashboard(request, access, Text(
            N_("This form was made for {old}, which is over; now it is {now}. Nothing was "
               "changed — here is the current page."),
            {"old": Term("phase", phase), "now": Term("phase", game.state.phase_label)}), 409)
    done = await run_in_threadpool(submit_votes, service(request), access.game_id, votes)
    shown = votecount.section(_game_count(request, access, game))
    shown.submitted = done
    return await _dashboard(request, access, forum_count=shown)

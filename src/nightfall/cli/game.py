"""``nightfall game …``: the game master runs a whole game from the terminal (issue 4).

Every command opens the event store (``--db``, default ``NIGHTFALL_DATABASE_URL`` or
``sqlite:///nightfall.db``), does one transaction through :class:`GameService` and exits:

* 0 on success,
* 1 when the rules reject the command (a localized reason is printed; nothing changed),
* 2 on bad usage, an unknown game or a database that cannot be opened.

The clock is the system clock; ``NIGHTFALL_NOW`` (an ISO time with offset, e.g.
``2024-03-01T18:00:00+01:00``) fixes it, for rehearsals and reproducible tests.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import secrets
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Annotated, Any, NoReturn
from zoneinfo import ZoneInfo

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from nightfall.engine import Rejected, SetupError, Text
from nightfall.engine import events as ev
from nightfall.engine.commands import GM_ACTIONS, Command
from nightfall.engine.text import N_, Term, TermNames, render_phase
from nightfall.i18n import SUPPORTED_LOCALES, gettext_for, known_zone, localize

if TYPE_CHECKING:
    from nightfall.engine import Game
    from nightfall.service import Clock, GameService
    from nightfall.store import GameMeta

EXIT_OK, EXIT_REJECTED, EXIT_USAGE = 0, 1, 2

game_app = typer.Typer(
    help="Run a game as its game master: create, sign up, deal, play, undo, inspect.",
    no_args_is_help=True, rich_markup_mode="markdown",
)

out = Console(soft_wrap=True, highlight=False)
err = Console(stderr=True, soft_wrap=True, highlight=False)

DbOption = Annotated[str | None, typer.Option(
    "--db", help="Database URL or SQLite file (default: NIGHTFALL_DATABASE_URL or "
                 "nightfall.db).",
    show_default=False)]
GameArg = Annotated[str, typer.Argument(help="The game's id (see `game list`).",
                                        metavar="GAME", show_default=False)]
LocaleOption = Annotated[str | None, typer.Option(
    help="Language of the texts (default: the game's).", show_default=False)]


class Usage(Exception):
    """Bad usage: exit 2 with this message."""


# -- opening the store and mapping errors to exit codes --------------------------------------
def _clock() -> Clock:
    from nightfall.service import FixedClock, SystemClock

    fixed = os.environ.get("NIGHTFALL_NOW")
    if not fixed:
        return SystemClock()
    try:
        moment = datetime.fromisoformat(fixed)
    except ValueError:
        raise Usage(f"NIGHTFALL_NOW={fixed!r} is not an ISO time") from None
    if moment.tzinfo is None:
        raise Usage(f"NIGHTFALL_NOW={fixed!r} needs a UTC offset, e.g. +01:00")
    return FixedClock(moment)


class Session:
    """The open store, the game a command works on, and the error handling of a command."""

    def __init__(self, db: str | None, game_id: str | None = None,
                 locale: str | None = None) -> None:
        self.db, self.game_id, self._locale = db, game_id, locale
        _check_locale(locale)
        self._service: GameService | None = None
        self._meta: GameMeta | None = None
        self._players: list[str] | None = None

    def __enter__(self) -> Session:
        try:
            self._open()
        except BaseException as error:
            self.__exit__(type(error), error, error.__traceback__)
            raise
        return self

    def _open(self) -> None:
        from sqlalchemy.exc import ArgumentError, NoSuchModuleError, OperationalError

        from nightfall.service import GameService
        from nightfall.store import database_url

        try:
            self._service = GameService(url=self.db, clock=_clock())
        except (ArgumentError, NoSuchModuleError, OperationalError, ValueError) as error:
            raise Usage(f"cannot open the database {database_url(self.db)}: "
                        f"{str(error).splitlines()[0]}") from None
        if self.game_id is not None:
            self._meta = self._service.meta(self.game_id)
            from nightfall.rulesets import get_ruleset

            get_ruleset(self._meta.ruleset)  # registers the rule set's term names for texts

    @property
    def service(self) -> GameService:
        assert self._service is not None
        return self._service

    def player(self, name: str) -> str:
        """The signed-up player ``name`` means, as the GM typed it: names are unique
        regardless of case (sign-up refuses "ann" beside "Ann"), so ``--by ann`` is Ann.
        A name that matches nobody is passed on as it is (the engine says why)."""
        if self._players is None:  # one load per command, however many names it takes
            self._players = list(self.service.load(self.gid).state.players)
        players = self._players
        if name in players:
            return name
        folded = [p for p in players if p.casefold() == name.strip().casefold()]
        return folded[0] if len(folded) == 1 else name

    def say(self, msgid: str, **params: Any) -> str:
        """``msgid`` (marked with ``N_``) in this command's language."""
        return localize(Text(msgid, params), self.locale)

    @property
    def meta(self) -> GameMeta:
        assert self._meta is not None and self.game_id is not None
        return self._meta

    @property
    def gid(self) -> str:
        assert self.game_id is not None
        return self.game_id

    @property
    def locale(self) -> str:
        if self._locale:
            return self._locale
        return self._meta.locale if self._meta is not None else "en"

    @property
    def tz(self) -> ZoneInfo | None:
        return known_zone(self._meta.options.get("timezone") if self._meta else None)

    def refresh(self) -> GameMeta:
        self._meta = self.service.meta(self.gid)
        return self._meta

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 _tb: TracebackType | None) -> None:
        if error is None or isinstance(error, (typer.Exit, typer.Abort, KeyboardInterrupt)):
            return
        from nightfall.store import ConcurrencyConflict, UnknownGame

        if isinstance(error, (Rejected, SetupError)):
            err.print("[red]rejected:[/red] " + escape(localize(error.reason, self.locale)))
            if error.reason.msgid.startswith("Too late") and self.game_id is not None:
                err.print("[dim]the deadline has passed: `nightfall game tick "
                          f"{escape(self.game_id)}` resolves the stage[/dim]")
            raise typer.Exit(EXIT_REJECTED) from None
        if isinstance(error, UnknownGame):
            err.print(f"[red]error:[/red] there is no game {escape(str(error))!s} in "
                      f"{escape(_shown_url(self.db))} (see `nightfall game list`)")
            raise typer.Exit(EXIT_USAGE) from None
        if isinstance(error, Usage):
            err.print("[red]error:[/red] " + escape(str(error)))
            raise typer.Exit(EXIT_USAGE) from None
        if isinstance(error, ConcurrencyConflict):
            err.print("[red]rejected:[/red] other writers kept changing the game; "
                      "nothing was applied, try again")
            raise typer.Exit(EXIT_REJECTED) from None


def _shown_url(db: str | None) -> str:
    from nightfall.store import database_url

    url = database_url(db)
    if "@" in url and "://" in url:  # hide a password
        scheme, rest = url.split("://", 1)
        url = f"{scheme}://…@{rest.rsplit('@', 1)[1]}"
    return url


def _check_locale(locale: str | None) -> None:
    if locale is not None and locale not in SUPPORTED_LOCALES:
        raise typer.BadParameter(f"choose one of {', '.join(SUPPORTED_LOCALES)}",
                                 param_hint="--locale")


def _fail(message: str, code: int = EXIT_REJECTED) -> NoReturn:
    err.print(("[red]rejected:[/red] " if code == EXIT_REJECTED else "[red]error:[/red] ")
              + escape(message))
    raise typer.Exit(code)


# -- rendering ---------------------------------------------------------------------------------
def _when(moment: datetime | None, tz: ZoneInfo | None = None) -> str:
    if moment is None:
        return "—"
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    if tz is not None:
        moment = moment.astimezone(tz)
    return moment.strftime("%a %Y-%m-%d %H:%M %Z").strip()


def _value(value: Any, locale: str, tz: ZoneInfo | None) -> str:
    if isinstance(value, Text):
        return localize(value, locale)
    if isinstance(value, Term):
        if value.domain == "phase":
            return render_phase(value.id, gettext_for(locale))
        return gettext_for(locale)(TermNames.msgid(value))
    if isinstance(value, datetime):
        return _when(value, tz)
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_value(v, locale, tz) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_value(v, locale, tz)}" for k, v in value.items()) + "}"
    return "—" if value is None else str(value)


def summary(event: ev.Event, locale: str, tz: ZoneInfo | None = None) -> str:
    """One line describing an event: its fields, texts localized, times in the game's zone."""
    if isinstance(event, ev.Announced):
        return f"{event.phase}: {localize(event.text, locale)}"
    if isinstance(event, ev.StepTraced):
        return f"{event.phase} step {event.number} {event.step} ({event.rule}), " \
               f"{len(event.lines)} line(s)"
    parts = []
    for field in dataclasses.fields(event):
        value = getattr(event, field.name)
        if value in (None, (), {}, "") or (field.name in ("standing", "skipped", "used")
                                           and value is False):
            continue
        parts.append(f"{field.name}={_value(value, locale, tz)}")
    return " ".join(parts)


def _report(events: Sequence[ev.Event], session: Session) -> None:
    """What the GM should know after a command: announcements, stage changes, the end."""
    locale, tz = session.locale, session.tz
    _ = gettext_for(locale)
    for event in events:
        if isinstance(event, ev.StageClosed):
            verb = "skipped" if event.skipped else "closed"
            out.print(f"[bold]{verb}:[/bold] {escape(render_phase(event.phase, _))}")
        elif isinstance(event, ev.Announced):
            out.print("  " + escape(localize(event.text, locale)))
        elif isinstance(event, ev.PlayerLeft):
            cause = _value(Term("cause", event.cause), locale, tz)
            out.print(f"  [yellow]left:[/yellow] {escape(event.player)} ({escape(cause)})")
        elif isinstance(event, ev.PhaseStarted) and event.kind not in ("signup", "ended"):
            out.print(f"[bold]now:[/bold] {escape(render_phase(event.label, _))}"
                      f" (deadline {_when(event.deadline, tz)})")
        elif isinstance(event, ev.DeadlineChanged):
            out.print(f"[bold]deadline:[/bold] {_when(event.deadline, tz)}")
        elif isinstance(event, ev.GameEnded):
            winner = _value(Term("faction", event.winner), locale, tz)
            out.print(f"[bold green]game over:[/bold green] {escape(winner)} won "
                      f"({escape(', '.join(event.winners) or '—')})")
        elif isinstance(event, ev.RolledBack):
            out.print(f"[bold]rolled back[/bold] to before the close of "
                      f"{escape(render_phase(event.phase, _))} (log position {event.to_seq})")


def _names(value: str | None) -> list[str]:
    return [part.strip() for part in (value or "").split(",") if part.strip()]


def _parse_value(raw: str, default: Any, key: str) -> Any:
    text = raw.strip()
    if isinstance(default, bool):
        lowered = text.casefold()
        if lowered in ("true", "yes", "on", "1"):
            return True
        if lowered in ("false", "no", "off", "0"):
            return False
        raise Usage(f"option {key} is true or false, not {raw!r}")
    if isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            raise Usage(f"option {key} is a whole number, not {raw!r}") from None
    if isinstance(default, float):
        try:
            return float(text)
        except ValueError:
            raise Usage(f"option {key} is a number, not {raw!r}") from None
    if isinstance(default, str):
        return text
    try:
        return json.loads(text)
    except ValueError:
        return text


def parse_options(pairs: Sequence[str], defaults: Mapping[str, Any]) -> dict[str, Any]:
    """``key=value`` pairs, each value read as the type of the option's default."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise Usage(f"--option wants key=value, not {pair!r}")
        if key not in defaults:
            known = ", ".join(sorted(defaults)) or "none"
            raise Usage(f"unknown option {key!r}; known: {known}")
        options[key] = _parse_value(raw, defaults[key], key)
    return options


# -- set-up --------------------------------------------------------------------------------------
@game_app.command("new")
def new(
    ruleset: Annotated[str, typer.Option(help="The rule set: changelings or island.",
                                         show_default=False)],
    seed: Annotated[int | None, typer.Option(
        help="Seed of every random draw (default: a random one).", show_default=False)] = None,
    locale: LocaleOption = None,
    title: Annotated[str, typer.Option(help="A title for `game list`.")] = "",
    option: Annotated[list[str] | None, typer.Option(
        "--option", help="A rule-set option, key=value (repeatable).", show_default=False)] = None,
    db: DbOption = None,
) -> None:
    """Create a game; prints its id and the GM's token."""
    from nightfall.rulesets import RULESET_IDS, get_ruleset

    with Session(db, locale=locale) as session:
        if ruleset not in RULESET_IDS:
            raise Usage(f"unknown rule set {ruleset!r}; choose one of {', '.join(RULESET_IDS)}")
        plugin = get_ruleset(ruleset)
        options = parse_options(option or [], plugin.default_options)
        try:
            plugin.check_options({**plugin.default_options, **options})
        except SetupError as error:
            raise Usage(f"--option: {localize(error.reason, locale or 'en')}") from None
        chosen_seed = seed if seed is not None else secrets.randbelow(2**31)
        created = session.service.create(ruleset, chosen_seed, options, locale, title)
        meta = session.service.meta(created.id)
        out.print(f"game: {created.id}")
        out.print(f"GM token: {created.gm_token}")
        out.print(f"[dim]{escape(ruleset)}, seed {chosen_seed}, locale {meta.locale}; "
                  "keep the token secret, it is the key of the GM's page[/dim]")


@game_app.command("list")
def list_games(db: DbOption = None) -> None:
    """The games in the database."""
    with Session(db) as session:
        games = session.service.store.list_games()
        if not games:
            out.print("no games yet (create one with `nightfall game new --ruleset …`)")
            return
        table = Table("id", "rule set", "title", "phase", "deadline", "events")
        for meta in games:
            phase = "game over" if meta.ended else meta.phase
            table.add_row(meta.id, meta.ruleset, escape(meta.title), phase,
                          _when(meta.next_deadline, known_zone(meta.options.get("timezone"))),
                          str(meta.head_seq))
        out.print(table)


@game_app.command("signup")
def signup(
    game: GameArg,
    name: Annotated[str, typer.Argument(help="The player's name.", metavar="NAME",
                                               show_default=False)],
    description: Annotated[str, typer.Option(help="The public description.")] = "",
    timezone: Annotated[str | None, typer.Option(
        help="The player's time zone, e.g. Europe/Berlin.", show_default=False)] = None,
    db: DbOption = None,
) -> None:
    """Sign a player up; prints the player's private token."""
    if timezone is not None and known_zone(timezone) is None:
        raise typer.BadParameter(f"unknown time zone {timezone!r}", param_hint="--timezone")
    with Session(db, game) as session:
        token = session.service.signup(session.gid, name, description, timezone)
        out.print(f"signed up: {escape(name.strip())}")
        out.print(f"player token: {token}")


@game_app.command("withdraw")
def withdraw(game: GameArg,
             name: Annotated[str, typer.Argument(help="The player's name.", metavar="NAME",
                                               show_default=False)],
             db: DbOption = None) -> None:
    """Take a player's sign-up back (before the roles are dealt)."""
    with Session(db, game) as session:
        session.service.withdraw(session.gid, name)
        out.print(f"withdrawn: {escape(name)}")


# -- private links -----------------------------------------------------------------------------
token_app = typer.Typer(
    help="Revoke or reissue private links (tokens): a player's, or the GM's own.",
    no_args_is_help=True, rich_markup_mode="markdown",
)
game_app.add_typer(token_app, name="token")
PlayerArg = Annotated[str | None, typer.Argument(
    help="The player's name (leave out with --gm).", metavar="[PLAYER]", show_default=False)]


@token_app.command("revoke")
def token_revoke(
    game: GameArg,
    name: Annotated[str, typer.Argument(help="The player's name.", metavar="PLAYER",
                                        show_default=False)],
    db: DbOption = None,
) -> None:
    """Revoke a player's private link without a new one: it answers 404 from now on, like
    an unknown link, until `game token reissue` gives him a new one."""
    with Session(db, game) as session:
        name = session.player(name)
        try:
            active = session.service.store.revoke_access(session.gid, name)
        except LookupError:
            _fail(session.say(N_("There is no player called {name}."), name=name))
        if active:
            out.print(f"revoked: the private link of {escape(name)} no longer works")
        else:
            out.print(f"{escape(name)} had no working link (nothing to revoke)")


@token_app.command("reissue")
def token_reissue(
    game: GameArg,
    name: PlayerArg = None,
    gm: Annotated[bool, typer.Option("--gm", help="Reissue the game master's own link.")
                  ] = False,
    db: DbOption = None,
) -> None:
    """Issue a new private link (its token is shown only now); the old one stops working."""
    if gm == (name is not None):
        raise typer.BadParameter("name a player or give --gm, not both and not neither")
    with Session(db, game) as session:
        name = session.player(name) if name is not None else None
        try:
            token = session.service.store.issue_token(session.gid, name)
        except LookupError:
            _fail(session.say(N_("There is no player called {name}."), name=name))
        if name is None:
            out.print(f"GM token: {token}")
        else:
            out.print(f"player token ({escape(name)}): {token}")
        out.print("[dim]shown only now (only its hash is stored); the old link no longer "
                  "works[/dim]")


def parse_assignment(value: str) -> dict[str, str]:
    roles: dict[str, str] = {}
    for part in value.split(","):
        if not part.strip():
            continue
        name, sep, role = part.partition("=")
        if not sep or not name.strip() or not role.strip():
            raise Usage(f"--assign wants Name=role pairs separated by commas, not {part!r}")
        roles[name.strip()] = role.strip()
    return roles


@game_app.command("setup")
def setup(
    game: GameArg,
    preset: Annotated[str | None, typer.Option(help="Deal a named preset at random.",
                                               show_default=False)] = None,
    roles: Annotated[str | None, typer.Option(
        help="Deal these roles at random: a,b,c (one per player).", show_default=False)] = None,
    assign: Annotated[str | None, typer.Option(
        help="Give each player a role by hand: Name=role,Name=role,...",
        show_default=False)] = None,
    db: DbOption = None,
) -> None:
    """Deal the roles (a preset, a role list, the default for the count) or assign them."""
    with Session(db, game) as session:
        if sum(x is not None for x in (preset, roles, assign)) > 1:
            raise Usage("give only one of --preset, --roles, --assign")
        if assign is not None:
            session.service.assign(session.gid, parse_assignment(assign))
        else:
            role_list = _names(roles) if roles is not None else None
            if roles is not None and not role_list:
                raise Usage("--roles wants a comma-separated list of roles")
            session.service.deal(session.gid, preset, role_list)
        state = session.service.load(session.gid).state
        table = Table("player", "role", title="roles (secret)")
        for player in state.players.values():
            role = _value(Term("role", player.role), session.locale, None) if player.role else "—"
            table.add_row(escape(player.name), f"{escape(role)} [dim]({player.role})[/dim]")
        out.print(table)
        out.print("next: `nightfall game start " + escape(session.gid) + "`")


@game_app.command("start")
def start(game: GameArg, db: DbOption = None) -> None:
    """Begin play after the roles are dealt."""
    with Session(db, game) as session:
        before = session.meta.head_seq
        session.service.start(session.gid)
        _report(session.service.store.events(session.gid)[before:], session)


# -- reading ------------------------------------------------------------------------------------
def _generic_status(state: Any, _: Callable[[str], str]) -> str:
    lines = []
    for record in state.history:
        running = record is state.history[-1] and not state.ended
        done = _("running") if running else _("finished")
        lines.append(f"{render_phase(record.label, _)}... {done}")
    if state.deadline is not None and not state.ended:
        lines.append(f"({_when(state.deadline)})")
    lines.append("")
    for player in state.players.values():
        line = f"{player.name}: {player.description}" if player.description else player.name
        if not player.alive and player.left_cause:
            line += f", {_(TermNames.msgid(Term('cause', player.left_cause)))}"
        lines.append(line)
    return "\n".join(lines)


def status_text(game: Game, locale: str) -> str:
    """The rule set's status post (``nightfall.rulesets.<id>.status_post``) or a plain one."""
    gettext = gettext_for(locale)
    try:
        module = importlib.import_module(f"nightfall.rulesets.{game.state.ruleset}.status_post")
        render: Callable[[Any, Callable[[str], str]], str] = module.status_post
    except (ImportError, AttributeError):
        return _generic_status(game.state, gettext)
    return render(game.state, gettext)


@game_app.command("status")
def status(
    game: GameArg,
    locale: LocaleOption = None,
    gm: Annotated[bool, typer.Option("--gm", help="Also show roles, awaited inputs and the "
                                                  "submissions so far (secret).")] = False,
    db: DbOption = None,
) -> None:
    """The status post (to paste into the thread)."""
    with Session(db, game, locale) as session:
        loaded = session.service.load(session.gid)
        out.print(status_text(loaded, session.locale), markup=False)
        if gm:
            _gm_overview(loaded, session)


def _gm_overview(game: Game, session: Session) -> None:
    state, locale, tz = game.state, session.locale, session.tz
    out.print()
    out.print(f"[bold]phase[/bold] {state.phase_label}, deadline {_when(state.deadline, tz)}")
    table = Table("player", "role", "in game", "statuses", title="players (secret)")
    for player in state.players.values():
        role = _value(Term("role", player.role), locale, tz) if player.role else "—"
        where = "yes" if player.alive else f"left {player.left_phase}: {player.left_cause}"
        table.add_row(escape(player.name), escape(role), escape(where),
                      escape(", ".join(sorted(player.statuses))))
    out.print(table)
    if state.phase.is_play():
        awaited = game.ruleset.awaiting_inputs(state)
        if awaited is None:
            out.print("awaiting: — (this stage never closes early)")
        else:
            shown = ", ".join(f"{p} ({slot})" for p, slot in sorted(awaited)) or "nothing"
            out.print(f"awaiting: {escape(shown)}")
    for (name, slot), sub in sorted(state.submissions.items()):
        extra = " ".join(x for x in (", ".join(sub.targets), sub.choice or "", sub.text or "")
                         if x)
        out.print(f"  {name} [{slot}] {sub.action} {extra}".rstrip(), markup=False)


# -- play ------------------------------------------------------------------------------------------
@game_app.command("submit")
def submit(
    game: GameArg,
    action: Annotated[str, typer.Argument(
        help="The action, e.g. vote, abduct, investigate.", metavar="ACTION",
        show_default=False)],
    by: Annotated[str, typer.Option("--by", help="The player acting.", show_default=False)],
    target: Annotated[str | None, typer.Option(help="The target player.",
                                               show_default=False)] = None,
    targets: Annotated[str | None, typer.Option(help="Several targets: X,Y.",
                                                show_default=False)] = None,
    choice: Annotated[str | None, typer.Option(help="A role, item or yes/no.",
                                               show_default=False)] = None,
    text: Annotated[str | None, typer.Option(help="A free text.", show_default=False)] = None,
    db: DbOption = None,
) -> None:
    """Submit a command on behalf of a player (for GMs who still take PMs)."""
    with Session(db, game) as session:
        if action in GM_ACTIONS:
            raise Usage(f"{action!r} is a GM act: use `nightfall game "
                        f"{'close' if action == 'advance' else action} …`")
        if target is not None and targets is not None:
            raise Usage("give --target or --targets, not both")
        if action in _ruleset(session).gm_actions:
            raise Usage(f"{action!r} is a GM act: use `nightfall game act GAME {action} …`")
        by = session.player(by)
        target = session.player(target) if target is not None else None
        command = Command(action, by=by, target=target,
                          targets=tuple(session.player(t) for t in _names(targets)),
                          choice=choice, text=text)
        events = session.service.submit(session.gid, command)
        shown = " ".join(x for x in (", ".join(command.all_targets), choice or "") if x)
        out.print(f"accepted: {escape(by)} {escape(action)} {escape(shown)}".rstrip())
        _report(events, session)


def _ruleset(session: Session) -> Any:
    from nightfall.rulesets import get_ruleset

    return get_ruleset(session.meta.ruleset)


def _gm(session: Session, action: str, **fields: Any) -> None:
    events = session.service.gm(session.gid, action, **fields)
    _report(events, session)


@game_app.command("close")
def close(game: GameArg, db: DbOption = None) -> None:
    """Close the current stage now: resolve it and begin the next."""
    with Session(db, game) as session:
        _gm(session, "advance")


@game_app.command("extend")
def extend(game: GameArg,
           minutes: Annotated[int, typer.Argument(help="Minutes to add.", metavar="MINUTES",
                                                  show_default=False)],
           db: DbOption = None) -> None:
    """Move the current deadline later."""
    with Session(db, game) as session:
        _gm(session, "extend", minutes=minutes)


@game_app.command("shorten")
def shorten(game: GameArg,
            minutes: Annotated[int, typer.Argument(help="Minutes to take off.", metavar="MINUTES",
                                                   show_default=False)],
            db: DbOption = None) -> None:
    """Move the current deadline earlier (`game tick` resolves it once it has passed)."""
    with Session(db, game) as session:
        _gm(session, "shorten", minutes=minutes)


@game_app.command("skip")
def skip(game: GameArg, db: DbOption = None) -> None:
    """End the current stage without resolving anything planned in it."""
    with Session(db, game) as session:
        _gm(session, "skip")


@game_app.command("modkill")
def modkill(
    game: GameArg,
    name: Annotated[str, typer.Argument(help="The player to remove.", metavar="NAME",
                                        show_default=False)],
    reason: Annotated[str | None, typer.Option(help="Why (kept in the log).",
                                               show_default=False)] = None,
    db: DbOption = None,
) -> None:
    """Remove a player from the game (the rule set's departure cascades follow)."""
    with Session(db, game) as session:
        _gm(session, "modkill", target=session.player(name), text=reason)


@game_app.command("act")
def act(
    game: GameArg,
    action: Annotated[str, typer.Argument(help="The rule set's GM act.", metavar="ACTION",
                                          show_default=False)],
    target: Annotated[str | None, typer.Option(help="A player.", show_default=False)] = None,
    choice: Annotated[str | None, typer.Option(help="A choice.", show_default=False)] = None,
    text: Annotated[str | None, typer.Option(help="A text.", show_default=False)] = None,
    db: DbOption = None,
) -> None:
    """A GM act of the rule set's own (e.g. an Island event); see the rule set's docs."""
    with Session(db, game) as session:
        known = sorted(_ruleset(session).gm_actions)
        if action not in known:
            raise Usage(f"{session.meta.ruleset} has no GM act {action!r}; "
                        f"known: {', '.join(known) or 'none'}")
        _gm(session, action, target=target, choice=choice, text=text)


@game_app.command("undo")
def undo(game: GameArg, db: DbOption = None) -> None:
    """Roll back to just before the last stage closed (appends a roll-back event)."""
    with Session(db, game) as session:
        events = session.service.undo(session.gid)
        _report(events, session)
        out.print("the stage is open again without a deadline: `game close` or `game extend`")


@game_app.command("tick")
def tick(
    game: Annotated[str | None, typer.Argument(help="The game's id.", metavar="[GAME]",
                                              show_default=False)] = None,
    all_games: Annotated[bool, typer.Option("--all", help="Every game whose deadline "
                                                          "has passed.")] = False,
    db: DbOption = None,
) -> None:
    """Resolve deadlines that have passed, in order (the scheduler does this by itself)."""
    if (game is None) == (not all_games):
        raise typer.BadParameter("name a game or give --all, not both and not neither")
    with Session(db, game) as session:
        if all_games:
            done = session.service.tick_due()
            if not done:
                out.print("no deadline has passed")
            for game_id, count in done.items():
                out.print(f"{game_id}: {count} event(s)")
            return
        events = session.service.tick(session.gid)
        if not events:
            meta = session.refresh()
            out.print(f"nothing due (deadline {_when(meta.next_deadline, session.tz)})")
        _report(events, session)


# -- the log ---------------------------------------------------------------------------------------
@game_app.command("trace")
def trace(
    game: GameArg,
    phase: Annotated[str | None, typer.Option(
        help='The stage, e.g. "night 1/2" or "day 2" ("night 1": both stages); '
             "default: the last resolved one.", show_default=False)] = None,
    locale: LocaleOption = None,
    db: DbOption = None,
) -> None:
    """The resolution trace of a stage, step by step."""
    with Session(db, game, locale) as session:
        traces = session.service.load(session.gid).state.traces
        labels = list(dict.fromkeys(t.phase for t in traces))
        if not labels:
            _fail(session.say(N_("Nothing has been resolved yet.")))
        wanted = phase.strip() if phase else labels[-1]
        chosen = [label for label in labels
                  if label == wanted or label.startswith(wanted + "/")]
        if not chosen:
            _fail(session.say(N_("No resolution of {phase} to show; resolved so far: "
                                 "{phases}."), phase=wanted, phases=", ".join(labels)),
                  EXIT_USAGE)
        _ = gettext_for(session.locale)
        for label in chosen:
            out.print(f"[bold]{escape(label)}[/bold] ({escape(render_phase(label, _))})")
            for step in (t for t in traces if t.phase == label):
                title = _(TermNames.msgid(Term("step", step.step)))
                out.print(f"  step {step.number}  {escape(step.step)}  {escape(title)}  "
                          f"[dim]{step.rule}[/dim]")
                for line in step.lines:
                    out.print("      " + escape(localize(line, session.locale)))
                if not step.lines:
                    out.print("      [dim]—[/dim]")


def export_document(session: Session) -> dict[str, Any]:
    """The game's whole log as JSON data (events encoded by ``nightfall.store.codec``)."""
    from nightfall.store import codec

    meta = session.meta
    rows = session.service.store.raw_events(session.gid)
    return {
        "format": "nightfall-log",
        "version": 1,
        "game": {"id": meta.id, "ruleset": meta.ruleset, "seed": meta.seed,
                 "locale": meta.locale, "title": meta.title, "options": meta.options},
        "events": [_encoded_row(row, codec) for row in rows],
    }


def _encoded_row(row: Mapping[str, Any], codec: Any) -> dict[str, Any]:
    event = codec.decode(row["type"], row["version"], row["payload"])
    type_name, version, payload = codec.encode(event)
    recorded = row["recorded_at"]
    if isinstance(recorded, datetime) and recorded.tzinfo is None:
        recorded = recorded.replace(tzinfo=UTC)
    return {"seq": row["seq"], "type": type_name, "version": version,
            "audience": row["audience"],
            "recorded_at": recorded.isoformat() if isinstance(recorded, datetime) else None,
            "payload": payload}


@game_app.command("log")
def log(
    game: GameArg,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per event.")] = False,
    tail: Annotated[int | None, typer.Option(help="Only the last N events.", min=1,
                                             show_default=False)] = None,
    locale: LocaleOption = None,
    db: DbOption = None,
) -> None:
    """The event log: every event with its position, type and audience."""
    from nightfall.store import codec

    with Session(db, game, locale) as session:
        rows = session.service.store.raw_events(session.gid)
        if tail is not None:
            rows = rows[-tail:]
        for row in rows:
            if as_json:
                print(json.dumps(_encoded_row(row, codec), ensure_ascii=False, default=str))
                continue
            event = codec.decode(row["type"], row["version"], row["payload"])
            out.print(f"{row['seq']:>5}  [bold]{event.type_name}[/bold]  "
                      f"[dim]{escape(row['audience'])}[/dim]  "
                      + escape(summary(event, session.locale, session.tz)))


@game_app.command("export")
def export(
    game: GameArg,
    output: Annotated[Path | None, typer.Option(
        help="Write to this file (default: print).", show_default=False)] = None,
    db: DbOption = None,
) -> None:
    """The whole event log as one JSON document."""
    with Session(db, game) as session:
        text = json.dumps(export_document(session), ensure_ascii=False, indent=1, default=str)
        if output is None:
            print(text)
            return
        try:
            output.write_text(text + "\n", encoding="utf-8")
        except OSError as error:
            raise Usage(f"cannot write {output}: {error.strerror}") from None
        out.print(f"wrote {session.meta.head_seq} events to {escape(str(output))}")


@game_app.command("replay")
def replay(game: GameArg, db: DbOption = None) -> None:
    """Rebuild the game from its whole log and compare with the stored state."""
    from nightfall.engine import Game

    with Session(db, game) as session:
        stored = session.service.load(session.gid)
        try:
            rebuilt = Game.from_events(stored.ruleset, session.service.store.events(session.gid))
        except Exception as error:  # a log that no longer folds is a failed replay
            _fail(f"the log does not replay: {type(error).__name__}: {error}")
        if rebuilt.state == stored.state:
            out.print(f"identical: {rebuilt.seq} events replay to the stored state "
                      f"({stored.state.phase_label})")
            return
        differing = [f.name for f in dataclasses.fields(stored.state)
                     if getattr(stored.state, f.name) != getattr(rebuilt.state, f.name)]
        _fail("the replayed log differs from the stored state in: " + ", ".join(differing))

"""``nightfall game …``: the game master runs a whole game from the terminal (issue 4).

Every command opens the event store (``--db``, default ``NIGHTFALL_DATABASE_URL`` or
``sqlite:///nightfall.db``), does one transaction through :class:`GameService` and exits:

* 0 on success,
* 1 when the rules reject the command (a localized reason is printed; nothing changed),
* 2 on bad usage, an unknown game or a database that cannot be opened.

The clock is the system clock; ``NIGHTFALL_NOW`` (an ISO time with offset, e.g.
``2024-03-01T18:00:00+01:00``) fixes it, for rehearsals and reproducible tests.

Everything a command prints about a game is in the game's language (``--locale`` where a
command takes it): the engine's texts and the command's own words alike, which are
English msgids marked with ``N_`` in this file and translated in the Babel catalogs. A
command about no game (``list``, ``tick --all``, an unknown game) speaks ``--locale`` or
English, as ``simulate`` does. Ids stay as they are: game ids, tokens, event types and
field names, action and role ids (what the GM types), and the JSON of ``log --json`` and
``export``.
"""

from __future__ import annotations

import contextlib
import dataclasses
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
from babel.dates import format_date
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from nightfall.engine import Rejected, SetupError, Text
from nightfall.engine import events as ev
from nightfall.engine.commands import GM_ACTIONS, Command
from nightfall.engine.text import N_, Term, TermNames, render_phase
from nightfall.i18n import SUPPORTED_LOCALES, gettext_for, known_zone, localize
from nightfall.links import gm_link, player_link, signup_link

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
    """Bad usage: exit 2 with this message (an ``N_`` msgid and its parameters), shown in
    the language of the command, which is known only once the game is loaded."""

    def __init__(self, msgid: str, **params: Any) -> None:
        self.text = Text(msgid, params)
        super().__init__(localize(self.text, "en"))


# -- opening the store and mapping errors to exit codes --------------------------------------
def _clock() -> Clock:
    from nightfall.service import FixedClock, SystemClock

    fixed = os.environ.get("NIGHTFALL_NOW")
    if not fixed:
        return SystemClock()
    try:
        moment = datetime.fromisoformat(fixed)
    except ValueError:
        raise Usage(N_("NIGHTFALL_NOW={value} is not an ISO time"), value=repr(fixed)) from None
    if moment.tzinfo is None:
        raise Usage(N_("NIGHTFALL_NOW={value} needs a UTC offset, e.g. +01:00"),
                    value=repr(fixed))
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
        self._scope = contextlib.ExitStack()

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
            raise Usage(N_("cannot open the database {url}: {reason}"),
                        url=database_url(self.db), reason=str(error).splitlines()[0]) from None
        if self.game_id is not None:
            self._meta = self._service.meta(self.game_id)
            # registers the rule set's term names for texts: a game's rule file by the
            # hash it recorded (never by the id inside the file), else its plugin; the
            # command's output names them as the game's rule set titles them (issue 20)
            ruleset = self._service.store.ruleset_of(self._meta)
            self._scope.enter_context(TermNames.scoped(ruleset.term_scope))

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
        return localize(Text(msgid, params), self.locale, self.tz)

    def label(self, msgid: str) -> str:
        """A bold ``label:`` (marked with ``N_``) in this command's language, as markup."""
        return f"[bold]{escape(self.say(msgid))}[/bold]"

    def when(self, moment: datetime | None) -> str:
        """A moment in the game's time zone, its weekday in this command's language."""
        return _when(moment, self.tz, self.locale)

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
        try:
            self._handle(error)
        finally:
            self._scope.close()

    def _handle(self, error: BaseException | None) -> None:
        """A command's failure as its message in the command's language (exit 1 or 2)."""
        if error is None or isinstance(error, (typer.Exit, typer.Abort, KeyboardInterrupt)):
            return
        from nightfall.store import ConcurrencyConflict, UnknownGame

        if isinstance(error, (Rejected, SetupError)):
            self.fail(localize(error.reason, self.locale, self.tz), EXIT_REJECTED,
                      hint=self.say(N_("the deadline has passed: `nightfall game tick "
                                       "{game}` resolves the stage"), game=self.game_id)
                      if error.reason.msgid.startswith("Too late") and self.game_id else None)
        if isinstance(error, UnknownGame):
            self.fail(self.say(N_("there is no game {game} in {db} (see `nightfall game "
                                  "list`)"), game=str(error), db=_shown_url(self.db)),
                      EXIT_USAGE)
        if isinstance(error, Usage):
            self.fail(localize(error.text, self.locale, self.tz), EXIT_USAGE)
        if isinstance(error, ConcurrencyConflict):
            self.fail(self.say(N_("other writers kept changing the game; nothing was "
                                  "applied, try again")), EXIT_REJECTED)

    def fail(self, message: str, code: int = EXIT_REJECTED, hint: str | None = None) -> NoReturn:
        """``rejected: …`` (exit 1) or ``error: …`` (exit 2), in this command's language."""
        _fail(message, self.locale, code, hint)


def _shown_url(db: str | None) -> str:
    from nightfall.store import database_url

    url = database_url(db)
    if "@" in url and "://" in url:  # hide a password
        scheme, rest = url.split("://", 1)
        url = f"{scheme}://…@{rest.rsplit('@', 1)[1]}"
    return url


def _fail(message: str, locale: str, code: int = EXIT_REJECTED,
          hint: str | None = None) -> NoReturn:
    """``rejected: …`` (exit 1) or ``error: …`` (exit 2) on stderr, the label in
    ``locale``, with an optional dimmed hint below it."""
    prefix = localize(Text(N_("rejected:") if code == EXIT_REJECTED else N_("error:"), {}),
                      locale)
    err.print(f"[red]{escape(prefix)}[/red] {escape(message)}")
    if hint:
        err.print(f"[dim]{escape(hint)}[/dim]")
    raise typer.Exit(code) from None


def _check_locale(locale: str | None) -> None:
    if locale is not None and locale not in SUPPORTED_LOCALES:
        raise typer.BadParameter(f"choose one of {', '.join(SUPPORTED_LOCALES)}",
                                 param_hint="--locale")


# -- rendering ---------------------------------------------------------------------------------
def _when(moment: datetime | None, tz: ZoneInfo | None = None, locale: str = "en") -> str:
    """``Sat 2024-03-02 19:30 CET``: the weekday in ``locale`` (``Sa.``, ``сб``), the rest
    the same in every language (ISO date, 24-hour time, the zone's abbreviation)."""
    if moment is None:
        return "—"
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    if tz is not None:
        moment = moment.astimezone(tz)
    weekday = format_date(moment, "EEE", locale=locale)
    return f"{weekday} {moment.strftime('%Y-%m-%d %H:%M %Z').strip()}"


def _value(value: Any, locale: str, tz: ZoneInfo | None) -> str:
    if isinstance(value, Text):
        return localize(value, locale)
    if isinstance(value, Term):
        if value.domain == "phase":
            return render_phase(value.id, gettext_for(locale))
        return gettext_for(locale)(TermNames.msgid(value))
    if isinstance(value, datetime):
        return _when(value, tz, locale)
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
        return localize(Text(N_("{phase} step {number} {step} ({rule}), {count} line(s)"),
                             {"phase": event.phase, "number": event.number, "step": event.step,
                              "rule": event.rule, "count": len(event.lines)}), locale)
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
    locale, tz, say = session.locale, session.tz, session.say
    _ = gettext_for(locale)
    for event in events:
        if isinstance(event, ev.StageClosed):
            verb = N_("skipped:") if event.skipped else N_("closed:")
            out.print(f"{session.label(verb)} {escape(render_phase(event.phase, _))}")
        elif isinstance(event, ev.Announced):
            out.print("  " + escape(localize(event.text, locale, tz)))
        elif isinstance(event, ev.PlayerLeft):
            cause = _value(Term("cause", event.cause), locale, tz)
            out.print("  [yellow]" + escape(say(N_("left:"))) + "[/yellow] "
                      + escape(f"{event.player} ({cause})"))
        elif isinstance(event, ev.PhaseStarted) and event.kind not in ("signup", "ended"):
            out.print(session.label(N_("now:")) + " " + escape(say(
                N_("{phase} (deadline {deadline})"), phase=render_phase(event.label, _),
                deadline=session.when(event.deadline))))
        elif isinstance(event, ev.DeadlineChanged):
            out.print(session.label(N_("deadline:")) + " " + escape(session.when(event.deadline)))
        elif isinstance(event, ev.GameEnded):
            winner = _value(Term("faction", event.winner), locale, tz)
            out.print("[bold green]" + escape(say(N_("game over:"))) + "[/bold green] "
                      + escape(say(N_("{faction} won ({players})"), faction=winner,
                                   players=", ".join(event.winners) or "—")))
        elif isinstance(event, ev.RolledBack):
            out.print(escape(say(N_("rolled back to before the close of {phase} (log "
                                    "position {seq})"), phase=render_phase(event.phase, _),
                                 seq=event.to_seq)))


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
        raise Usage(N_("option {key} is true or false, not {value}"), key=key, value=repr(raw))
    if isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            raise Usage(N_("option {key} is a whole number, not {value}"), key=key,
                        value=repr(raw)) from None
    if isinstance(default, float):
        try:
            return float(text)
        except ValueError:
            raise Usage(N_("option {key} is a number, not {value}"), key=key,
                        value=repr(raw)) from None
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
            raise Usage(N_("--option wants key=value, not {value}"), value=repr(pair))
        if key not in defaults:
            if defaults:
                raise Usage(N_("unknown option {key}; known: {known}"), key=repr(key),
                            known=", ".join(sorted(defaults)))
            raise Usage(N_("unknown option {key}; this rule set has none"), key=repr(key))
        options[key] = _parse_value(raw, defaults[key], key)
    return options


# -- set-up --------------------------------------------------------------------------------------
@game_app.command("new")
def new(
    ruleset: Annotated[str | None, typer.Option(
        help="The rule set: changelings or island (or give --rules).",
        show_default=False)] = None,
    rules: Annotated[Path | None, typer.Option(
        "--rules", help="A rule file (YAML, nightfall-rules/1; docs/rules-format.md): "
                        "checked as `nightfall rules check` does, then stored with the game.",
        show_default=False)] = None,
    seed: Annotated[int | None, typer.Option(
        help="Seed of every random draw (default: a random one).", show_default=False)] = None,
    locale: Annotated[str | None, typer.Option(
        help="The game's language: de, en or ru (default: de for changelings, ru for "
             "island, a rule file's first language).",
        show_default=False)] = None,
    title: Annotated[str, typer.Option(help="A title for `game list`.")] = "",
    option: Annotated[list[str] | None, typer.Option(
        "--option", help="A rule-set option, key=value (repeatable).", show_default=False)] = None,
    db: DbOption = None,
) -> None:
    """Create a game; prints its id and the GM's token."""
    from nightfall.i18n import default_locale
    from nightfall.rulesets import RULESET_IDS, get_ruleset

    # the game's language from the first word on (an unknown rule set has none: --locale/en)
    language = locale or (default_locale(ruleset) if ruleset in RULESET_IDS else None)
    with Session(db, locale=language) as session:
        if rules is not None:
            if ruleset is not None:
                raise Usage(N_("give --ruleset or --rules, not both"))
            _new_from_rules(session, rules, seed, locale, title, option or [])
            return
        if ruleset not in RULESET_IDS:
            raise Usage(N_("unknown rule set {ruleset}; choose one of {choices}"),
                        ruleset=repr(ruleset), choices=", ".join(RULESET_IDS))
        plugin = get_ruleset(ruleset)
        options = parse_options(option or [], plugin.choosable_options())
        try:
            plugin.check_options({**plugin.default_options, **options})
        except SetupError as error:
            session.fail(f"--option: {localize(error.reason, session.locale)}", EXIT_USAGE)
        chosen_seed = seed if seed is not None else secrets.randbelow(2**31)
        created = session.service.create(ruleset, chosen_seed, options, locale, title)
        _print_created(session, created.id, created.gm_token, ruleset, chosen_seed)


def _new_from_rules(session: Session, path: Path, seed: int | None, locale: str | None,
                    title: str, pairs: Sequence[str]) -> None:
    """``game new --rules FILE``: the file checked by the same checker as the web's
    upload (``GameService.check_rules``: exit 2 with every problem by key and line, and
    nothing stored), then the game created with it, the file stored by its hash."""
    from nightfall.service import RulesRefused
    from nightfall.service.rules import RULE_FILE_LIMIT

    try:
        with path.open("rb") as stream:
            data = stream.read(RULE_FILE_LIMIT + 1)
    except OSError as error:
        raise Usage(N_("cannot read {file}: {reason}"), file=str(path),
                    reason=error.strerror or str(error)) from None
    check = session.service.check_rules(data, str(path))
    if check.rules is None:
        _print_problems(session, str(path), check.problems)
    rules = check.rules
    defaults = rules.choosable_options()
    options = parse_options(pairs, defaults)
    chosen_seed = seed if seed is not None else secrets.randbelow(2**31)
    try:
        created = session.service.create_from_rules(data, chosen_seed, options, locale, title,
                                                    name=str(path))
    except RulesRefused as refused:  # changed since the check (another GM's file)
        _print_problems(session, str(path), refused.check.problems)
    except SetupError as error:
        session.fail(f"--option: {localize(error.reason, session.locale)}", EXIT_USAGE)
    _print_created(session, created.id, created.gm_token, rules.id, chosen_seed)
    out.print("[dim]" + escape(session.say(N_("rule file {file}, sha256 {sha256}"),
                                           file=str(path), sha256=check.sha256)) + "[/dim]")


def _print_problems(session: Session, file: str, problems: Sequence[Any]) -> NoReturn:
    """Every problem of a refused rule file, ``FILE:LINE: key 'KEY': message`` as
    ``nightfall rules check`` prints them; exit 2."""
    for problem in problems:
        line = f":{problem.line}" if problem.line else ""
        err.print(f"{file}{line}: " + session.say(N_("key {key}: {message}"),
                                                  key=repr(problem.key),
                                                  message=localize(problem.message,
                                                                   session.locale)),
                  markup=False)
    err.print(session.say(N_("{count} error(s); nothing was created"), count=len(problems)),
              markup=False)
    raise typer.Exit(EXIT_USAGE)


def _print_created(session: Session, game_id: str, gm_token: str, ruleset: str,
                   seed: int) -> None:
    meta = session.service.meta(game_id)
    out.print(session.say(N_("game: {game}"), game=game_id), markup=False)
    out.print(session.say(N_("GM token: {token}"), token=gm_token), markup=False)
    out.print(session.say(N_("GM page: {url}"), url=gm_link(gm_token)), markup=False)
    out.print(session.say(N_("sign-up page: {url}"), url=signup_link(game_id)), markup=False)
    out.print("[dim]" + escape(session.say(
        N_("{ruleset}, seed {seed}, language {locale}; keep the token secret, it is the "
           "key of the GM's page"), ruleset=ruleset, seed=seed,
        locale=meta.locale)) + "[/dim]")


#: ``--locale`` of the commands about no single game (as ``simulate``'s: English by default).
OutputLocaleOption = Annotated[str, typer.Option(
    help="Language of the output: de, en or ru.")]


@game_app.command("list")
def list_games(locale: OutputLocaleOption = "en", db: DbOption = None) -> None:
    """The games in the database."""
    with Session(db, locale=locale) as session:
        games = session.service.store.list_games()
        say, _ = session.say, gettext_for(locale)
        if not games:
            out.print(escape(say(N_("no games yet (create one with `nightfall game new "
                                    "--ruleset …`)"))))
            return
        table = Table(*(say(heading) for heading in (
            N_("id"), N_("rule set"), N_("title"), N_("phase"), N_("deadline"), N_("events"))))
        for meta in games:
            phase = say(N_("game over")) if meta.ended else render_phase(meta.phase, _)
            table.add_row(meta.id, meta.ruleset, escape(meta.title), escape(phase),
                          _when(meta.next_deadline, known_zone(meta.options.get("timezone")),
                                locale),
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
    email: Annotated[str | None, typer.Option(
        help="His e-mail address (you vouch for it: no confirmation); his link is mailed.",
        show_default=False)] = None,
    db: DbOption = None,
) -> None:
    """Sign a player up; prints the player's private token."""
    from nightfall.notify.contacts import BadContact

    with Session(db, game) as session:
        if timezone is not None and known_zone(timezone) is None:
            session.fail("--timezone: " + session.say(N_("unknown time zone {zone}"),
                                                      zone=repr(timezone)), EXIT_USAGE)
        try:
            token = session.service.signup(session.gid, name, description, timezone,
                                           email=email, vouched=True)
        except BadContact as bad:
            session.fail("--email: " + localize(bad.text, session.locale), EXIT_USAGE)
        out.print(session.say(N_("signed up: {name}"), name=name.strip()), markup=False)
        out.print(session.say(N_("player token: {token}"), token=token), markup=False)
        out.print(session.say(N_("private page: {url}"), url=player_link(token)),
                  markup=False)


@game_app.command("withdraw")
def withdraw(game: GameArg,
             name: Annotated[str, typer.Argument(help="The player's name.", metavar="NAME",
                                               show_default=False)],
             db: DbOption = None) -> None:
    """Take a player's sign-up back (before the roles are dealt)."""
    with Session(db, game) as session:
        session.service.withdraw(session.gid, name)
        out.print(session.say(N_("withdrawn: {name}"), name=name), markup=False)


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
            session.fail(session.say(N_("There is no player called {name}."), name=name))
        if active:
            out.print(session.say(N_("revoked: the private link of {name} no longer works"),
                                  name=name), markup=False)
        else:
            out.print(session.say(N_("{name} had no working link (nothing to revoke)"),
                                  name=name), markup=False)


@token_app.command("reissue")
def token_reissue(
    game: GameArg,
    name: PlayerArg = None,
    gm: Annotated[bool, typer.Option("--gm", help="Reissue the game master's own link.")
                  ] = False,
    db: DbOption = None,
) -> None:
    """Issue a new private link (its token is shown only now); the old one stops working."""
    with Session(db, game) as session:
        if gm == (name is not None):
            raise Usage(N_("name a player or give --gm, not both and not neither"))
        name = session.player(name) if name is not None else None
        try:
            token = (session.service.store.issue_token(session.gid, None) if name is None
                     else session.service.notifications.reissue(session.gid, name))
        except LookupError:
            session.fail(session.say(N_("There is no player called {name}."), name=name))
        if name is None:
            out.print(session.say(N_("GM token: {token}"), token=token), markup=False)
            out.print(session.say(N_("GM page: {url}"), url=gm_link(token)), markup=False)
        else:
            out.print(session.say(N_("player token ({name}): {token}"), name=name, token=token),
                      markup=False)
            out.print(session.say(N_("private page: {url}"), url=player_link(token)),
                      markup=False)
        out.print("[dim]" + escape(session.say(N_("shown only now (only its hash is stored); "
                                                  "the old link no longer works"))) + "[/dim]")


# -- observers (Island I6.7) ------------------------------------------------------------------
observer_app = typer.Typer(
    help="Observer links: let somebody who does not play read and chat in the thread "
         "(where the rule set allows it, Island I6.7).",
    no_args_is_help=True, rich_markup_mode="markdown",
)
game_app.add_typer(observer_app, name="observer")
ObserverArg = Annotated[str, typer.Argument(help="The observer's name.", metavar="NAME",
                                            show_default=False)]


@observer_app.command("add")
def observer_add(game: GameArg, name: ObserverArg, db: DbOption = None) -> None:
    """Let an observer in; prints his private link's token (shown only now). He posts in
    the thread marked as an observer, sees what everybody sees and never votes or acts."""
    with Session(db, game) as session:
        token = session.service.admit_observer(session.gid, name)
        out.print(session.say(N_("observer token ({name}): {token}"), name=name.strip(),
                              token=token), markup=False)
        out.print("[dim]" + escape(session.say(N_(
            "shown only now (only its hash is stored); the page is /o/TOKEN"))) + "[/dim]")


@observer_app.command("revoke")
def observer_revoke(game: GameArg, name: ObserverArg, db: DbOption = None) -> None:
    """Revoke an observer's link: it answers 404 from now on, until `reissue`."""
    with Session(db, game) as session:
        try:
            active = session.service.store.revoke_access(session.gid, name, observer=True)
        except LookupError:
            session.fail(session.say(N_("There is no observer called {name}."), name=name))
        if active:
            out.print(session.say(N_("revoked: the observer link of {name} no longer works"),
                                  name=name), markup=False)
        else:
            out.print(session.say(N_("{name} had no working link (nothing to revoke)"),
                                  name=name), markup=False)


@observer_app.command("reissue")
def observer_reissue(game: GameArg, name: ObserverArg, db: DbOption = None) -> None:
    """Issue a new link for an observer (shown only now); the old one stops working."""
    with Session(db, game) as session:
        try:
            token = session.service.store.issue_token(session.gid, name, observer=True)
        except LookupError:
            session.fail(session.say(N_("There is no observer called {name}."), name=name))
        out.print(session.say(N_("observer token ({name}): {token}"), name=name,
                              token=token), markup=False)
        out.print("[dim]" + escape(session.say(N_("shown only now (only its hash is stored); "
                                                  "the old link no longer works"))) + "[/dim]")


@observer_app.command("list")
def observer_list(game: GameArg, db: DbOption = None) -> None:
    """The game's observers and whether each one's link works."""
    with Session(db, game) as session:
        links = session.service.store.observer_links(session.gid)
        names = session.service.load(session.gid).state.observers
        if not names:
            out.print(session.say(N_("no observers")), markup=False)
        for observer in names:
            out.print(session.say(N_("{name}: link works") if links.get(observer)
                                  else N_("{name}: no working link"), name=observer),
                      markup=False)


def parse_assignment(value: str) -> dict[str, str]:
    roles: dict[str, str] = {}
    for part in value.split(","):
        if not part.strip():
            continue
        name, sep, role = part.partition("=")
        if not sep or not name.strip() or not role.strip():
            raise Usage(N_("--assign wants Name=role pairs separated by commas, not {value}"),
                        value=repr(part))
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
            raise Usage(N_("give only one of --preset, --roles, --assign"))
        if assign is not None:
            session.service.assign(session.gid, parse_assignment(assign))
        else:
            role_list = _names(roles) if roles is not None else None
            if roles is not None and not role_list:
                raise Usage(N_("--roles wants a comma-separated list of roles"))
            session.service.deal(session.gid, preset, role_list)
        state = session.service.load(session.gid).state
        say = session.say
        table = Table(say(N_("player")), say(N_("role")), title=say(N_("roles (secret)")))
        for player in state.players.values():
            role = _value(Term("role", player.role), session.locale, None) if player.role else "—"
            table.add_row(escape(player.name), f"{escape(role)} [dim]({player.role})[/dim]")
        out.print(table)
        out.print(escape(say(N_("next: `nightfall game start {game}`"), game=session.gid)))


@game_app.command("start")
def start(game: GameArg, db: DbOption = None) -> None:
    """Begin play after the roles are dealt."""
    with Session(db, game) as session:
        before = session.meta.head_seq
        session.service.start(session.gid)
        _report(session.service.store.events(session.gid)[before:], session)


# -- reading ------------------------------------------------------------------------------------
def _generic_status(state: Any, _: Callable[[str], str], locale: str) -> str:
    lines = []
    for record in state.history:
        running = record is state.history[-1] and not state.ended
        done = _("running") if running else _("finished")
        lines.append(f"{render_phase(record.label, _)}... {done}")
    if state.deadline is not None and not state.ended:
        lines.append(f"({_when(state.deadline, None, locale)})")
    lines.append("")
    for player in state.players.values():
        line = f"{player.name}: {player.description}" if player.description else player.name
        if not player.alive and player.left_cause:
            line += f", {_(TermNames.msgid(Term('cause', player.left_cause)))}"
        lines.append(line)
    return "\n".join(lines)


def status_text(game: Game, locale: str) -> str:
    """The rule set's status post: a rule file's ``status_post`` (C16.1; Changelings' is the
    shipped file's, for the plugin's games too), or a plain one."""
    from nightfall.rulefile.status_post import status_post_of

    gettext = gettext_for(locale)
    post = status_post_of(game.ruleset)
    if post is None:
        return _generic_status(game.state, gettext, locale)
    return post.render(game.state, gettext)


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
    state, locale, tz, say = game.state, session.locale, session.tz, session.say
    _ = gettext_for(locale)
    out.print()
    out.print(say(N_("phase {label} ({phase}), deadline {deadline}"), label=state.phase_label,
                  phase=render_phase(state.phase_label, _), deadline=session.when(state.deadline)),
              markup=False)
    table = Table(say(N_("player")), say(N_("role")), say(N_("in game")), say(N_("statuses")),
                  title=say(N_("players (secret)")))
    for player in state.players.values():
        role = _value(Term("role", player.role), locale, tz) if player.role else "—"
        where = say(N_("yes")) if player.alive else say(
            N_("left {phase}: {cause}"), phase=render_phase(player.left_phase or "", _),
            cause=Term("cause", player.left_cause or ""))
        statuses = sorted(_value(Term("status", s), locale, tz) for s in player.statuses)
        table.add_row(escape(player.name), escape(role), escape(where),
                      escape(", ".join(statuses)))
    out.print(table)
    if state.phase.is_play():
        awaited = game.ruleset.awaiting_inputs(state)
        if awaited is None:
            out.print(say(N_("awaiting: — (this stage never closes early)")), markup=False)
        else:
            shown = ", ".join(f"{p} ({slot})" for p, slot in sorted(awaited)) or say(
                N_("nothing"))
            out.print(say(N_("awaiting: {inputs}"), inputs=shown), markup=False)
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
            raise Usage(N_("{action} is a GM act: use `nightfall game {command} …`"),
                        action=repr(action), command="close" if action == "advance" else action)
        if target is not None and targets is not None:
            raise Usage(N_("give --target or --targets, not both"))
        if action in _ruleset(session).gm_actions:
            raise Usage(N_("{action} is a GM act: use `nightfall game act GAME {command} …`"),
                        action=repr(action), command=action)
        by = session.player(by)
        target = session.player(target) if target is not None else None
        command = Command(action, by=by, target=target,
                          targets=tuple(session.player(t) for t in _names(targets)),
                          choice=choice, text=text)
        events = session.service.submit(session.gid, command)
        shown = " ".join(x for x in (", ".join(command.all_targets), choice or "") if x)
        out.print(session.say(N_("accepted: {player} {action} {targets}"), player=by,
                              action=action, targets=shown).rstrip(), markup=False)
        _report(events, session)


def _ruleset(session: Session) -> Any:
    """The game's rule set: its rule file's, by hash, or its plugin."""
    return session.service.store.ruleset_of(session.meta)


def _gm(session: Session, action: str, **fields: Any) -> None:
    events = session.service.gm(session.gid, action, **fields)
    _report(events, session)


YesOption = Annotated[bool, typer.Option(
    "--yes", "-y", help="Do not ask for confirmation (scripts).")]


def _confirm_close(session: Session, yes: bool) -> None:
    """Say what closing now leaves the players — the next stage and its deadline, how
    long that is (issue 18: a day closed at 21:52 leaves the night 8 minutes, C2.3) —
    and, on a terminal, ask before going on. Without a terminal (a script) the warning
    is printed on stderr and the command goes on; ``--yes`` skips the question."""
    import sys

    from nightfall.service.outlook import after_close

    outlook = after_close(session.service.load(session.gid), session.service.clock.now())
    if outlook is None:
        return  # the engine says why it cannot be closed
    warning = localize(outlook.text(), session.locale, session.tz)
    if yes:
        out.print(escape(warning))
        return
    if not sys.stdin.isatty():
        err.print(("[yellow]" if outlook.short else "") + escape(warning)
                  + ("[/yellow]" if outlook.short else ""))
        return
    out.print(("[bold yellow]" if outlook.short else "") + escape(warning)
              + ("[/bold yellow]" if outlook.short else ""))
    if not typer.confirm(session.say(N_("Close the phase now?")), default=False):
        out.print(escape(session.say(N_("nothing was changed"))))
        raise typer.Exit(EXIT_REJECTED)


@game_app.command("close")
def close(game: GameArg, yes: YesOption = False, db: DbOption = None) -> None:
    """Close the current stage now: resolve it and begin the next. Says first what the
    next stage's deadline will be and asks (on a terminal; ``--yes`` does not)."""
    with Session(db, game) as session:
        _confirm_close(session, yes)
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
            yes: YesOption = False,
            db: DbOption = None) -> None:
    """Move the current deadline earlier (`game tick` resolves it once it has passed).
    A shortening that ends the stage is confirmed as `game close` is."""
    from nightfall.service.outlook import shortening_ends_stage

    with Session(db, game) as session:
        if minutes > 0 and shortening_ends_stage(session.service.load(session.gid),
                                                 session.service.clock.now(), minutes):
            out.print(escape(session.say(N_("shortening by {minutes} minutes ends the "
                                            "stage now"), minutes=minutes)))
            _confirm_close(session, yes)
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


TalkText = Annotated[str, typer.Argument(
    help="The text, as the players will read it (*action*, **status**, ((ooc)), //thought//).",
    metavar="TEXT", show_default=False)]


@game_app.command("say")
def say(game: GameArg, text: TalkText, db: DbOption = None) -> None:
    """Post in the game's thread as the game master (any phase after the start, at night
    and after the end too)."""
    with Session(db, game) as session:
        _gm(session, "say", text=text)
        out.print(escape(session.say(N_("posted in the thread as the game master"))))


@game_app.command("tell")
def tell(
    game: GameArg,
    name: Annotated[str, typer.Argument(help="The player (also one who has left).",
                                        metavar="NAME", show_default=False)],
    text: TalkText,
    db: DbOption = None,
) -> None:
    """Send one player a private message as the game master (shown among his notices)."""
    with Session(db, game) as session:
        player = session.player(name)
        _gm(session, "tell", target=player, text=text)
        out.print(escape(session.say(N_("message sent to {player}"), player=player)))


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
            if known:
                raise Usage(N_("{ruleset} has no GM act {action}; known: {known}"),
                            ruleset=session.meta.ruleset, action=repr(action),
                            known=", ".join(known))
            raise Usage(N_("{ruleset} has no GM act {action}; it has none"),
                        ruleset=session.meta.ruleset, action=repr(action))
        _gm(session, action, target=target, choice=choice, text=text)


@game_app.command("undo")
def undo(game: GameArg,
         minutes: Annotated[int | None, typer.Option(
             help="The reopened stage's new deadline, in minutes from now (needed when its "
                  "old deadline has passed).", show_default=False)] = None,
         db: DbOption = None) -> None:
    """Roll back to just before the last stage closed (appends a roll-back event). The
    stage keeps its old deadline if that still lies ahead; else give ``--minutes``."""
    with Session(db, game) as session:
        events = session.service.undo(session.gid, minutes)
        _report(events, session)
        deadline = session.service.load(session.gid).state.deadline
        if deadline is None:
            out.print(escape(session.say(N_("the stage is open again without a deadline: "
                                            "set one with `nightfall game extend {game} "
                                            "MINUTES`, or close it with `game close`"),
                                         game=session.gid)))
        else:
            out.print(escape(session.say(N_("the stage is open again until {deadline}"),
                                         deadline=session.when(deadline))))


@game_app.command("tick")
def tick(
    game: Annotated[str | None, typer.Argument(help="The game's id.", metavar="[GAME]",
                                              show_default=False)] = None,
    all_games: Annotated[bool, typer.Option("--all", help="Every game whose deadline "
                                                          "has passed.")] = False,
    locale: Annotated[str | None, typer.Option(
        help="Language of the output (default: the game's; with --all: en).",
        show_default=False)] = None,
    db: DbOption = None,
) -> None:
    """Resolve deadlines that have passed, in order (the scheduler does this by itself)."""
    neither_nor = N_("name a game or give --all, not both and not neither")
    if game is None and not all_games:  # refused before a database file is made
        _check_locale(locale)
        _fail(localize(Text(neither_nor, {}), locale or "en"), locale or "en", EXIT_USAGE)
    with Session(db, game, locale) as session:
        if game is not None and all_games:
            raise Usage(neither_nor)
        if all_games:
            from nightfall.service.forum_link import ForumLinks

            ForumLinks.of(session.service)  # linked threads are read at their vote stop
            done = session.service.tick_due()
            if not done:
                out.print(session.say(N_("no deadline has passed")), markup=False)
            for game_id, count in done.items():
                out.print(session.say(N_("{game}: {count} event(s)"), game=game_id,
                                      count=count), markup=False)
            return
        from nightfall.service.forum_link import ForumLinks

        ForumLinks.of(session.service)  # a linked thread is read at its vote stop
        events = session.service.tick(session.gid)
        if not events:
            meta = session.refresh()
            out.print(session.say(N_("nothing due (deadline {deadline})"),
                                  deadline=session.when(meta.next_deadline)), markup=False)
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
            session.fail(session.say(N_("Nothing has been resolved yet.")))
        wanted = phase.strip() if phase else labels[-1]
        chosen = [label for label in labels
                  if label == wanted or label.startswith(wanted + "/")]
        if not chosen:
            session.fail(session.say(N_("No resolution of {phase} to show; resolved so far: "
                                 "{phases}."), phase=wanted, phases=", ".join(labels)),
                  EXIT_USAGE)
        _ = gettext_for(session.locale)
        for label in chosen:
            out.print(f"[bold]{escape(label)}[/bold] ({escape(render_phase(label, _))})")
            for step in (t for t in traces if t.phase == label):
                title = _(TermNames.msgid(Term("step", step.step)))
                word = session.say(N_("step {number}"), number=step.number)
                out.print(f"  {escape(word)}  {escape(step.step)}  {escape(title)}  "
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
            raise Usage(N_("cannot write {file}: {reason}"), file=str(output),
                        reason=error.strerror) from None
        out.print(session.say(N_("wrote {count} events to {file}"),
                              count=session.meta.head_seq, file=str(output)), markup=False)


@game_app.command("replay")
def replay(game: GameArg, db: DbOption = None) -> None:
    """Rebuild the game from its whole log and compare with the stored state."""
    from nightfall.engine import Game

    with Session(db, game) as session:
        stored = session.service.load(session.gid)
        try:
            rebuilt = Game.from_events(stored.ruleset, session.service.store.events(session.gid))
        except Exception as error:  # a log that no longer folds is a failed replay
            session.fail(session.say(N_("the log does not replay: {error}"),
                                     error=f"{type(error).__name__}: {error}"))
        if rebuilt.state == stored.state:
            out.print(session.say(N_("identical: {count} events replay to the stored state "
                                     "({phase})"), count=rebuilt.seq,
                                  phase=render_phase(stored.state.phase_label,
                                                     gettext_for(session.locale))),
                      markup=False)
            return
        differing = [f.name for f in dataclasses.fields(stored.state)
                     if getattr(stored.state, f.name) != getattr(rebuilt.state, f.name)]
        session.fail(session.say(N_("the replayed log differs from the stored state in: "
                                    "{fields}"), fields=", ".join(differing)))


def _notification_commands() -> None:
    """``game email``, ``game channel …`` and ``game reminders`` (``cli/notify.py``)."""
    from nightfall.cli import notify

    game_app.command("email")(notify.email)
    game_app.command("reminders")(notify.reminders)
    game_app.add_typer(notify.channel_app, name="channel")


_notification_commands()

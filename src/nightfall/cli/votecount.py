"""``nightfall votecount``: count the votes of a forum thread (standalone; see
docs/votecount.md and the command-line contract).

The post and every line the command prints about the count (its errors, the ``--submit``
lines) are in one language, because the GM pastes the post into a German (Changelings)
or Russian (Island of Fear) thread: ``--locale`` if given; else, with ``--game``, the
game's language; else the rule set's own (:func:`nightfall.i18n.default_locale`). An
unknown ``--game`` has no language: its error is in ``--locale`` or English. The words
are ``N_`` msgids translated in the Babel catalogs; the JSON (``--json``) is the contract
and never translated. The parsers' warnings about single posts stay English.
"""

from __future__ import annotations

import re
from datetime import datetime, time, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from nightfall.collector import gc_paused
from nightfall.engine.text import N_
from nightfall.i18n import SUPPORTED_LOCALES, default_locale, gettext_for, localize

if TYPE_CHECKING:
    from nightfall.forum import Page, VoteCount
    from nightfall.forum.fetch import Credentials
    from nightfall.service import GameService


def _names(value: str | None) -> list[str]:
    return [name.strip() for name in (value or "").split(",") if name.strip()]


def _say(locale: str, msgid: str, **params: object) -> str:
    """``msgid`` (marked with ``N_``) in ``locale``, its ``{placeholders}`` filled."""
    return gettext_for(locale)(msgid).format(**params)


def _fail(locale: str, message: str, option: str | None = None) -> NoReturn:
    """``error: [--option: ]message`` on stderr in ``locale``; exit 2 (bad usage or input)."""
    prefix = _say(locale, N_("error:"))
    where = f"{option}: " if option else ""
    typer.echo(f"{prefix} {where}{message}", err=True)
    raise typer.Exit(2)


def _when(value: str, tz: tzinfo, default_time: time, option: str, locale: str) -> datetime:
    from nightfall.forum.errors import DateError
    from nightfall.service.votecount import parse_when

    try:
        return parse_when(value, tz, default_time)
    except DateError:
        _fail(locale, _say(locale, N_("cannot read the time {value} (use e.g. "
                                      "'2012-12-24 19:30')"), value=repr(value)), option)


def votecount(
    pages: Annotated[list[str], typer.Argument(
        help="The thread's address (http:// or https://, any page of it: every page is "
             "read), or saved thread pages (phpBB, vBulletin, XenForo HTML; Discourse "
             "JSON) or BBCode / JSON-lines exports, in any order.", show_default=False,
        metavar="URL_OR_PAGE...")],
    players: Annotated[str | None, typer.Option(
        help='The players, comma-separated: "Ann,Bob,Dan" (with --game: the game\'s).',
        show_default=False)] = None,
    alias: Annotated[list[str] | None, typer.Option(
        help='Other spellings of a player: "Ann=Annie,Anni" (repeatable).')] = None,
    deadline: Annotated[str | None, typer.Option(
        help='Vote stop, e.g. "2012-12-24 19:30" (a date alone: the rule set\'s time).'
    )] = None,
    tz: Annotated[str | None, typer.Option(
        help="Time zone of --since/--deadline and of the forum unless a page states one "
             "(default: the game's with --game, else the rule set's, Europe/Berlin or "
             "Europe/Moscow).")] = None,
    since: Annotated[str | None, typer.Option(
        help='Only posts from this time on, e.g. "2012-12-23 20:00".')] = None,
    ruleset: Annotated[str, typer.Option(
        help="Vote rules: changelings, island, or a shipped rule file's id whose file says "
             "how its votes are written (werwolf-classic).")] =
        "changelings",
    as_json: Annotated[bool, typer.Option("--json", help="Print the count as JSON.")] = False,
    departed: Annotated[str | None, typer.Option(
        help="Players no longer in the game, comma-separated.")] = None,
    voiceless: Annotated[str | None, typer.Option(
        help="Players whose votes do not count, comma-separated.")] = None,
    lovers: Annotated[list[str] | None, typer.Option(
        help='A lover pair, "Ann+Bob" (repeatable).')] = None,
    vote_pattern: Annotated[list[str] | None, typer.Option(
        help="A written vote form as a regex over the post's own BBCode with a group "
             "'name' (repeatable; replaces the rule set's forms).")] = None,
    game: Annotated[str | None, typer.Option(
        help="A game in the service: its players, departed and voiceless players, rule "
             "set, day start and deadline are used.")] = None,
    db: Annotated[str | None, typer.Option(
        help="Database of --game (default: NIGHTFALL_DATABASE_URL or nightfall.db).")] = None,
    submit: Annotated[bool, typer.Option(
        "--submit", help="With --game: submit each counted vote to the game (at its post's "
                         "time), so the engine's own tally follows.")] = False,
    locale: Annotated[str | None, typer.Option(
        help="Language of the post and the messages: de, en or ru (default: the game's "
             "with --game, else the rule set's: de for changelings, ru for island).",
        show_default=False)] = None,
    cookie: Annotated[list[str] | None, typer.Option(
        help='A cookie for a closed forum, "NAME=VALUE" (repeatable; sent only to the '
             "thread's own host).")] = None,
    header: Annotated[list[str] | None, typer.Option(
        help='A request header for a closed forum, "Name: value" (repeatable).')] = None,
) -> None:
    """Count the votes in a forum thread: a BBCode vote count post, or JSON with --json.
    Exit 0 when the count was made, 2 when no page could be read."""
    from nightfall.forum import (
        PLUGIN_RULES,
        GameFacts,
        PlayerListError,
        Post,
        count_votes,
        limits,
        read_file,
        read_page,
        render_bbcode,
        zone,
    )
    from nightfall.forum.errors import DateError
    from nightfall.forum.fetch import Credentials
    from nightfall.forum.report import render_json
    from nightfall.forum.rules import VotePattern, with_patterns

    if locale is not None and locale not in SUPPORTED_LOCALES:
        _fail("en", _say("en", N_("choose one of {choices}"),
                         choices=", ".join(SUPPORTED_LOCALES)), "--locale")
    # until the game is loaded: --locale, else the rule set's language (a plugin's, a
    # shipped rule file's first; a game: English)
    lang = locale or ("en" if game is not None else default_locale(ruleset))
    service = None
    if submit and game is None:
        _fail(lang, _say(lang, N_("--submit needs --game")))
    default_start = default_stop = None
    game_rules = None
    if game is not None:  # the same reading of the game as the GM's web page
        from nightfall.service import GameService
        from nightfall.service.votecount import load_game_count
        from nightfall.store import UnknownGame

        service = GameService(url=db)
        try:
            known = load_game_count(service, game)
        except UnknownGame:
            _fail(lang, _say(lang, N_("no game {game} in this database"), game=repr(game)))
        except LookupError as error:  # its rule file has no forum_votes: section
            _fail(locale or service.meta(game).locale, _say(
                locale or service.meta(game).locale,
                N_("the rule set {ruleset} does not say how its votes are written on the "
                   "forum (forum_votes:)"), ruleset=repr(str(error.args[0]))), "--game")
        game_rules = known.rules
        ruleset = known.ruleset
        lang = locale or known.locale
        tz = tz or known.timezone
        players = ",".join(known.players)
        departed = ",".join(sorted(known.facts.departed))
        voiceless = ",".join(sorted(known.facts.voiceless))
        default_start, default_stop = known.since, known.deadline
    from nightfall.rulefile.ruleset import SHIPPED
    from nightfall.service.votecount import vote_rules_for

    # the game's own (an uploaded rule file's too), else a shipped file's (Changelings'
    # C3 is its file's forum_votes:) or a plugin's (Island, I6)
    rules = game_rules if game is not None else vote_rules_for(ruleset)
    if rules is None:
        counted = sorted(name for name in {*PLUGIN_RULES, *SHIPPED} if vote_rules_for(name))
        _fail(lang, _say(lang, N_("choose one of {choices}"), choices=", ".join(counted)),
              "--ruleset")
    for pattern in vote_pattern or []:
        try:
            VotePattern.compile(pattern)
        except re.error as error:  # Python's own words on the regex stay as they are
            _fail(lang, _say(lang, N_("{pattern} is not a regular expression: {error}"),
                             pattern=repr(pattern), error=error), "--vote-pattern")
        except ValueError:
            _fail(lang, _say(lang, N_("{pattern} needs a group named 'name'"),
                             pattern=repr(pattern)), "--vote-pattern")
    rules = with_patterns(rules, vote_pattern or [])
    try:
        zone_info = zone(tz or rules.timezone)
    except DateError:
        _fail(lang, _say(lang, N_("unknown time zone {zone}"), zone=repr(tz)), "--tz")
    roster = _names(players)
    if not roster:
        _fail(lang, _say(lang, N_("name at least one player")), "--players")
    aliases: dict[str, list[str]] = {}
    for entry in alias or []:
        from nightfall.service.votecount import parse_alias  # shared with the web page

        try:
            player, spellings = parse_alias(entry)
        except ValueError:
            _fail(lang, _say(lang, N_("{entry}: use 'Ann=Annie,Anni'"), entry=repr(entry)),
                  "--alias")
        aliases.setdefault(player, []).extend(spellings)
    pairs = []
    for entry in lovers or []:
        pair = [name.strip() for name in entry.split("+") if name.strip()]
        if len(pair) != 2:
            _fail(lang, _say(lang, N_("{entry}: use 'Ann+Bob'"), entry=repr(entry)),
                  "--lovers")
        pairs.append(frozenset(pair))
    facts = GameFacts(frozenset(_names(departed)), frozenset(_names(voiceless)),
                      frozenset(pairs))
    unknown = [name for name in facts.voiceless | {p for pair in pairs for p in pair}
               if name not in roster]
    if unknown:
        _fail(lang, _say(lang, N_("not in --players: {names}"),
                         names=", ".join(sorted(unknown))), "--voiceless/--lovers")
    start = _when(since, zone_info, time(0, 0), "--since", lang) if since else default_start
    stop = (_when(deadline, zone_info, rules.deadline_time, "--deadline", lang)
            if deadline else default_stop)
    if start is not None and stop is not None and start >= stop:
        _fail(lang, _say(  # every post would count as before the day's start
            lang, N_("the day starts ({start}) at or after its deadline ({stop})"),
            start=f"{start:%Y-%m-%d %H:%M}", stop=f"{stop:%Y-%m-%d %H:%M}"),
            "--since/--deadline")

    try:
        credentials = Credentials.parse(cookie or [], header or [])
    except ValueError as error:
        _fail(lang, _say(lang, N_("{entry}: use 'NAME=VALUE' for a cookie, 'Name: value' "
                                  "for a header"), entry=repr(str(error))),
              "--cookie/--header")
    posts: list[Post] = []
    usable = 0
    total = 0
    files = [source for source in pages if not _is_address(source)]
    try:  # the same limits as the GM's page (forum/limits.py), before anything is parsed
        limits.check_request([(source, 0) for source in files])
    except limits.LimitExceeded as error:
        _fail(lang, _say(lang, error.msgid, **error.params))
    # the collector paused for the whole read and count (forum/detect.py read_page says
    # why): the posts of every page live until the count, and no cycles are made
    with gc_paused():
        budget = limits.Budget()  # one count's work, all files together
        for source in pages:
            if _is_address(source):
                read = _read_address(source, zone_info, credentials, lang)
            else:
                path = Path(source)
                try:
                    data = limits.read_limited(path)
                    total += len(data)
                    limits.check_total(total)
                except OSError:
                    read = [read_file(path, zone_info)]  # says why it cannot be read
                except limits.LimitExceeded as error:
                    _fail(lang, _say(lang, error.msgid, **error.params))
                else:
                    read = [read_page(data, source, zone_info, budget)]
            for page in read:
                if page.refused is not None:  # too deep or too much: no parser saw it
                    msgid, params = page.refused
                    _fail(lang, _say(lang, msgid, **dict(params)))
                for issue in page.issues:
                    typer.echo(f"warning: {issue}", err=True)
                if page.usable:
                    usable += 1
                    posts.extend(page.posts)
        if not usable:
            names = ", ".join(pages)
            _fail(lang, _say(lang, N_("no page could be read ({files})"), files=names))
        try:
            count = count_votes(posts, roster, rules, aliases=aliases, since=start, deadline=stop,
                                facts=facts)
        except PlayerListError as error:
            _fail(lang, localize(error.reason, lang), "--players/--alias")
    if as_json:
        typer.echo(render_json(count))
    else:
        typer.echo(render_bbcode(count, zone_info, lang), nl=False)
    if service is not None and submit and game is not None:
        _submit(service, game, count, lang)


def _is_address(source: str) -> bool:
    return source.lower().startswith(("http://", "https://"))


def _read_address(url: str, tz: tzinfo, credentials: Credentials, locale: str
                  ) -> list[Page]:
    """Every page of the thread at ``url`` (:func:`nightfall.forum.fetch.read_thread`); a
    thread that cannot be read stops the command with the reason (exit 2)."""
    from nightfall.forum.fetch import FetchError, Limits, read_thread

    try:
        thread = read_thread(url, tz, credentials=credentials, limits=Limits.from_env())
    except FetchError as error:
        _fail(locale, localize(error.text(), locale, tz))
    except ValueError as error:  # a bad NIGHTFALL_FORUM_* setting
        _fail(locale, str(error))
    for note in thread.notes:
        typer.echo(f"warning: {localize(note, locale, tz)}", err=True)
    typer.echo(_say(locale, N_("read {pages} page(s) of {url}"), pages=len(thread.reads),
                    url=url), err=True)
    return thread.pages


def _submit(service: GameService, game_id: str, count: VoteCount, locale: str) -> None:
    """Feed the counted votes into the game (:func:`~nightfall.service.votecount.
    submit_votes`, as the GM's web page does); the engine judges each again (a lover's
    vote, a vote after the deadline, ...) and its rejection is reported, never guessed."""
    from nightfall.service.votecount import submit_votes

    for done in submit_votes(service, game_id, count.votes.values()):
        vote = done.vote
        if done.unchanged:
            typer.echo(_say(locale, N_("unchanged: {voter} → {target} (already the vote in the "
                                       "game)"), voter=vote.voter, target=vote.target), err=True)
        elif done.refused is not None:
            typer.echo(_say(locale, N_("rejected by the game: {voter} → {target}: {reason}"),
                            voter=vote.voter, target=vote.target,
                            reason=localize(done.refused, locale)), err=True)
        else:
            typer.echo(_say(locale, N_("submitted: {voter} → {target}"), voter=vote.voter,
                            target=vote.target), err=True)

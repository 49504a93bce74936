"""``nightfall game forum GAME [URL]``: link a game to its forum thread (issue 17).

With the thread linked, the server reads it at each vote deadline and keeps the count
(:mod:`nightfall.service.forum_link`); ``--auto-submit`` lets the clear votes go into the
game by themselves. ``--count`` reads and counts the thread now. Without a URL or an
option the command shows the link and the last counts. Cookies are shown by name only.
Registered on ``nightfall game`` by :mod:`nightfall.cli.app`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from nightfall.cli.game import EXIT_USAGE, DbOption, GameArg, Session, Usage, game_app, out
from nightfall.engine.text import N_
from nightfall.i18n import localize

if TYPE_CHECKING:
    from nightfall.service.forum_link import ForumCount


@game_app.command("forum")
def forum(
    game: GameArg,
    url: Annotated[str | None, typer.Argument(
        help="The thread's address (any page of it).", metavar="[URL]",
        show_default=False)] = None,
    cookie: Annotated[list[str] | None, typer.Option(
        help='A cookie for a closed forum, "NAME=VALUE" (repeatable).')] = None,
    header: Annotated[list[str] | None, typer.Option(
        help='A request header for a closed forum, "Name: value" (repeatable).')] = None,
    auto_submit: Annotated[bool, typer.Option(
        "--auto-submit/--no-auto-submit",
        help="Submit the clear votes by themselves at each vote deadline.")] = False,
    review_minutes: Annotated[int, typer.Option(
        help="Minutes the stage waits after the vote stop when names are for the GM to "
             "decide (or without --auto-submit).")] = 30,
    unlink: Annotated[bool, typer.Option("--unlink", help="Remove the link.")] = False,
    count: Annotated[bool, typer.Option("--count", help="Read and count the thread now.")
                     ] = False,
    db: DbOption = None,
) -> None:
    """Link the game to its forum thread: read at each vote deadline, counted, kept."""
    from nightfall.forum.fetch import Credentials
    from nightfall.service.forum_link import ForumLinks, LinkError

    with Session(db, game) as session:
        links = ForumLinks.of(session.service)
        if unlink:
            if url is not None:
                raise Usage(N_("give a URL or --unlink, not both"))
            removed = links.unlink(session.gid)
            out.print(escape(session.say(N_("the game is no longer linked to a thread")
                                         if removed else N_("the game was not linked"))))
            return
        if url is not None:
            try:
                credentials = Credentials.parse(cookie or [], header or [])
            except ValueError as error:
                raise Usage(N_("{entry}: use 'NAME=VALUE' for a cookie, 'Name: value' for a "
                               "header"), entry=repr(str(error))) from None
            try:
                made = links.link(session.gid, url, credentials, auto_submit, review_minutes)
            except LinkError as error:
                session.fail(localize(error.text, session.locale), EXIT_USAGE)
            out.print(escape(session.say(N_("linked to {url}"), url=made.url)))
        elif cookie or header:
            raise Usage(N_("--cookie and --header go with the thread's URL"))
        link = links.get(session.gid)
        if link is None:
            session.fail(session.say(N_("the game is not linked to a forum thread: `nightfall "
                                        "game forum {game} URL`"), game=session.gid),
                         EXIT_USAGE)
        out.print(escape(session.say(
            N_("thread: {url}; cookies: {cookies}; auto-submit: {auto}; review: {minutes} "
               "min"), url=link.url, cookies=", ".join(link.cookie_names) or "—",
            auto=session.say(N_("on") if link.auto_submit else N_("off")),
            minutes=link.review_minutes)))
        if count:
            shown = links.count_now(session.gid)
            _show(shown, session)
            if shown.error is not None:
                raise typer.Exit(1)
            return
        for stored in links.counts(session.gid, limit=5):
            _line(stored, session)


def _line(count: ForumCount, session: Session) -> None:
    kind = session.say(N_("at the deadline") if count.automatic else N_("on demand"))
    tally = ", ".join(f"{target} {number}" for target, number, _ in count.tally) or "—"
    out.print(escape(f"#{count.id} {session.when(count.started_at)} ({kind}, "
                     f"{count.phase}): {count.status} — {tally}"))
    if count.error is not None:
        out.print(escape("  " + localize(count.error, session.locale, session.tz)))


def _show(count: ForumCount, session: Session) -> None:
    """A count with the pages it read and the notes, then the post to paste."""
    _line(count, session)
    for page in count.pages:
        out.print(escape(f"  {page.status} {page.url} {(page.sha256 or '')[:16]} "
                         f"{session.when(page.fetched_at)}"), markup=True)
    for note in count.notes:
        out.print(escape("  " + localize(note, session.locale, session.tz)))
    if count.post:
        out.print("")
        out.print(count.post, markup=False)

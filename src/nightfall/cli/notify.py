"""The GM's notification commands (``nightfall game email``, ``game channel …``,
``game reminders``) and ``nightfall deliver``, the standalone delivery worker."""

from __future__ import annotations

import time
from typing import Annotated

import typer

from nightfall.cli.game import EXIT_USAGE, DbOption, GameArg, Session, out
from nightfall.engine.text import N_
from nightfall.i18n import localize

channel_app = typer.Typer(
    help="The game's announcement channels (Apprise URLs: Discord, Telegram, Matrix, "
         "Slack, ntfy, …). They receive the public announcements only.",
    no_args_is_help=True, rich_markup_mode="markdown")
NameArg = Annotated[str, typer.Argument(help="The player's name.", metavar="NAME",
                                        show_default=False)]


def email(game: GameArg, name: NameArg,
          address: Annotated[str, typer.Argument(help="His e-mail address ('-' removes it).",
                                                 metavar="ADDR", show_default=False)],
          db: DbOption = None) -> None:
    """Set a player's e-mail address (the GM vouches for it: no confirmation mail)."""
    from nightfall.notify.contacts import BadContact

    with Session(db, game) as session:
        name = session.player(name)
        notes = session.service.notifications
        try:
            if address.strip() == "-":
                notes.remove_email(session.gid, name)
                out.print(session.say(N_("e-mail removed: {name}"), name=name), markup=False)
                return
            notes.set_email(session.gid, name, address, vouched=True)
        except BadContact as bad:
            session.fail(localize(bad.text, session.locale), EXIT_USAGE)
        except LookupError:
            session.fail(session.say(N_("There is no player called {name}."), name=name))
        out.print(session.say(N_("e-mail of {name}: {address}"), name=name,
                              address=address.strip()), markup=False)


@channel_app.command("add")
def channel_add(game: GameArg,
                url: Annotated[str, typer.Argument(help="The channel's Apprise URL.",
                                                   metavar="URL", show_default=False)],
                db: DbOption = None) -> None:
    """Add an announcement channel (shown back masked: the URL holds its secret)."""
    from nightfall.notify.contacts import BadContact

    with Session(db, game) as session:
        try:
            channel = session.service.notifications.add_channel(session.gid, url)
        except BadContact as bad:
            session.fail(localize(bad.text, session.locale), EXIT_USAGE)
        out.print(session.say(N_("channel {number} added: {shown}"), number=channel.id,
                              shown=channel.shown), markup=False)


@channel_app.command("list")
def channel_list(game: GameArg, db: DbOption = None) -> None:
    """The game's channels, masked."""
    with Session(db, game) as session:
        found = session.service.notifications.list_channels(session.gid)
        if not found:
            out.print(session.say(N_("no channels")), markup=False)
        for channel in found:
            out.print(f"{channel.id}  {channel.shown}", markup=False)


@channel_app.command("remove")
def channel_remove(game: GameArg,
                   url: Annotated[str, typer.Argument(
                       help="The channel's number (see `channel list`) or its URL.",
                       metavar="URL", show_default=False)],
                   db: DbOption = None) -> None:
    """Remove an announcement channel."""
    with Session(db, game) as session:
        removed = session.service.notifications.remove_channel(session.gid, url)
        if removed is None:
            session.fail(session.say(N_("no such channel in this game (see `nightfall game "
                                        "channel list {game}`)"), game=session.gid))
        out.print(session.say(N_("channel {number} removed: {shown}"), number=removed.id,
                              shown=removed.shown), markup=False)


def reminders(game: GameArg,
              minutes: Annotated[int, typer.Argument(
                  help="Minutes before a deadline (0: no reminders; default 120).",
                  metavar="MINUTES", show_default=False)],
              db: DbOption = None) -> None:
    """When players whose input is still awaited are reminded before a deadline."""
    from nightfall.notify.contacts import BadContact

    with Session(db, game) as session:
        try:
            session.service.notifications.set_reminder_minutes(session.gid, minutes)
        except BadContact as bad:
            session.fail(localize(bad.text, session.locale), EXIT_USAGE)
        out.print(session.say(N_("reminders: {minutes} minutes before each deadline"),
                              minutes=minutes) if minutes else
                  session.say(N_("reminders: off")), markup=False)


def deliver(
    once: Annotated[bool, typer.Option("--once", help="Send what is due now, then exit.")
                    ] = False,
    interval: Annotated[float, typer.Option(help="Seconds between two looks at the outbox.")
                        ] = 2.0,
    db: DbOption = None,
) -> None:
    """Run the delivery worker: send the outbox's due e-mails and channel messages
    (NIGHTFALL_SMTP_URL, NIGHTFALL_MAIL_FROM, NIGHTFALL_BASE_URL; docs/notifications.md)."""
    from nightfall.notify.config import ConfigError, NotifyConfig
    from nightfall.notify.worker import DeliveryWorker, not_sending_reason

    with Session(db) as session:
        try:
            config = NotifyConfig.from_env()
        except ConfigError as error:
            session.fail(str(error), EXIT_USAGE)
        worker = DeliveryWorker(session.service.engine, config)
        reason = not_sending_reason(config)
        if reason is not None:
            out.print(localize(reason, "en"), markup=False)
        if once:
            done = worker.drain()
            out.print(", ".join(f"{status}: {count}" for status, count in sorted(done.items()))
                      or "nothing due", markup=False)
            return
        try:
            while True:
                if not worker.run_once():
                    time.sleep(interval)
        except KeyboardInterrupt:
            return

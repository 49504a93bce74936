"""What the web app and the command line do with notifications: addresses and their
confirmation, the private link by e-mail, preferences, push and game channels, reminder
settings, and the GM's list of messages with their status. Each method is one
transaction (on the game service's event store)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, and_, delete, insert, select, update

from nightfall.engine import Game
from nightfall.engine.text import N_, Text
from nightfall.notify import channels
from nightfall.notify import contacts as ct
from nightfall.notify.outbox import HELD, QUEUED, SCRUBBED, Notifier, reminder_minutes, utc
from nightfall.store import EventStore, schema


@dataclass(frozen=True)
class Channel:
    id: int
    shown: str


@dataclass(frozen=True)
class Message:
    """One outbox row as the GM sees it (never the text of a private link)."""

    id: int
    player: str | None
    channel: str | None
    transport: str
    kind: str
    subject: str
    status: str
    attempts: int
    due_at: datetime
    sent_at: datetime | None
    error: str | None
    resendable: bool


class Notifications:
    def __init__(self, store: EventStore, notifier: Notifier) -> None:
        self.store, self.notifier = store, notifier

    @property
    def config(self) -> Any:
        return self.notifier.config

    def _game(self, conn: Connection, game_id: str) -> Game:
        return self.store.load(game_id, conn)

    # -- addresses --------------------------------------------------------------------------
    def on_signup(self, conn: Connection, game_id: str, game: Game, player: str, token: str,
                  address: str, vouched: bool) -> None:
        """In the sign-up's transaction: the address, its confirmation mail (unless the GM
        vouched) and the private link (held until the address is confirmed)."""
        contact, key = ct.set_email(conn, game_id, player, address, vouched)
        if key is not None:
            self.notifier.confirm_mail(conn, game_id, game, player, key, contact)
        self.notifier.link_mail(conn, game_id, game, player, token, contact)

    def set_email(self, game_id: str, player: str, address: str, vouched: bool,
                  token: str | None = None) -> None:
        """A new address for ``player`` (his page: confirmation first; the GM: vouched).
        ``token``, known on his own page, is mailed once the address is confirmed."""
        with self.store.engine.begin() as conn:
            game = self._game(conn, game_id)
            if player not in game.state.players:
                raise LookupError(player)
            contact, key = ct.set_email(conn, game_id, player, address, vouched)
            if key is not None:
                self.notifier.confirm_mail(conn, game_id, game, player, key, contact)
            if token is not None:
                self.notifier.link_mail(conn, game_id, game, player, token, contact)

    def remove_email(self, game_id: str, player: str) -> None:
        with self.store.engine.begin() as conn:
            ct.remove_email(conn, game_id, player)
            self._drop_held(conn, game_id, player)

    def _drop_held(self, conn: Connection, game_id: str, player: str) -> None:
        conn.execute(update(schema.outbox).where(and_(
            schema.outbox.c.game_id == game_id, schema.outbox.c.player == player,
            schema.outbox.c.status == HELD)).values(
            status="skipped", body_text=SCRUBBED, body_html=None,
            last_error="the address was changed before it was confirmed"))

    def confirm(self, key: str) -> ct.Contact | None:
        """Follow a confirmation link: the address is confirmed and the mail held for it
        (his private link) goes out."""
        with self.store.engine.begin() as conn:
            contact = ct.confirm(conn, key)
            if contact is not None:
                conn.execute(update(schema.outbox).where(and_(
                    schema.outbox.c.game_id == contact.game_id,
                    schema.outbox.c.player == contact.player,
                    schema.outbox.c.status == HELD)).values(
                    status=QUEUED, due_at=self.notifier.now()))
        return contact

    def unsubscribe(self, key: str) -> ct.Contact | None:
        with self.store.engine.begin() as conn:
            return ct.unsubscribe(conn, key)

    def by_unsubscribe_key(self, key: str) -> ct.Contact | None:
        with self.store.engine.connect() as conn:
            return ct.by_unsubscribe_key(conn, key)

    def contact(self, game_id: str, player: str) -> ct.Contact | None:
        with self.store.engine.connect() as conn:
            return ct.contact(conn, game_id, player)

    def set_preferences(self, game_id: str, player: str, chosen: dict[str, bool],
                        mail_on: bool | None = None) -> None:
        with self.store.engine.begin() as conn:
            ct.set_preferences(conn, game_id, player, chosen)
            if mail_on:
                ct.resubscribe(conn, game_id, player)

    def set_push(self, game_id: str, player: str, url: str | None) -> str | None:
        """His own push channel (checked like a game channel); its masked form."""
        shown = channels.check(url, self.config.allow_private) if url else None
        with self.store.engine.begin() as conn:
            ct.set_push(conn, game_id, player, url.strip() if url else None)
        return shown

    # -- the private link -------------------------------------------------------------------
    def reissue(self, game_id: str, player: str) -> str:
        """A new private link (the old one stops working), mailed to his confirmed address
        in the same transaction."""

        def mail_it(conn: Connection, token: str) -> None:
            contact = ct.contact(conn, game_id, player)
            if contact is not None and contact.mail_to:
                self.notifier.link_mail(conn, game_id, self._game(conn, game_id), player,
                                        token, contact)

        return self.store.issue_token(game_id, player, then=mail_it)

    def send_link_again(self, game_id: str, address: str) -> bool:
        """"Send me my link again": if ``address`` is a player's confirmed address in this
        game, he gets a new link by mail (the old one stops working). The caller answers
        the same either way; the result is for the tests and the log only."""
        with self.store.engine.connect() as conn:
            player = ct.player_by_email(conn, game_id, address)
        if player is None:
            return False
        self.reissue(game_id, player)
        return True

    # -- game channels ----------------------------------------------------------------------
    def add_channel(self, game_id: str, url: str) -> Channel:
        shown = channels.check(url, self.config.allow_private)
        with self.store.engine.begin() as conn:
            self.store.meta(game_id, conn)
            result = conn.execute(insert(schema.channels).values(
                game_id=game_id, url=url.strip(), shown=shown,
                created_at=self.notifier.now()))
            key = result.inserted_primary_key
            assert key is not None
        return Channel(int(key[0]), shown)

    def list_channels(self, game_id: str) -> list[Channel]:
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(schema.channels.c.id, schema.channels.c.shown).where(
                schema.channels.c.game_id == game_id).order_by(schema.channels.c.id)).all()
        return [Channel(int(r[0]), str(r[1])) for r in rows]

    def remove_channel(self, game_id: str, ref: str) -> Channel | None:
        """Remove the channel ``ref`` names: its number (``channel list``) or its URL."""
        with self.store.engine.begin() as conn:
            c = schema.channels.c
            query = select(c.id, c.shown).where(c.game_id == game_id)
            query = query.where(c.id == int(ref)) if ref.strip().isdigit() else query.where(
                c.url == ref.strip())
            row = conn.execute(query).first()
            if row is None:
                return None
            conn.execute(delete(schema.channels).where(c.id == row[0]))
        return Channel(int(row[0]), str(row[1]))

    # -- reminders --------------------------------------------------------------------------
    def reminder_minutes(self, game_id: str) -> int:
        with self.store.engine.connect() as conn:
            return reminder_minutes(conn, game_id)

    def set_reminder_minutes(self, game_id: str, minutes: int) -> None:
        if minutes < 0 or minutes > 60 * 24 * 7:
            raise ct.BadContact(Text(N_("Reminders are 0 (none) to {limit} minutes before a "
                                        "deadline."), {"limit": 60 * 24 * 7}))

        def work(game: Game, conn: Connection) -> None:
            t = schema.notify_settings
            if conn.execute(select(t.c.game_id).where(t.c.game_id == game_id)).first():
                conn.execute(update(t).where(t.c.game_id == game_id).values(
                    reminder_minutes=minutes))
            else:
                conn.execute(insert(t).values(game_id=game_id, reminder_minutes=minutes))
            self.notifier.plan_reminders(conn, game_id, game)

        self.store.transact(game_id, work)

    # -- the GM's list ----------------------------------------------------------------------
    def messages(self, game_id: str, limit: int = 200) -> list[Message]:
        box = schema.outbox
        with self.store.engine.connect() as conn:
            shown = dict(conn.execute(select(schema.channels.c.id, schema.channels.c.shown)
                                      .where(schema.channels.c.game_id == game_id)).all())
            rows = conn.execute(select(box).where(box.c.game_id == game_id)
                                .order_by(box.c.id.desc()).limit(limit)).mappings().all()
        return [Message(r["id"], r["player"],
                        shown.get(r["channel_id"]) if r["channel_id"] is not None else None,
                        r["transport"], r["kind"], r["subject"], r["status"], r["attempts"],
                        utc(r["due_at"]) or r["due_at"], utc(r["sent_at"]), r["last_error"],
                        r["status"] in ("sent", "failed") and r["body_text"] != SCRUBBED)
                for r in rows]

    def resend(self, game_id: str, message_id: int) -> int | None:
        """A fresh copy of a sent or failed message (a private link cannot be resent:
        reissue the link instead); the new row's id."""
        box = schema.outbox
        with self.store.engine.begin() as conn:
            row = conn.execute(select(box).where(and_(
                box.c.game_id == game_id, box.c.id == message_id))).mappings().first()
            if row is None or row["body_text"] == SCRUBBED or row["status"] not in (
                    "sent", "failed"):
                return None
            now = self.notifier.now()
            copy = {k: row[k] for k in ("game_id", "player", "channel_id", "transport", "kind",
                                        "locale", "subject", "body_text", "body_html")}
            result = conn.execute(insert(box).values(
                **copy, condition=None, status=QUEUED, attempts=0, due_at=now,
                created_at=now))
            key = result.inserted_primary_key
            assert key is not None
        return int(key[0])

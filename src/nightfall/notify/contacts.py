"""A player's contact: his e-mail address (double opt-in), his push channel and the kinds
of message he wants. Every function works inside the caller's transaction.

An address a player types in is ``pending`` until he follows the confirmation link; until
then the outbox holds his other mail back (``held``) and sends only the confirmation. An
address the GM sets (``nightfall game signup --email``, ``game email``) is ``confirmed`` at
once: the GM vouches for it. The one-click unsubscribe link switches e-mail off
(``unsubscribed``); the player can switch it on again from his page.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from email_validator import EmailNotValidError, validate_email
from sqlalchemy import Connection, and_, insert, select, update

from nightfall.engine.text import N_, Text
from nightfall.store import schema

PENDING, CONFIRMED, UNSUBSCRIBED = "pending", "confirmed", "unsubscribed"
#: the kinds of message a player may switch on or off on his page, with their defaults;
#: the confirmation and the private link are always sent (he asked for them)
KINDS: dict[str, bool] = {
    "stage": True,          # a stage begins: what he may do, the deadline
    "reminder": True,       # his input is still awaited shortly before the deadline
    "notice": True,         # a private notice: a result, a prompt, the GM's message
    "announcements": False,  # the morning and evening announcements
    "end": True,            # the end: his result and the reveal link
}
KIND_TITLES = {
    "stage": N_("A stage begins (what you may do, the deadline)"),
    "reminder": N_("Reminder before a deadline while your input is awaited"),
    "notice": N_("Private notices (results, prompts, messages from the game master)"),
    "announcements": N_("The morning and evening announcements"),
    "end": N_("The end of the game (your result)"),
}
ALWAYS = ("confirm", "link")


class BadContact(ValueError):
    """An input that cannot be used; ``text`` says why in the reader's language."""

    def __init__(self, text: Text) -> None:
        super().__init__(text.msgid)
        self.text = text


@dataclass(frozen=True)
class Contact:
    game_id: str
    player: str
    email: str | None
    email_state: str
    unsubscribe_key: str
    push_url: str | None
    preferences: dict[str, bool]

    def wants(self, kind: str) -> bool:
        return kind in ALWAYS or bool(self.preferences.get(kind, KINDS.get(kind, False)))

    @property
    def mail_to(self) -> str | None:
        """The address mail goes to now (``None``: none, or e-mail switched off)."""
        return self.email if self.email and self.email_state != UNSUBSCRIBED else None


def normalize_email(address: str) -> str:
    """The address in its normal form, or :class:`BadContact` (``email-validator``; no DNS
    look-up, so a sign-up never waits on the network)."""
    try:
        return validate_email(address.strip(), check_deliverability=False).normalized
    except EmailNotValidError:
        raise BadContact(Text(N_("{address} is not a usable e-mail address."),
                              {"address": address.strip()})) from None


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def _row(row: Any) -> Contact:
    return Contact(row["game_id"], row["player"], row["email"], row["email_state"],
                   row["unsubscribe_key"], row["push_url"],
                   {k: bool(v) for k, v in dict(row["preferences"] or {}).items()})


def contact(conn: Connection, game_id: str, player: str) -> Contact | None:
    row = conn.execute(select(schema.contacts).where(and_(
        schema.contacts.c.game_id == game_id, schema.contacts.c.player == player))
    ).mappings().first()
    return _row(row) if row is not None else None


def contacts(conn: Connection, game_id: str) -> dict[str, Contact]:
    rows = conn.execute(select(schema.contacts).where(schema.contacts.c.game_id == game_id)
                        ).mappings().all()
    return {row["player"]: _row(row) for row in rows}


def _ensure(conn: Connection, game_id: str, player: str) -> Contact:
    found = contact(conn, game_id, player)
    if found is not None:
        return found
    conn.execute(insert(schema.contacts).values(
        game_id=game_id, player=player, email=None, email_state=PENDING, confirm_hash=None,
        unsubscribe_key=secrets.token_urlsafe(24), push_url=None, preferences=dict(KINDS),
        updated_at=datetime.now(UTC)))
    made = contact(conn, game_id, player)
    assert made is not None
    return made


def _set(conn: Connection, game_id: str, player: str, **values: Any) -> None:
    conn.execute(update(schema.contacts).where(and_(
        schema.contacts.c.game_id == game_id, schema.contacts.c.player == player)).values(
        updated_at=datetime.now(UTC), **values))


def set_email(conn: Connection, game_id: str, player: str, address: str,
              vouched: bool) -> tuple[Contact, str | None]:
    """Record ``player``'s address; returns the contact and, unless the GM ``vouched`` for
    it, the key of the confirmation link (only its hash is stored)."""
    normal = normalize_email(address)
    _ensure(conn, game_id, player)
    key = None if vouched else secrets.token_urlsafe(24)
    _set(conn, game_id, player, email=normal, email_state=CONFIRMED if vouched else PENDING,
         confirm_hash=hash_key(key) if key else None)
    found = contact(conn, game_id, player)
    assert found is not None
    return found, key


def remove_email(conn: Connection, game_id: str, player: str) -> None:
    _ensure(conn, game_id, player)
    _set(conn, game_id, player, email=None, email_state=PENDING, confirm_hash=None)


def confirm(conn: Connection, key: str) -> Contact | None:
    """The contact whose confirmation link this is, now confirmed (``None``: unknown)."""
    row = conn.execute(select(schema.contacts).where(
        schema.contacts.c.confirm_hash == hash_key(key))).mappings().first()
    if row is None:
        return None
    _set(conn, row["game_id"], row["player"], email_state=CONFIRMED, confirm_hash=None)
    return contact(conn, row["game_id"], row["player"])


def by_unsubscribe_key(conn: Connection, key: str) -> Contact | None:
    row = conn.execute(select(schema.contacts).where(
        schema.contacts.c.unsubscribe_key == key)).mappings().first()
    return _row(row) if row is not None else None


def unsubscribe(conn: Connection, key: str) -> Contact | None:
    found = by_unsubscribe_key(conn, key)
    if found is not None and found.email:
        _set(conn, found.game_id, found.player, email_state=UNSUBSCRIBED)
    return found


def resubscribe(conn: Connection, game_id: str, player: str) -> None:
    found = contact(conn, game_id, player)
    if found is not None and found.email_state == UNSUBSCRIBED:
        _set(conn, game_id, player, email_state=CONFIRMED)


def set_preferences(conn: Connection, game_id: str, player: str,
                    chosen: dict[str, bool]) -> None:
    _ensure(conn, game_id, player)
    _set(conn, game_id, player, preferences={k: bool(chosen.get(k, False)) for k in KINDS})


def set_push(conn: Connection, game_id: str, player: str, url: str | None) -> None:
    _ensure(conn, game_id, player)
    _set(conn, game_id, player, push_url=url)


def player_by_email(conn: Connection, game_id: str, address: str) -> str | None:
    """The player of ``game_id`` whose confirmed address this is (``None``: nobody)."""
    try:
        normal = normalize_email(address)
    except BadContact:
        return None
    row = conn.execute(select(schema.contacts.c.player).where(and_(
        schema.contacts.c.game_id == game_id, schema.contacts.c.email == normal,
        schema.contacts.c.email_state == CONFIRMED))).first()
    return str(row[0]) if row is not None else None

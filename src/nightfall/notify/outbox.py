"""The transactional outbox: the messages a transaction causes, written inside it.

``EventStore`` calls :meth:`Notifier.plan` with the events a command or a deadline tick
appended, on the same connection, before the commit: so a command that rolls back leaves
no message behind and a committed one always leaves its messages. ``plan`` reads the new
events only to know *that* something happened (a stage began, a notice came, the game
ended); *what* a message says comes from the reader's projection (``compose.py``).

Rows start ``pending`` (due now, or at ``due_at`` for a reminder) or ``held`` (mail to an
address not yet confirmed: released by the confirmation). The worker (``worker.py``)
moves them to ``sent``, ``failed`` or ``skipped``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, and_, insert, select, update

from nightfall.engine import Game
from nightfall.engine import events as ev
from nightfall.i18n import known_zone
from nightfall.notify import compose
from nightfall.notify.config import NotifyConfig
from nightfall.notify.contacts import PENDING, Contact, contacts
from nightfall.service.clock import Clock, SystemClock
from nightfall.store import schema

DEFAULT_REMINDER_MINUTES = 120
HELD, QUEUED = "held", "pending"
#: what a sent private-link mail keeps of its text (the link is a login: only its hash is
#: stored anywhere else)
SCRUBBED = "(The private link was removed from the outbox after sending.)"


def awaited_from(game: Game, player: str) -> list[str]:
    """The inputs the current stage still awaits from ``player``: the rule set's own list
    (C2.3, I-rules' ``awaiting_inputs``), else — for a stage it does not list, such as a
    Changelings election day — ``["*"]`` while he has a move to make and has made none."""
    state = game.state
    if not state.phase.is_play() or state.ended:
        return []
    person = state.players.get(player)
    if person is None or not person.alive:
        return []
    awaiting = game.ruleset.awaiting_inputs(state)
    if awaiting is not None:
        return sorted(slot for name, slot in awaiting if name == player)
    moves = [c for c in game.legal_commands(player) if c.action not in compose.NOT_MOVES]
    mine = (game.view(player).get("me") or {}).get("submissions") or {}
    return ["*"] if moves and not mine else []


#: the events that may cause a message (the others never do)
WATCHED = (ev.PhaseStarted, ev.GameEnded, ev.DeadlineChanged, ev.NoticeSent, ev.Announced)


def drafts_for(game: Game, new: Sequence[ev.Event], readers: Mapping[str, compose.Reader],
               public: compose.Reader | None, game_url: str
               ) -> list[tuple[str | None, compose.Draft]]:
    """What the events ``new`` cause, to whom (``None``: the game's channels), composed
    from the reader's projection only: ``game.view(player)`` and his legal commands for a
    player in ``readers``, ``game.view(None)`` for the channels (``public``: their
    reader, ``None`` when the game has none). Pure: the leak test calls it directly."""
    started = any(isinstance(e, ev.PhaseStarted) for e in new) and game.state.phase.is_play()
    ended = any(isinstance(e, ev.GameEnded) for e in new)
    notices = Counter(e.player for e in new if isinstance(e, ev.NoticeSent))
    announced = sum(1 for e in new if isinstance(e, ev.Announced))
    public_view = game.view(None)
    new_announcements = public_view["announcements"][-announced:] if announced else []
    reveal_url = game_url + "/reveal"
    found: list[tuple[str | None, compose.Draft]] = []
    for player, reader in readers.items():
        view = game.view(player)
        me = view.get("me") or {}
        if notices.get(player):
            mine = list(me.get("notices") or [])[-notices[player]:]
            found.append((player, compose.notices(reader, game.ruleset, mine, game_url)))
        if new_announcements:
            found.append((player, compose.announcements(reader, new_announcements, game_url)))
        if started and not ended and me.get("alive", False):
            found.append((player, compose.stage(reader, view, game.legal_commands(player),
                                                game_url)))
        if ended:
            found.append((player, compose.end(reader, view, player, reveal_url)))
    if public is not None:
        if started and not ended:
            found.append((None, compose.channel_stage(public, public_view, new_announcements,
                                                      game_url)))
        elif new_announcements:
            found.append((None, compose.announcements(public, new_announcements, game_url,
                                                      kind="channel")))
        if ended:
            found.append((None, compose.end(public, public_view, None, reveal_url)))
    return found


def reminder_minutes(conn: Connection, game_id: str) -> int:
    row = conn.execute(select(schema.notify_settings.c.reminder_minutes).where(
        schema.notify_settings.c.game_id == game_id)).first()
    return DEFAULT_REMINDER_MINUTES if row is None else int(row[0])


class Notifier:
    def __init__(self, config: NotifyConfig | None = None, clock: Clock | None = None) -> None:
        self.config = config or NotifyConfig.from_env()
        self.clock = clock or SystemClock()

    def now(self) -> datetime:
        """The clock's time in UTC."""
        return self.clock.now().astimezone(UTC)

    # -- links ------------------------------------------------------------------------------
    def url(self, path: str) -> str:
        return self.config.base_url + path

    # -- readers ----------------------------------------------------------------------------
    def reader(self, conn: Connection, game_id: str, game: Game, player: str | None
               ) -> compose.Reader:
        """The language and zone of ``player`` (his own settings, else the game's)."""
        g, p = schema.games, schema.players
        title = conn.execute(select(g.c.title).where(g.c.id == game_id)).scalar_one_or_none()
        locale, zone = game.state.locale, game.state.options.get("timezone")
        if player is not None:
            row = conn.execute(select(p.c.locale, p.c.timezone).where(and_(
                p.c.game_id == game_id, p.c.name == player))).first()
            if row is not None:
                locale, zone = row[0] or locale, row[1] or zone
        return compose.Reader(locale, known_zone(str(zone) if zone else None),
                              compose.game_title(title or "", game.state.ruleset, locale),
                              game.ruleset.term_scope)

    # -- writing rows -----------------------------------------------------------------------
    def enqueue(self, conn: Connection, game_id: str, player: str | None,
                draft: compose.Draft, reader: compose.Reader, contact: Contact | None = None,
                channel_id: int | None = None, due_at: datetime | None = None,
                condition: Mapping[str, Any] | None = None) -> int:
        """Rows for ``draft``: one per way the reader is reached (his mail, his push
        channel; or the game channel ``channel_id``). Returns how many were written."""
        now = self.now()
        base: dict[str, Any] = {
            "game_id": game_id, "player": player, "channel_id": channel_id, "kind": draft.kind,
            "locale": reader.locale, "subject": draft.subject, "body_text": draft.text(),
            "condition": dict(condition) if condition else None, "attempts": 0,
            # in UTC: SQLite keeps the wall time without its offset
            "due_at": utc(due_at or now), "created_at": utc(now),
        }
        rows: list[dict[str, Any]] = []
        if channel_id is not None:
            rows.append({**base, "transport": "channel", "body_html": None, "status": QUEUED})
        elif contact is not None:
            unconfirmed = contact.email_state == PENDING
            if contact.mail_to and contact.wants(draft.kind) and (
                    not unconfirmed or draft.kind in ("confirm", "link")):
                # before the confirmation only the confirmation goes out; his link waits
                held = unconfirmed and draft.kind == "link"
                rows.append({**base, "transport": "email", "body_html": draft.html(),
                             "status": HELD if held else QUEUED})
            if contact.push_url and contact.wants(draft.kind) and draft.kind != "confirm":
                rows.append({**base, "transport": "push", "body_html": None,
                             "status": QUEUED})
        if rows:
            conn.execute(insert(schema.outbox), rows)
        return len(rows)

    # -- the hook ---------------------------------------------------------------------------
    def plan(self, conn: Connection, game_id: str, game: Game,
             new: Sequence[ev.Event]) -> None:
        """The messages the events ``new`` (just appended, not yet committed) cause."""
        if not new:
            return
        if any(isinstance(e, ev.RolledBack) for e in new):
            self.plan_reminders(conn, game_id, game)  # the stage may be another one now
            return
        if not any(isinstance(e, WATCHED) for e in new):
            return
        known = contacts(conn, game_id)
        readers = {p: self.reader(conn, game_id, game, p) for p in known
                   if p in game.state.players}
        channel_ids = [row[0] for row in conn.execute(select(schema.channels.c.id).where(
            schema.channels.c.game_id == game_id)).all()]
        public = self.reader(conn, game_id, game, None) if channel_ids else None
        for player, draft in drafts_for(game, new, readers, public,
                                        self.config.base_url + f"/g/{game_id}"):
            if player is None:
                assert public is not None
                for channel_id in channel_ids:
                    self.enqueue(conn, game_id, None, draft, public, channel_id=channel_id)
            else:
                self.enqueue(conn, game_id, player, draft, readers[player], known[player])
        if any(isinstance(e, ev.PhaseStarted | ev.DeadlineChanged | ev.GameEnded)
               for e in new):
            self.plan_reminders(conn, game_id, game)

    # -- reminders --------------------------------------------------------------------------
    def plan_reminders(self, conn: Connection, game_id: str, game: Game) -> None:
        """Replace the game's waiting reminders with those of its current stage: one per
        player with an awaited input, due ``reminder_minutes`` before the deadline. The
        worker checks again before sending (the deadline not passed, the input still
        awaited), so a move made meanwhile cancels it."""
        conn.execute(update(schema.outbox).where(and_(
            schema.outbox.c.game_id == game_id, schema.outbox.c.kind == "reminder",
            schema.outbox.c.status.in_((QUEUED, HELD)))).values(
            status="skipped", last_error="replanned: the stage or its deadline changed"))
        state = game.state
        minutes = reminder_minutes(conn, game_id)
        if minutes <= 0 or state.ended or not state.phase.is_play() or state.deadline is None:
            return
        due = state.deadline - timedelta(minutes=minutes)
        if due <= self.now():
            return  # the stage's own message said everything a reminder would
        for player, contact in contacts(conn, game_id).items():
            awaited = awaited_from(game, player) if player in state.players else []
            if not awaited:
                continue
            reader = self.reader(conn, game_id, game, player)
            draft = compose.reminder(reader, game.view(player), game.legal_commands(player),
                                     self.url(f"/g/{game_id}"))
            condition = {"phase": state.phase_label,
                         "deadline": state.deadline.astimezone(UTC).isoformat()}
            self.enqueue(conn, game_id, player, draft, reader, contact, due_at=due,
                         condition=condition)

    # -- the private link -------------------------------------------------------------------
    def link_mail(self, conn: Connection, game_id: str, game: Game, player: str, token: str,
                  contact: Contact) -> int:
        """His private link, to his address (held until it is confirmed)."""
        conn.execute(update(schema.outbox).where(and_(
            schema.outbox.c.game_id == game_id, schema.outbox.c.player == player,
            schema.outbox.c.kind == "link", schema.outbox.c.status.in_((QUEUED, HELD)))
        ).values(status="skipped", body_text=SCRUBBED, body_html=None,
                 last_error="replaced by a newer link"))
        reader = self.reader(conn, game_id, game, player)
        draft = compose.private_link(reader, player, self.url(f"/p/{token}"))
        return self.enqueue(conn, game_id, player, draft, reader, contact)

    def confirm_mail(self, conn: Connection, game_id: str, game: Game, player: str, key: str,
                     contact: Contact) -> int:
        reader = self.reader(conn, game_id, game, player)
        draft = compose.confirm(reader, player, self.url(f"/email/confirm/{key}"))
        return self.enqueue(conn, game_id, player, draft, reader, contact)


def utc(moment: datetime | None) -> datetime | None:
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)

"""The delivery worker: claim due outbox rows, send each once, record what happened.

A claim is a short transaction: ``SELECT … FOR UPDATE SKIP LOCKED`` on PostgreSQL (SQLite's
``BEGIN IMMEDIATE`` lets one claimer in at a time) picks due rows — ``pending`` ones whose
``due_at`` has come, and ``sending`` ones whose lease ran out (their worker died) — and
marks them ``sending`` under this claim, with a lease. So two workers never take the same
row. The send happens outside any transaction (a slow mail server holds no lock); then
the row becomes ``sent``, or ``pending`` again with a later ``due_at`` (backoff), or
``failed`` after its last try or a permanent refusal, with the server's answer.

A worker killed mid-send leaves its rows ``sending``; when their lease runs out another
worker claims them again. The one message that was on the wire may then arrive twice —
if the server had accepted it and the worker died before recording that; no protocol
step of SMTP can rule this out (docs/notifications.md). Every other row is sent once.
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import stamina
from sqlalchemy import Engine, and_, or_, select, update

from nightfall.engine.text import N_, Text
from nightfall.i18n import localize
from nightfall.notify import channels, mail
from nightfall.notify.config import NotifyConfig
from nightfall.notify.contacts import CONFIRMED, PENDING, contact
from nightfall.notify.outbox import SCRUBBED, awaited_from, utc
from nightfall.service.clock import Clock, SystemClock
from nightfall.store import EventStore, schema

log = logging.getLogger(__name__)
FOOTER = N_("You get this because of your sign-up in {game}. Choose what you get on your "
            "page; stop all e-mail: {url}")


@dataclass(frozen=True)
class Claimed:
    id: int
    game_id: str
    player: str | None
    channel_id: int | None
    transport: str
    kind: str
    locale: str
    subject: str
    body_text: str
    body_html: str | None
    condition: dict[str, Any] | None
    attempts: int


class Skip(Exception):
    """The message is no longer wanted (a passed deadline, an input made, an address
    removed): recorded as ``skipped`` with this reason."""


def not_sending_reason(config: NotifyConfig) -> Text | None:
    """Why e-mail waits in the outbox (``None``: a mail server is configured)."""
    if config.smtp is None:
        return Text(N_("No mail server is configured (NIGHTFALL_SMTP_URL): e-mails wait in "
                       "the outbox and go out once one is."))
    return None


class DeliveryWorker:
    def __init__(self, engine: Engine, config: NotifyConfig | None = None,
                 clock: Clock | None = None, interval: float = 2.0) -> None:
        self.engine = engine
        self.store = EventStore(engine)
        self.config = config or NotifyConfig.from_env()
        self.clock = clock or SystemClock()
        self.interval = interval
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _now(self) -> datetime:
        """The clock's time in UTC (SQLite keeps a time's wall clock without its offset)."""
        now = utc(self.clock.now())
        assert now is not None
        return now

    # -- claiming ---------------------------------------------------------------------------
    def transports(self) -> list[str]:
        return ["channel", "push"] + (["email"] if self.config.smtp is not None else [])

    def claim(self) -> list[Claimed]:
        box = schema.outbox
        now = self._now()
        token = secrets.token_hex(8)
        with self.engine.begin() as conn:
            ids = [row[0] for row in conn.execute(
                select(box.c.id).where(and_(
                    box.c.transport.in_(self.transports()),
                    or_(and_(box.c.status == "pending", box.c.due_at <= now),
                        and_(box.c.status == "sending", box.c.lease_until <= now))))
                .order_by(box.c.due_at, box.c.id).limit(self.config.batch)
                .with_for_update(skip_locked=True)).all()]
            if not ids:
                return []
            conn.execute(update(box).where(box.c.id.in_(ids)).values(
                status="sending", claim=token, attempts=box.c.attempts + 1,
                lease_until=now + timedelta(seconds=self.config.lease_seconds)))
            rows = conn.execute(select(box).where(box.c.id.in_(ids)).order_by(
                box.c.due_at, box.c.id)).mappings().all()
        self._token = token
        return [Claimed(r["id"], r["game_id"], r["player"], r["channel_id"], r["transport"],
                        r["kind"], r["locale"], r["subject"], r["body_text"], r["body_html"],
                        r["condition"], r["attempts"]) for r in rows]

    # -- one round --------------------------------------------------------------------------
    def run_once(self) -> Counter[str]:
        """Claim one batch and deliver it; how many rows ended in which status."""
        done: Counter[str] = Counter()
        for row in self.claim():
            done[self.deliver(row, self._token)] += 1
        return done

    def drain(self) -> Counter[str]:
        """Deliver until nothing is due (``nightfall deliver --once``)."""
        total: Counter[str] = Counter()
        while True:
            done = self.run_once()
            if not done:
                return total
            total.update(done)

    def deliver(self, row: Claimed, token: str) -> str:
        try:
            self._renew(row, token)
            send = self._prepare(row)
            for attempt in stamina.retry_context(
                    on=mail.TemporaryFailure, attempts=max(self.config.quick_tries, 1),
                    wait_initial=self.config.quick_wait, wait_max=self.config.quick_wait * 4,
                    timeout=None):
                with attempt:
                    send()
        except Skip as skip:
            return self._finish(row, token, "skipped", str(skip))
        except mail.PermanentFailure as refused:
            return self._finish(row, token, "failed", str(refused))
        except mail.TemporaryFailure as failure:
            if row.attempts >= self.config.max_attempts:
                return self._finish(row, token, "failed", str(failure))
            wait = min(self.config.retry_base * 2 ** (row.attempts - 1), self.config.retry_max)
            return self._finish(row, token, "pending", str(failure),
                                due_at=self._now() + timedelta(seconds=wait))
        except _LostClaim:
            return "lost"
        return self._finish(row, token, "sent", None)

    def _renew(self, row: Claimed, token: str) -> None:
        """Extend this claim's lease before a send; a claim already taken over by another
        worker (this one was too slow) is given up."""
        box = schema.outbox
        with self.engine.begin() as conn:
            renewed = conn.execute(update(box).where(and_(
                box.c.id == row.id, box.c.claim == token, box.c.status == "sending")).values(
                lease_until=self._now() + timedelta(seconds=self.config.lease_seconds)))
        if renewed.rowcount != 1:
            raise _LostClaim()

    def _finish(self, row: Claimed, token: str, status: str, error: str | None,
                due_at: datetime | None = None) -> str:
        box = schema.outbox
        values: dict[str, Any] = {"status": status, "last_error": error, "lease_until": None}
        if status == "sent":
            values["sent_at"] = self._now()
        if due_at is not None:
            values["due_at"] = due_at
        if row.kind == "link" and status in ("sent", "failed", "skipped"):
            values.update(body_text=SCRUBBED, body_html=None)
        with self.engine.begin() as conn:
            conn.execute(update(box).where(and_(box.c.id == row.id, box.c.claim == token))
                         .values(**values))
        if status == "failed":
            log.warning("outbox message %s (%s, %s) failed: %s", row.id, row.kind,
                        row.transport, error)
        return status

    # -- what to send, where ----------------------------------------------------------------
    def _prepare(self, row: Claimed) -> Any:
        """A function that sends ``row`` (the recipient looked up now: an address removed
        or unsubscribed since is not written to), or :class:`Skip`."""
        if row.kind == "reminder":
            self._check_reminder(row)
        if row.transport == "channel":
            with self.engine.connect() as conn:
                url = conn.execute(select(schema.channels.c.url).where(
                    schema.channels.c.id == row.channel_id)).scalar_one_or_none()
            if url is None:
                raise Skip("the channel was removed")
            return lambda: channels.send(url, row.subject, row.body_text,
                                         self.config.allow_private, self.config.timeout)
        with self.engine.connect() as conn:
            found = contact(conn, row.game_id, row.player or "")
        if found is None:
            raise Skip("no contact")
        if row.transport == "push":
            if not found.push_url:
                raise Skip("the push channel was removed")
            push_url = found.push_url
            return lambda: channels.send(push_url, row.subject, row.body_text,
                                         self.config.allow_private, self.config.timeout)
        usable = found.email and (found.email_state == CONFIRMED or (
            found.email_state == PENDING and row.kind == "confirm"))
        if not usable or self.config.smtp is None:
            raise Skip("the address was removed, is unconfirmed or unsubscribed")
        unsubscribe = self.config.base_url + f"/email/unsubscribe/{found.unsubscribe_key}"
        footer = localize(Text(FOOTER, {"game": row.subject.partition("] ")[0].lstrip("["),
                                        "url": unsubscribe}), row.locale)
        message = mail.build(
            row_id=row.id, game_id=row.game_id, to=str(found.email),
            mail_from=self.config.mail_from, subject=row.subject,
            text=row.body_text + "\n-- \n" + footer + "\n",
            html=(row.body_html or "").replace(
                "</body>", f"<hr><p><small>{_escape(footer)}</small></p></body>") or None,
            locale=row.locale, unsubscribe_url=unsubscribe)
        smtp = self.config.smtp
        return lambda: mail.send(smtp, message, self.config.timeout)

    def _check_reminder(self, row: Claimed) -> None:
        """A reminder goes out only while its stage runs, before its deadline, and while
        the player's input is still awaited."""
        condition = row.condition or {}
        game = self.store.load(row.game_id)
        state = game.state
        deadline = utc(state.deadline)
        if state.phase_label != condition.get("phase") or deadline is None or (
                deadline.isoformat() != condition.get("deadline")):
            raise Skip("the stage or its deadline changed")
        if self._now() >= deadline:
            raise Skip("the deadline has passed")
        if not awaited_from(game, row.player or ""):
            raise Skip("the input came in")

    # -- in the background ------------------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=self._loop, name="nightfall-delivery",
                                        daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                busy = bool(self.run_once())
            except Exception:
                log.exception("delivery round failed")
                busy = False
            if not busy and self._stop.wait(self.interval):
                return

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()


class _LostClaim(Exception):
    pass


def _escape(text: str) -> str:
    from html import escape

    return escape(text)


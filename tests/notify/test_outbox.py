"""The outbox is transactional, and reminders go out only while they are needed: around
a deadline a reminder reaches the player still awaited, not the one who acted before or
after it was planned, and none at all once the deadline has passed."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import func, select

from mailkit import SmtpBox, text_of
from nightfall.engine import Command, Rejected
from nightfall.service import FixedClock, GameService
from nightfall.store import schema
from notifykit import config, game_with_mail, service, sqlite_url, worker

MAIL = {"Ann": "ann@example.org", "Bob": "bob@example.org", "Cid": "cid@example.org"}
#: day 1 (the election, C3) ends Tuesday 05.03.2024 19:30 Berlin = 18:30 UTC; reminders
#: are due two hours before
REMINDER_DUE = datetime(2024, 3, 5, 16, 30, tzinfo=UTC)


def rows(svc: GameService) -> int:
    with svc.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(schema.outbox)).scalar_one())


def reminders(box: SmtpBox) -> list[str]:
    return sorted(str(m["To"]) for m in box.messages() if "Erinnerung" in str(m["Subject"]))


def test_a_rolled_back_command_leaves_no_message(tmp_path: Path) -> None:
    svc = service(sqlite_url(tmp_path), config(None))
    game_id, _ = game_with_mail(svc, MAIL, start=False)
    before = rows(svc)

    def crash(*_: object) -> None:
        raise RuntimeError("the database went away before the commit")

    svc.store.on_append.append(crash)
    with pytest.raises(RuntimeError):
        svc.start(game_id)  # the stage mails were written, then the transaction rolled back
    assert rows(svc) == before
    assert not svc.load(game_id).state.phase.is_play()
    svc.store.on_append.remove(crash)
    with pytest.raises(Rejected):
        svc.submit(game_id, Command("elect", by="Ann", target="Bob"))  # not started yet
    assert rows(svc) == before
    svc.start(game_id)  # committed: its messages are there
    assert rows(svc) > before


def test_reminders_around_a_deadline(tmp_path: Path, smtp: SmtpBox) -> None:
    notify = config(smtp.url)
    svc = service(sqlite_url(tmp_path), notify)
    clock = svc.clock
    assert isinstance(clock, FixedClock)
    game_id, _ = game_with_mail(svc, MAIL)
    deliver = worker(svc, notify)
    deliver.drain()
    clock.set(datetime(2024, 3, 5, 12, 0, tzinfo=UTC))
    svc.submit(game_id, Command("elect", by="Bob", target="Cid"))  # Bob acted early
    clock.set(datetime(2024, 3, 5, 16, 0, tzinfo=UTC))
    assert deliver.drain().get("sent", 0) == 0  # not yet due
    clock.set(datetime(2024, 3, 5, 16, 45, tzinfo=UTC))  # due, but the worker was slow:
    svc.submit(game_id, Command("elect", by="Cid", target="Ann"))  # Cid acted meanwhile
    done = deliver.drain()
    assert reminders(smtp) == ["ann@example.org"]
    assert done == {"sent": 1, "skipped": 2}, done
    [reminder] = [m for m in smtp.messages() if "Erinnerung" in str(m["Subject"])]
    assert reminder["Subject"] == "[Testspiel] Erinnerung: Tag 1 endet bald"
    assert "05.03.2024 19:30 CET" in text_of(reminder)
    reasons = {m.player: m.error for m in svc.notifications.messages(game_id)
               if m.kind == "reminder"}
    assert reasons == {"Ann": None, "Bob": "the input came in", "Cid": "the input came in"}


def test_no_reminder_once_the_deadline_has_passed(tmp_path: Path, smtp: SmtpBox) -> None:
    notify = config(smtp.url)
    svc = service(sqlite_url(tmp_path), notify)
    clock = svc.clock
    assert isinstance(clock, FixedClock)
    game_id, _ = game_with_mail(svc, MAIL)
    deliver = worker(svc, notify)
    deliver.drain()
    clock.set(datetime(2024, 3, 5, 18, 31, tzinfo=UTC))  # the worker was down until now
    done = deliver.drain()
    assert reminders(smtp) == [] and done == {"skipped": 3}, done
    assert {m.error for m in svc.notifications.messages(game_id) if m.kind == "reminder"} == {
        "the deadline has passed"}


def test_a_moved_deadline_moves_the_reminder(tmp_path: Path, smtp: SmtpBox) -> None:
    notify = config(smtp.url)
    svc = service(sqlite_url(tmp_path), notify)
    clock = svc.clock
    assert isinstance(clock, FixedClock)
    game_id, _ = game_with_mail(svc, {"Ann": "ann@example.org"})
    deliver = worker(svc, notify)
    deliver.drain()
    svc.gm(game_id, "extend", minutes=60)  # the deadline is now 20:30 Berlin
    clock.set(REMINDER_DUE.replace(minute=45))
    assert reminders(smtp) == [] and deliver.drain().get("sent", 0) == 0
    clock.set(datetime(2024, 3, 5, 17, 31, tzinfo=UTC))
    deliver.drain()
    [reminder] = [m for m in smtp.messages() if "Erinnerung" in str(m["Subject"])]
    assert "05.03.2024 20:30 CET" in text_of(reminder)


def test_the_gm_turns_reminders_off(tmp_path: Path, smtp: SmtpBox) -> None:
    notify = config(smtp.url)
    svc = service(sqlite_url(tmp_path), notify)
    clock = svc.clock
    assert isinstance(clock, FixedClock)
    game_id, _ = game_with_mail(svc, {"Ann": "ann@example.org"})
    svc.notifications.set_reminder_minutes(game_id, 0)
    clock.set(datetime(2024, 3, 5, 17, 0, tzinfo=UTC))
    worker(svc, notify).drain()
    assert reminders(smtp) == []

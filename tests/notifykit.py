"""A game service whose outbox a test delivers: a Changelings game with players, some of
them reachable by e-mail, on a clock the test sets."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from nightfall.notify.config import NotifyConfig, parse_smtp_url
from nightfall.notify.worker import DeliveryWorker
from nightfall.service import FixedClock, GameService

BASE = "http://nightfall.test:8123"
#: Monday 2024-03-04, 12:00 Berlin: the game starts on a day (C3) whose deadline is 22:00
START = datetime(2024, 3, 4, 11, 0, tzinfo=UTC)
ROLES = {"Ann": "changeling", "Bob": "researcher", "Cid": "pony", "Dee": "pony",
         "Eve": "shield"}


def config(smtp_url: str | None, **changes: object) -> NotifyConfig:
    base = NotifyConfig(base_url=BASE, smtp=parse_smtp_url(smtp_url) if smtp_url else None,
                        mail_from="Nightfall <gm@nightfall.test>", allow_private=True,
                        quick_tries=2, quick_wait=0.01, retry_base=0.05, retry_max=0.2,
                        timeout=5.0)
    return replace(base, **changes)  # type: ignore[arg-type]


def service(url: str, notify: NotifyConfig, clock: FixedClock | None = None) -> GameService:
    return GameService(url=url, clock=clock or FixedClock(START), notify=notify)


def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'notify.db'}"


def game_with_mail(svc: GameService, emails: dict[str, str], vouched: bool = True,
                   start: bool = True, title: str = "Testspiel") -> tuple[str, dict[str, str]]:
    """A started Changelings game (no early close) of ``ROLES``; ``emails`` give some
    players an address (vouched by the GM unless ``vouched`` is false). Returns the game
    id and every player's token."""
    created = svc.create("changelings", seed=3, options={"early_close": False}, title=title)
    tokens = {}
    for name in ROLES:
        tokens[name] = svc.signup(created.id, name, email=emails.get(name), vouched=vouched)
    svc.assign(created.id, ROLES)
    if start:
        svc.start(created.id)
    return created.id, tokens


def worker(svc: GameService, notify: NotifyConfig) -> DeliveryWorker:
    return DeliveryWorker(svc.engine, notify, clock=svc.clock)

"""Helpers of the web tests: an app on a temporary SQLite file with a fixed clock, CSRF
tokens read from pages, and a small Changelings game set up through the service."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from fastapi import FastAPI
from fastapi.testclient import TestClient

from nightfall.service import FixedClock, GameService
from nightfall.web import Settings, create_app

START = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')

#: the small game of most tests: who plays what
ROLES = {"Ann": "pony", "Bob": "changeling", "Cid": "researcher", "Dee": "night_owl",
         "Eve": "pony"}


@dataclass
class Env:
    app: FastAPI
    service: GameService
    clock: FixedClock
    client: TestClient


def make_env(tmp_path: Path) -> Env:
    clock = FixedClock(START)
    service = GameService(url=f"sqlite:///{tmp_path / 'web.db'}", clock=clock)
    app = create_app(Settings(database_url=None, secret_key="test-secret",
                              base_url="http://testserver", sse_interval=0.05,
                              sse_max_seconds=0.5), service=service)
    return Env(app, service, clock, TestClient(app))


def csrf_of(client: TestClient, url: str = "/") -> str:
    """The CSRF form token of the client's cookie (read from a page)."""
    page = client.get(url)
    found = CSRF.search(page.text)
    if found is None:  # a page without forms: the cookie is set all the same
        page = client.get("/new")
        found = CSRF.search(page.text)
    assert found is not None
    return found.group(1)


@dataclass
class Small:
    """A started five-player Changelings game (see ``ROLES``), English texts."""

    game_id: str
    gm: str
    tokens: dict[str, str] = field(default_factory=dict)

    def p(self, name: str) -> str:
        return f"/p/{self.tokens[name]}"

    @property
    def g(self) -> str:
        return f"/gm/{self.gm}"


def small_game(service: GameService, locale: str = "en", start: bool = True) -> Small:
    created = service.create("changelings", 7, {"early_close": True}, locale, title="Small")
    game = Small(created.id, created.gm_token)
    for name in ROLES:
        game.tokens[name] = service.signup(created.id, name, f"{name} the pony")
    if start:
        service.assign(created.id, ROLES)
        service.start(created.id)
    return game

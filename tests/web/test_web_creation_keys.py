"""Who may create games (issue 18, docs/hosting.md): an open site lets anybody (``./run``);
with ``creation_keys`` set only who brings a key (an invite link ``/new?key=…``) — a
missing or wrong key gets a clear 403 page and creates nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from nightfall.service.clock import FixedClock
from nightfall.service.games import GameService
from nightfall.store import schema
from nightfall.web.app import create_app
from nightfall.web.settings import Settings, creation_keys_from_env
from webkit import CSRF, START


def closed_site(tmp_path: Path) -> tuple[TestClient, GameService]:
    service = GameService(url=f"sqlite:///{tmp_path / 'web.db'}", clock=FixedClock(START))
    app = create_app(Settings(database_url=None, secret_key="test-secret",
                              base_url="http://testserver",
                              creation_keys=frozenset({"invite-7f3a"})), service=service)
    return TestClient(app), service


def games_count(service: GameService) -> int:
    with service.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(schema.games)).scalar_one())


def create(client: TestClient, token: str, key: str | None) -> int:
    data = {"csrf_token": token, "ruleset": "changelings", "title": "T"}
    if key is not None:
        data["key"] = key
    return client.post("/new", data=data, follow_redirects=False).status_code


def test_a_closed_site_creates_games_only_with_a_creation_key(tmp_path: Path) -> None:
    client, service = closed_site(tmp_path)
    closed = client.get("/new")
    assert closed.status_code == 403
    assert "creation key" in closed.text and 'name="key"' in closed.text
    wrong = client.get("/new?key=guess")
    assert wrong.status_code == 403 and "not valid" in wrong.text
    invited = client.get("/new?key=invite-7f3a")
    assert invited.status_code == 200
    assert 'name="key" value="invite-7f3a"' in invited.text  # carried into the form
    token = CSRF.search(invited.text)
    assert token is not None
    assert create(client, token.group(1), None) == 403
    assert create(client, token.group(1), "guess") == 403
    assert games_count(service) == 0  # refused: nothing created
    assert create(client, token.group(1), "invite-7f3a") == 303
    assert games_count(service) == 1


def test_an_open_site_needs_no_key(tmp_path: Path) -> None:
    service = GameService(url=f"sqlite:///{tmp_path / 'web.db'}", clock=FixedClock(START))
    client = TestClient(create_app(Settings(database_url=None, secret_key="s",
                                            creation_keys=frozenset()), service=service))
    page = client.get("/new")
    assert page.status_code == 200
    token = CSRF.search(page.text)
    assert token is not None
    assert create(client, token.group(1), None) == 303


def test_creation_keys_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NIGHTFALL_CREATION_KEYS", " a1 , ,b2,")
    assert creation_keys_from_env() == frozenset({"a1", "b2"})
    monkeypatch.delenv("NIGHTFALL_CREATION_KEYS")
    assert creation_keys_from_env() == frozenset()

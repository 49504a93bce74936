"""The rate limit of submissions per player link, on SQLite and on a real PostgreSQL:
over the limit the answer is 429 with Retry-After and a message in the player's language,
and nothing changes; the count is shared by every process using the database."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from dbkit import KINDS
from dbkit import database_url as fresh_database
from nightfall.service import FixedClock, GameService
from nightfall.web import Settings, create_app
from webkit import START, Small, csrf_of, small_game

BURST = 3


@pytest.fixture(params=KINDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return fresh_database(request.param, tmp_path)


class Site:
    def __init__(self, url: str) -> None:
        self.clock = FixedClock(START)
        self.service = GameService(url=url, clock=self.clock)
        self.app = create_app(Settings(secret_key="test-secret", base_url="http://testserver",
                                       submit_rate=30, submit_burst=BURST),
                              service=self.service)
        self.client = TestClient(self.app)
        self.small: Small = small_game(self.service)
        self.csrf = csrf_of(self.client)

    def post(self, player: str, message: str, csrf: str | None = None,
             game: Small | None = None) -> tuple[int, str, str]:
        url = (game or self.small).p(player) + "/post"
        response = self.client.post(url, follow_redirects=False,
                                    data={"csrf_token": csrf or self.csrf, "text": message})
        return response.status_code, response.text, response.headers.get("retry-after", "")

    def head(self) -> int:
        return self.service.meta(self.small.game_id).head_seq


@pytest.fixture
def site(database_url: str) -> Iterator[Site]:
    built = Site(database_url)
    yield built
    built.service.engine.dispose()


def test_over_the_limit_answers_429_and_changes_nothing(site: Site) -> None:
    for number in range(BURST):
        assert site.post("Ann", f"post {number}")[0] == 303
    head = site.head()
    status, page, retry_after = site.post("Ann", "one too many")
    assert status == 429
    assert retry_after == "2"  # 30 per minute: the next slot comes in two seconds
    assert "You have sent too many moves or posts in a short time" in page
    assert "wait 2 seconds" in page
    assert site.head() == head
    assert site.client.post(site.small.p("Ann") + "/act", follow_redirects=False, data={
        "csrf_token": site.csrf, "action": "vote", "option": '[["Bob"],null]'}
    ).status_code == 429  # moves count against the same limit as posts
    assert site.head() == head
    assert site.post("Bob", "my own link has its own limit")[0] == 303
    site.clock.advance(seconds=2)
    assert site.post("Ann", "after a pause")[0] == 303
    assert site.post("Ann", "but not two")[0] == 429


def test_the_message_is_in_the_players_language(site: Site) -> None:
    german = small_game(site.service, locale="de")
    for number in range(BURST):
        assert site.post("Ann", f"Beitrag {number}", game=german)[0] == 303
    status, page, _ = site.post("Ann", "zu viel", game=german)
    assert status == 429
    assert "Zu viele Einsendungen" in page and "Es wurde nichts geändert" in page


def test_refused_requests_do_not_count(site: Site) -> None:
    for _ in range(BURST + 2):
        assert site.post("Ann", "forged", csrf="forged")[0] == 403
        assert site.client.post("/p/not-a-link/post", data={
            "csrf_token": site.csrf, "text": "x"}).status_code == 404
    for number in range(BURST):
        assert site.post("Ann", f"post {number}")[0] == 303


WORKER = """
import sys
from datetime import datetime
from nightfall.store import make_engine
from nightfall.store.repository import EventStore
store = EventStore(make_engine(sys.argv[1]))
now = datetime.fromisoformat(sys.argv[2])
print(sum(store.take_slot("p:shared", now, 60.0, 7) == 0.0 for _ in range(10)))
"""


def test_every_process_counts_against_one_limit(site: Site, database_url: str) -> None:
    """Four processes try ten submissions each at the same moment: exactly the burst of
    seven gets through, whichever process sent them."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    workers = [subprocess.Popen([sys.executable, "-c", WORKER, database_url, START.isoformat()],
                                stdout=subprocess.PIPE, text=True, env=env) for _ in range(4)]
    allowed = [int(worker.communicate(timeout=120)[0]) for worker in workers]
    assert all(worker.returncode == 0 for worker in workers)
    assert sum(allowed) == 7, allowed

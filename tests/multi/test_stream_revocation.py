"""An open live stream ends with its link (issue 18): after the GM revokes a player's
link or reissues his own, a stream opened with the old token must stop at once instead of
going on for ``sse_max_seconds`` (five minutes), still counting the GM's head.

Real ``nightfall serve`` processes: one on SQLite (the next poll sees the revocation), and
on PostgreSQL the pair A/B with the stream on B and the revocation made on A or by the
command line's store (B hears it through ``NOTIFY nightfall_tokens``, long before the
20-second safety poll).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from multikit import Browser, Server, started_game

from nightfall.service import GameService

#: a stream must end within this many seconds of the revocation's commit
PROMPT = 5.0


class OpenStream:
    """A server-sent-events stream read in a thread, which notes when it ended."""

    def __init__(self, server: Server, path: str) -> None:
        self.client = httpx.Client(timeout=httpx.Timeout(10, read=60))
        self.opened = threading.Event()
        self.ended = threading.Event()
        self.lines: list[str] = []
        self.status = 0
        self._thread = threading.Thread(target=self._read, args=(server.base + path,),
                                        daemon=True)
        self._thread.start()
        assert self.opened.wait(10), "the stream did not open"
        assert self.status == 200, self.status

    def _read(self, url: str) -> None:
        try:
            with self.client.stream("GET", url) as response:
                self.status = response.status_code
                self.opened.set()
                for line in response.iter_lines():
                    self.lines.append(line)
        except httpx.HTTPError:
            pass
        finally:
            self.opened.set()
            self.ended.set()

    def close(self) -> None:
        self.client.close()


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[tuple[Server, GameService]]:
    url = f"sqlite:///{tmp_path / 'streams.db'}"
    service = GameService(url=url)  # migrates the file before the server opens it
    server = Server(url, tmp_path, "S")
    try:
        server.wait_ready()
        yield server, service
    finally:
        server.stop()
        service.engine.dispose()


def _revoke_player_and_reissue_gm(watcher: Server, actor: Server,
                                  service: GameService) -> None:
    game = started_game(service)
    player = OpenStream(watcher, f"/p/{game.tokens['P1']}/events")
    other = OpenStream(watcher, f"/p/{game.tokens['P2']}/events")
    gm = OpenStream(watcher, f"/gm/{game.gm}/events")
    try:
        time.sleep(0.5)  # the streams are past their first look
        assert not player.ended.is_set() and not gm.ended.is_set()
        revoked = Browser(actor).post(actor, f"/gm/{game.gm}/revoke", player="P1")
        assert revoked.status_code == 303
        assert player.ended.wait(PROMPT), "the revoked player's stream went on"
        assert not other.ended.is_set(), "another player's stream ended with it"
        assert not gm.ended.is_set()

        service.store.issue_token(game.game_id, None)  # as `game token reissue --gm`
        assert gm.ended.wait(PROMPT), "the GM's stream with the old link went on"
        assert not other.ended.is_set()
        # and the old links cannot open a new stream
        for token in (game.tokens["P1"], game.gm):
            kind = "gm" if token == game.gm else "p"
            response = httpx.get(f"{watcher.base}/{kind}/{token}/events", timeout=10)
            assert response.status_code == 404
    finally:
        for stream in (player, other, gm):
            stream.close()


def test_sqlite_streams_end_when_their_link_is_revoked_or_reissued(
    sqlite_server: tuple[Server, GameService]
) -> None:
    server, service = sqlite_server
    _revoke_player_and_reissue_gm(server, server, service)


def test_postgres_streams_on_another_process_end_at_once(
    pair: tuple[Server, Server], service: GameService
) -> None:
    a, b = pair
    _revoke_player_and_reissue_gm(b, a, service)


def test_an_observers_stream_ends_when_his_link_is_revoked_or_reissued(
    sqlite_server: tuple[Server, GameService]
) -> None:
    """An observer (Island I6.7) reads the public stream with his own link: revoking or
    reissuing that link ends it too, as it ends a player's."""
    server, service = sqlite_server
    created = service.create("island", 5, {"random_events": False, "items_per_player": 0},
                             "en")
    for name in ("Ann", "Bob", "Cid", "Dee", "Eve"):
        service.signup(created.id, name)
    service.assign(created.id, {"Ann": "werewolf", "Bob": "seer", "Cid": "passenger",
                                "Dee": "passenger", "Eve": "passenger"})
    service.start(created.id)
    first = service.admit_observer(created.id, "Zoe")
    watching = OpenStream(server, f"/o/{first}/events")
    public = OpenStream(server, f"/g/{created.id}/events")
    try:
        time.sleep(0.5)
        assert not watching.ended.is_set()
        second = service.store.issue_token(created.id, "Zoe", observer=True)  # reissued
        assert watching.ended.wait(PROMPT), "the observer's stream with the old link went on"
        again = OpenStream(server, f"/o/{second}/events")
        try:
            time.sleep(0.5)
            assert not again.ended.is_set()
            service.store.revoke_access(created.id, "Zoe", True)  # the GM's "revoke"
            assert again.ended.wait(PROMPT), "the revoked observer's stream went on"
        finally:
            again.close()
        assert not public.ended.is_set(), "the public stream ended with his link"
        assert httpx.get(f"{server.base}/o/{first}/events", timeout=10).status_code == 404
    finally:
        watching.close()
        public.close()

"""Each server process caches who holds a private link; a revoked or reissued link must
still stop working at once on the process that revoked it and, through the PostgreSQL
notification, within moments on every other process — also when the GM command line (a
third process) revoked it."""

from __future__ import annotations

import time

import httpx
from multikit import Browser, Server, started_game, wait_until

from nightfall.service import GameService


def status(server: Server, path: str) -> int:
    return httpx.get(server.base + path, timeout=10).status_code


def test_a_link_revoked_on_one_process_is_404_there_at_once_and_soon_on_the_other(
    pair: tuple[Server, Server], service: GameService
) -> None:
    a, b = pair
    game = started_game(service)
    link = f"/p/{game.tokens['P1']}"
    for server in (a, b):  # both processes now know the link (and may cache it)
        for path in (link, link + "/thread", f"/api{link}"):
            assert status(server, path) == 200
    revoked = Browser(a).post(a, f"/gm/{game.gm}/revoke", player="P1")
    assert revoked.status_code == 303
    done = time.monotonic()
    assert status(a, link) == 404  # the revoking process: at once, no waiting
    wait_until(lambda: status(b, link) == 404, 5, "the link to be 404 on B")
    print(f"\nrevoked on A, 404 on B after {(time.monotonic() - done) * 1000:.0f} ms")
    for server in (a, b):
        for path in (link + "/thread", f"/api{link}"):
            assert status(server, path) == 404
        assert status(server, f"/p/{game.tokens['P2']}") == 200  # nobody else's link


def test_a_link_reissued_by_another_process_stops_working_on_both(
    pair: tuple[Server, Server], service: GameService
) -> None:
    a, b = pair
    game = started_game(service)
    old = f"/p/{game.tokens['P4']}"
    for server in (a, b):
        assert status(server, old) == 200
    new = f"/p/{service.store.issue_token(game.game_id, 'P4')}"  # as `game token reissue`
    for server in (a, b):
        wait_until(lambda s=server: status(s, old) == 404, 5,  # type: ignore[misc]
                   f"the old link to be 404 on {server.name}")
        assert status(server, new) == 200

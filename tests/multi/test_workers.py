"""``nightfall serve --workers N``: uvicorn starts N worker processes from the factory
``app_from_env``; each runs its own scheduler and live-update listener."""

from __future__ import annotations

from pathlib import Path

import httpx
from multikit import (
    Browser,
    Server,
    check_log,
    listeners,
    next_line,
    started_game,
    wait_until,
)

from nightfall.engine import events as ev
from nightfall.service import GameService


def test_workers_share_the_port_and_each_listens(postgres_url: str, tmp_path: Path) -> None:
    server = Server(postgres_url, tmp_path, "W", workers=2)
    service = GameService(url=postgres_url)
    try:
        server.wait_ready()
        wait_until(lambda: len(listeners(service)) == 2, 20, "a listener in each worker")
        game = started_game(service)
        browser = Browser(server)
        with httpx.stream("GET", f"{server.base}/g/{game.game_id}/events",
                          timeout=httpx.Timeout(5.0)) as response:
            lines = response.iter_lines()
            next_line(lines, "retry: 3000")
            for i in range(4):  # new connections: the kernel spreads them over the workers
                assert browser.say(server, game.tokens["P1"], f"hello {i}").status_code == 303
            next_line(lines, "event: post")
        posted = [e.text for e in check_log(service, game.game_id) if isinstance(e, ev.Posted)]
        assert posted == [f"hello {i}" for i in range(4)]
    finally:
        server.stop()
        service.engine.dispose()

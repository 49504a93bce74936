"""A server process killed with SIGKILL in the middle of resolving a deadline: the game is
left due, another process's scheduler resolves it, and nothing is lost or doubled.

Process A runs with the fault point ``NIGHTFALL_FAULT=pause:FILE``: its scheduler claims
the due game, inserts the resolution's events and stops before the commit. While it
holds the claim, other schedulers skip the game instead of waiting (``SKIP LOCKED``).
Then A is killed; PostgreSQL rolls its transaction back, and process B closes the stage.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

from multikit import PLAYERS, Server, check_log, pass_deadline_now, started_game, wait_until

from nightfall.engine import Command, Game
from nightfall.engine import events as ev
from nightfall.rulesets import get_ruleset
from nightfall.service import GameService


def test_a_process_killed_while_resolving_leaves_the_game_to_the_other(
    postgres_url: str, tmp_path: Path
) -> None:
    marker = tmp_path / "paused"
    a = Server(postgres_url, tmp_path, "A", fault=f"pause:{marker}")
    service = GameService(url=postgres_url)
    b: Server | None = None
    try:  # whatever fails, no server is left running (it would hold the test database)
        a.wait_ready()
        game = started_game(service)
        for i, name in enumerate(PLAYERS):  # the election, so the resolution has work
            service.submit(game.game_id, Command("elect", by=name, target=PLAYERS[i % 2]))
        pass_deadline_now(service, game.game_id)
        before = service.store.events(game.game_id)

        wait_until(marker.exists, 30, "process A to pause inside the resolution")
        assert marker.read_text() == "after_append"
        with ThreadPoolExecutor(max_workers=1) as pool:  # claimed by A: skipped, not waited
            ticked = pool.submit(service.tick_due)
            try:
                assert ticked.result(timeout=5) == {}
            finally:
                if not ticked.done():  # it waited for A's claim: free it before failing
                    a.kill()
        assert service.store.events(game.game_id) == before  # A's events are not committed
        b = Server(postgres_url, tmp_path, "B")
        b.wait_ready()  # B's scheduler skips the claimed game; B serves meanwhile
        assert service.meta(game.game_id).phase == "day 1"
        a.kill()
        wait_until(lambda: service.meta(game.game_id).phase != "day 1", 20,
                   "process B to resolve the game")
        time.sleep(0.5)  # a few more ticks of B: nothing more may happen
        stored = check_log(service, game.game_id)
    finally:
        if b is not None:
            b.stop()
        a.stop()
        service.engine.dispose()
    assert [e.phase for e in stored if isinstance(e, ev.StageClosed)] == ["day 1"]
    assert [e.label for e in stored[len(before):] if isinstance(e, ev.PhaseStarted)] == [
        "night 1/1"]
    memory = Game.from_events(get_ruleset("changelings"), before)
    memory.tick(datetime.now(UTC))
    assert stored == memory.events  # the whole resolution, once, every election counted

"""Two real ``nightfall serve`` processes on one PostgreSQL database behave as one: commands
sent to both are applied exactly once and both answer the same; a deadline fires once with
both schedulers running; a live-update stream on one process hears a command made on the
other at once (the PostgreSQL notification, not the safety poll)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from functools import partial

import httpx
from multikit import (
    PLAYERS,
    Browser,
    Server,
    check_log,
    listeners,
    next_line,
    pass_deadline_now,
    started_game,
    wait_until,
)
from sqlalchemy import text

from nightfall.engine import Game
from nightfall.engine import events as ev
from nightfall.rulesets import get_ruleset
from nightfall.service import GameService


def test_commands_sent_to_both_processes_are_applied_exactly_once(
    pair: tuple[Server, Server], service: GameService
) -> None:
    a, b = pair
    game = started_game(service)
    head = service.meta(game.game_id).head_seq
    browser = Browser(a)  # its cookie is good on B too: one site, one secret
    posts = [(f"round {r}: {name} speaks", (a, b)[(r + i) % 2], name)
             for r in range(3) for i, name in enumerate(PLAYERS)]
    votes = [(name, PLAYERS[(i + 2) % len(PLAYERS)], (b, a)[i % 2])
             for i, name in enumerate(PLAYERS)]

    jobs: Sequence[Callable[[], httpx.Response]] = [
        partial(browser.say, server, game.tokens[name], said) for said, server, name in posts
    ] + [partial(browser.act, server, game.tokens[name], "elect", target)
         for name, target, server in votes]
    with ThreadPoolExecutor(max_workers=8) as pool:  # concurrently, on both processes
        responses = list(pool.map(lambda job: job(), jobs))
    assert [r.status_code for r in responses] == [303] * len(jobs), [
        r.text[:300] for r in responses if r.status_code != 303]

    stored = check_log(service, game.game_id)
    new = stored[head:]
    assert len(new) == len(jobs)  # one event per command: none lost, none twice
    assert sorted(e.text for e in new if isinstance(e, ev.Posted)) == sorted(
        said for said, _, _ in posts)
    assert sorted((e.player, e.targets) for e in new if isinstance(e, ev.Submitted)) == sorted(
        (name, (target,)) for name, target, _ in votes)

    paths = [f"/api/g/{game.game_id}", f"/api/gm/{game.gm}"] + [
        f"/api/p/{token}" for token in game.tokens.values()]
    for path in paths:
        on_a, on_b = httpx.get(a.base + path).json(), httpx.get(b.base + path).json()
        assert on_a == on_b, path
    gm_view = httpx.get(b.base + f"/api/gm/{game.gm}").json()
    assert gm_view["head_seq"] == head + len(jobs)


def test_a_deadline_fires_once_with_both_schedulers_running(
    pair: tuple[Server, Server], service: GameService
) -> None:
    game = started_game(service)
    pass_deadline_now(service, game.game_id)
    before = service.store.events(game.game_id)
    wait_until(lambda: service.meta(game.game_id).phase != "day 1", 15,
               "a scheduler to close day 1")
    # let both schedulers look several more times (they tick every 0.2 s)
    time.sleep(1.0)
    stored = check_log(service, game.game_id)
    new = stored[len(before):]
    assert [e.phase for e in stored if isinstance(e, ev.StageClosed)] == ["day 1"]
    assert [e.label for e in new if isinstance(e, ev.PhaseStarted)] == ["night 1/1"]
    # exactly what one tick of the game in memory produces
    memory = Game.from_events(get_ruleset("changelings"), before)
    memory.tick(datetime.now(UTC))
    assert stored == memory.events


def say_timed(browser: Browser, server: Server, token: str, text: str,
              times: dict[str, float]) -> None:
    times["sent"] = time.monotonic()
    if browser.say(server, token, text).status_code == 303:
        times["answered"] = time.monotonic()


def test_a_stream_on_one_process_hears_a_command_made_on_the_other(
    pair: tuple[Server, Server], service: GameService
) -> None:
    a, b = pair
    game = started_game(service)
    browser = Browser(a)
    figures = []
    for round_ in range(3):
        times: dict[str, float] = {}
        # no keep-alive comes for 20 s (the safety poll): a 5 s read timeout means "never"
        with httpx.stream("GET", f"{b.base}/p/{game.tokens['P3']}/events",
                          timeout=httpx.Timeout(5.0)) as response:
            lines = response.iter_lines()
            next_line(lines, "retry: 3000")  # subscribed on B
            poster = threading.Thread(target=say_timed, args=(
                browser, a, game.tokens["P2"], f"live {round_}", times))
            poster.start()
            arrived = next_line(lines, "event: post")
            poster.join()
        assert "answered" in times
        figures.append((arrived - times["sent"], max(arrived - times["answered"], 0.0)))
    print("\nlive update A→B: "
          + ", ".join(f"{total * 1000:.0f} ms after sending ({after * 1000:.0f} ms after "
                      f"A answered)" for total, after in figures))
    # the safety poll is 20 s: only the notification can be this fast
    assert all(after < 1.0 for _, after in figures), figures


def test_a_cut_listener_reconnects_and_catches_up(
    pair: tuple[Server, Server], service: GameService
) -> None:
    a, b = pair
    game = started_game(service)
    browser = Browser(a)
    assert len(listeners(service)) == 2  # one per process
    with httpx.stream("GET", f"{b.base}/p/{game.tokens['P3']}/events",
                      timeout=httpx.Timeout(5.0)) as response:
        lines = response.iter_lines()
        next_line(lines, "retry: 3000")
        with service.engine.begin() as conn:  # as a database restart or a network cut would
            for pid in listeners(service):
                conn.execute(text("SELECT pg_terminate_backend(:pid, 5000)"), {"pid": pid})
        # made while B listens to nothing: its notification never reaches B
        assert browser.say(a, game.tokens["P2"], "while B was deaf").status_code == 303
        cut = time.monotonic()
        arrived = next_line(lines, "event: post")  # B woke its streams on reconnecting
    print(f"\nlive update after a cut listener: {(arrived - cut) * 1000:.0f} ms")
    wait_until(lambda: len(listeners(service)) == 2, 10, "both listeners to reconnect")

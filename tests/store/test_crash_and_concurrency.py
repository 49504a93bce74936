"""Crash safety (a real process killed with SIGKILL mid-command) and concurrency (50
simultaneous submissions from separate connections) on SQLite and PostgreSQL."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from crash_worker import PLAYERS, ROLES, START, run, script

from nightfall.engine import Command, Game
from nightfall.engine import events as ev
from nightfall.rulesets import get_ruleset
from nightfall.service import FixedClock, GameService

WORKER = Path(__file__).with_name("crash_worker.py")


def fresh_game(url: str) -> tuple[GameService, str]:
    service = GameService(url=url, clock=FixedClock(START))
    created = service.create("changelings", 3, {"early_close": False}, "en")
    for name in PLAYERS:
        service.signup(created.id, name)
    service.assign(created.id, ROLES)
    service.start(created.id)
    return service, created.id


def spawn(url: str, game_id: str, first: int, fault: str | None = None
          ) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(WORKER.parent)}
    if fault:
        env["NIGHTFALL_FAULT"] = fault
    return subprocess.Popen([sys.executable, str(WORKER), url, game_id, str(first)],
                            stdout=subprocess.PIPE, text=True, env=env)


def check_consistent(service: GameService, game_id: str) -> list[ev.Event]:
    rows = service.store.raw_events(game_id)
    assert [r["seq"] for r in rows] == list(range(len(rows)))  # no gap, no duplicate
    assert service.meta(game_id).head_seq == len(rows)
    stored = service.store.events(game_id)
    assert service.load(game_id).state == Game.from_events(get_ruleset("changelings"),
                                                           stored).state
    return stored


def expected_logs(url_tmp: str, count: int) -> list[list[ev.Event]]:
    """The log after each prefix of the script, computed in a separate database."""
    service, game_id = fresh_game(url_tmp)
    logs = [service.store.events(game_id)]
    commands = script()
    for index in range(count):
        run(service, game_id, commands[index:index + 1], 0)
        logs.append(service.store.events(game_id))
    return logs


def test_kill_during_a_resolution_leaves_the_game_before_the_command(
    database_url: str, tmp_path: Path
) -> None:
    service, game_id = fresh_game(database_url)
    commands = script()
    run(service, game_id, commands[: len(PLAYERS)], 0)  # the elections
    before = service.store.events(game_id)
    marker = tmp_path / "paused"
    worker = spawn(database_url, game_id, len(PLAYERS), fault=f"pause:{marker}")
    deadline = time.monotonic() + 60
    while not marker.exists():
        assert time.monotonic() < deadline, "the worker never reached the fault point"
        time.sleep(0.05)
    worker.send_signal(signal.SIGKILL)  # inside the transaction, events inserted
    worker.wait()
    service.engine.dispose()
    service = GameService(url=database_url, clock=FixedClock(START))
    assert check_consistent(service, game_id) == before
    service.gm(game_id, "advance")  # the same resolution, now completed
    assert service.load(game_id).state.phase_label == "night 1/1"


def test_random_kills_always_leave_a_whole_number_of_commands(
    database_url: str, tmp_path: Path
) -> None:
    service, game_id = fresh_game(database_url)
    commands = script()
    reference = expected_logs(f"sqlite:///{tmp_path / 'reference.db'}", len(commands))
    rng = random.Random(7)
    first = 0
    for _round in range(4):
        worker = spawn(database_url, game_id, first)
        time.sleep(rng.uniform(0.8, 2.5))
        worker.send_signal(signal.SIGKILL)
        output, _ = worker.communicate()
        done = [int(line.split()[1]) for line in output.splitlines() if line.startswith("done")]
        stored = check_consistent(service, game_id)
        last = done[-1] if done else first - 1
        # the log holds exactly the first k commands: those reported done, perhaps one
        # more that committed just before the kill, never a part of one
        matches = [k for k in (last + 1, last + 2) if k < len(reference)
                   and reference[k] == stored]
        assert matches, f"round {_round}: the log is not a whole number of commands"
        first = max(matches)
        if first >= len(commands):
            break


def test_fifty_concurrent_submissions_lose_and_duplicate_nothing(database_url: str) -> None:
    service = GameService(url=database_url, clock=FixedClock(START))
    created = service.create("changelings", 5, {"early_close": False}, "en")
    players = [f"V{i:02d}" for i in range(50)]
    for name in players:
        service.signup(created.id, name)
    service.assign(created.id, {name: ("changeling" if i < 4 else "pony")
                                for i, name in enumerate(players)})
    service.start(created.id)
    head = service.meta(created.id).head_seq
    commands = [Command("elect", by=name, target=players[(i * 7) % 50])
                for i, name in enumerate(players)]
    with ThreadPoolExecutor(max_workers=50) as pool:
        results = list(pool.map(lambda c: service.submit(created.id, c), commands))
    assert all(len(r) == 1 for r in results)
    stored = check_consistent(service, created.id)
    submitted = [e for e in stored[head:] if isinstance(e, ev.Submitted)]
    assert sorted(e.player for e in submitted) == players  # each exactly once
    assert len(stored) == head + 50
    # the final state equals a serial replay of the same commands in the stored order
    serial = Game.from_events(get_ruleset("changelings"), stored[:head])
    by_player = {c.by: c for c in commands}
    for event in submitted:
        command = by_player[event.player]
        serial.execute(Command(command.action, command.by, command.target, at=START))
    assert serial.state == service.load(created.id).state

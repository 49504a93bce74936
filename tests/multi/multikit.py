"""Helpers of the multi-process tests: real ``nightfall serve`` processes on free ports,
a started game whose deadline can be made to pass now, form posts with a CSRF cookie, and
reading a server-sent-events stream."""

from __future__ import annotations

import math
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import httpx
from sqlalchemy import text

from nightfall.engine import Game
from nightfall.engine import events as ev
from nightfall.rulesets import get_ruleset
from nightfall.service import GameService
from nightfall.web.forms import encode
from nightfall.web.live import APPLICATION_NAME

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
PLAYERS = [f"P{i}" for i in range(6)]
ROLES = {name: ("changeling" if i == 0 else "researcher" if i == 1 else "pony")
         for i, name in enumerate(PLAYERS)}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """One ``nightfall serve --db URL --port P`` process (the command users run)."""

    def __init__(self, url: str, folder: Path, name: str, tick: float = 0.2,
                 fault: str | None = None, workers: int = 1) -> None:
        self.name, self.port = name, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {key: value for key, value in os.environ.items()
               if key not in ("NIGHTFALL_FAULT", "NIGHTFALL_SECRET")}
        if fault:
            env["NIGHTFALL_FAULT"] = fault
        self.log = folder / f"{name}.log"
        with self.log.open("w") as out:
            # the same working folder: the processes share the cookie secret's file
            self.process = subprocess.Popen(
                [sys.executable, "-m", "nightfall.cli", "serve", "--db", url,
                 "--port", str(self.port), "--tick", str(tick), "--workers", str(workers)],
                cwd=folder, env=env, stdout=out, stderr=subprocess.STDOUT)

    def wait_ready(self, timeout: float = 90.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            assert self.process.poll() is None, f"{self.name} exited:\n{self.output()}"
            try:
                if httpx.get(self.base + "/", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, f"{self.name} did not start:\n{self.output()}"
            time.sleep(0.1)

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


def start_servers(url: str, folder: Path, names: list[str], tick: float = 0.2
                  ) -> list[Server]:
    """Start the processes together (they race to migrate the fresh schema), then wait."""
    servers = [Server(url, folder, name, tick) for name in names]
    try:
        for server in servers:
            server.wait_ready()
    except BaseException:  # none may outlive a failed start: it would hold the database
        for server in servers:
            server.stop()
        raise
    return servers


def noon_zone() -> str:
    """A time zone where it is about noon now, so the next rule deadline (19:30, 22:00,
    20:00) is hours away and a deadline made to pass now closes exactly one stage."""
    offset = (12 - datetime.now(UTC).hour + 12) % 24 - 12
    return f"Etc/GMT{-offset:+d}"


@dataclass
class Started:
    game_id: str
    gm: str
    tokens: dict[str, str] = field(default_factory=dict)


def started_game(service: GameService) -> Started:
    """A started six-player Changelings game (day 1, the election), English texts."""
    created = service.create("changelings", 11, {"early_close": False,
                                                 "timezone": noon_zone()}, "en")
    game = Started(created.id, created.gm_token)
    for name in PLAYERS:
        game.tokens[name] = service.signup(created.id, name)
    service.assign(created.id, ROLES)
    service.start(created.id)
    return game


def pass_deadline_now(service: GameService, game_id: str) -> None:
    """The GM shortens the stage so that its deadline lies in the past (by < 1 minute)."""
    deadline = service.meta(game_id).next_deadline
    assert deadline is not None
    minutes = math.ceil((deadline - datetime.now(UTC)).total_seconds() / 60)
    service.gm(game_id, "shorten", minutes=minutes)


def wait_until(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


class Browser:
    """A reader's cookie (shared by every process: one site, one secret) and form posts."""

    def __init__(self, first: Server) -> None:
        with httpx.Client() as client:
            page = client.get(first.base + "/new")
            found = CSRF.search(page.text)
            assert found is not None
            self.token = found.group(1)
            self.cookies = dict(client.cookies.items())

    def post(self, server: Server, path: str, **fields: str) -> httpx.Response:
        with httpx.Client(cookies=self.cookies, timeout=30) as client:
            return client.post(server.base + path, data={"csrf_token": self.token, **fields})

    def say(self, server: Server, token: str, text: str) -> httpx.Response:
        return self.post(server, f"/p/{token}/post", text=text)

    def act(self, server: Server, token: str, action: str, target: str) -> httpx.Response:
        return self.post(server, f"/p/{token}/act", action=action,
                         option=encode((target,), None))


def next_line(lines: Iterator[str], wanted: str) -> float:
    """Read a server-sent-events stream up to the line ``wanted``; its arrival time."""
    for line in lines:
        if line == wanted:
            return time.monotonic()
    raise AssertionError(f"the stream ended before {wanted!r}")


def listeners(service: GameService) -> list[int]:
    """The process ids (in PostgreSQL) of the servers' listening connections."""
    with service.engine.connect() as conn:
        rows = conn.execute(text(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND application_name = :name"), {"name": APPLICATION_NAME})
        return [row[0] for row in rows]



def check_log(service: GameService, game_id: str) -> list[ev.Event]:
    """No gap, no duplicate seq; the head matches; the whole log replays to the state."""
    rows = service.store.raw_events(game_id)
    assert [r["seq"] for r in rows] == list(range(len(rows)))
    assert service.meta(game_id).head_seq == len(rows)
    assert service.replay_matches(game_id)
    stored = service.store.events(game_id)
    assert Game.from_events(get_ruleset("changelings"), stored).state == (
        service.load(game_id).state)
    return stored

"""In-process profile of the load test's player turns: the app called as ASGI directly (no
HTTP server, no network), so a profile shows the app's own work per request kind.

It creates games as ``load_test.py`` does (a scratch schema on PostgreSQL, or SQLite), then
plays ``--turns`` turns the way ``load_locustfile.Player`` does (the JSON view, then the
page or the thread and a POST of one legal command, or a post in the thread), and as a
ceiling fetches the static file as often. It prints the process CPU per request of both
and their ratio (without the HTTP server's parsing, which both pay alike in the load
test), and with ``--profile FILE`` writes a cProfile of the player turns. Run::

    PYTHONPATH=$PWD/src .venv/bin/python benchmarks/web_profile.py --games 20 --turns 600 \\
        [--db URL] [--profile /tmp/turns.prof]

With ``--profile`` the thread pool's work runs inline (cProfile sees one thread), so
the CPU figures of that run are not the server's.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import random
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlencode

import anyio.to_thread
from load_test import create_games, scratch_schema  # this folder
from submit_bench import postgres_url

from nightfall.service import GameService
from nightfall.store import make_engine
from nightfall.web.app import create_app
from nightfall.web.settings import Settings

FORM_FIELD = re.compile(r'<input type="hidden" name="(csrf_token|phase)" value="([^"]*)">')
SKIPPED = frozenset({"post", "unvote", "pass"})
THREAD_ACTIONS = frozenset({"elect", "vote"})
KIND = re.compile(r"/[A-Za-z0-9_-]{30,}")


class Browser:
    """One user's cookie jar and the ASGI calls of its requests."""

    #: CPU seconds by request kind, over every browser
    cpu: ClassVar[dict[str, float]] = {}
    count: ClassVar[dict[str, int]] = {}

    def __init__(self, app: Any) -> None:
        self.app = app
        self.cookies: dict[str, str] = {}

    async def request(self, method: str, path: str, body: bytes = b"") -> tuple[int, bytes]:
        headers = [(b"host", b"127.0.0.1"), (b"user-agent", b"profile")]
        if self.cookies:
            headers.append((b"cookie", "; ".join(f"{k}={v}" for k, v in
                                                 self.cookies.items()).encode()))
        if body:
            headers += [(b"content-type", b"application/x-www-form-urlencoded"),
                        (b"content-length", str(len(body)).encode())]
        path, _, query = path.partition("?")
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
                 "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
                 "query_string": query.encode(), "root_path": "", "headers": headers,
                 "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000)}
        sent = False
        status = 0
        chunks: list[bytes] = []

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            await asyncio.sleep(3600)
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                for name, value in message.get("headers", []):
                    if name.lower() == b"set-cookie":
                        pair = value.decode().split(";", 1)[0]
                        key, _, val = pair.partition("=")
                        if val in ('""', ""):
                            self.cookies.pop(key, None)
                        else:
                            self.cookies[key] = val
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        began = time.process_time()
        await self.app(scope, receive, send)
        key = f"{method} {KIND.sub('/[token]', path)}"
        self.cpu[key] = self.cpu.get(key, 0.0) + time.process_time() - began
        self.count[key] = self.count.get(key, 0) + 1
        return status, b"".join(chunks)


async def turn(browser: Browser, token: str, rng: random.Random, kinds: Counter[str]) -> None:
    status, body = await browser.request("GET", f"/api/p/{token}")
    kinds["GET /api/p"] += 1
    assert status == 200, status
    legal = [c for c in json.loads(body)["legal"] if c["action"] not in SKIPPED]
    if rng.random() < 0.15:
        status, body = await browser.request("GET", f"/p/{token}/thread")
        kinds["GET /p/thread"] += 1
        fields = dict(FORM_FIELD.findall(body.decode()))
        if "csrf_token" in fields:
            form = {"csrf_token": fields["csrf_token"], "text": f"load {rng.getrandbits(32)}",
                    "phase": fields.get("phase", "")}
            await browser.request("POST", f"/p/{token}/post", urlencode(form).encode())
            kinds["POST /p/post"] += 1
        return
    if not legal:
        return
    command = rng.choice(legal)
    where = "thread" if command["action"] in THREAD_ACTIONS else "page"
    status, body = await browser.request(
        "GET", f"/p/{token}/thread" if where == "thread" else f"/p/{token}")
    kinds[f"GET /p/{where}"] += 1
    fields = dict(FORM_FIELD.findall(body.decode()))
    if "csrf_token" not in fields:
        return
    option = json.dumps([command["targets"], command["choice"]], ensure_ascii=False,
                        separators=(",", ":"))
    form = {"csrf_token": fields["csrf_token"], "action": command["action"], "option": option,
            "phase": fields.get("phase", ""), "from": where}
    await browser.request("POST", f"/p/{token}/act", urlencode(form).encode())
    kinds["POST /p/act"] += 1


async def play(app: Any, players: list[list[str]], turns: int, seed: int,
               profile: cProfile.Profile | None) -> tuple[float, int, Counter[str]]:
    rng = random.Random(seed)
    browsers = {token: Browser(app) for _, _, token in players}
    kinds: Counter[str] = Counter()
    began = time.process_time()
    if profile is not None:
        profile.enable()
    for number in range(turns):
        _, _, token = players[number % len(players)] if number < len(players) else \
            rng.choice(players)
        await turn(browsers[token], token, rng, kinds)
    if profile is not None:
        profile.disable()
    return time.process_time() - began, sum(kinds.values()), kinds


async def static(app: Any, count: int) -> float:
    browser = Browser(app)
    began = time.process_time()
    for _ in range(count):
        status, _ = await browser.request("GET", "/static/nightfall.css")
        assert status == 200
    return time.process_time() - began


#: what ``--breakdown`` times (CPU of the calling thread, summed; nested ones overlap)
BREAKDOWN = (
    "nightfall.store.repository:EventStore.read",
    "nightfall.store.repository:EventStore._advance",
    "nightfall.store.repository:EventStore._read",
    "nightfall.store.repository:EventStore.holder",
    "nightfall.store.repository:EventStore.transact",
    "nightfall.store.repository:EventStore.take_slot",
    "nightfall.web.render:page", "nightfall.web.forms:probe", "nightfall.web.forms:action_forms",
    "nightfall.web.pages:thread", "nightfall.engine.game:Game.view",
    "nightfall.engine.game:Game.legal_commands", "nightfall.engine.text:to_data",
    "nightfall.web.routes.notify:player_panel", "nightfall.web.pages:notices",
)


def time_functions(names: tuple[str, ...]) -> dict[str, list[float]]:
    """Wrap each ``module:Qual.name`` so that its thread CPU time and calls are summed
    (the outermost call only, so recursion is counted once)."""
    import functools
    import importlib
    import threading

    totals: dict[str, list[float]] = {}
    depth = threading.local()
    for name in names:
        module_name, _, qual = name.partition(":")
        owner: Any = importlib.import_module(module_name)
        *path, attribute = qual.split(".")
        for part in path:
            owner = getattr(owner, part)
        original = owner.__dict__[attribute]
        function = original.__func__ if isinstance(original, staticmethod) else original
        totals[name] = [0.0, 0]

        def wrapped(*args: Any, _f: Any = function, _n: str = name, **kwargs: Any) -> Any:
            key = "d" + _n
            if getattr(depth, key, 0):
                return _f(*args, **kwargs)
            setattr(depth, key, 1)
            began = time.thread_time()
            try:
                return _f(*args, **kwargs)
            finally:
                setattr(depth, key, 0)
                totals[_n][0] += time.thread_time() - began
                totals[_n][1] += 1

        functools.update_wrapper(wrapped, function)
        setattr(owner, attribute, staticmethod(wrapped) if isinstance(original, staticmethod)
                else wrapped)
        # names imported elsewhere (``from x import f``) keep the original: rebind them
        if not path:
            for module in list(sys.modules.values()):
                if module is not None and getattr(module, attribute, None) is original and \
                        getattr(module, "__name__", "").startswith("nightfall"):
                    setattr(module, attribute, wrapped)
    return totals


async def inline(func: Any, *args: Any, **_: Any) -> Any:
    """``anyio.to_thread.run_sync`` in the calling thread (for a profile of one thread)."""
    return func(*args)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=15)
    parser.add_argument("--turns", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", help="PostgreSQL URL (default: NIGHTFALL_TEST_POSTGRES_URL; "
                        "none: a SQLite file)")
    parser.add_argument("--profile", type=Path, help="write a cProfile of the turns here")
    parser.add_argument("--breakdown", action="store_true",
                        help="time some functions of the app (see BREAKDOWN)")
    args = parser.parse_args()
    url = postgres_url(args.db)
    if url:
        with scratch_schema(url, keep=False) as scratch:
            return run(scratch, args)
    with tempfile.TemporaryDirectory() as folder:
        return run(f"sqlite:///{folder}/profile.db", args)


def run(url: str, args: argparse.Namespace) -> int:
    engine = make_engine(url)
    service = GameService(engine=engine)
    players, _ = create_games(service, args.games, args.players)
    if url.startswith("postgresql"):
        # as in a server whose listener is up (web/live.py): every revocation would reach it
        service.store.tokens.enable(True)
    app = create_app(Settings(database_url=url), service)
    totals = time_functions(BREAKDOWN) if args.breakdown else {}
    profile = cProfile.Profile(time.process_time) if args.profile else None  # CPU clock
    if profile is not None:  # cProfile sees one thread: run the thread pool's work inline
        anyio.to_thread.run_sync = inline  # type: ignore[assignment]
    seconds, requests, _ = asyncio.run(play(app, players, args.turns, args.seed, profile))
    static_seconds = asyncio.run(static(app, requests))
    per, per_static = seconds * 1000 / requests, static_seconds * 1000 / requests
    print(f"player requests: {requests}, {per:.2f} ms CPU each")
    for key, count in sorted(Browser.count.items()):
        if "/static/" not in key:
            print(f"  {key:28} {count:5} × {Browser.cpu[key] * 1000 / count:6.2f} ms")
    print(f"static file: {requests}, {per_static:.2f} ms CPU each; ratio {per / per_static:.2f}×")
    for name, (cpu, calls) in totals.items():
        print(f"  {name:60} {calls:6} calls {cpu * 1000 / requests:6.3f} ms/request")
    if profile is not None:
        profile.dump_stats(args.profile)
        print(f"profile: {args.profile}")
    engine.dispose()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Load test: many running games played through real ``nightfall serve`` processes on one
PostgreSQL, driven by locust, with a static file of the same servers as the ceiling.

The driver

1. creates a scratch schema in the PostgreSQL database (dropped at the end, so pointing it
   at a real database leaves no trace) and, through :class:`GameService`, ``--games``
   started *Changelings* games of ``--players`` players each (early close on, so the
   games move on as the players act), keeping every player's private token;
2. starts ``--servers`` ``nightfall serve`` processes on free ports (scheduler on);
3. runs locust headless (``benchmarks/load_locustfile.py``) for ``--seconds``: ``--users``
   simulated browsers spread over the servers, each playing its share of the players
   (read the legal commands, open the page, POST one as the form does, or post to the
   thread; think time ``--wait``); then, in the same run, the same users for
   ``--static-seconds`` fetching ``/static/nightfall.css`` from the same servers: the
   ceiling of the server stack without the game;
4. stops the servers and checks every game: the log replays to the stored state, the seqs
   are consecutive and end at the head, and the commands and posts the users were told
   were accepted are exactly the ``Submitted`` and ``Posted`` events in the store (none
   lost, none doubled).

A 400/409 answer is the rules saying no with a message (a view made stale by another
player's command, the thread closed at night): counted as *rejected*, apart from the
*errors* (5xx, timeouts, cut connections, any other status). Run::

    .venv/bin/python benchmarks/load_test.py --games 300 --players 15 --seconds 60 \\
        --users 300 [--db URL] [--json result.json]

The database is ``--db``, else ``NIGHTFALL_TEST_POSTGRES_URL``, else a ``postgresql``
``NIGHTFALL_DATABASE_URL``. Exit status 0 only if there were no errors and every check
passed. Figures and how to read them: docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from sqlalchemy import Engine, create_engine, text
from submit_bench import postgres_url  # this folder: the scripts run from here

from nightfall.demo import SEED_PLAYERS
from nightfall.engine import events as ev
from nightfall.service import GameService
from nightfall.store import make_engine

HERE = Path(__file__).resolve().parent
LOCUSTFILE = HERE / "load_locustfile.py"


# -- the database -------------------------------------------------------------------------
@contextmanager
def scratch_schema(url: str, keep: bool) -> Iterator[str]:
    """A fresh schema; yields the URL whose connections use it (``search_path``), which
    the server processes get as their ``--db``."""
    schema = f"nightfall_load_{os.getpid()}"
    admin = create_engine(url)
    with admin.begin() as conn:
        conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    joiner = "&" if "?" in url else "?"
    try:
        yield f"{url}{joiner}options={quote(f'-csearch_path={schema}')}"
    finally:
        if not keep:
            with admin.begin() as conn:
                conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


# -- the games ---------------------------------------------------------------------------
def player_names(count: int) -> list[str]:
    seeded = [name for name, _ in SEED_PLAYERS]
    return seeded[:count] if count <= len(seeded) else [f"Player{n:03d}" for n in range(count)]


def create_games(service: GameService, games: int, players: int, jobs: int = 4
                 ) -> tuple[list[list[str]], list[list[str]]]:
    """``games`` started games: ``[game_id, player, token]`` for every player and
    ``[game_id, gm_token]`` for every game."""
    names = player_names(players)

    def one(number: int) -> tuple[list[list[str]], list[str]]:
        created = service.create("changelings", seed=number, options={"early_close": True},
                                 locale="en", title=f"load test {number}")
        rows = [[created.id, name, service.signup(created.id, name)] for name in names]
        service.deal(created.id)
        service.start(created.id)
        return rows, [created.id, created.gm_token]

    with ThreadPoolExecutor(jobs) as pool:
        made = list(pool.map(one, range(games)))
    return [row for rows, _ in made for row in rows], [gm for _, gm in made]


# -- the servers -------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until_up(base: str, process: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server {base} exited with {process.returncode}")
        try:
            with urllib.request.urlopen(f"{base}/static/nightfall.css", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"server {base} did not answer within {timeout:.0f} s")


@contextmanager
def servers(url: str, count: int, workdir: Path, tick: float
            ) -> Iterator[tuple[list[str], list[int]]]:
    """``count`` ``nightfall serve`` processes on one database, started together. They run
    in one folder so they share the cookie-signing secret (``.nightfall-secret``, written
    once however many start at the same time), as the processes of one site must."""
    processes: list[subprocess.Popen[bytes]] = []
    bases: list[str] = []
    try:
        for number in range(count):
            port = free_port()
            log = open(workdir / f"server-{number}.log", "wb")  # noqa: SIM115 (kept open)
            processes.append(subprocess.Popen(
                [sys.executable, "-m", "nightfall.cli", "serve", "--db", url,
                 "--port", str(port), "--tick", str(tick)],
                cwd=workdir, stdout=log, stderr=subprocess.STDOUT))
            bases.append(f"http://127.0.0.1:{port}")
        for base, process in zip(bases, processes, strict=True):
            wait_until_up(base, process)
        yield bases, [process.pid for process in processes]
    finally:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


# -- locust ------------------------------------------------------------------------------
@dataclass
class Phase:
    name: str
    users: int
    seconds: float
    requests: int = 0
    errors: int = 0
    rejected: int = 0
    per_second: float = 0.0
    p50: float = 0.0
    p99: float = 0.0
    by_name: dict[str, dict[str, float]] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    #: CPU seconds the servers and locust used during the phase (the machine is shared:
    #: CPU per request is the figure that other work running beside it does not move)
    server_cpu: float = 0.0
    locust_cpu: float = 0.0

    @property
    def server_cpu_ms_per_request(self) -> float:
        return self.server_cpu * 1000 / self.requests if self.requests else 0.0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a running process (Linux ``/proc``; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@dataclass(frozen=True)
class Load:
    """What every locust run of one load test shares."""

    hosts: list[str]
    server_pids: list[int]
    players_file: Path
    gms_file: Path
    workdir: Path
    wait: str
    spawn_rate: float


def run_locust(classes: dict[str, int], phase: Phase, load: Load) -> dict[str, Any]:
    """One headless locust run of ``classes`` (name → fixed user count, 0: the rest);
    fills ``phase`` from the users' record, which it returns."""
    tag = "-".join(classes).lower()
    record = load.workdir / f"record-{tag}.json"
    total = phase.users + sum(classes.values())
    env = {**os.environ, "NIGHTFALL_LOAD_PLAYERS": str(load.players_file),
           "NIGHTFALL_LOAD_GMS": str(load.gms_file),
           "NIGHTFALL_LOAD_GM_USERS": str(classes.get("GameMaster", 0)),
           "NIGHTFALL_LOAD_HOSTS": ",".join(load.hosts), "NIGHTFALL_LOAD_USERS": str(phase.users),
           "NIGHTFALL_LOAD_WAIT": load.wait, "NIGHTFALL_LOAD_RECORD": str(record)}
    command = [sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), "--headless",
               "--users", str(total), "--spawn-rate", str(load.spawn_rate),
               "--run-time", f"{phase.seconds:g}s", "--stop-timeout", "30",
               "--host", load.hosts[0], "--only-summary", "--loglevel", "WARNING", *classes]
    server_before = sum(cpu_seconds(pid) for pid in load.server_pids)
    locust_before = children_cpu()
    with open(load.workdir / f"locust-{tag}.log", "wb") as log:
        subprocess.run(command, env=env, stdout=log, stderr=subprocess.STDOUT,
                       timeout=phase.seconds + 120, check=False)
    phase.server_cpu = sum(cpu_seconds(pid) for pid in load.server_pids) - server_before
    phase.locust_cpu = children_cpu() - locust_before
    if not record.exists():
        raise RuntimeError(f"locust wrote no record; see {load.workdir}/locust-{tag}.log")
    data: dict[str, Any] = json.loads(record.read_text(encoding="utf-8"))
    total_figures = data["total"]
    phase.users = total
    phase.requests = int(total_figures["requests"])
    phase.errors = int(total_figures["failures"])
    phase.per_second = total_figures["per_second"]
    phase.p50, phase.p99 = total_figures["p50"], total_figures["p99"]
    phase.by_name = data["by_name"]
    phase.failures = data["errors"]
    phase.rejected = sum(data["rejected"].values())
    return data


# -- the checks --------------------------------------------------------------------------
@dataclass
class Check:
    games: int = 0
    replay_failed: list[str] = field(default_factory=list)
    seq_gaps: list[str] = field(default_factory=list)
    accepted: int = 0
    posts: int = 0
    gm_acts: int = 0
    unknown: int = 0
    lost: int = 0
    duplicated: int = 0
    events: int = 0
    ended: int = 0
    phases: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not (self.replay_failed or self.seq_gaps or self.lost or self.duplicated)


def check_games(service: GameService, game_ids: list[str], record: dict[str, Any]) -> Check:
    """Replay every game and match what the users were told with what the store holds."""
    told: dict[str, Counter[tuple[Any, ...]]] = {g: Counter() for g in game_ids}
    for game_id, player, action, targets, choice in record.get("accepted", []):
        told[game_id][("cmd", player, action, tuple(targets), choice)] += 1
    for game_id, player, text_ in record.get("posts", []):
        told[game_id][("post", player, text_)] += 1
    maybe: dict[str, Counter[tuple[Any, ...]]] = {g: Counter() for g in game_ids}
    for name, game_id, player, *rest in record.get("unknown", []):
        if not name.startswith("POST /p/"):
            continue  # a GM's act: it leaves no Submitted or Posted event
        key = (("post", player, rest[0]) if name.endswith("/post")
               else ("cmd", player, rest[0], tuple(rest[1]), rest[2]))
        maybe[game_id][key] += 1
    result = Check(games=len(game_ids), accepted=len(record.get("accepted", [])),
                   posts=len(record.get("posts", [])), unknown=len(record.get("unknown", [])),
                   gm_acts=len(record.get("gm_acts", [])))
    phases: Counter[str] = Counter()
    for game_id in game_ids:
        if not service.replay_matches(game_id):
            result.replay_failed.append(game_id)
        raw = service.store.raw_events(game_id)
        meta = service.meta(game_id)
        if [row["seq"] for row in raw] != list(range(len(raw))) or meta.head_seq != len(raw):
            result.seq_gaps.append(game_id)
        stored: Counter[tuple[Any, ...]] = Counter()
        for event in service.store.events(game_id):
            if isinstance(event, ev.Submitted) and event.action != "pass":
                stored[("cmd", event.player, event.action, tuple(event.targets),
                        event.choice)] += 1
            elif isinstance(event, ev.Posted) and event.text.startswith("load "):
                stored[("post", event.player, event.text)] += 1
        result.lost += sum((told[game_id] - stored).values())
        extra = stored - told[game_id]
        explained = extra & maybe[game_id]  # applied, though the user never heard back
        result.duplicated += sum((extra - explained).values())
        result.events += len(raw)
        result.ended += meta.ended
        phases[meta.phase] += 1
    result.phases = dict(phases.most_common())
    return result


# -- reporting ---------------------------------------------------------------------------
def machine() -> dict[str, Any]:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpus": os.cpu_count(), "cpu": model, "python": platform.python_version(),
            "system": platform.platform(terse=True), "load_average": os.getloadavg()}


def report(console: Console, game: Phase, static: Phase, check: Check,
           context: dict[str, Any]) -> None:
    table = Table("load", "users", "seconds", "requests", "req/s", "p50 ms", "p99 ms",
                  "errors", "rejected (rules)", "server CPU ms/req", "locust CPU s",
                  title="Players of running games vs a static file, same servers, same run")
    for phase in (game, static):
        table.add_row(phase.name, str(phase.users), f"{phase.seconds:g}", str(phase.requests),
                      f"{phase.per_second:,.1f}", f"{phase.p50:.0f}", f"{phase.p99:.0f}",
                      str(phase.errors), str(phase.rejected),
                      f"{phase.server_cpu_ms_per_request:.1f}", f"{phase.locust_cpu:.0f}")
    if static.per_second:
        table.add_row("ratio game/static", "", "", "", f"{game.per_second / static.per_second:.2f}",
                      f"{game.p50 / static.p50:.1f}×" if static.p50 else "",
                      f"{game.p99 / static.p99:.1f}×" if static.p99 else "", "", "",
                      f"{game.server_cpu_ms_per_request / static.server_cpu_ms_per_request:.1f}×"
                      if static.server_cpu_ms_per_request else "", "")
    console.print(table)
    detail = Table("request", "count", "req/s", "p50 ms", "p99 ms", "errors",
                   title="Player requests by kind")
    for name, figures in sorted(game.by_name.items()):
        detail.add_row(escape(name), f"{figures['requests']:.0f}", f"{figures['per_second']:.1f}",
                       f"{figures['p50']:.0f}", f"{figures['p99']:.0f}",
                       f"{figures['failures']:.0f}")
    console.print(detail)
    for phase in (game, static):
        for line in phase.failures[:10]:
            console.print(f"[red]{phase.name}: {escape(line)}[/red]")
    verdict = "[green]OK[/green]" if check.ok else "[red]FAILED[/red]"
    console.print(
        f"Check {verdict}: {check.games} games replayed ({len(check.replay_failed)} differ), "
        f"{len(check.seq_gaps)} with a seq gap; {check.accepted} accepted commands and "
        f"{check.posts} posts vs the store: {check.lost} lost, {check.duplicated} doubled; "
        f"{check.unknown} requests of unknown outcome; {check.gm_acts} phases closed by "
        f"the GMs; {check.events} events, "
        f"{check.ended} games ended; phases now: {check.phases}")
    console.print(f"[dim]Machine: {context['cpus']} CPUs ({context['cpu']}), Python "
                  f"{context['python']}, {context['system']}; load average before "
                  f"{context['load_before']}, after {context['load_after']}[/dim]")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=15)
    parser.add_argument("--seconds", type=float, default=60, help="player load, seconds")
    parser.add_argument("--static-seconds", type=float, default=None,
                        help="static load, seconds (default: --seconds)")
    parser.add_argument("--users", type=int, default=300,
                        help="simulated browsers; each plays players/users of the players")
    parser.add_argument("--wait", default="0,0", help="think time MIN,MAX in seconds "
                        "(default none: each user sends its next request at once, so both "
                        "loads measure what the servers can do)")
    parser.add_argument("--gms", type=int, default=None,
                        help="GM users closing phases (default: one per 30 games)")
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--spawn-rate", type=float, default=None,
                        help="users started per second (default: all within 2 s)")
    parser.add_argument("--tick", type=float, default=2.0, help="servers' scheduler interval")
    parser.add_argument("--db", help="PostgreSQL URL (default: NIGHTFALL_TEST_POSTGRES_URL)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--keep", action="store_true",
                        help="keep the scratch schema and the work folder (logs, records)")
    args = parser.parse_args(argv)
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 140)
    url = postgres_url(args.db)
    if not url or not url.startswith("postgresql"):
        console.print("[red]A PostgreSQL URL is needed: --db or NIGHTFALL_TEST_POSTGRES_URL"
                      "[/red]")
        return 2
    if args.gms is None:
        args.gms = max(1, args.games // 30)
    spawn_rate = args.spawn_rate or max(1.0, (args.users + args.gms) / 2)
    static_seconds = args.static_seconds if args.static_seconds is not None else args.seconds
    context = machine()
    context["load_before"] = [round(x, 2) for x in context.pop("load_average")]
    workdir = Path(tempfile.mkdtemp(prefix="nightfall-load-"))
    with scratch_schema(url, args.keep) as scratch_url:
        engine: Engine = make_engine(scratch_url)
        service = GameService(engine=engine)
        began = time.perf_counter()
        players, gms = create_games(service, args.games, args.players)
        setup_seconds = time.perf_counter() - began
        console.print(f"{args.games} games × {args.players} players created and started in "
                      f"{setup_seconds:.1f} s")
        players_file, gms_file = workdir / "players.json", workdir / "gms.json"
        players_file.write_text(json.dumps(players), encoding="utf-8")
        gms_file.write_text(json.dumps(gms), encoding="utf-8")
        game = Phase("players + GMs", args.users, args.seconds)
        static = Phase("static file", args.users + args.gms, static_seconds)
        with servers(scratch_url, args.servers, workdir, args.tick) as (hosts, pids):
            console.print(f"{len(hosts)} servers: {', '.join(hosts)}; locust: {args.users} "
                          f"players' browsers + {args.gms} GMs, think time {args.wait} s")
            load = Load(hosts, pids, players_file, gms_file, workdir, args.wait, spawn_rate)
            player_classes = {"Player": 0, **({"GameMaster": args.gms} if args.gms else {})}
            console.print(f"[dim]{time.perf_counter() - began:.1f} s: servers up[/dim]")
            record = run_locust(player_classes, game, load)
            console.print(f"[dim]{time.perf_counter() - began:.1f} s: player load done[/dim]")
            run_locust({"Static": 0}, static, load)
            console.print(f"[dim]{time.perf_counter() - began:.1f} s: static load done[/dim]")
        game_ids = list(dict.fromkeys(row[0] for row in players))
        console.print(f"[dim]{time.perf_counter() - began:.1f} s: servers stopped[/dim]")
        check = check_games(service, game_ids, record)
        console.print(f"[dim]{time.perf_counter() - began:.1f} s: games checked[/dim]")
        engine.dispose()
    context["load_after"] = [round(x, 2) for x in os.getloadavg()]
    report(console, game, static, check, context)
    if args.keep:
        console.print(f"[dim]Work folder (logs, records): {workdir}[/dim]")
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps({
            "setup_seconds": setup_seconds,
            "game": {**asdict(game), "server_cpu_ms_per_request": game.server_cpu_ms_per_request},
            "static": {**asdict(static),
                       "server_cpu_ms_per_request": static.server_cpu_ms_per_request},
            "check": {**asdict(check), "ok": check.ok}, "machine": context,
        }, indent=2, default=str), encoding="utf-8")
    return 0 if check.ok and game.errors == 0 and static.errors == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

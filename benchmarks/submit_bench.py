"""Throughput and latency of ``GameService.submit`` next to a bare INSERT (issue 4).

For each database (SQLite always; PostgreSQL when ``NIGHTFALL_TEST_POSTGRES_URL``, a
``postgresql`` ``NIGHTFALL_DATABASE_URL`` or ``--postgres URL`` names one) the script
sets up ``--games`` Changelings games (8 players, day 1 running) and then runs one
thread per game, each submitting ``--commands`` leader votes through
:meth:`GameService.submit` (load with snapshot, validate, append, commit: one
transaction each). In the same run and the same database, the same number of threads
each do the same number of bare single-row ``INSERT`` transactions into a scratch
table. The table shows commands/s and p50/p99 latency of both, and their ratio (the
figure that matters: what the event store costs over the database's own floor).

PostgreSQL runs in a scratch schema that is dropped afterwards, so pointing the script
at a real database leaves no trace. Run::

    .venv/bin/python benchmarks/submit_bench.py [--games 100] [--commands 20]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from rich.console import Console
from rich.table import Table
from sqlalchemy import Column, Engine, Integer, MetaData, String, Text, create_engine, insert, text

from nightfall.engine import Command
from nightfall.service import FixedClock, GameService
from nightfall.store import make_engine

T0 = datetime(2024, 3, 1, 18, 0, tzinfo=ZoneInfo("Europe/Berlin"))
PLAYERS = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal")
ROLES = dict(zip(PLAYERS, ("changeling", "queen", "researcher", "shield", "pinkie_sense",
                           "pony", "pony", "pony"), strict=True))


@dataclass(frozen=True)
class Result:
    database: str
    operation: str
    threads: int
    latencies: list[float]
    seconds: float
    errors: int

    @property
    def count(self) -> int:
        return len(self.latencies)

    @property
    def per_second(self) -> float:
        return self.count / self.seconds if self.seconds else 0.0

    def quantile(self, q: float) -> float:
        ordered = sorted(self.latencies)
        if not ordered:
            return float("nan")
        return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] * 1000


def run_threads(threads: int, per_thread: int, work: Callable[[int, int], None],
                database: str, operation: str) -> Result:
    """``threads`` threads, each calling ``work(thread, i)`` ``per_thread`` times, all
    released at once; every call is timed."""
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    barrier = threading.Barrier(threads + 1)

    def body(index: int) -> None:
        nonlocal errors
        mine: list[float] = []
        failed = 0
        barrier.wait()
        for i in range(per_thread):
            began = time.perf_counter()
            try:
                work(index, i)
            except Exception as error:  # counted and shown, the run goes on
                failed += 1
                if failed == 1:
                    print(f"  {operation} thread {index}: {type(error).__name__}: {error}",
                          file=sys.stderr)
                continue
            mine.append(time.perf_counter() - began)
        with lock:
            latencies.extend(mine)
            errors += failed

    pool = [threading.Thread(target=body, args=(n,)) for n in range(threads)]
    for thread in pool:
        thread.start()
    barrier.wait()
    began = time.perf_counter()
    for thread in pool:
        thread.join()
    return Result(database, operation, threads, latencies, time.perf_counter() - began, errors)


def setup_games(service: GameService, games: int) -> list[str]:
    ids = []
    for number in range(games):
        created = service.create("changelings", seed=number, locale="en",
                                 title=f"benchmark {number}")
        for name in PLAYERS:
            service.signup(created.id, name)
        service.assign(created.id, ROLES)
        service.start(created.id)
        ids.append(created.id)
    return ids


def bench_submit(service: GameService, name: str, ids: list[str], commands: int) -> Result:
    def work(thread: int, i: int) -> None:
        voter = PLAYERS[i % len(PLAYERS)]
        target = PLAYERS[(i + thread) % len(PLAYERS)]
        service.submit(ids[thread], Command("elect", by=voter, target=target))

    return run_threads(len(ids), commands, work, name, "GameService.submit")


def bench_insert(engine: Engine, name: str, threads: int, commands: int) -> Result:
    metadata = MetaData()
    table = sa.Table(
        "bench_bare_insert", metadata,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("game_id", String(64), nullable=False),
        Column("seq", Integer, nullable=False),
        Column("payload", Text, nullable=False),
    )
    metadata.drop_all(engine)
    metadata.create_all(engine)
    payload = ('{"player": "Ann", "action": "elect", "slot": "elect", '
               '"targets": {"$t": ["Cid"]}, "choice": null, "text": null, "standing": false}')

    def work(thread: int, i: int) -> None:
        with engine.begin() as conn:
            conn.execute(insert(table).values(game_id=f"g{thread}", seq=i, payload=payload))

    try:
        return run_threads(threads, commands, work, name, "bare INSERT")
    finally:
        metadata.drop_all(engine)


@contextmanager
def sqlite_engine(path: str | None) -> Iterator[tuple[str, Engine]]:
    folder = None if path else tempfile.mkdtemp(prefix="nightfall-bench-")
    file = path or os.path.join(folder or ".", "bench.db")
    engine = make_engine(f"sqlite:///{file}")
    try:
        yield "SQLite (WAL)", engine
    finally:
        engine.dispose()
        if folder:
            shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def postgres_engine(url: str) -> Iterator[tuple[str, Engine]]:
    """An engine whose tables live in a scratch schema (dropped at the end)."""
    schema = f"nightfall_bench_{os.getpid()}"
    admin = create_engine(url)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    engine = create_engine(url, pool_pre_ping=True, pool_size=20, max_overflow=100,
                           connect_args={"options": f"-csearch_path={schema}"})
    try:
        yield "PostgreSQL", engine
    finally:
        engine.dispose()
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def postgres_url(explicit: str | None) -> str | None:
    if explicit:
        return explicit
    for variable in ("NIGHTFALL_TEST_POSTGRES_URL", "NIGHTFALL_DATABASE_URL"):
        value = os.environ.get(variable, "")
        if value.startswith("postgresql"):
            return value
    return None


def run(name: str, engine: Engine, games: int, commands: int, console: Console) -> list[Result]:
    service = GameService(engine=engine, clock=FixedClock(T0))
    console.print(f"[bold]{name}[/bold]: setting up {games} games …")
    ids = setup_games(service, games)
    console.print(f"  {games} threads × {commands} submits …")
    submit = bench_submit(service, name, ids, commands)
    console.print(f"  {games} threads × {commands} bare inserts …")
    bare = bench_insert(engine, name, games, commands)
    return [submit, bare]


def table(results: list[Result]) -> Table:
    out = Table("database", "operation", "threads", "ops", "errors", "ops/s", "p50 ms",
                "p99 ms", "vs bare (ops/s, p50)",
                title="GameService.submit vs a bare INSERT, same run, same database")
    by_db: dict[str, dict[str, Result]] = {}
    for result in results:
        by_db.setdefault(result.database, {})[result.operation] = result
    for result in results:
        bare = by_db[result.database].get("bare INSERT")
        ratio = ""
        if bare is not None and result is not bare and bare.per_second:
            ratio = (f"{result.per_second / bare.per_second:.2f}×, "
                     f"{result.quantile(0.5) / bare.quantile(0.5):.1f}×")
        out.add_row(result.database, result.operation, str(result.threads), str(result.count),
                    str(result.errors), f"{result.per_second:,.0f}",
                    f"{result.quantile(0.5):.1f}", f"{result.quantile(0.99):.1f}", ratio)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=100, help="concurrent games (threads)")
    parser.add_argument("--commands", type=int, default=20, help="submits per game")
    parser.add_argument("--sqlite", metavar="FILE", help="SQLite file (default: a temp file)")
    parser.add_argument("--postgres", metavar="URL", help="PostgreSQL URL (default: "
                        "NIGHTFALL_TEST_POSTGRES_URL or a postgresql NIGHTFALL_DATABASE_URL)")
    parser.add_argument("--no-sqlite", action="store_true", help="PostgreSQL only")
    args = parser.parse_args(argv)
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 140)
    results: list[Result] = []
    if not args.no_sqlite:
        with sqlite_engine(args.sqlite) as (name, engine):
            results += run(name, engine, args.games, args.commands, console)
    url = postgres_url(args.postgres)
    if url:
        with postgres_engine(url) as (name, engine):
            results += run(name, engine, args.games, args.commands, console)
    else:
        console.print("[dim]PostgreSQL skipped: set NIGHTFALL_TEST_POSTGRES_URL or pass "
                      "--postgres URL[/dim]")
    console.print(table(results))
    for result in results:
        if result.latencies:
            console.print(f"[dim]{result.database} {result.operation}: mean "
                          f"{statistics.fmean(result.latencies) * 1000:.1f} ms over "
                          f"{result.seconds:.1f} s[/dim]")
    return 1 if any(r.errors for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())

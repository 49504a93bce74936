"""``nightfall deliver`` in real processes on a real PostgreSQL: two workers at once send
each message exactly once (claims with ``SKIP LOCKED``), and a worker killed with SIGKILL
mid-batch loses nothing — the next worker sends the rest once the lease runs out, and
at most the one message that was on the wire arrives twice (what SMTP cannot rule out,
docs/notifications.md)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from sqlalchemy import select

from dbkit import fresh_postgres_url
from mailkit import SmtpBox, eventually
from nightfall.store import schema
from notifykit import config, game_with_mail, service

MAIL = {name: f"{name.lower()}@example.org" for name in ("Ann", "Bob", "Cid", "Dee", "Eve")}


def queued_game(url: str, tells: int) -> int:
    """A started game whose players all have an address, with ``tells`` GM messages to
    each: how many messages wait in the outbox."""
    svc = service(url, config(None))
    game_id, _ = game_with_mail(svc, MAIL, start=False)
    svc.notifications.set_reminder_minutes(game_id, 0)  # every message due now
    svc.start(game_id)
    for round_number in range(tells):
        for name in MAIL:
            svc.gm(game_id, "tell", target=name, text=f"Runde {round_number} für {name}")
    with svc.engine.connect() as conn:
        count = len(conn.execute(select(schema.outbox.c.id)).all())
    svc.engine.dispose()
    return count


def deliver(url: str, smtp: SmtpBox, folder: Path, *extra: str,
            lease: float = 120.0) -> subprocess.Popen[bytes]:
    env = {**os.environ, "NIGHTFALL_SMTP_URL": smtp.url, "NIGHTFALL_LEASE_SECONDS": str(lease),
           "NIGHTFALL_BASE_URL": "http://nightfall.test"}
    log = (folder / f"deliver-{time.monotonic_ns()}.log").open("wb")
    return subprocess.Popen([sys.executable, "-m", "nightfall.cli", "deliver", "--db", url,
                             "--interval", "0.2", *extra], env=env, stdout=log,
                            stderr=subprocess.STDOUT)


def statuses(url: str) -> Counter[str]:
    from nightfall.store import make_engine

    engine = make_engine(url)
    with engine.connect() as conn:
        found = Counter(r[0] for r in conn.execute(select(schema.outbox.c.status)))
    engine.dispose()
    return found


def test_two_workers_send_each_message_once(tmp_path: Path, smtp: SmtpBox) -> None:
    url = fresh_postgres_url()
    total = queued_game(url, tells=8)
    assert total > 40
    smtp.delay = 0.01
    workers = [deliver(url, smtp, tmp_path, "--once") for _ in range(2)]
    for worker in workers:
        assert worker.wait(timeout=120) == 0
    ids = Counter(str(m["Message-ID"]) for m in smtp.messages())
    assert len(ids) == total and set(ids.values()) == {1}, ids.most_common(3)
    assert statuses(url) == {"sent": total}


def test_a_worker_killed_mid_batch_loses_nothing(tmp_path: Path, smtp: SmtpBox) -> None:
    url = fresh_postgres_url()
    total = queued_game(url, tells=4)
    smtp.delay = 0.15
    first = deliver(url, smtp, tmp_path, lease=2.0)
    assert eventually(lambda: len(smtp.messages()) >= 5, 60)
    first.send_signal(signal.SIGKILL)  # mid-batch: a batch holds 20 rows
    first.wait(timeout=10)
    before = len(smtp.messages())
    assert before < total
    assert statuses(url)["sending"] > 0  # its claimed rows wait for their lease to end
    time.sleep(2.5)
    smtp.delay = 0.0
    second = deliver(url, smtp, tmp_path, "--once", lease=2.0)
    assert second.wait(timeout=120) == 0
    ids = Counter(str(m["Message-ID"]) for m in smtp.messages())
    assert len(ids) == total  # nothing lost
    twice = [mid for mid, count in ids.items() if count > 1]
    assert len(twice) <= 1 and all(ids[mid] == 2 for mid in twice)  # only the one in flight
    assert statuses(url) == {"sent": total}


def test_concurrent_claims_never_share_a_row(tmp_path: Path) -> None:
    """Many small claims at once from two workers (threads, each with its own
    connections): every row is claimed by exactly one of them."""
    import threading

    from nightfall.notify.worker import DeliveryWorker
    from nightfall.store import make_engine

    url = fresh_postgres_url()
    total = queued_game(url, tells=12)
    notify = config("smtp://127.0.0.1:9", batch=2)  # claimed, never sent
    claimed: list[list[int]] = [[], []]
    start = threading.Barrier(2)

    def claim_all(index: int) -> None:
        worker = DeliveryWorker(make_engine(url), notify)
        start.wait()
        while batch := worker.claim():
            claimed[index].extend(row.id for row in batch)
        worker.engine.dispose()

    threads = [threading.Thread(target=claim_all, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not set(claimed[0]) & set(claimed[1])
    assert len(claimed[0]) + len(claimed[1]) == total
    assert claimed[0] and claimed[1]  # both took part

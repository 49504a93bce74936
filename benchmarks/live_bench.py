"""How fast a live update crosses processes: post on process A, hear it on process B.

Starts two ``nightfall serve`` processes on free ports against one PostgreSQL database
(``--postgres URL``, else ``NIGHTFALL_TEST_POSTGRES_URL``), creates one started
Changelings game in it (the only trace it leaves), keeps one live-update stream open on
B and posts ``--posts`` times through A's form, one after another. For each post it
records when the ``post`` event arrived on B, counted from the request being sent and
from A's answer (the commit is before the answer, so the second figure is the cost of
NOTIFY → listener → stream → client). Prints p50, p95 and the maximum of both. Run::

    .venv/bin/python benchmarks/live_bench.py [--posts 50]
"""

from __future__ import annotations

import argparse
import os
import queue
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

from nightfall.service import GameService

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start(url: str, folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "nightfall.cli", "serve", "--db", url, "--port", str(port)],
        cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "NIGHTFALL_SUBMIT_RATE": "0"})  # one link posts them all
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if httpx.get(base + "/", timeout=2).status_code == 200:
                return process, base
        except httpx.TransportError:
            time.sleep(0.1)
    raise SystemExit(f"the server on {base} did not start")


def read_stream(url: str, lines: queue.Queue[tuple[float, str]]) -> None:
    try:
        with httpx.stream("GET", url, timeout=httpx.Timeout(10, read=None)) as response:
            for line in response.iter_lines():
                lines.put((time.monotonic(), line))
    except httpx.HTTPError:
        pass  # the servers stop at the end of the run


def wait_line(lines: queue.Queue[tuple[float, str]], wanted: str) -> float:
    while True:
        arrived, line = lines.get(timeout=30)
        if line == wanted:
            return arrived


def figures(name: str, values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return (f"{name:<28} p50 {statistics.median(ms):7.1f} ms   p95 {p95:7.1f} ms   "
            f"max {ms[-1]:7.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", default=os.environ.get("NIGHTFALL_TEST_POSTGRES_URL"))
    parser.add_argument("--posts", type=int, default=50)
    args = parser.parse_args()
    if not args.postgres:
        raise SystemExit("name a PostgreSQL database: --postgres URL")
    service = GameService(url=args.postgres)
    created = service.create("changelings", 1, {"early_close": False}, "en", title="bench")
    tokens = {name: service.signup(created.id, name) for name in ("Ann", "Bob", "Cid", "Dee")}
    service.assign(created.id, {"Ann": "changeling", "Bob": "pony", "Cid": "pony",
                                "Dee": "researcher"})
    service.start(created.id)
    with tempfile.TemporaryDirectory() as folder:
        processes = [start(args.postgres, Path(folder)) for _ in range(2)]
        (_, a), (_, b) = processes
        try:
            lines: queue.Queue[tuple[float, str]] = queue.Queue()
            threading.Thread(target=read_stream, daemon=True,
                             args=(f"{b}/g/{created.id}/events", lines)).start()
            wait_line(lines, "retry: 3000")
            with httpx.Client(timeout=30) as client:
                token = CSRF.search(client.get(a + "/new").text)
                assert token is not None
                from_sent, from_answer = [], []
                for i in range(args.posts):
                    sent = time.monotonic()
                    response = client.post(f"{a}/p/{tokens['Bob']}/post", data={
                        "csrf_token": token.group(1), "text": f"post {i}"})
                    answered = time.monotonic()
                    assert response.status_code == 303, response.text[:300]
                    arrived = wait_line(lines, "event: post")
                    from_sent.append(arrived - sent)
                    from_answer.append(max(arrived - answered, 0.0))
        finally:
            for process, _ in processes:
                process.send_signal(signal.SIGTERM)
            for process, _ in processes:
                process.wait(timeout=30)
    service.engine.dispose()
    print(f"{args.posts} posts on process A, heard on process B's live stream:")
    print(figures("from sending the post", from_sent))
    print(figures("from A's answer", from_answer))


if __name__ == "__main__":
    main()

"""``nightfall votecount URL`` and ``nightfall game forum GAME URL`` in real subprocesses,
against a thread on a local HTTP server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from forumserver import ForumServer, forum_server
from threadkit import BERLIN, day_thread, vb4_pages

from nightfall.service import GameService

PLAYERS = ["Anna", "Bert", "Cleo", "Dora"]
START = datetime(2012, 12, 23, 20, 0, tzinfo=BERLIN)
ENV = {**os.environ, "NIGHTFALL_FORUM_DELAY": "0.01", "NIGHTFALL_FORUM_TIMEOUT": "3"}


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "nightfall.cli", *args], capture_output=True,
                          text=True, timeout=120, check=False, env=env or ENV)


def serve_thread(server: ForumServer, **options: object) -> None:
    posts = day_thread(START, PLAYERS, [("Anna", "Bert"), ("Bert", "Cleo"), ("Cleo", "Bert"),
                                        ("Dora", "Bert"), ("Anna", "Dora")], extra=9)
    for target, body in vb4_pages(posts).items():
        server.serve(target, body.replace("{base}", server.url("")), **options)


def test_votecount_reads_every_page_of_the_address() -> None:
    with forum_server(serve_thread) as server:
        result = run("votecount", server.url("/showthread.php/5512-Changeling-Game-7-Day-2"),
                     "--players", ",".join(PLAYERS), "--json", "--locale", "en")
        pages = len(server.requests())
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["votes"] == {"Anna": "Dora", "Bert": "Cleo",
                                                  "Cleo": "Bert", "Dora": "Bert"}
    assert pages == 4 and "read 4 page(s)" in result.stderr


def test_a_closed_forum_needs_the_cookie() -> None:
    with forum_server(lambda s: serve_thread(s, cookie="bb_sessionhash=abc")) as server:
        url = server.url("/showthread.php/5512-Changeling-Game-7-Day-2/page3")
        refused = run("votecount", url, "--players", ",".join(PLAYERS))
        allowed = run("votecount", url, "--players", ",".join(PLAYERS), "--json",
                      "--cookie", "bb_sessionhash=abc", "--header", "X-Requested-By: GM")
        bad = run("votecount", url, "--players", "Anna", "--cookie", "no-equals-sign")
    assert refused.returncode == 2
    assert "verweigert" in refused.stderr and "--cookie NAME=VALUE" in refused.stderr  # German
    assert allowed.returncode == 0, allowed.stderr
    assert json.loads(allowed.stdout)["tally"] == {"Bert": 2, "Cleo": 1, "Dora": 1}
    assert bad.returncode == 2 and "--cookie" in bad.stderr


def test_game_forum_links_and_the_deadline_tick_reads_the_thread(tmp_path: Path) -> None:
    """The GM's command line alone: link with --auto-submit, then `game tick --all` after
    the vote stop reads the thread and the day's result has its votes (C2.5, C5.1)."""
    db = f"sqlite:///{tmp_path / 'n.db'}"
    morning = datetime(2012, 12, 23, 9, 0, tzinfo=UTC)
    env = {**ENV, "NIGHTFALL_NOW": morning.isoformat()}
    service = GameService(url=db)
    game_id = service.create("changelings", 3, {"early_close": False}, "en").id
    for name in PLAYERS:
        service.signup(game_id, name)
    service.assign(game_id, {"Anna": "changeling", "Bert": "pony", "Cleo": "pony",
                             "Dora": "pony"})
    assert run("game", "start", game_id, "--db", db, env=env).returncode == 0
    deadline = service.load(game_id).state.deadline
    assert deadline is not None

    def setup(server: ForumServer) -> None:
        posts = day_thread(morning + timedelta(minutes=5), PLAYERS,
                           [("Anna", "Cleo"), ("Bert", "Cleo"), ("Dora", "Anna")])
        for target, body in vb4_pages(posts).items():
            server.serve(target, body.replace("{base}", server.url("")))

    with forum_server(setup) as server:
        url = server.url("/showthread.php/5512-Changeling-Game-7-Day-2")
        linked = run("game", "forum", game_id, url, "--auto-submit", "--cookie", "a=b",
                     "--db", db, env=env)
        assert linked.returncode == 0, linked.stderr
        assert "linked to" in linked.stdout and "cookies: a;" in linked.stdout
        assert "b" not in linked.stdout.split("cookies:")[1].split(";")[0].replace("a", "")
        now = run("game", "forum", game_id, "--count", "--db", db, env=env)
        assert now.returncode == 0, now.stderr
        assert now.stdout.count(" 200 http://127.0.0.1") == 1  # the page with its hash
        assert "[b]Vote count[/b]" in now.stdout and "[b]Cleo[/b] (2)" in now.stdout
        later = {**env, "NIGHTFALL_NOW": (deadline + timedelta(minutes=1)).isoformat()}
        ticked = run("game", "tick", "--all", "--db", db, env=later)
        assert ticked.returncode == 0, ticked.stderr
        shown = run("game", "forum", game_id, "--db", db, env=later)
    assert shown.returncode == 0 and "counted" in shown.stdout and "Cleo 2" in shown.stdout
    state = service.load(game_id).state
    assert "leader" in state.players["Cleo"].statuses  # C5.1: elected by the thread's votes
    unlinked = run("game", "forum", game_id, "--unlink", "--db", db, env=env)
    assert unlinked.returncode == 0 and "no longer linked" in unlinked.stdout

"""The GM's notification commands in real subprocesses: ``game signup --email`` and
``game email`` (vouched: no confirmation), ``game channel add|list|remove`` (masked
URLs, refused ones with a clear message), ``game reminders``, ``deliver --once`` against
a real SMTP server and HTTP receiver, and ``serve --mail-catcher`` with its page."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx

from mailkit import JsonReceiver, SmtpBox, eventually, free_port, text_of
from nightfall.service import GameService

ENV_KEYS = ("NIGHTFALL_DATABASE_URL", "NIGHTFALL_SMTP_URL", "NIGHTFALL_BASE_URL",
            "NIGHTFALL_ALLOW_PRIVATE_CHANNELS")


def cli(db: Path, *args: str, **env_extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ENV_KEYS}
    env.update(COLUMNS="200", NIGHTFALL_BASE_URL="http://nightfall.test", **env_extra)
    return subprocess.run([sys.executable, "-m", "nightfall.cli", *args, "--db",
                           f"sqlite:///{db}"], capture_output=True, text=True, timeout=120,
                          check=False, env=env)


def test_gm_addresses_channels_and_deliver(tmp_path: Path, smtp: SmtpBox,
                                           receiver: JsonReceiver) -> None:
    db = tmp_path / "cli.db"
    service = GameService(url=f"sqlite:///{db}")
    game = service.create("changelings", 7, {"early_close": False}, "en", title="Cli").id
    signed = cli(db, "game", "signup", game, "Ann", "--email", "ann@example.org")
    assert signed.returncode == 0, signed.stderr
    token = re.search(r"player token: (\S+)", signed.stdout)
    assert token is not None
    for name in ("Bob", "Cid", "Dee", "Eve"):
        assert cli(db, "game", "signup", game, name).returncode == 0
    bad = cli(db, "game", "email", game, "Bob", "bob-at-example")
    assert bad.returncode == 2 and "bob-at-example is not a usable e-mail address" in (
        bad.stderr + bad.stdout)
    assert cli(db, "game", "email", game, "bob", "bob@example.org").returncode == 0

    hook = receiver.url("cli-secret-token")
    refused = cli(db, "game", "channel", "add", game, hook)  # loopback: not allowed here
    assert refused.returncode == 2 and "private network" in refused.stderr + refused.stdout
    added = cli(db, "game", "channel", "add", game, hook,
                NIGHTFALL_ALLOW_PRIVATE_CHANNELS="1")
    assert added.returncode == 0, added.stderr
    assert "cli-secret-token" not in added.stdout
    listed = cli(db, "game", "channel", "list", game)
    assert f"1  json://127.0.0.1:{receiver.port}/…" in listed.stdout
    assert "cli-secret-token" not in listed.stdout
    assert cli(db, "game", "reminders", game, "30").returncode == 0

    assert cli(db, "game", "setup", game, "--roles",
               "changeling,researcher,pony,pony,shield").returncode == 0
    assert cli(db, "game", "start", game).returncode == 0
    # no mail server: only the channel goes out
    waiting = cli(db, "deliver", "--once", NIGHTFALL_ALLOW_PRIVATE_CHANNELS="1")
    assert "No mail server is configured" in waiting.stdout
    assert len(receiver.posts) == 1 and smtp.messages() == []
    done = cli(db, "deliver", "--once", NIGHTFALL_SMTP_URL=smtp.url,
               NIGHTFALL_ALLOW_PRIVATE_CHANNELS="1")
    assert done.returncode == 0, done.stderr
    subjects = sorted((str(m["To"]), str(m["Subject"])) for m in smtp.messages())
    assert ("ann@example.org", "[Cli] Your private link") in subjects
    assert ("bob@example.org", "[Cli] Day 1 has begun") in subjects
    link = next(m for m in smtp.messages() if "link" in str(m["Subject"]))
    assert f"http://nightfall.test/p/{token.group(1)}" in text_of(link)
    removed = cli(db, "game", "channel", "remove", game, "1")
    assert removed.returncode == 0 and "cli-secret-token" not in removed.stdout
    assert "no channels" in cli(db, "game", "channel", "list", game).stdout


def test_serve_with_the_mail_catcher(tmp_path: Path) -> None:
    db = tmp_path / "serve.db"
    service = GameService(url=f"sqlite:///{db}")
    game = service.create("changelings", 7, {}, "en", title="Catcher").id
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ENV_KEYS}
    log = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen([sys.executable, "-m", "nightfall.cli", "serve", "--db",
                               f"sqlite:///{db}", "--port", str(port), "--mail-catcher"],
                              env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        def page_url() -> str | None:
            found = re.search(r"what it caught: (\S+)", (tmp_path / "serve.log").read_text())
            return found.group(1) if found else None

        assert eventually(lambda: page_url() is not None, 30), (tmp_path / "serve.log"
                                                                 ).read_text()
        catcher = str(page_url())
        base = f"http://127.0.0.1:{port}"
        assert eventually(lambda: _up(base), 30)
        service.signup(game, "Ann", email="ann@example.org", vouched=True)
        assert eventually(lambda: "ann@example.org" in httpx.get(catcher).text, 30)
        shown = httpx.get(catcher).text
        assert "[Catcher] Your private link" in shown
        assert httpx.get(f"{base}/mail/wrong-key").status_code == 404
    finally:
        server.terminate()
        server.wait(timeout=20)
        time.sleep(0.1)


def _up(base: str) -> bool:
    try:
        return httpx.get(base + "/", timeout=2).status_code == 200
    except httpx.TransportError:
        return False

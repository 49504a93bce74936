"""``nightfall game observer add|revoke|reissue|list`` in real subprocesses (I6.7): the
GM lets an observer in from the terminal; his link works, is revoked and reissued like a
player's, and mistakes (a taken name, a rule set without observers, an unknown observer)
give a message and an exit code and change nothing."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from nightfall.service import GameService


def observer_cli(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "NIGHTFALL_DATABASE_URL"}
    env["COLUMNS"] = "200"
    return subprocess.run(
        [sys.executable, "-m", "nightfall.cli", "game", "observer", *args, "--db",
         f"sqlite:///{db}"], capture_output=True, text=True, timeout=120, check=False, env=env)


def printed_token(output: str) -> str:
    found = re.search(r"token \(\w+\): (\S+)", output)
    assert found is not None, output
    return found.group(1)


def started(service: GameService, ruleset: str) -> str:
    created = service.create(ruleset, 7, {"random_events": False} if ruleset == "island"
                             else {}, "en")
    for name in ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay"):
        service.signup(created.id, name)
    service.deal(created.id)
    service.start(created.id)
    return created.id


def test_add_revoke_reissue_and_list_observers(tmp_path: Path) -> None:
    db = tmp_path / "observers.db"
    service = GameService(url=f"sqlite:///{db}")
    game = started(service, "island")
    store = service.store

    added = observer_cli(db, "add", game, "Zoe")
    assert added.returncode == 0, added.stderr
    token = printed_token(added.stdout)
    assert store.holder(token) is not None and store.holder(token).observer  # type: ignore[union-attr]
    assert "observer" in service.load(game).view("Zoe")

    listed = observer_cli(db, "list", game)
    assert "Zoe: link works" in listed.stdout

    revoked = observer_cli(db, "revoke", game, "Zoe")
    assert revoked.returncode == 0 and "no longer works" in revoked.stdout
    assert store.holder(token) is None
    assert "Zoe: no working link" in observer_cli(db, "list", game).stdout

    again = observer_cli(db, "reissue", game, "Zoe")
    assert again.returncode == 0
    new = printed_token(again.stdout)
    assert store.holder(new) is not None and store.holder(token) is None

    head = service.meta(game).head_seq
    taken = observer_cli(db, "add", game, "ann")
    assert taken.returncode != 0 and "already taken" in taken.stdout + taken.stderr
    unknown = observer_cli(db, "reissue", game, "Ann")
    assert unknown.returncode != 0 and "no observer called Ann" in unknown.stdout + unknown.stderr
    assert service.meta(game).head_seq == head


def test_changelings_lets_no_observer_in(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    service = GameService(url=f"sqlite:///{db}")
    game = started(service, "changelings")
    head = service.meta(game).head_seq
    refused = observer_cli(db, "add", game, "Zoe")
    assert refused.returncode != 0
    assert "let no observers into the thread" in refused.stdout + refused.stderr
    assert service.meta(game).head_seq == head
    assert service.store.observer_links(game) == {}

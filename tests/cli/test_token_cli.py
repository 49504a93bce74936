"""``nightfall game token revoke|reissue`` in real subprocesses against a SQLite file: a
revoked link stops working at once, a reissued one works and the old one does not, the
GM's own link can be reissued, and mistakes give a message and an exit code."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from nightfall.service import GameService


def token_cli(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "NIGHTFALL_DATABASE_URL"}
    env["COLUMNS"] = "200"
    return subprocess.run(
        [sys.executable, "-m", "nightfall.cli", "game", "token", *args, "--db",
         f"sqlite:///{db}"], capture_output=True, text=True, timeout=120, check=False, env=env)


def printed_token(output: str) -> str:
    found = re.search(r"token(?: \(\w+\))?: (\S+)", output)
    assert found is not None, output
    return found.group(1)


def test_revoke_and_reissue_player_and_gm_links(tmp_path: Path) -> None:
    db = tmp_path / "tokens.db"
    service = GameService(url=f"sqlite:///{db}")
    created = service.create("changelings", 7, {}, "en")
    ann = service.signup(created.id, "Ann")
    bob = service.signup(created.id, "Bob")
    store = service.store

    revoked = token_cli(db, "revoke", created.id, "Ann")
    assert revoked.returncode == 0, revoked.stderr
    assert "no longer works" in revoked.stdout
    assert store.who_holds(ann) is None
    assert store.who_holds(bob) == (created.id, "Bob")  # only Ann's link

    reissued = token_cli(db, "reissue", created.id, "Ann")
    assert reissued.returncode == 0, reissued.stderr
    new_ann = printed_token(reissued.stdout)
    assert store.who_holds(new_ann) == (created.id, "Ann")
    assert store.who_holds(ann) is None

    gm = token_cli(db, "reissue", created.id, "--gm")
    assert gm.returncode == 0, gm.stderr
    assert gm.stdout.startswith("GM token: ")
    assert store.who_holds(printed_token(gm.stdout)) == (created.id, None)
    assert store.who_holds(created.gm_token) is None

    unknown = token_cli(db, "revoke", created.id, "Zed")
    assert unknown.returncode == 1
    assert "There is no player called Zed." in unknown.stderr and "Traceback" not in unknown.stderr
    both = token_cli(db, "reissue", created.id, "Ann", "--gm")
    assert both.returncode == 2 and "not both" in both.stderr
    assert store.who_holds(new_ann) == (created.id, "Ann")  # the mistakes changed nothing
    service.engine.dispose()

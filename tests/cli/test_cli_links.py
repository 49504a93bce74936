"""``nightfall game new/signup/token`` print links, not only tokens, beginning with
``NIGHTFALL_BASE_URL`` (the web app's setting too; default the local server), and
``game list`` lists finished games (issue 18)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_game_cli import T0, game_id_of, ok, run_cli, started_by_hand

from nightfall.links import DEFAULT_BASE_URL
from nightfall.web import Settings


def game(db: Path, *args: str, base: str | None) -> str:
    env = {k: v for k, v in os.environ.items()
           if k not in ("NIGHTFALL_DATABASE_URL", "NIGHTFALL_NOW", "NIGHTFALL_BASE_URL")}
    env["COLUMNS"] = "200"
    if base is not None:
        env["NIGHTFALL_BASE_URL"] = base
    result = subprocess.run(
        [sys.executable, "-m", "nightfall.cli", "game", *args, "--db", f"sqlite:///{db}"],
        capture_output=True, text=True, env=env, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_new_and_signup_print_links(tmp_path: Path) -> None:
    db = tmp_path / "nightfall.db"
    made = game(db, "new", "--ruleset", "changelings", "--locale", "en",
                base="https://nf.example.org/")
    gid = game_id_of(made)
    token = made.split("GM token: ", 1)[1].split()[0]
    assert f"GM page: https://nf.example.org/gm/{token}" in made
    assert f"sign-up page: https://nf.example.org/g/{gid}/signup" in made
    signed = game(db, "signup", gid, "Ann", base=None)
    player = signed.split("player token: ", 1)[1].split()[0]
    assert f"private page: {DEFAULT_BASE_URL}/p/{player}" in signed
    reissued = game(db, "token", "reissue", gid, "Ann", base="http://host:9")
    new = reissued.split("player token (Ann): ", 1)[1].split()[0]
    assert f"private page: http://host:9/p/{new}" in reissued


def test_the_web_and_the_cli_read_the_same_base_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NIGHTFALL_BASE_URL", "https://games.example.net/")
    assert Settings().base_url == "https://games.example.net"
    monkeypatch.delenv("NIGHTFALL_BASE_URL")
    assert Settings().base_url == DEFAULT_BASE_URL


def test_game_list_lists_finished_games(tmp_path: Path) -> None:
    db = tmp_path / "nightfall.db"
    gid = started_by_hand(db, seed=3, now=T0)
    for name in ("Ann", "Bob"):  # both changelings (C1): the ponies win
        ok(run_cli(db, "modkill", gid, name, now=T0))
    listed = ok(run_cli(db, "list"))
    row = next(line for line in listed.splitlines() if gid in line)
    assert "game over" in row

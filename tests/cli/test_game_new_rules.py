"""``nightfall game new --rules FILE`` (issue 20): real subprocesses against a real SQLite
file. A valid file creates a game that every later command (each a new process, nothing
compiled yet) plays by the file of its stored hash; a broken file exits 2 with every
problem as ``FILE:LINE: key …`` and creates nothing."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from test_game_cli import game_id_of, ok, run_cli

from rulekit import broken_rules, house_rules


def rows(db: Path, table: str) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


def test_a_rule_file_game_from_the_command_line(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    rules = tmp_path / "house.yaml"
    rules.write_bytes(house_rules("cli-ponies"))
    out = ok(run_cli(db, "new", "--rules", str(rules), "--seed", "9", "--locale", "en",
                     "--option", "early_close=false"))
    gid = game_id_of(out)
    assert "cli-ponies, seed 9, language en" in out and "sha256" in out
    for name in ("Ann", "Bob", "Cid", "Dee", "Eve"):
        ok(run_cli(db, "signup", gid, name))
    dealt = ok(run_cli(db, "setup", gid, "--roles",
                       "pony,pony,pony,changeling,researcher"))
    assert "(researcher)" in dealt and "Researcher" in dealt  # the file's role titles
    ok(run_cli(db, "start", gid))
    # the file's own status post (C16.1, ``status_post:``), not a plain one
    assert "First day phase and leader election... running" in ok(run_cli(db, "status", gid))
    assert "identical" in ok(run_cli(db, "replay", gid))
    assert "cli-ponies" in ok(run_cli(db, "list"))
    with sqlite3.connect(db) as conn:
        stored, options = conn.execute(
            "SELECT rule_files.data, games.options FROM games JOIN rule_files "
            "ON rule_files.sha256 = games.rule_file WHERE games.id = ?", (gid,)).fetchone()
    assert bytes(stored) == rules.read_bytes() and '"early_close": false' in options
    # the file on disk may change or vanish: the game keeps the rules it was created with
    rules.write_text("not: a rule file\n")
    assert "First day phase and leader election... running" in ok(run_cli(db, "status", gid))


def test_a_broken_rule_file_creates_nothing(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    rules = tmp_path / "broken.yaml"
    data, line = broken_rules("cli-broken")
    rules.write_bytes(data)
    done = run_cli(db, "new", "--rules", str(rules), "--locale", "de")
    assert done.returncode == 2, (done.stdout, done.stderr)
    # the checker's message in the session's language too (rulefile/messages.py)
    assert (f"{rules}:{line}: Schlüssel 'roles.pony.faction': unbekannte Seite 'poneys'"
            in done.stderr)
    assert "nichts wurde angelegt" in done.stderr and "Traceback" not in done.stderr
    assert rows(db, "games") == 0 and rows(db, "rule_files") == 0
    both = run_cli(db, "new", "--rules", str(rules), "--ruleset", "changelings",
                   "--locale", "en")
    assert both.returncode == 2 and "not both" in both.stderr
    missing = run_cli(db, "new", "--rules", str(tmp_path / "none.yaml"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr


def test_a_game_of_the_shipped_file_stores_its_bytes(tmp_path: Path) -> None:
    """``game new --ruleset changelings``: the shipped file's bytes are stored with the game
    (issue 20), so a later release's other ``changelings.yaml`` does not change its rules;
    an Island game (a Python plugin) records no file."""
    from rulekit import SHIPPED_CHANGELINGS

    db = tmp_path / "games.db"
    gid = game_id_of(ok(run_cli(db, "new", "--ruleset", "changelings", "--seed", "3",
                                 "--locale", "en")))
    island = game_id_of(ok(run_cli(db, "new", "--ruleset", "island", "--seed", "3")))
    with sqlite3.connect(db) as conn:
        stored, options = conn.execute(
            "SELECT rule_files.data, games.options FROM games JOIN rule_files "
            "ON rule_files.sha256 = games.rule_file WHERE games.id = ?", (gid,)).fetchone()
        plugin = conn.execute("SELECT rule_file FROM games WHERE id = ?", (island,)).fetchone()
    assert bytes(stored) == SHIPPED_CHANGELINGS and "sha256:" in options
    assert plugin == (None,) and rows(db, "rule_files") == 1
    for name in ("Ann", "Bob", "Cid", "Dee", "Eve"):
        ok(run_cli(db, "signup", gid, name))
    assert "identical" in ok(run_cli(db, "replay", gid))

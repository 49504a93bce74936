"""``game close`` and a ``game shorten`` that ends the stage say what the next stage's
deadline will be and, on a terminal, ask first (issue 18); ``game undo`` says whether the
reopened stage kept its deadline or needs a new one (``--minutes``)."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from test_game_cli import ok, run_cli, started_by_hand

BERLIN = ZoneInfo("Europe/Berlin")
T0 = datetime(2024, 3, 1, 18, 0, tzinfo=BERLIN)
LATE = datetime(2024, 3, 1, 21, 52, tzinfo=BERLIN)  # day 1 (until 02.03 19:30) still open
WARNING = ("Closing day 1 now starts night 1, stage 1, whose deadline is 01.03.2024 22:00 "
           "CET: 8 minutes from now.")


def on_terminal(db: Path, answer: str, *args: str, now: datetime) -> tuple[int, str]:
    """Run ``nightfall game ARGS`` with a terminal as stdin and ``answer`` typed in."""
    env = {k: v for k, v in os.environ.items() if k != "NIGHTFALL_DATABASE_URL"}
    env.update(NIGHTFALL_NOW=now.isoformat(), COLUMNS="200")
    master, slave = pty.openpty()
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "nightfall.cli", "game", *args, "--db", f"sqlite:///{db}"],
            stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True)
        os.close(slave)
        os.write(master, answer.encode() + b"\n")  # waits in the terminal until read
        output, _ = process.communicate(timeout=60)
    finally:
        os.close(master)
    return process.returncode, output


def test_close_on_a_terminal_warns_and_asks(tmp_path: Path) -> None:
    db = tmp_path / "nightfall.db"
    gid = started_by_hand(db, seed=3, now=T0)
    code, output = on_terminal(db, "n", "close", gid, now=LATE)
    assert code == 1 and WARNING in output and "nothing was changed" in output
    assert "phase day 1" in ok(run_cli(db, "status", gid, "--gm", now=LATE))
    code, output = on_terminal(db, "y", "close", gid, now=LATE)
    assert code == 0 and "closed: day 1" in output
    assert "phase night 1/1" in ok(run_cli(db, "status", gid, "--gm", now=LATE))


def test_close_in_a_script_warns_and_yes_skips_the_question(tmp_path: Path) -> None:
    db = tmp_path / "nightfall.db"
    gid = started_by_hand(db, seed=3, now=T0)
    result = run_cli(db, "close", gid, now=LATE)  # no terminal: warn on stderr, go on
    assert result.returncode == 0 and WARNING in result.stderr
    ok(run_cli(db, "undo", gid, now=LATE))
    assert WARNING in ok(run_cli(db, "close", gid, "--yes", now=LATE))


def test_a_shortening_that_ends_the_stage_asks_too(tmp_path: Path) -> None:
    db = tmp_path / "nightfall.db"
    gid = started_by_hand(db, seed=3, now=T0)
    code, output = on_terminal(db, "n", "shorten", gid, "20000", now=LATE)
    assert code == 1 and "shortening by 20000 minutes ends the stage now" in output
    assert WARNING in output
    assert "phase day 1" in ok(run_cli(db, "status", gid, "--gm", now=LATE))
    # one that leaves time is not asked about
    assert "deadline:" in ok(run_cli(db, "shorten", gid, "60", now=LATE))


def test_undo_says_whether_the_stage_kept_its_deadline(tmp_path: Path) -> None:
    db = tmp_path / "nightfall.db"
    gid = started_by_hand(db, seed=3, now=T0)
    ok(run_cli(db, "close", gid, "--yes", now=T0 + timedelta(hours=1)))
    kept = ok(run_cli(db, "undo", gid, now=T0 + timedelta(hours=2)))
    assert "the stage is open again until Sat 2024-03-02 19:30 CET" in kept
    ok(run_cli(db, "shorten", gid, "20000", "--yes", now=T0 + timedelta(hours=2)))
    ok(run_cli(db, "tick", gid, now=T0 + timedelta(hours=2, minutes=1)))
    lost = ok(run_cli(db, "undo", gid, now=T0 + timedelta(hours=3)))
    assert "without a deadline: set one with `nightfall game extend" in lost
    ok(run_cli(db, "tick", gid, now=T0 + timedelta(hours=3)))
    ok(run_cli(db, "close", gid, "--yes", now=T0 + timedelta(hours=3)))
    with_minutes = ok(run_cli(db, "undo", gid, "--minutes", "45",
                              now=T0 + timedelta(hours=4)))
    assert "the stage is open again until Fri 2024-03-01 22:45 CET" in with_minutes

"""``nightfall game …`` as a GM runs it: real subprocesses against a real SQLite file.

Every CLI call is a new process, so the game is reloaded from the database for every
command (the process "restarts between every phase" and between every move). The clock
of each process is fixed with ``NIGHTFALL_NOW``, so the same moves applied in memory with
:mod:`nightfall.engine` at the same times give the very same events.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from nightfall.engine import Command, Game
from nightfall.engine import events as ev
from nightfall.rulesets import new_game
from nightfall.store import codec

T0 = datetime(2024, 3, 1, 18, 0, tzinfo=ZoneInfo("Europe/Berlin"))
SEED = 4711
ROLES = {
    "Ann": "changeling", "Bob": "queen", "Cid": "researcher", "Dan": "shield",
    "Eve": "pinkie_sense", "Fay": "pony", "Gus": "pony", "Hal": "pony",
}


def run_cli(db: Path, *args: str, now: datetime | None = None,
            cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NIGHTFALL_DATABASE_URL",
                                                            "NIGHTFALL_NOW")}
    env["COLUMNS"] = "200"
    if now is not None:
        env["NIGHTFALL_NOW"] = now.isoformat()
    return subprocess.run(
        [sys.executable, "-m", "nightfall.cli", "game", *args, "--db", f"sqlite:///{db}"],
        capture_output=True, text=True, timeout=120, check=False, env=env, cwd=cwd or db.parent,
    )


def ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, (result.args, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    return result.stdout


def started_by_hand(db: Path, seed: int, now: datetime | None = None) -> str:
    """A new English game of ``ROLES``, signed up, assigned and started: its id."""
    gid = game_id_of(ok(run_cli(db, "new", "--ruleset", "changelings", "--seed", str(seed),
                                "--locale", "en")))
    for name in ROLES:
        ok(run_cli(db, "signup", gid, name))
    ok(run_cli(db, "setup", gid, "--assign", ",".join(f"{p}={r}" for p, r in ROLES.items())))
    ok(run_cli(db, "start", gid, now=now))
    return gid


def game_id_of(output: str) -> str:
    """The id on the first line of ``game new`` (``game: ID``, ``Spiel: ID``, ``игра: ID``)."""
    label, _, game_id = output.splitlines()[0].partition(": ")
    assert label in ("game", "Spiel", "игра") and game_id.strip(), output
    return game_id.strip()


def decoded_export(document: dict[str, Any]) -> list[ev.Event]:
    return [codec.decode(e["type"], e["version"], e["payload"]) for e in document["events"]]


class Twin:
    """One game played twice with the same moves at the same times: in memory through the
    engine, and through the CLI (one new process per command) into a database file."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.now = T0
        self.mem = new_game("changelings", SEED, None, "en")
        self.gid = game_id_of(self.cli("new", "--ruleset", "changelings", "--seed", str(SEED),
                                       "--locale", "en", "--title", "must-show"))
        self.outputs: list[str] = []

    def cli(self, *args: str) -> str:
        return ok(run_cli(self.db, *args, now=self.now))

    def step(self, minutes: int = 1) -> None:
        self.now += timedelta(minutes=minutes)

    # -- set-up
    def signup(self, name: str) -> None:
        self.mem.join(name, f"the {name}")
        self.cli("signup", self.gid, name, "--description", f"the {name}")

    def assign(self, roles: dict[str, str]) -> None:
        self.mem.assign(roles)
        self.cli("setup", self.gid, "--assign", ",".join(f"{p}={r}" for p, r in roles.items()))

    def start(self) -> None:
        self.mem.start(at=self.now)
        self.outputs.append(self.cli("start", self.gid))

    # -- play
    def submit(self, by: str, action: str, target: str | None = None,
               targets: tuple[str, ...] = (), choice: str | None = None) -> None:
        self.step()
        self.mem.execute(Command(action, by, target, targets, choice, at=self.now))
        args = ["submit", self.gid, action, "--by", by]
        if target is not None:
            args += ["--target", target]
        if targets:
            args += ["--targets", ",".join(targets)]
        if choice is not None:
            args += ["--choice", choice]
        self.outputs.append(self.cli(*args))

    def close(self) -> None:
        self.step(30)
        self.mem.advance(self.now)
        self.outputs.append(self.cli("close", self.gid))

    def extend(self, minutes: int) -> None:
        self.step()
        self.mem.execute(Command("extend", minutes=minutes, at=self.now))
        self.outputs.append(self.cli("extend", self.gid, str(minutes)))

    def tick_at_deadline(self) -> None:
        deadline = self.mem.state.deadline
        assert deadline is not None
        self.now = deadline
        self.mem.tick(self.now)
        self.outputs.append(self.cli("tick", self.gid))

    @property
    def label(self) -> str:
        return self.mem.state.phase_label

    def alive(self, role: str | None = None) -> list[str]:
        return [p for p in self.mem.state.alive() if role is None or ROLES[p] == role]

    def status(self) -> str:
        return self.cli("status", self.gid)


def _night(twin: Twin, victim: str, shielded: str) -> None:
    """Night stage 1 (abduction, shield; closes early) and stage 2 (closes early)."""
    number = twin.mem.state.phase.number
    assert twin.label == f"night {number}/1"
    for changeling in twin.alive("changeling") + twin.alive("queen"):
        twin.submit(changeling, "abduct", victim)
    twin.submit("Dan", "shield", shielded)
    assert twin.label == f"night {number}/2", "stage 1 closes early once every input is in"
    suspects = [p for p in ("Ann", "Bob", "Fay") if p in twin.alive()]
    twin.submit("Cid", "investigate", suspects[number - 1])
    if "Bob" in twin.alive():
        twin.submit("Bob", "scry", "Cid")
    twin.submit("Eve", "pass")
    assert twin.label == f"day {number + 1}", "stage 2 closes early once every input is in"


def _banish(twin: Twin, culprit: str) -> None:
    for player in twin.alive():
        if ROLES[player] in ("changeling", "queen"):
            twin.submit(player, "vote", "Fay")
        else:
            twin.submit(player, "vote", culprit)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Twin:
    """The must-show game: 8 players, roles by hand, scripted until the ponies win."""
    twin = Twin(tmp_path_factory.mktemp("game") / "nightfall.db")
    for name in ROLES:
        twin.signup(name)
    twin.assign(ROLES)
    twin.start()
    assert twin.label == "day 1"
    for player in ROLES:  # day 1: elect the researcher
        twin.submit(player, "elect", "Cid")
    twin.close()
    twin.status()
    _night(twin, "Hal", "Cid")  # Hal is abducted
    assert "Hal" not in twin.alive()
    twin.status()
    _banish(twin, "Ann")  # day 2: GM extends, then the deadline passes by the clock
    twin.extend(30)
    twin.tick_at_deadline()
    assert "Ann" not in twin.alive()
    twin.status()
    _night(twin, "Gus", "Eve")
    twin.status()
    _banish(twin, "Bob")
    twin.close()
    assert twin.mem.state.ended and twin.mem.state.winner == "ponies"
    return twin


def test_a_complete_game_through_the_cli_equals_the_in_memory_run(played: Twin) -> None:
    document = json.loads(played.cli("export", played.gid))
    assert document["game"]["id"] == played.gid
    assert [e["seq"] for e in document["events"]] == list(range(len(played.mem.events)))
    exported = decoded_export(document)
    assert len(exported) == len(played.mem.events)
    for seq, (stored, in_memory) in enumerate(zip(exported, played.mem.events, strict=True)):
        assert stored == in_memory, f"event {seq} differs"
    # the file written by --output is the same document
    out_file = played.db.parent / "export.json"
    played.cli("export", played.gid, "--output", str(out_file))
    assert json.loads(out_file.read_text())["events"] == document["events"]
    # the folded states agree too, and the stored game replays from its log
    assert Game.from_events(played.mem.ruleset, exported).state == played.mem.state
    assert "identical" in played.cli("replay", played.gid)
    status = played.status()
    assert "The game is over: the ponies won." in status
    assert "Ann: the Ann — Changeling" in status
    assert any("game over:" in output for output in played.outputs)


def test_the_log_lists_every_event_and_json_lines_match_the_export(played: Twin) -> None:
    lines = played.cli("log", played.gid, "--json").splitlines()
    assert len(lines) == len(played.mem.events)
    assert json.loads(lines[0])["type"] == "GameCreated"
    text = played.cli("log", played.gid, "--tail", "3")
    assert len(text.splitlines()) == 3 and "GameEnded" in text


def test_trace_names_every_c15_step_of_the_night_in_order(played: Twin) -> None:
    output = played.cli("trace", played.gid, "--phase", "night 1/2")
    rules = [f"C15.{n}" for n in range(1, 12)]
    positions = [output.index(rule) for rule in rules]
    assert positions == sorted(positions)
    for number, step in ((1, "liar"), (2, "researcher"), (3, "shield"), (4, "changelings"),
                         (11, "night_owl")):
        assert f"step {number}  {step}" in output
    assert "Hal" in output  # the abduction's line, localized
    both = played.cli("trace", played.gid, "--phase", "night 1")
    assert "night 1/1" in both and "night 1/2" in both and "C13.1" in both
    german = played.cli("trace", played.gid, "--phase", "night 1/2", "--locale", "de")
    assert german != output and "C15.4" in german
    assert "Researcher's investigation" in output  # each step's title, in the language
    assert "Untersuchung des Forschers" in german
    last = played.cli("trace", played.gid)
    assert last.startswith("day 3") and "C3.3" in last


# -- error paths -----------------------------------------------------------------------------
def _log(db: Path, gid: str) -> str:
    return ok(run_cli(db, "log", gid, "--json"))


def _fails(db: Path, code: int, message: str, *args: str, now: datetime = T0) -> None:
    result = run_cli(db, *args, now=now)
    assert result.returncode == code, (args, result.stdout, result.stderr)
    assert message in result.stderr, (args, result.stderr)
    assert "Traceback" not in result.stderr


GAME_COMMANDS = [
    ("signup", "X", "Zed"), ("withdraw", "X", "Zed"), ("setup", "X"), ("start", "X"),
    ("status", "X"), ("submit", "X", "vote", "--by", "Ann", "--target", "Bob"),
    ("close", "X"), ("extend", "X", "10"), ("shorten", "X", "10"), ("skip", "X"),
    ("modkill", "X", "Ann"), ("act", "X", "event"), ("undo", "X"), ("trace", "X"),
    ("log", "X"), ("export", "X"), ("replay", "X"), ("tick", "X"),
]


@pytest.mark.parametrize("command", GAME_COMMANDS, ids=[c[0] for c in GAME_COMMANDS])
def test_an_unknown_game_is_exit_2_with_a_clear_message(tmp_path: Path,
                                                        command: tuple[str, ...]) -> None:
    db = tmp_path / "nightfall.db"
    args = tuple("nosuchgame" if part == "X" else part for part in command)
    _fails(db, 2, "there is no game nosuchgame", *args)


def test_rejected_commands_exit_1_with_the_reason_and_change_nothing(tmp_path: Path) -> None:
    db = tmp_path / "nightfall.db"
    gid = game_id_of(ok(run_cli(db, "new", "--ruleset", "changelings", "--seed", "1",
                                "--locale", "en")))
    for name in ROLES:
        ok(run_cli(db, "signup", gid, name))
    before = _log(db, gid)
    # sign-up: rejected by the rules (exit 1) or bad usage (exit 2)
    _fails(db, 1, "The name ann is already taken.", "signup", gid, "ann")
    _fails(db, 1, "There is no player called Zed.", "withdraw", gid, "Zed")
    _fails(db, 1, "Unknown preset nope", "setup", gid, "--preset", "nope")
    _fails(db, 1, "Unknown role: wizard. The roles of this game: pony, changeling, queen",
           "setup", gid, "--roles", "wizard")
    _fails(db, 1, "9 roles for 8 players.", "setup", gid, "--roles",
           ",".join(["pony"] * 8 + ["queen"]))
    _fails(db, 1, "These players have no role yet: Hal.", "setup", gid, "--assign",
           ",".join(f"{p}={r}" for p, r in ROLES.items() if p != "Hal"))
    _fails(db, 1, "Deal the roles before the game starts.", "start", gid)
    _fails(db, 1, "The game has not started yet.", "close", gid)
    _fails(db, 1, "The game has not started yet.", "skip", gid)
    _fails(db, 1, "The game has not started yet.", "submit", gid, "vote", "--by", "Ann",
           "--target", "Bob")
    _fails(db, 1, "Nothing has been resolved yet.", "trace", gid)
    _fails(db, 2, "give only one of --preset, --roles, --assign", "setup", gid, "--preset",
           "village-8", "--roles", "pony")
    _fails(db, 2, "--assign wants Name=role", "setup", gid, "--assign", "Ann:pony")
    _fails(db, 2, "unknown time zone", "signup", gid, "Zed", "--timezone", "Mars/Olympus")
    _fails(db, 2, "choose one of", "status", gid, "--locale", "xx")
    assert _log(db, gid) == before

    ok(run_cli(db, "setup", gid, "--assign", ",".join(f"{p}={r}" for p, r in ROLES.items())))
    ok(run_cli(db, "start", gid, now=T0))
    before = _log(db, gid)
    _fails(db, 1, "Sign-up is closed.", "signup", gid, "Zed")
    _fails(db, 1, "Sign-up is closed.", "withdraw", gid, "Ann")
    _fails(db, 1, "Roles were dealt already.", "setup", gid, "--preset", "village-8")
    _fails(db, 1, "There is nothing to undo.", "undo", gid)
    _fails(db, 1, "There is no player called Zed.", "submit", gid, "elect", "--by", "Zed",
           "--target", "Ann")
    _fails(db, 1, "There is no player called Zed.", "submit", gid, "elect", "--by", "Ann",
           "--target", "Zed")
    _fails(db, 1, "There is no banishment on day 1", "submit", gid, "vote", "--by", "Ann",
           "--target", "Bob")
    _fails(db, 1, "Unknown command fly.", "submit", gid, "fly", "--by", "Ann")
    _fails(db, 1, "There is no player called Zed.", "modkill", gid, "Zed")
    _fails(db, 1, "Give a positive number of minutes.", "extend", gid, "0")
    _fails(db, 1, "Give a positive number of minutes.", "shorten", gid, "0")
    _fails(db, 1, "Too late: the deadline passed", "submit", gid, "elect", "--by", "Ann",
           "--target", "Bob", now=T0 + timedelta(days=3))
    # (the GM's own acts are accepted after a deadline: see test_engine.py)
    _fails(db, 2, "is a GM act", "submit", gid, "extend", "--by", "Ann")
    _fails(db, 2, "give --target or --targets, not both", "submit", gid, "love", "--by",
           "Ann", "--target", "Bob", "--targets", "Bob,Cid")
    _fails(db, 2, "changelings has no GM act 'event'", "act", gid, "event")
    _fails(db, 2, "Missing option '--by'", "submit", gid, "vote")
    _fails(db, 2, "", "extend", gid, "soon")
    _fails(db, 2, "name a game or give --all", "tick")
    assert _log(db, gid) == before

    ok(run_cli(db, "close", gid, now=T0 + timedelta(hours=1)))  # into night 1/1
    before = _log(db, gid)
    night = T0 + timedelta(hours=2)
    _fails(db, 1, "vote is not possible now (night 1, stage 1).", "submit", gid, "vote",
           "--by", "Fay", "--target", "Ann", now=night)
    _fails(db, 1, "is a changeling; choose a pony", "submit", gid, "abduct", "--by", "Ann",
           "--target", "Bob", now=night)
    _fails(db, 1, "is not an ability of your role", "submit", gid, "abduct", "--by", "Fay",
           "--target", "Gus", now=night)
    _fails(db, 2, "No resolution of night 7 to show; resolved so far: day 1.", "trace", gid,
           "--phase", "night 7")
    assert _log(db, gid) == before
    assert "nothing due" in ok(run_cli(db, "tick", gid, now=night))
    assert _log(db, gid) == before


def test_errors_are_localized_in_the_games_language(tmp_path: Path) -> None:
    db = tmp_path / "nightfall.db"
    gid = game_id_of(ok(run_cli(db, "new", "--ruleset", "changelings", "--locale", "de")))
    _fails(db, 1, "Es gibt keinen Spieler namens Zed.", "withdraw", gid, "Zed")
    _fails(db, 1, "Es gibt keinen Spieler namens Zed.", "token", "revoke", gid, "Zed")
    _fails(db, 1, "Noch wurde nichts aufgelöst.", "trace", gid)


def test_game_new_rejects_bad_usage_and_creates_nothing(tmp_path: Path) -> None:
    db = tmp_path / "nightfall.db"
    _fails(db, 2, "unknown rule set 'chess'", "new", "--ruleset", "chess")
    english = ("new", "--ruleset", "changelings", "--locale", "en")
    _fails(db, 2, "unknown option 'foo'", *english, "--option", "foo=1")
    _fails(db, 2, "--option: Unknown time zone Moon/Base", *english,
           "--option", "timezone=Moon/Base")
    _fails(db, 2, "true or false", *english, "--option", "early_close=maybe")
    # without --locale the game would be German (Changelings), and so is the error
    _fails(db, 2, "Fehler: die Option early_close ist true oder false, nicht 'maybe'", "new",
           "--ruleset", "changelings", "--option", "early_close=maybe")
    _fails(db, 2, "choose one of", "new", "--ruleset", "changelings", "--locale", "xx")
    assert "no games yet" in ok(run_cli(db, "list"))
    created = ok(run_cli(db, "new", "--ruleset", "changelings", "--title", "Canterlot",
                         "--option", "early_close=false", "--option", "timezone=Europe/Vienna"))
    gid = game_id_of(created)
    assert "Spielleiter-Token: " in created  # a Changelings game is German by default
    listing = ok(run_cli(db, "list"))
    assert gid in listing and "Canterlot" in listing
    first = json.loads(_log(db, gid).splitlines()[0])["payload"]
    assert codec.decode_value(first["options"])["early_close"] is False


def test_a_database_that_cannot_be_opened_is_exit_2(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "nightfall.cli", "game", "list", "--db",
         f"sqlite:///{tmp_path}/missing/dir/x.db"],
        capture_output=True, text=True, timeout=120, check=False, cwd=tmp_path,
    )
    assert result.returncode == 2 and "cannot open the database" in result.stderr


# -- undo and replay -----------------------------------------------------------------------------
def test_undo_keeps_the_audit_trail_and_the_log_replays_identically(tmp_path: Path) -> None:
    db = tmp_path / "nightfall.db"
    gid = started_by_hand(db, seed=3, now=T0)
    ok(run_cli(db, "close", gid, now=T0 + timedelta(hours=1)))  # day 1 -> night 1/1
    night = T0 + timedelta(hours=2)
    for by, action, target in (("Ann", "abduct", "Hal"), ("Bob", "abduct", "Hal"),
                               ("Dan", "shield", "Cid")):
        ok(run_cli(db, "submit", gid, action, "--by", by, "--target", target, now=night))
    assert "night 1/2" in ok(run_cli(db, "status", gid, "--gm"))
    undone = ok(run_cli(db, "undo", gid, now=night))
    assert "rolled back" in undone
    status = ok(run_cli(db, "status", gid, "--gm", now=night))
    assert "phase night 1/1" in status and "Ann [kill] abduct Hal" in status
    assert "identical" in ok(run_cli(db, "replay", gid))
    log = ok(run_cli(db, "log", gid))
    assert "RolledBack" in log and "StageClosed" in log  # the undone events stay
    # the stage closes again; the replay still matches
    closed = ok(run_cli(db, "close", gid, now=night + timedelta(minutes=5)))
    assert "now: night 1, stage 2" in closed
    assert "identical" in ok(run_cli(db, "replay", gid))
    # a tampered log no longer replays to the stored (snapshot) state: exit 1
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE events SET payload = json_set(payload, '$.seed', 999) "
                     "WHERE game_id = ? AND type = 'GameCreated'", (gid,))
    result = run_cli(db, "replay", gid)
    assert result.returncode == 1 and "differs" in result.stderr and "seed" in result.stderr


def test_gm_acts_skip_shorten_modkill_and_tick_all(tmp_path: Path) -> None:
    db = tmp_path / "nightfall.db"
    gid = game_id_of(ok(run_cli(db, "new", "--ruleset", "changelings", "--seed", "5",
                                "--locale", "en")))
    for name in ROLES:
        ok(run_cli(db, "signup", gid, name))
    ok(run_cli(db, "withdraw", gid, "Hal"))
    ok(run_cli(db, "setup", gid))  # the default roles for 7 players, dealt by the seed
    ok(run_cli(db, "start", gid, now=T0))
    assert "day 1, stage" not in ok(run_cli(db, "skip", gid, now=T0))
    shortened = ok(run_cli(db, "shorten", gid, "60", now=T0))
    assert "21:00" in shortened  # night 1/1 ends at 22:00, an hour earlier now
    modkilled = ok(run_cli(db, "modkill", gid, "Gus", "--reason", "inactive", now=T0))
    assert "left: Gus" in modkilled
    assert "no deadline has passed" in ok(run_cli(db, "tick", "--all", now=T0))
    later = T0 + timedelta(hours=4)
    ticked = ok(run_cli(db, "tick", "--all", now=later))
    assert f"{gid}:" in ticked
    assert "identical" in ok(run_cli(db, "replay", gid))


def test_db_takes_a_sqlite_path_as_serve_does(tmp_path: Path) -> None:
    """``--db nightfall.db`` (the README's form for ``serve``) works for every command: a
    plain path is the SQLite file, the same one its ``sqlite:///`` URL names."""
    db = tmp_path / "games.db"
    gid = game_id_of(ok(run_cli(db, "new", "--ruleset", "changelings", "--seed", "3")))
    env = {k: v for k, v in os.environ.items() if k != "NIGHTFALL_DATABASE_URL"}
    for given in (str(db), "games.db"):  # absolute, and relative to the working folder
        listed = subprocess.run(
            [sys.executable, "-m", "nightfall.cli", "game", "list", "--db", given],
            capture_output=True, text=True, timeout=120, check=False, env=env, cwd=tmp_path)
        assert ok(listed).count(gid) == 1, given
    env["NIGHTFALL_DATABASE_URL"] = str(db)
    status = subprocess.run([sys.executable, "-m", "nightfall.cli", "game", "status", gid],
                            capture_output=True, text=True, timeout=120, check=False,
                            env=env, cwd=tmp_path.parent)
    assert "Anmeldephase... running" in ok(status)  # the game's own language (German)


def test_player_names_are_matched_regardless_of_case(tmp_path: Path) -> None:
    """Names are unique regardless of case (sign-up refuses "ann" beside "Ann"), so the
    GM may type them as he likes: ``--by ann --target cid`` is Ann voting for Cid."""
    db = tmp_path / "nightfall.db"
    gid = started_by_hand(db, seed=5)
    accepted = ok(run_cli(db, "submit", gid, "elect", "--by", "ann", "--target", "CID"))
    assert "accepted: Ann elect Cid" in accepted
    ok(run_cli(db, "modkill", gid, "hal"))
    assert "revoked" in ok(run_cli(db, "token", "revoke", gid, "bob"))
    state = _log(db, gid)
    assert '"player": "Hal"' in state and '"cause": "modkill"' in state

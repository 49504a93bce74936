"""``nightfall votecount --game G --submit``: the counted votes go into a game of the
service, and the engine's own rules judge them again (here: a lover's vote)."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from nightfall.service import GameService

BERLIN = ZoneInfo("Europe/Berlin")
ROLES = {"Ann": "changeling", "Bob": "pony", "Cleo": "pony", "Dan": "researcher",
         "Eve": "pony", "Fritz": "pony"}


def started_game(url: str) -> tuple[GameService, str]:
    """A started German Changelings game of ``ROLES`` in a service on ``url`` (day 1)."""
    service = GameService(url=url)
    game_id = service.create("changelings", 3, {"early_close": False}, "de").id
    for name in ROLES:
        service.signup(game_id, name)
    service.assign(game_id, ROLES)
    service.start(game_id)
    return service, game_id


def test_counted_votes_are_submitted_and_the_engine_tallies_them(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'nightfall.db'}"
    service, game_id = started_game(url)
    for _ in range(3):  # day 1 → night 1/1 → night 1/2 → day 2
        service.gm(game_id, "advance")
    state = service.load(game_id).state
    assert state.phase_label == "day 2"
    start = (state.phase_at or datetime.now(UTC)).astimezone(BERLIN)

    def at(minutes: int) -> str:
        return (start + timedelta(minutes=minutes)).strftime("%Y-%m-%d %H:%M")

    thread = tmp_path / "day2.bbcode"
    thread.write_text(
        "# timezone: Europe/Berlin\n"
        f"--- post p1 | author: Bob | time: {at(1)}\n[color=red]Ann[/color]\n"
        f"--- post p2 | author: Cleo | time: {at(2)}\nIch sage [color=red]Ann[/color]!\n"
        f"--- post p3 | author: Dan | time: {at(3)}\n[quote=\"Bob\"][color=red]Ann[/color]"
        "[/quote] Nein: [color=red]Eve[/color]\n"
        f"--- post p4 | author: Eve | time: {at(4)}\n[color=red]Dan[/color]\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [sys.executable, "-m", "nightfall.cli", "votecount", str(thread), "--game",
         game_id, "--db", url, "--submit", "--json"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert result.returncode == 0, result.stderr
    count = json.loads(result.stdout)
    assert count["votes"] == {"Bob": "Ann", "Cleo": "Ann", "Dan": "Eve", "Eve": "Dan"}
    assert "abgegeben: Bob → Ann" in result.stderr  # the game's language (German)
    game = service.load(game_id)
    ballots = {s.player: s.target for s in game.state.submissions_in("vote")}
    assert ballots == count["votes"]
    # the same thread counted and submitted again: nothing is sent twice
    again = subprocess.run(
        [sys.executable, "-m", "nightfall.cli", "votecount", str(thread), "--game",
         game_id, "--db", url, "--submit", "--json"],
        capture_output=True, text=True, timeout=120, check=False)
    assert again.returncode == 0, again.stderr
    assert again.stderr.count("unverändert: ") == 4 and "abgegeben" not in again.stderr
    assert len(service.load(game_id).events) == len(game.events)
    service.gm(game_id, "advance")  # the day ends: the engine's own tally
    state = service.load(game_id).state
    assert state.last_votes == {"Ann": 2, "Eve": 1, "Dan": 1}
    assert not state.is_alive("Ann") and state.winner == "ponies"


def test_on_day_one_the_counted_red_names_elect_the_leader(tmp_path: Path) -> None:
    """C5.1: on day 1 a red name is a vote for the leader; the counted votes go in as
    ``elect`` (a ``vote`` would be refused: no banishment on day 1)."""
    url = f"sqlite:///{tmp_path / 'nightfall.db'}"
    service, game_id = started_game(url)
    state = service.load(game_id).state
    assert state.phase_label == "day 1"
    start = (state.phase_at or datetime.now(UTC)).astimezone(BERLIN)
    thread = tmp_path / "day1.bbcode"
    thread.write_text(
        "# timezone: Europe/Berlin\n" + "".join(
            f"--- post p{i} | author: {voter} | time: "
            f"{(start + timedelta(minutes=i)).strftime('%Y-%m-%d %H:%M')}\n"
            f"[color=red]{target}[/color]\n"
            for i, (voter, target) in enumerate(
                [("Bob", "Dan"), ("Cleo", "Dan"), ("Eve", "Fritz")], start=1)),
        encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "nightfall.cli", "votecount", str(thread), "--game",
         game_id, "--db", url, "--submit", "--json"],
        capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert "abgelehnt" not in result.stderr, result.stderr
    game = service.load(game_id)
    assert {s.player: s.target for s in game.state.submissions_in("elect")} == {
        "Bob": "Dan", "Cleo": "Dan", "Eve": "Fritz"}
    service.gm(game_id, "advance")  # day 1 ends: Dan leads (C5.1)
    assert "leader" in service.load(game_id).state.players["Dan"].statuses


def test_submit_without_a_game_is_a_usage_error(tmp_path: Path) -> None:
    thread = tmp_path / "t.bbcode"
    thread.write_text("--- post p1 | author: Bob | time: 2012-12-24 18:00\nhi\n")
    result = subprocess.run(
        [sys.executable, "-m", "nightfall.cli", "votecount", str(thread), "--players",
         "Bob", "--submit", "--locale", "en"], capture_output=True, text=True, timeout=60,
        check=False)
    assert result.returncode == 2 and "--submit needs --game" in result.stderr


def test_an_unknown_game_exits_2(tmp_path: Path) -> None:
    thread = tmp_path / "t.bbcode"
    thread.write_text("--- post p1 | author: Bob | time: 2012-12-24 18:00\nhi\n")
    result = subprocess.run(
        [sys.executable, "-m", "nightfall.cli", "votecount", str(thread), "--game", "nope",
         "--db", f"sqlite:///{tmp_path / 'x.db'}"], capture_output=True, text=True,
        timeout=60, check=False)
    assert result.returncode == 2 and "no game" in result.stderr

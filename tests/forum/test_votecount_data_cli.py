"""``nightfall votecount`` for a game of a rule file: ``--game G --submit`` counts with
the file's ``forum_votes:`` (the classic Werwolf: red names, K3.1) and submits the votes;
``--ruleset werwolf-classic`` counts without a game; a game whose uploaded file has no
``forum_votes:`` section is refused with a clear message in its language, exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from nightfall.rulefile.ruleset import SHIPPED
from nightfall.service import GameService

BERLIN = ZoneInfo("Europe/Berlin")
ROLES = {"Anna": "werewolf", "Bert": "werewolf", "Clara": "seer", "Dora": "witch",
         "Emil": "hunter", "Frida": "villager", "Gustav": "villager"}


def day_of(service: GameService, game_id: str) -> datetime:
    for name in ROLES:
        service.signup(game_id, name)
    service.assign(game_id, ROLES)
    service.start(game_id)
    while service.load(game_id).state.phase.kind != "day":
        service.gm(game_id, "advance")
    state = service.load(game_id).state
    return (state.phase_at or datetime.now(UTC)).astimezone(BERLIN)


def thread_file(tmp_path: Path, start: datetime) -> Path:
    def at(minutes: int) -> str:
        return (start + timedelta(minutes=minutes)).strftime("%Y-%m-%d %H:%M")

    thread = tmp_path / "day1.bbcode"
    thread.write_text(
        "# timezone: Europe/Berlin\n"
        f"--- post p1 | author: Clara | time: {at(1)}\n[color=red]Anna[/color]\n"
        f"--- post p2 | author: Dora | time: {at(2)}\nIch sage [color=red]Ann[/color]!\n"
        f"--- post p3 | author: Frida | time: {at(3)}\n[color=red]Bert[/color]\n"
        f"--- post p4 | author: Anna | time: {at(4)}\n[b]Frida[/b] ist verdächtig\n",
        encoding="utf-8")
    return thread


def votecount(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "nightfall.cli", "votecount", *args],
                          capture_output=True, text=True, timeout=120, check=False)


def test_a_classic_game_is_counted_and_its_votes_submitted(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'nightfall.db'}"
    service = GameService(url=url)
    game_id = service.create("werwolf-classic", 3, {"early_close": False}, "de").id
    thread = thread_file(tmp_path, day_of(service, game_id))
    result = votecount(str(thread), "--game", game_id, "--db", url, "--submit", "--json")
    assert result.returncode == 0, result.stderr
    count = json.loads(result.stdout)
    # red names only (K3.1): Anna's bold name is no vote
    assert count["votes"] == {"Clara": "Anna", "Dora": "Anna", "Frida": "Bert"}
    assert "abgegeben: Clara → Anna" in result.stderr
    state = service.load(game_id).state
    assert {s.player: s.target for s in state.submissions.values()} == count["votes"]


def test_a_shipped_rule_file_counts_without_a_game(tmp_path: Path) -> None:
    thread = thread_file(tmp_path, datetime(2012, 12, 24, 10, 0, tzinfo=BERLIN))
    result = votecount(str(thread), "--ruleset", "werwolf-classic", "--players",
                       ",".join(ROLES), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["votes"] == {
        "Clara": "Anna", "Dora": "Anna", "Frida": "Bert"}
    unknown = votecount(str(thread), "--ruleset", "werewolf", "--players", "Anna,Bert")
    assert unknown.returncode == 2
    assert "changelings, island, werwolf-classic" in unknown.stderr


def test_a_game_whose_file_says_nothing_of_forum_votes_is_refused(tmp_path: Path) -> None:
    text = SHIPPED["werwolf-classic"].read_text(encoding="utf-8")
    start, end = text.index("forum_votes:\n"), text.index("\n\n", text.index("forum_votes:\n"))
    data = (text[:start] + text[end + 2:]).replace(", forum_votes]", "]")
    data = data.replace("id: werwolf-classic", "id: werwolf-upload")
    url = f"sqlite:///{tmp_path / 'nightfall.db'}"
    service = GameService(url=url)
    game_id = service.create_from_rules(data.encode(), 3, {"early_close": False}, "de").id
    thread = thread_file(tmp_path, day_of(service, game_id))
    result = votecount(str(thread), "--game", game_id, "--db", url)
    assert result.returncode == 2
    assert "sagt nicht, wie seine Stimmen im Forum geschrieben werden" in result.stderr
    assert "--game" in result.stderr

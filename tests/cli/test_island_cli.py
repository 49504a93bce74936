"""A complete Island of Fear game through ``nightfall game …``: a new process for every
command (the game is reloaded from the database each time, across every phase), ending
with exactly the log of the same moves applied in memory (issue 4's must-show)."""

from __future__ import annotations

import json
from pathlib import Path

from test_game_cli import SEED, T0, Twin, decoded_export, game_id_of, run_cli

from nightfall.rulesets import new_game

ISLAND_ROLES = {"Ann": "werewolf", "Bob": "seer", "Cid": "nurse", "Dan": "passenger",
                "Eve": "passenger", "Fay": "passenger", "Gus": "passenger"}


class IslandTwin(Twin):
    """The same twin as the Changelings test's, on the Island rule set."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.now = T0
        self.mem = new_game("island", SEED, {"random_events": False}, "en")
        self.gid = game_id_of(self.cli("new", "--ruleset", "island", "--seed", str(SEED),
                                       "--locale", "en", "--option", "random_events=false"))
        self.outputs = []


def test_a_complete_island_game_through_the_cli_equals_the_in_memory_run(
    tmp_path: Path,
) -> None:
    twin = IslandTwin(tmp_path / "nightfall.db")
    for name in ISLAND_ROLES:
        twin.signup(name)
    twin.assign(ISLAND_ROLES)
    twin.start()
    assert twin.label == "day 1/1"
    # day 1: the village lynches a passenger; the werewolf eats, the seer checks him
    for player in ISLAND_ROLES:
        twin.submit(player, "vote", "Dan" if player != "Dan" else "Ann")
    twin.submit("Ann", "eat", "Eve")
    twin.submit("Bob", "check", "Ann")
    twin.submit("Cid", "heal", "Cid")
    twin.close()
    assert twin.label == "day 1/2"
    twin.close()  # 21:00: the lynch and the night resolve (I7)
    assert twin.label == "day 2/1"
    assert {"Dan", "Eve"}.isdisjoint(twin.mem.state.alive())
    # day 2: everybody votes the werewolf out
    for player in twin.mem.state.alive():
        twin.submit(player, "vote", "Ann" if player != "Ann" else "Bob")
    twin.close()
    twin.close()
    assert twin.mem.state.ended and twin.mem.state.winner == "peaceful"

    document = json.loads(twin.cli("export", twin.gid))
    exported = decoded_export(document)
    assert len(exported) == len(twin.mem.events)
    for seq, (stored, in_memory) in enumerate(zip(exported, twin.mem.events, strict=True)):
        assert stored == in_memory, f"event {seq} differs"
    replay = run_cli(twin.db, "replay", twin.gid)
    assert replay.returncode == 0, replay.stdout + replay.stderr

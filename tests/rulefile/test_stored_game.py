"""A game of a rule file stored and loaded like any other: the event store keeps its
log, and the game loaded again (and replayed from its whole log) is the same."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from nightfall.engine import Command
from nightfall.service import FixedClock, GameService


def test_a_data_rule_set_game_is_stored_loaded_and_replayed(tmp_path: Path) -> None:
    clock = FixedClock(datetime(2026, 12, 1, 9, 0, tzinfo=UTC))
    service = GameService(url=f"sqlite:///{tmp_path / 'games.db'}", clock=clock)
    created = service.create("changelings", 7, locale="de")
    for name in ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]:
        service.signup(created.id, name)
    service.deal(created.id)
    service.start(created.id)
    game = service.load(created.id)
    assert game.state.ruleset == "changelings"
    assert game.state.options["rules_file"].startswith("nightfall-rules/1:sha256:")
    voter = game.state.alive()[0]
    service.submit(created.id, Command("elect", by=voter, target=game.state.alive()[1]))
    service.gm(created.id, "advance")
    loaded = service.load(created.id)
    assert loaded.state.phase_label == "night 1/1"
    assert loaded.ruleset.leader(loaded.state) == game.state.alive()[1]
    assert service.replay_matches(created.id)

"""Changelings is its rule file, and the file plays the deleted Python plugin's games
(issue 20). The plugin wrote, before its deletion, the digests of 4000 seeded bot games,
four whole game logs and its status posts along them
(``scripts/changelings_digests.py --write``, kept in ``tests/rulefile/frozen/``); here
the rule file plays a few hundred of those games again and must write the same logs
(every fourth: the same legal lists and views, turn by turn) and the same posts, and
the stored logs — games of rule set ``changelings`` as the plugin recorded them — load,
fold and replay with the file. ``scripts/changelings_digests.py --check`` plays all
4000 (docs/rules-format.md, "Changelings")."""

from __future__ import annotations

import importlib.util
import json
import sys
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from sqlalchemy import update

from nightfall.engine import Game
from nightfall.rulefile.ruleset import DataRuleset, shipped
from nightfall.rulesets import get_ruleset
from nightfall.service import FixedClock, GameService
from nightfall.store import schema
from nightfall.store.codec import decode, encode

ROOT = Path(__file__).resolve().parents[2]
#: games per setup and bot kind played here (of the 250 the plugin wrote)
PER_KEY = 16


def _script() -> ModuleType:
    """The script that wrote the digests, so that these games are its games."""
    spec = importlib.util.spec_from_file_location(
        "changelings_digests", ROOT / "scripts" / "changelings_digests.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up
    spec.loader.exec_module(module)
    return module


DIGESTS = _script()
FROZEN: dict[str, list[str]] = json.loads(DIGESTS.GAMES.read_text(encoding="utf-8"))
KEYS = [f"{name}/{bots}" for name, _ in DIGESTS.SETUPS for bots in DIGESTS.BOTS]


def _stored(setup: str, bots: str, index: int) -> list[Any]:
    path = DIGESTS.log_path(setup, bots, index)
    return list(json.loads(path.read_text(encoding="utf-8")))


def test_changelings_is_the_rule_file_and_its_former_id_names_it() -> None:
    changelings = get_ruleset("changelings")
    assert isinstance(changelings, DataRuleset) and changelings.id == "changelings"
    assert get_ruleset("changelings-data") is changelings is shipped("changelings")
    assert not (ROOT / "src" / "nightfall" / "rulesets" / "changelings").exists()
    assert len(FROZEN) == len(KEYS) and {len(games) for games in FROZEN.values()} == {250}


@pytest.mark.parametrize("key", KEYS)
def test_the_rule_file_plays_the_plugins_games(key: str) -> None:
    setup, bots = key.split("/")
    for index in range(PER_KEY):
        case = DIGESTS.Case(setup, bots, index)
        assert DIGESTS.digest(case, "changelings") == FROZEN[key][index], case


@pytest.mark.parametrize("logged", DIGESTS.LOGS, ids=lambda logged: "-".join(map(str, logged)))
def test_a_stored_plugin_log_replays_with_the_rule_file(logged: tuple[str, str, int]) -> None:
    """The plugin's whole log: the file plays the same game (every event, the first but
    for the rule set's hash it records), and folds the plugin's events into the state it
    reaches itself."""
    stored = _stored(*logged)
    events = [decode(name, version, payload) for name, version, payload in stored]
    assert events[0].ruleset == "changelings"  # type: ignore[attr-defined]
    assert "rules_file" not in events[0].options  # type: ignore[attr-defined]
    played, _ = DIGESTS.play_case(DIGESTS.Case(*logged), "changelings")
    mine = json.loads(json.dumps([encode(e) for e in played.events], default=str))
    assert mine[1:] == stored[1:]
    folded = Game.from_events(get_ruleset("changelings"), events)
    assert folded.state.ended and folded.state.ruleset == "changelings"
    assert folded.state.players == played.state.players
    assert folded.state.announcements == played.state.announcements


POSTS: dict[str, list[str]] = json.loads(DIGESTS.POSTS.read_text(encoding="utf-8"))


def test_the_status_post_is_the_plugins_along_its_games() -> None:
    """The post (C16.1) in de, en and ru along the stored logs (descriptions given, so
    the revealed role follows one after a dash) and along a game on the clock (its
    deadline line moved by an extension): the plugin's ``status_post.py`` byte for byte."""
    found = DIGESTS.post_digests("changelings")
    assert found == POSTS and sum(map(len, POSTS.values())) > 150


def _stored_without_file(service: GameService, game: Game) -> str:
    """Store ``game`` as releases before shipped files were recorded did: its row names
    no rule file (``games.rule_file`` NULL), so it loads with the file shipped now."""
    game_id, _ = service.store.create_game(game)
    with service.engine.begin() as conn:
        conn.execute(update(schema.games).where(schema.games.c.id == game_id)
                     .values(rule_file=None))
    return game_id


def test_a_plugin_game_in_the_store_loads_and_replays(tmp_path: Path) -> None:
    """A game the plugin stored (rule set ``changelings``, no rule file recorded) loads
    with the file, replays from its whole log, and its pages' status post is written."""
    from nightfall.i18n import gettext_for
    from nightfall.rulefile.status_post import status_post_of

    stored = _stored("canterlot-15", "heuristic", 0)
    events = [decode(name, version, payload) for name, version, payload in stored]
    service = GameService(url=f"sqlite:///{tmp_path / 'games.db'}",
                          clock=FixedClock(datetime(2026, 12, 1, 9, 0, tzinfo=UTC)))
    game_id = _stored_without_file(service, Game.from_events(get_ruleset("changelings"), events))
    assert service.meta(game_id).rule_file is None and service.meta(game_id).ruleset == (
        "changelings")
    loaded = service.load(game_id)
    assert loaded.ruleset is get_ruleset("changelings") and loaded.state.ended
    assert service.replay_matches(game_id)
    assert [encode(e) for e in service.store.events(game_id)] == [encode(e) for e in events]
    post = status_post_of(loaded.ruleset)
    assert post is not None and post.render(loaded.state, gettext_for("de"))


def test_a_game_stored_under_the_former_id_loads_and_replays(tmp_path: Path) -> None:
    """A game created as ``changelings-data`` (before the plugin's deletion the file's
    id) keeps its id and loads with the file."""
    stored = _stored("village-8", "random", 1)
    events = [decode(name, version, payload) for name, version, payload in stored]
    first: Any = events[0]
    # as such a game recorded itself: the former id and the hash of the file then
    events[0] = replace(first, ruleset="changelings-data", options={
        **first.options, "rules_file": "nightfall-rules/1:sha256:" + "0" * 64})
    service = GameService(url=f"sqlite:///{tmp_path / 'games.db'}",
                          clock=FixedClock(datetime(2026, 12, 1, 9, 0, tzinfo=UTC)))
    game_id = _stored_without_file(service, Game.from_events(get_ruleset("changelings"), events))
    loaded = service.load(game_id)
    assert loaded.state.ruleset == "changelings-data" and loaded.state.ended
    assert loaded.ruleset is get_ruleset("changelings")
    assert service.replay_matches(game_id)

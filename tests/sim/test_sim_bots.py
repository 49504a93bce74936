"""Bots get exactly their player's projection and legal commands, nothing else, and the
heuristic bots play every shipped preset to its end."""

from __future__ import annotations

import ast
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from nightfall.engine import Command, Game
from nightfall.rulesets import RULESET_IDS, get_ruleset
from nightfall.sim.bots import NO_VIEW
from nightfall.sim.botspec import parse_bots
from nightfall.sim.play import UNFINISHED, play_game
from nightfall.sim.setup import Setup, preset_setup

BOTS_DIR = Path(__file__).parents[2] / "src" / "nightfall" / "sim" / "bots"
PRIVATE_NOTICES = frozenset({"investigation", "visit", "pending_abduction", "replaced",
                             "check", "lovers", "athlete", "drama_prompt"})


def _setups() -> list[Setup]:
    found = [preset_setup("changelings", p) for p in get_ruleset("changelings").presets()]
    if "island" in RULESET_IDS:
        found += [preset_setup("island", p) for p in get_ruleset("island").presets()]
    return found


class Inspector:
    """Checks every turn: what the bot is given equals ``game.view(player)`` and
    ``game.legal_commands(player)`` and holds no other player's secret."""

    def __init__(self) -> None:
        self.turns = 0
        self.views = 0

    def __call__(self, game: Game, name: str, view: Mapping[str, Any],
                 legal: Sequence[Command]) -> None:
        self.turns += 1
        assert list(legal) == game.legal_commands(name)
        assert all(command.by == name for command in legal)
        if view is NO_VIEW:
            assert dict(view) == {}
            return
        self.views += 1
        assert view == game.view(name)
        state = game.state
        if state.ended:
            return
        rules = game.ruleset
        town = rules.factions[0]
        mine = rules.faction_of(state.players[name].role)
        assert view["me"]["name"] == name
        assert "notices" not in view and "traces" not in view and "flags" not in view
        for entry in view["players"]:
            other = state.players[entry["name"]]
            if other.name == name:
                assert entry["role"] == other.role
                continue
            same_team = mine is not None and mine != town and mine == rules.faction_of(
                other.role) and mine in _TEAM_FACTIONS
            public = not other.alive or "revealed" in entry["statuses"]
            if not (same_team or public):
                assert entry["role"] is None, (name, other.name)
        text = json.dumps(view, default=str, sort_keys=True)
        own = view["me"]["notices"]
        for owner, notices in state.notices.items():
            if owner == name:
                continue
            for notice in notices:
                if notice.get("kind") in PRIVATE_NOTICES and notice not in own:
                    assert json.dumps(notice, sort_keys=True) not in text, (name, notice)


_TEAM_FACTIONS = frozenset({"changelings", "mafia"})


@pytest.mark.parametrize("bots", ["heuristic", "random"])
def test_bots_see_only_their_projection(bots: str) -> None:
    inspector = Inspector()
    for setup in _setups():
        if setup.players > 15:
            continue
        for seed in (1, 2):
            play_game(setup, seed, bots, on_turn=inspector)
    assert inspector.turns > 100
    assert (inspector.views > 100) == (bots == "heuristic")


def test_bot_modules_cannot_reach_the_game() -> None:
    """Structural: the bots' package imports no part of the engine but the command type,
    and no rule set (a bot cannot get at ``game.state``)."""
    allowed = ("nightfall.engine.commands", "nightfall.sim.bots")
    for path in BOTS_DIR.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            for module in names:
                if module.startswith("nightfall"):
                    assert module.startswith(allowed), f"{path.name} imports {module}"


@pytest.mark.parametrize("setup", _setups(), ids=lambda s: f"{s.ruleset}:{s.name}")
def test_heuristic_games_run_to_the_end(setup: Setup) -> None:
    for seed in (3, 4):
        result = play_game(setup, seed, "heuristic")
        assert result.winner != UNFINISHED
        assert result.winner in get_ruleset(setup.ruleset).factions
        assert sum(result.survived) + len(result.departures) == setup.players
        if setup.ruleset == "changelings":
            assert result.rejected == 0


def test_a_game_is_a_function_of_its_seed() -> None:
    setup = preset_setup("changelings", "village-8")
    assert play_game(setup, 9, "heuristic") == play_game(setup, 9, "heuristic")
    mixed = parse_bots("changelings=random,heuristic")
    assert mixed == {"changelings": "random", "*": "heuristic"}
    assert play_game(setup, 9, mixed) == play_game(setup, 9, mixed)
    with pytest.raises(ValueError):
        parse_bots("clever")


def test_heuristic_changelings_agree_on_one_target() -> None:
    """The first changeling to choose decides, the others copy him: a night ends in
    disagreement only when a follower may not name the choice (it is his secret lover,
    C7.3), which the rules turn into a failed abduction anyway."""
    agreed = 0
    for preset in ("town-12", "canterlot-15"):
        setup = preset_setup("changelings", preset)
        for seed in range(6):
            seen: list[Game] = []
            play_game(setup, seed, "heuristic", tracing=True,  # the steps' traces tell
                      on_turn=lambda g, *_, seen=seen: seen.append(g))
            state = seen[0].state
            for trace in state.traces:
                if trace.step != "pending_abduction":
                    continue
                for line in trace.lines:
                    agreed += "agree:" in line.msgid
                    if "disagree" in line.msgid:
                        partners = [k for k in state.flags if k.startswith("c.partner:")]
                        assert partners, (preset, seed, trace.phase)
    assert agreed > 20

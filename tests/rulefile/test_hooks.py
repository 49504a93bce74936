"""Hooks: a rule file names a registered, versioned Python hook; the hook returns effect
requests, which run like the file's own effects (checked against its names)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from nightfall.engine import Command, GameState
from nightfall.rulefile import hooks
from nightfall.rulefile.load import parse_source
from nightfall.rulefile.ruleset import SHIPPED, compile_rules
from nightfall.scenario import load_scenario
from nightfall.scenario.runner import build_game

SCENARIO = (Path(__file__).parents[1] / "scenarios" / "changelings"
            / "C7.1-changelings-abduct.yaml")


def _quiet_dawn(state: GameState, args: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A test hook: asks for an announcement when nobody is named in ``args``."""
    if args.get("who") is None:
        return [{"announce": "nobody_left"}]
    return [{"trace": "abducted", "params": {"name": "'" + str(args["who"]) + "'"}}]


HOOK = hooks.register(hooks.Hook("test_quiet_dawn", 1, _quiet_dawn))


def _with_hook(version: int) -> bytes:
    text = SHIPPED["changelings"].read_text(encoding="utf-8")
    text = text.replace("max_players: 60\n",
                        f"max_players: 60\nhooks:\n  test_quiet_dawn: {{version: {version}}}\n")
    night = "        - {announce: night_falls, params: {number: phase.number}}\n"
    assert text.count(night) == 1
    text = text.replace(night, night + "        - {hook: test_quiet_dawn, with: {who: none}}\n")
    return text.encode()


def test_a_hook_runs_its_effect_requests() -> None:
    rules = compile_rules(parse_source(_with_hook(1), "hooked.yaml"))
    assert rules.hooks_used == {"test_quiet_dawn"}
    game = build_game(load_scenario(SCENARIO), rules)
    game.execute(Command("advance"))  # day 1 ends: night 1 begins, and the hook speaks
    said = [a.text.msgid for a in game.state.announcements if a.phase == "night 1/1"]
    assert said == ["Night {number} falls. The thread is closed until morning.",
                    "Nobody left the game last night."]


def test_a_hook_of_another_version_is_refused() -> None:
    from nightfall.rulefile.load import RuleFileError

    with pytest.raises(RuleFileError, match="no hook 'test_quiet_dawn' of version 2"):
        compile_rules(parse_source(_with_hook(2), "hooked.yaml"))
    assert hooks.find("test_quiet_dawn", 1) is HOOK

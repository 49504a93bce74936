"""The shipped Changelings file is played by the Changelings playbook of the heuristic
bots (``sim/bots/heuristic.py``), so ``nightfall simulate --rules changelings.yaml --bots
heuristic`` plays the plugin's games — a step towards deleting the plugin (issue 20)."""

from __future__ import annotations

import pytest

from nightfall.rulesets import get_ruleset
from nightfall.sim.play import replay_game
from nightfall.sim.setup import Setup

PYTHON = get_ruleset("changelings")


@pytest.mark.parametrize("seed", range(6))
def test_heuristic_games_of_the_data_file_are_the_plugins(seed: int) -> None:
    roles = tuple(PYTHON.roles_for(7 + 3 * seed))
    python = replay_game(Setup("p", "changelings", roles, {}), seed, "heuristic")
    data = replay_game(Setup("p", "changelings-data", roles, {}), seed, "heuristic")
    assert data.state.ended and data.state.ruleset == "changelings-data"
    assert data.events[1:] == python.events[1:]

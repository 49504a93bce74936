"""``played_inputs``: a game's accepted commands and deadlines, in order, played into a
fresh game without bots, views or legal lists, give the very same log (what the
benchmark's "engine only" row replays, in the compiled build too, where the game loop
is compiled and its ``Game`` cannot be swapped for a recording one)."""

from __future__ import annotations

import pytest

from nightfall.engine import Game
from nightfall.rulesets import get_ruleset
from nightfall.sim.play import played_inputs, player_names, replay_game
from nightfall.sim.seeds import game_seed
from nightfall.sim.setup import preset_setup


@pytest.mark.parametrize(("ruleset", "preset", "bots"), [
    ("changelings", "canterlot-15", "random"), ("changelings", "village-8", "heuristic"),
    ("island", "island-12", "random"), ("island", "cove-7", "heuristic")])
def test_the_inputs_replay_the_same_game(ruleset: str, preset: str, bots: str) -> None:
    setup = preset_setup(ruleset, preset)
    for index in range(4):
        seed = game_seed(5, index)
        played = replay_game(setup, seed, bots, index=index, tracing=False)
        inputs = played_inputs(setup, seed, bots, index=index)
        assert None in inputs and any(inputs)
        game = Game.new(get_ruleset(ruleset), seed, setup.options, tracing=False)
        for name in player_names(setup.players):
            game.join(name)
        game.deal(setup.roles)
        game.start()
        for command in inputs:
            if command is None:
                game.advance()
            else:
                game.execute(command)
        assert game.events == played.events

"""``Ruleset.all_inputs_in`` (asked after every command: may the stage close early?)
answers what ``awaiting_inputs(state) == set()`` answers, on every state of random
Changelings games played without early closing (so the states where every input is in
are reached and kept, not closed at once). Changelings answers it from what the stage
awaits, without building the set of what is missing (C2.3)."""

from __future__ import annotations

import random

import pytest

from nightfall.engine import Game
from nightfall.rulesets import get_ruleset
from nightfall.sim.play import player_names
from nightfall.sim.setup import preset_setup


@pytest.mark.parametrize("preset", ["canterlot-15", "village-8"])
def test_all_inputs_in_is_awaiting_inputs_empty(preset: str) -> None:
    ruleset = get_ruleset("changelings")
    setup = preset_setup("changelings", preset)
    complete = states = 0
    for seed in range(12):
        game = Game.new(ruleset, seed, {**setup.options, "early_close": False},
                        tracing=False)
        for name in player_names(setup.players):
            game.join(name)
        game.deal(setup.roles)
        game.start()
        rng = random.Random(seed)
        while not game.state.ended and len(game.state.history) < 60:
            state = game.state
            answer = ruleset.all_inputs_in(state)
            assert answer == (ruleset.awaiting_inputs(state) == set())
            complete += answer
            states += 1
            legal = [c for p in state.players for c in game.legal_commands(p)]
            if legal and rng.random() < 0.9:
                game.execute(rng.choice(legal))
            else:
                game.advance()
    assert complete > 10 and states > 500  # both answers were asked about

"""Simulated games skip the resolution traces (issue 19): no rule and no bot reads them.

The shorter log must be the traced log without its ``StepTraced`` events, fold (replay)
to exactly the state the game ended in, and lead to the same result; and the trace of any
simulated game can be rebuilt by playing it again with tracing on (``replay_game``).
"""

from __future__ import annotations

import pytest

from nightfall.engine import Game
from nightfall.engine.events import StepTraced
from nightfall.rulesets import RULESET_IDS, get_ruleset
from nightfall.sim.play import play_game, replay_game
from nightfall.sim.seeds import game_seed
from nightfall.sim.setup import Setup, preset_setup

SETUPS = [("changelings", "canterlot-15"), ("changelings", "village-8")]
if "island" in RULESET_IDS:
    SETUPS += [("island", "island-12"), ("island", "cove-7")]


@pytest.mark.parametrize("bots", ["random", "heuristic"])
@pytest.mark.parametrize(("ruleset", "preset"), SETUPS)
def test_untraced_game_is_the_traced_game_without_its_trace(
        ruleset: str, preset: str, bots: str) -> None:
    setup: Setup = preset_setup(ruleset, preset)
    for index in range(4):
        seed = game_seed(19, index)
        short = replay_game(setup, seed, bots, index=index, tracing=False)
        full = replay_game(setup, seed, bots, index=index)
        assert not any(isinstance(e, StepTraced) for e in short.events)
        traced = [e for e in full.events if isinstance(e, StepTraced)]
        assert traced and full.state.traces == traced  # rebuilt on demand
        assert [e for e in full.events if not isinstance(e, StepTraced)] == short.events
        # replay of the shorter log is identical, and so is the traced one's
        assert Game.from_events(get_ruleset(ruleset), short.events).state == short.state
        assert Game.from_events(get_ruleset(ruleset), full.events).state == full.state
        full.state.traces = []
        assert full.state == short.state
        # the same report: play_game (untraced) gives what the traced game gives
        assert play_game(setup, seed, bots, index=index) == play_game(
            setup, seed, bots, index=index, tracing=True)

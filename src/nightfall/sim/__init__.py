"""Simulation and balance reports with bot players (issue 7).

- :mod:`nightfall.sim.setup`: what is played (rule set, roles, options; YAML files)
- :mod:`nightfall.sim.bots`: the players; they see only ``game.view(player)`` and
  ``game.legal_commands(player)``
- :mod:`nightfall.sim.play`: the game master's loop that plays one game with bots
- :mod:`nightfall.sim.runner`: many games in parallel processes, reproducible per seed
- :mod:`nightfall.sim.backends`: where the chunks are played (local processes, a Dask
  cluster), the same report on each
- :mod:`nightfall.sim.sweep`: one setup parameter over a list of values (``nightfall sweep``)
- :mod:`nightfall.sim.tally`, :mod:`nightfall.sim.stats`: counting and the statistics
- :mod:`nightfall.sim.report`, :mod:`nightfall.sim.html`: terminal, JSON and HTML reports
"""

from nightfall.sim.play import GameResult, play_game
from nightfall.sim.runner import run_setup, run_setups
from nightfall.sim.setup import Setup, SetupError, load_setup, preset_setup
from nightfall.sim.stats import wilson_interval

__all__ = [
    "GameResult",
    "Setup",
    "SetupError",
    "load_setup",
    "play_game",
    "preset_setup",
    "run_setup",
    "run_setups",
    "wilson_interval",
]

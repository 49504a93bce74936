"""The pure engine core: no I/O, no clock, no database, no role names.

Public API::

    game = Game.new(ruleset, seed=7)
    game.join("Ann"); ...; game.assign({...}) or game.deal([...]); game.start()
    game.execute(Command("vote", by="Ann", target="Bob"))   # -> events, or Rejected
    game.advance()                                           # the deadline passed
    game.view("Ann")                                         # Ann's projection
    Game.from_events(ruleset, game.events).state == game.state
"""

from nightfall.engine.commands import Command
from nightfall.engine.errors import NightfallError, Rejected, SetupError
from nightfall.engine.game import Context, Game
from nightfall.engine.phase import DeadlineRule, Phase
from nightfall.engine.ruleset import Preset, Role, Ruleset, Step, declare_steps
from nightfall.engine.state import GameState, PlayerState, Submission, fold
from nightfall.engine.text import N_, Term, Text, render

__all__ = [
    "N_",
    "Command",
    "Context",
    "DeadlineRule",
    "Game",
    "GameState",
    "NightfallError",
    "Phase",
    "PlayerState",
    "Preset",
    "Rejected",
    "Role",
    "Ruleset",
    "SetupError",
    "Step",
    "Submission",
    "Term",
    "Text",
    "declare_steps",
    "fold",
    "render",
]

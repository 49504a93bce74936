"""Shared helpers for the tests: random Changelings games driven by legal commands."""

from __future__ import annotations

from nightfall.engine import Command, Game
from nightfall.rulesets import new_game
from nightfall.rulesets.changelings.roles import ROLES

PONY_SPECIALS = sorted(r for r, spec in ROLES.items() if spec.faction == "ponies" and spec.special)
TEAM_ROLES = ("changeling", "queen", "liar")
NAMES = [f"P{i:02d}" for i in range(20)]


def make_game(roles: list[str], seed: int, options: dict[str, object] | None = None) -> Game:
    game = new_game("changelings", seed, {"early_close": False, **(options or {})})
    for name in NAMES[: len(roles)]:
        game.join(name)
    game.assign(dict(zip(NAMES, roles, strict=False)))
    game.start()
    return game


def all_commands(game: Game) -> list[Command]:
    """Every legal command of every player (living or not) right now."""
    commands: list[Command] = []
    for player in game.state.players:
        commands += game.legal_commands(player)
    return commands


def check_win_invariant(game: Game) -> None:
    """The game has ended exactly when its rule set names a winner, and that winner is the
    one recorded (any rule set: it asks ``game.ruleset.winner``)."""
    state = game.state
    result = game.ruleset.winner(state)
    assert state.ended == (result is not None), (state.phase_label, result)
    if result is not None:
        assert state.winner == result[0]

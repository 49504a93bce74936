"""Shared helpers for the Island tests: random games dealt by the engine itself."""

from __future__ import annotations

from gamekit import seated_game
from nightfall.engine import Command, Game
from nightfall.rulesets.island.roles import ROLES

PEACEFUL_SPECIALS = sorted(
    r for r, spec in ROLES.items() if spec.faction == "peaceful" and spec.special
)
NAMES = [f"I{i:02d}" for i in range(20)]
POSTS = ("Я думаю, это он.", "Кто-то врёт.", "Нет!", "Голосую за всех", "Мне кажется, их двое")


def make_island_game(roles: list[str], seed: int, options: dict[str, object] | None = None
                     ) -> Game:
    """A game dealt at random (seating, items) with random daily events."""
    game = seated_game("island", NAMES[: len(roles)], seed,
                       {"random_events": True, **(options or {})})
    game.deal(roles)
    game.start()
    return game


def all_commands(game: Game) -> list[Command]:
    """Every legal command of every player and observer right now, plus a few thread
    posts (the dead and observers may post too, I6.7)."""
    commands: list[Command] = []
    for player in game.state.players:
        commands += game.legal_commands(player)
    for player in [*game.state.players, *game.state.observers]:
        if not game.state.ended:
            commands += [Command("post", by=player, text=text) for text in POSTS[:2]]
    return commands

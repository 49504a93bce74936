"""What both terminal demos (``nightfall demo``, Changelings and Island) play by: the
seeded script, the stage loop, and the choices a scripted player makes the same way in
either rule set (vote for an enemy he found, else outside his team, else not himself).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable
from datetime import datetime
from typing import Any

from nightfall.engine import Command, Game, GameState
from nightfall.engine.rng import draw_index


class Script:
    """Deterministic choices from the game's seed (not Python's ``random``)."""

    def __init__(self, seed: int) -> None:
        self.seed, self.counter = seed ^ 0x5EED, 0

    def pick(self, options: list[Command]) -> Command:
        return options[self.pick_number(len(options))]

    def pick_number(self, size: int) -> int:
        """A number in ``range(size)``."""
        self.counter += 1
        return draw_index(self.seed, self.counter, size)


def play_stages(game: Game, script: Script, max_stages: int,
                play_stage: Callable[[Game, Script], None]) -> Game:
    """Play ``game`` to its end (or ``max_stages`` stages): the players' moves of each
    stage by ``play_stage``, then the clock runs to the stage's deadline."""
    for _ in range(max_stages):
        if game.state.ended:
            break
        play_stage(game, script)
        if not game.state.ended and game.state.deadline is not None:
            game.tick(game.state.deadline)
    return game


def submit_at(game: Game, command: Command, when: datetime) -> None:
    """Submit ``command`` as made at ``when``; a rejected one is passed over (an earlier
    move of the same stage may have made it illegal)."""
    with contextlib.suppress(ValueError):
        game.execute(dataclasses.replace(command, at=when))


def pick_other(script: Script, player: str, options: list[Command]) -> Command:
    """One of ``options`` that does not target ``player`` himself, if there is one."""
    others = [c for c in options if player not in c.all_targets]
    return script.pick(others or options)


def found_enemies(state: GameState, player: str, kind: str,
                  is_enemy: Callable[[Any], bool]) -> list[str]:
    """Living players whom ``player``'s notices of ``kind`` showed to be enemies."""
    return [n["target"] for n in state.notices.get(player, [])
            if n.get("kind") == kind and is_enemy(n.get("result"))
            and state.is_alive(n["target"])]


def vote_options(state: GameState, player: str, options: list[Command], found: list[str],
                 in_team: Callable[[str | None], bool]) -> list[Command]:
    """Whom ``player`` may vote for by the script: an enemy he found; else, in the evil
    team, anyone outside it; else anyone but himself (all ``options`` if none is left)."""
    if found:
        return [c for c in options if c.target in found] or options
    if in_team(state.players[player].role):
        return [c for c in options
                if not in_team(state.players[c.target or ""].role)] or options
    return [c for c in options if c.target != player] or options

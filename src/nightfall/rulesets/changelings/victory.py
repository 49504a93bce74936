"""Win conditions (C1.3–C1.6), checked by the engine after every resolution (C1.7)."""

from __future__ import annotations

from nightfall.engine import GameState
from nightfall.rulesets.changelings import memory
from nightfall.rulesets.changelings.roles import (
    CHANGELINGS,
    DRAW,
    LOVERS,
    PONIES,
    VOICELESS,
    is_changeling_side,
)


def mixed_couple(state: GameState) -> tuple[str, str] | None:
    """C1.5: the lovers, if they belong to different factions."""
    for name in state.players:
        partner = memory.partner_of(state, name)
        if (
            partner is not None
            and name < partner
            and is_changeling_side(state.players[name].role)
            != is_changeling_side(state.players[partner].role)
        ):
            return (name, partner)
    return None


def winner(state: GameState) -> tuple[str, tuple[str, ...]] | None:
    alive = state.alive()
    if not alive:
        return DRAW, ()  # C1.6 [R]
    couple = mixed_couple(state)
    if couple is not None and sorted(alive) == sorted(couple):
        return LOVERS, couple  # C1.5, checked before C1.3/C1.4
    changelings = [p for p in alive if is_changeling_side(state.players[p].role)]
    ponies = [
        p
        for p in alive
        if not is_changeling_side(state.players[p].role)
        and VOICELESS not in state.players[p].statuses  # C1.4, C6.4
    ]
    excluded = set(couple or ())  # C1.5: mixed lovers do not share their faction's win
    if not changelings:  # C1.3
        return PONIES, _members(state, PONIES, excluded)
    if len(changelings) >= len(ponies):  # C1.4 (equal or exceeds [R])
        return CHANGELINGS, _members(state, CHANGELINGS, excluded)
    return None


def _members(state: GameState, faction: str, excluded: set[str]) -> tuple[str, ...]:
    return tuple(
        name
        for name, player in state.players.items()
        if (faction == CHANGELINGS) == is_changeling_side(player.role) and name not in excluded
    )

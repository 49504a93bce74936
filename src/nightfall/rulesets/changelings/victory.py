"""Win conditions (C1.3–C1.6), checked by the engine after every resolution (C1.7)."""

from __future__ import annotations

from nightfall.engine import GameState
from nightfall.rulesets.changelings import memory
from nightfall.rulesets.changelings.roles import (
    CHANGELING_ROLES,
    CHANGELINGS,
    DRAW,
    LOVERS,
    PONIES,
    VOICELESS,
    is_changeling_side,
)


def mixed_couple(state: GameState) -> tuple[str, str] | None:
    """C1.5: the lovers, if they belong to different factions. Asked after every
    resolution (C1.7), so one pass over the players with the flags read directly (each
    lover's partner is a flag, ``memory.partner_key``)."""
    flags = state.flags
    players = state.players
    keys = memory.PARTNER_KEYS
    for name, player in players.items():
        value = flags.get(keys.get(name) or memory.partner_key(name))
        if value is None:
            continue
        partner = value if type(value) is str else str(value)
        if name < partner and (player.role in CHANGELING_ROLES) != (
                players[partner].role in CHANGELING_ROLES):
            return (name, partner)
    return None


def winner(state: GameState) -> tuple[str, tuple[str, ...]] | None:
    """C1.3-C1.6, in one pass over the players (asked after every resolution, C1.7)."""
    alive: list[str] = []
    changelings = ponies = 0
    for player in state.players.values():
        if player.alive:
            alive.append(player.name)
            if player.role in CHANGELING_ROLES:
                changelings += 1
            elif VOICELESS not in player.statuses:  # C1.4, C6.4
                ponies += 1
    if not alive:
        return DRAW, ()  # C1.6 [R]
    # C1.5 needs the couple only when exactly two are left, and C1.3/C1.4 only when a
    # faction wins (its mixed lovers do not share the win): most resolutions end neither
    # way, so the pass over the partner flags is made only then
    if len(alive) == 2:
        couple = mixed_couple(state)
        if couple is not None and sorted(alive) == sorted(couple):
            return LOVERS, couple  # C1.5, checked before C1.3/C1.4
    if not changelings:  # C1.3
        return PONIES, _members(state, PONIES, set(mixed_couple(state) or ()))
    if changelings >= ponies:  # C1.4 (equal or exceeds [R])
        # C1.5: mixed lovers do not share their faction's win
        return CHANGELINGS, _members(state, CHANGELINGS, set(mixed_couple(state) or ()))
    return None


def _members(state: GameState, faction: str, excluded: set[str]) -> tuple[str, ...]:
    return tuple(
        name
        for name, player in state.players.items()
        if (faction == CHANGELINGS) == is_changeling_side(player.role) and name not in excluded
    )

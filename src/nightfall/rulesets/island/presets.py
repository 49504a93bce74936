"""Setup presets by player count (I1.1: werewolves, half-blood, hamster and peaceful)."""

from __future__ import annotations

from nightfall.engine import N_, Preset
from nightfall.rulesets.island.roles import (
    AUTHORITY,
    HALF_BLOOD,
    HAMSTER,
    MANIAC,
    NURSE,
    PASSENGER,
    SEER,
    SLEEPWALKER,
    UNTOUCHABLE,
    WEREWOLF,
    WITCH,
)

MIN_PRESET_PLAYERS = 5
MAX_PRESET_PLAYERS = 30

#: peaceful special roles and the player count from which each joins the game
_SPECIALS = ((SEER, 5), (NURSE, 6), (WITCH, 7), (AUTHORITY, 8), (SLEEPWALKER, 10),
             (MANIAC, 11), (UNTOUCHABLE, 12))


def werewolf_count(players: int) -> int:
    if players <= 6:
        return 1
    if players <= 10:
        return 2
    if players <= 15:
        return 3
    return 4


def roles_for(players: int) -> tuple[str, ...]:
    """A default role list for ``players`` (5–30)."""
    if not MIN_PRESET_PLAYERS <= players <= MAX_PRESET_PLAYERS:
        raise ValueError(f"presets exist for {MIN_PRESET_PLAYERS}–{MAX_PRESET_PLAYERS} players")
    roles = [WEREWOLF] * werewolf_count(players)
    if players >= 9:
        roles.append(HALF_BLOOD)
    if players >= 8:
        roles.append(HAMSTER)
    roles += [role for role, since in _SPECIALS if players >= since]
    roles += [PASSENGER] * (players - len(roles))
    return tuple(roles)


PRESETS: dict[str, Preset] = {
    "cove-7": Preset("cove-7", roles_for(7), description=N_("7 players, 2 werewolves.")),
    "island-12": Preset("island-12", roles_for(12),
                        description=N_("12 players, 3 werewolves, half-blood and hamster.")),
    "archipelago-20": Preset("archipelago-20", roles_for(20),
                             description=N_("20 players, 4 werewolves, half-blood and hamster.")),
}

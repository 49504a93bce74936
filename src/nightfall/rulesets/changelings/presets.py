"""Setup presets by player count (C1.2: 2–4 changelings) and the seed's roster (C16.3)."""

from __future__ import annotations

from nightfall.engine import N_, Preset
from nightfall.rulesets.changelings.roles import (
    ATHLETE,
    BLACK_RAVEN,
    CHANGELING,
    DRAMA_QUEEN,
    LIAR,
    LOVE_POTION,
    NIGHT_OWL,
    PINKIE_SENSE,
    PONY,
    QUEEN,
    RESEARCHER,
    SHIELD,
    STALKER,
    VILLAGE_IDIOT,
)

MIN_PRESET_PLAYERS = 6
MAX_PRESET_PLAYERS = 40

#: C16.3: the seed's final 15-player setup.
CANTERLOT_15 = (
    QUEEN, LIAR, CHANGELING, RESEARCHER, LOVE_POTION, PINKIE_SENSE, DRAMA_QUEEN, NIGHT_OWL,
    *([PONY] * 7),
)

#: Pony-side special roles in the order a growing game adds them.
_SPECIALS = (RESEARCHER, SHIELD, PINKIE_SENSE, LOVE_POTION, NIGHT_OWL, DRAMA_QUEEN,
             BLACK_RAVEN, VILLAGE_IDIOT, ATHLETE, STALKER)


def changeling_count(players: int) -> int:
    """C1.2: two to four changelings depending on the number of players."""
    if players <= 11:
        return 2
    if players <= 17:
        return 3
    return 4


def roles_for(players: int) -> tuple[str, ...]:
    """A balanced default role list for ``players`` (6–40)."""
    if not MIN_PRESET_PLAYERS <= players <= MAX_PRESET_PLAYERS:
        raise ValueError(f"presets exist for {MIN_PRESET_PLAYERS}–{MAX_PRESET_PLAYERS} players")
    count = changeling_count(players)
    team = (CHANGELING, QUEEN, LIAR, CHANGELING)[:count] if count > 2 else (CHANGELING, QUEEN)
    ponies = players - count
    specials = list(_SPECIALS[: max(1, ponies // 2)])
    if ATHLETE in specials and STALKER not in specials:  # the stalker needs his idol
        specials[specials.index(ATHLETE)] = PONY
    return (*team, *specials, *([PONY] * (ponies - len(specials))))


PRESETS: dict[str, Preset] = {
    "canterlot-15": Preset(
        "canterlot-15", CANTERLOT_15, description=N_("The seed's own 15-player roster (C16.3).")
    ),
    "village-8": Preset("village-8", roles_for(8), description=N_("8 players, 2 changelings.")),
    "town-12": Preset("town-12", roles_for(12), description=N_("12 players, 3 changelings.")),
    "city-20": Preset("city-20", roles_for(20), description=N_("20 players, 4 changelings.")),
}

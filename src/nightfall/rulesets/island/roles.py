"""Island of Fear roles, factions, statuses and causes (I1, I2) and their display names."""

from __future__ import annotations

from nightfall.engine import N_, Role
from nightfall.engine.text import TermNames

# I1.1 factions (and the draw of I1.2)
PEACEFUL = "peaceful"
MAFIA = "mafia"
LONER = "loner"
DRAW = "draw"
FACTIONS = (PEACEFUL, MAFIA, LONER, DRAW)

PASSENGER = "passenger"
SEER = "seer"
NURSE = "nurse"
UNTOUCHABLE = "untouchable"
AUTHORITY = "authority"
WITCH = "witch"
SLEEPWALKER = "sleepwalker"
MANIAC = "maniac"
WEREWOLF = "werewolf"
HALF_BLOOD = "half_blood"
HAMSTER = "hamster"

# I2: the role table
ROLES: dict[str, Role] = {
    PASSENGER: Role(PASSENGER, PEACEFUL, "I2", special=False),
    SEER: Role(SEER, PEACEFUL, "I2.1"),
    NURSE: Role(NURSE, PEACEFUL, "I2.2"),
    UNTOUCHABLE: Role(UNTOUCHABLE, PEACEFUL, "I2.3"),
    AUTHORITY: Role(AUTHORITY, PEACEFUL, "I2.4"),
    WITCH: Role(WITCH, PEACEFUL, "I2.5"),
    SLEEPWALKER: Role(SLEEPWALKER, PEACEFUL, "I2.6"),
    MANIAC: Role(MANIAC, PEACEFUL, "I2.7"),
    WEREWOLF: Role(WEREWOLF, MAFIA, "I2.8", special=False),
    HALF_BLOOD: Role(HALF_BLOOD, MAFIA, "I1.3"),
    HAMSTER: Role(HAMSTER, LONER, "I2.9"),
}

# statuses (day-scoped ones are cleared when the next day begins)
SILENCED = "silenced"  # I2.7 maniac, for the next day
SHOCKED = "shocked"  # I4 shocker, for the day
IMMUNE = "immune"  # I5 pick me!, for the day
REVEALED = "revealed"  # I2.4 the authority showed his role
DAY_STATUSES = frozenset({SILENCED, SHOCKED, IMMUNE})
PUBLIC_STATUSES = frozenset({SILENCED, SHOCKED, IMMUNE, REVEALED})

# causes of departure (scenario-format.md)
LYNCHED = "lynched"
EATEN = "eaten"
WITCH_KILL = "witch"
HAMSTER_KILL = "hamster"
SEER_CHECK = "seer_check"
MODKILL = "modkill"
#: what the public reads for a death whose cause only one role can suffer (I5 [R])
NIGHT_DEATH = "night"
#: causes that name the victim's role: only the hamster dies of the seer's look (I2.1);
#: shown as NIGHT_DEATH until the game ends (I5 solar eclipse [R])
ROLE_REVEALING_CAUSES = frozenset({"seer_check"})
#: causes of the night steps (I7 steps 8–20), for the solar eclipse (I5)
NIGHT_CAUSES = frozenset({EATEN, WITCH_KILL, HAMSTER_KILL, SEER_CHECK})


def faction(role: str | None) -> str | None:
    return ROLES[role].faction if role in ROLES else None


def is_mafia(role: str | None) -> bool:
    """I1.1: werewolves and the half-blood play for the mafia."""
    return faction(role) == MAFIA


TermNames.register(
    "role",
    {
        PASSENGER: N_("Passenger"),
        SEER: N_("Seer"),
        NURSE: N_("Nurse"),
        UNTOUCHABLE: N_("Untouchable"),
        AUTHORITY: N_("Authority"),
        WITCH: N_("Witch"),
        SLEEPWALKER: N_("Sleepwalker"),
        MANIAC: N_("Sex Maniac"),
        WEREWOLF: N_("Werewolf"),
        HALF_BLOOD: N_("Half-Blood"),
        HAMSTER: N_("Mutant Hamster"),
    },
)
TermNames.register(
    "faction",
    {
        PEACEFUL: N_("the peaceful islanders"),
        MAFIA: N_("the werewolves"),
        LONER: N_("the mutant hamster"),
        DRAW: N_("nobody (draw)"),
    },
)
TermNames.register(
    "status",
    {
        SILENCED: N_("silenced"),
        SHOCKED: N_("shocked"),
        IMMUNE: N_("immune to the lynch"),
        REVEALED: N_("revealed"),
    },
)
TermNames.register(
    "cause",
    {
        LYNCHED: N_("lynched"),
        EATEN: N_("eaten by the werewolves"),
        WITCH_KILL: N_("killed by the witch"),
        HAMSTER_KILL: N_("killed by the mutant hamster"),
        SEER_CHECK: N_("died of the seer's check"),
        MODKILL: N_("removed by the game master"),
        NIGHT_DEATH: N_("died in the night"),
    },
)

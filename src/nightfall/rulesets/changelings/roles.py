"""Changelings roles, factions, statuses and causes (C1, C4) and their display names."""

from __future__ import annotations

from nightfall.engine import N_, Role
from nightfall.engine.text import TermNames

PONIES = "ponies"
CHANGELINGS = "changelings"
LOVERS = "lovers"
DRAW = "draw"
FACTIONS = (PONIES, CHANGELINGS, LOVERS, DRAW)

PONY = "pony"
CHANGELING = "changeling"
QUEEN = "queen"
LIAR = "liar"
RESEARCHER = "researcher"
BLACK_RAVEN = "black_raven"
VILLAGE_IDIOT = "village_idiot"
LOVE_POTION = "love_potion"
NIGHT_OWL = "night_owl"
ATHLETE = "athlete"
STALKER = "stalker"
SHIELD = "shield"
PINKIE_SENSE = "pinkie_sense"
DRAMA_QUEEN = "drama_queen"

# C4: the role table. queen and liar count as changelings everywhere (C1.2). Every player
# holds one of these roles, changelings included: everybody is a pony (C1.1); the game
# master is no player and holds none.
ROLES: dict[str, Role] = {
    PONY: Role(PONY, PONIES, "C4", special=False),
    CHANGELING: Role(CHANGELING, CHANGELINGS, "C7", special=False),
    QUEEN: Role(QUEEN, CHANGELINGS, "C9"),
    LIAR: Role(LIAR, CHANGELINGS, "C9"),
    RESEARCHER: Role(RESEARCHER, PONIES, "C9"),
    BLACK_RAVEN: Role(BLACK_RAVEN, PONIES, "C10"),
    VILLAGE_IDIOT: Role(VILLAGE_IDIOT, PONIES, "C6"),
    LOVE_POTION: Role(LOVE_POTION, PONIES, "C8"),
    NIGHT_OWL: Role(NIGHT_OWL, PONIES, "C11"),
    ATHLETE: Role(ATHLETE, PONIES, "C11"),
    STALKER: Role(STALKER, PONIES, "C11"),
    SHIELD: Role(SHIELD, PONIES, "C12"),
    PINKIE_SENSE: Role(PINKIE_SENSE, PONIES, "C13"),
    DRAMA_QUEEN: Role(DRAMA_QUEEN, PONIES, "C14"),
}

#: C9.2: the roles a liar may pretend to be (special roles outside the changeling side).
DISGUISES = frozenset(
    role.id for role in ROLES.values() if role.special and role.faction == PONIES
)

#: C11.2: never at home at night, whether or not they act.
NEVER_HOME = frozenset({CHANGELING, QUEEN, LIAR, RESEARCHER, SHIELD, BLACK_RAVEN, ATHLETE})
#: C11.2: not at home on nights they use an ability.
AWAY_WHEN_ACTING = frozenset({PINKIE_SENSE, LOVE_POTION})

LEADER = "leader"
VOICELESS = "voiceless"
LOVER = "lover"
PUBLIC_STATUSES = frozenset({LEADER, VOICELESS})

BANISHED = "banished"
ABDUCTED = "abducted"
HEARTBREAK = "heartbreak"
CHASED = "chased"
DRAMA = "drama"
MODKILL = "modkill"


#: C1.2: the roles that count as changelings (``is_changeling_side`` as a set)
CHANGELING_ROLES = frozenset(role.id for role in ROLES.values() if role.faction == CHANGELINGS)


def is_changeling_side(role: str | None) -> bool:
    """C1.2: changeling, queen and liar all count as changelings."""
    return role is not None and ROLES[role].faction == CHANGELINGS


TermNames.register(
    "role",
    {
        PONY: N_("Pony"),
        CHANGELING: N_("Changeling"),
        QUEEN: N_("Queen"),
        LIAR: N_("Liar"),
        RESEARCHER: N_("Researcher"),
        BLACK_RAVEN: N_("Black Raven"),
        VILLAGE_IDIOT: N_("Village Idiot"),
        LOVE_POTION: N_("Love Potion"),
        NIGHT_OWL: N_("Night Owl"),
        ATHLETE: N_("Athlete"),
        STALKER: N_("Stalker"),
        SHIELD: N_("Anti-Hate Shield"),
        PINKIE_SENSE: N_("Pinkie Sense"),
        DRAMA_QUEEN: N_("Drama Queen"),
    },
)
TermNames.register(
    "faction",
    {
        PONIES: N_("the ponies"),
        CHANGELINGS: N_("the changelings"),
        LOVERS: N_("the lovers"),
        DRAW: N_("nobody (draw)"),
    },
)
TermNames.register(
    "status",
    {LEADER: N_("leader"), VOICELESS: N_("voiceless"), LOVER: N_("in love")},
)
TermNames.register(  # what chance decides (``ctx.draw``), for the log (C5.1, C5.3, C5.4)
    "draw",
    {"leader_election": N_("leader election, tie"), "tiebreak": N_("tie at the banishment"),
     "succession": N_("the leader's successor")},
)
TermNames.register(
    "cause",
    {
        BANISHED: N_("banished"),
        ABDUCTED: N_("abducted"),
        HEARTBREAK: N_("left with a broken heart"),
        CHASED: N_("chased away by the pinkie sense"),
        DRAMA: N_("chased away by the drama queen"),
        MODKILL: N_("removed by the game master"),
    },
)

"""The fourteen items (I4): ids, kinds, display names, and who holds what.

Passive items are public from the start and work without being used up; activatable items
are secret until used, then public (who used it, on whom) and need a recharge.
"""

from __future__ import annotations

from nightfall.engine import N_, GameState
from nightfall.engine.text import TermNames
from nightfall.rulesets.island import memory
from nightfall.rulesets.island.happenings import MAGNETIC_STORM

# harmful, passive
TRAP = "trap"
POISON_THORN = "poison_thorn"
TOTEM = "totem"
HANDCUFFS = "handcuffs"
BOMB = "bomb"
# useful, passive
DARK_GLASSES = "dark_glasses"
WOLF_FANG = "wolf_fang"
MEGAPHONE = "megaphone"
# useful, activatable: automatic
SHEEP_SKIN = "sheep_skin"
MOON_FERN = "moon_fern"
CAMO_CLOAK = "camo_cloak"
# useful, activatable: by the owner, on a player
SHOCKER = "shocker"
LOVE_NOTE = "love_note"
VOODOO_DOLL = "voodoo_doll"

ITEM_IDS = (
    TRAP, POISON_THORN, TOTEM, HANDCUFFS, BOMB, DARK_GLASSES, WOLF_FANG, MEGAPHONE,
    SHEEP_SKIN, MOON_FERN, CAMO_CLOAK, SHOCKER, LOVE_NOTE, VOODOO_DOLL,
)
PASSIVE = frozenset({TRAP, POISON_THORN, TOTEM, HANDCUFFS, BOMB, DARK_GLASSES, WOLF_FANG,
                     MEGAPHONE})
AUTOMATIC = frozenset({SHEEP_SKIN, MOON_FERN, CAMO_CLOAK})
#: used with ``use_item`` (choice: item id, target: a player)
ON_PLAYER = frozenset({SHOCKER, LOVE_NOTE, VOODOO_DOLL})
ACTIVATABLE = AUTOMATIC | ON_PLAYER
HARMFUL = frozenset({TRAP, POISON_THORN, TOTEM, HANDCUFFS, BOMB})


def items_work(state: GameState) -> bool:
    """I5 magnetic storm: no item works until the next morning."""
    return memory.today_event(state) != MAGNETIC_STORM


def holds(state: GameState, player: str, item: str, *, unused: bool = False) -> bool:
    """Whether ``player`` holds ``item`` (with ``unused``: one that is not used up).
    A loop, not ``any()``: asked for every vote list (handcuffs, megaphone), and a
    generator costs more than the two or three items it looks at."""
    for held in state.players[player].items:
        if held.id == item and not (unused and held.used):
            return True
    return False


def holders(state: GameState, item: str, *, unused: bool = False) -> list[str]:
    """Living holders of ``item``, in join order."""
    return [p for p in state.alive() if holds(state, p, item, unused=unused)]


def used_items(state: GameState, player: str) -> list[str]:
    return [i.id for i in state.players[player].items if i.used]


def is_public(item: str, used: bool) -> bool:
    """I4: passive items are public; activatable items once used (until recharged)."""
    return item in PASSIVE or used


TermNames.register(
    "item",
    {
        TRAP: N_("Trap"),
        POISON_THORN: N_("Poison Thorn"),
        TOTEM: N_("Totem of Weakness"),
        HANDCUFFS: N_("Handcuffs"),
        BOMB: N_("Bomb"),
        DARK_GLASSES: N_("Dark Glasses"),
        WOLF_FANG: N_("Wolf Fang"),
        MEGAPHONE: N_("Megaphone"),
        SHEEP_SKIN: N_("Sheep Skin"),
        MOON_FERN: N_("Moon Fern"),
        CAMO_CLOAK: N_("Camouflage Cloak"),
        SHOCKER: N_("Shocker"),
        LOVE_NOTE: N_("Love Note"),
        VOODOO_DOLL: N_("Voodoo Doll"),
    },
)

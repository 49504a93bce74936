"""The rule set's memory between phases, kept in engine flags (namespaced ``c.``).

Each accessor names the rule it serves, so a reader sees why the engine remembers it.
"""

from __future__ import annotations

from typing import Any

from nightfall.engine import GameState

REPLACE_USED = "c.replace_used"  # C7.4 once per game
ATTACK = "c.attack"  # C13.1 the abduction/replacement planned at the end of stage 1
ATTACK_REASON = "c.attack_reason"  # why no attack is planned (trace; only a disagreement,
#   which the changelings' own choices gave, is told, to them: view.team_plan)
RUMOURS = "c.rumours"  # C10.1 targets of rumour votes for the coming day
DRAMA_DUE = "c.drama_due"  # C14.3 drama queens whose chase resolves this/next night
SUCCESSION = "c.succession_pending"  # C5.4 a leader left without naming a successor
TIED = "c.tied"  # C5.3 the tied players a day N/2 waits on
SKIPPING = "c.skipping"  # C2.6 the GM skipped the current phase


def last_shield_key(player: str) -> str:
    """C12.2 the player this shield protected last night."""
    return f"c.last_shield:{player}"


def pinkie_save_used_key(player: str) -> str:
    """C13.2: this pinkie sense has used her save (once per game, per pinkie sense)."""
    return f"c.pinkie_save_used:{player}"


def pinkie_chase_used_key(player: str) -> str:
    """C13.3: this pinkie sense has used her chase (once per game, per pinkie sense)."""
    return f"c.pinkie_chase_used:{player}"


def disguise_key(player: str) -> str:
    """C9.2 the role this liar pretends to be."""
    return f"c.disguise:{player}"


def partner_key(player: str) -> str:
    """C8 this player's lover."""
    key = PARTNER_KEYS.get(player)
    if key is None:
        if len(PARTNER_KEYS) > 10_000:  # names differ from game to game: stay bounded
            PARTNER_KEYS.clear()
        key = PARTNER_KEYS[player] = f"c.partner:{player}"
    return key


#: partner keys by player (read it, never write it: :func:`partner_key` fills it): asked
#: for each player after every resolution (the win check) and in the legal lists
PARTNER_KEYS: dict[str, str] = {}


def partner_of(state: GameState, player: str) -> str | None:
    value: Any = state.flags.get(PARTNER_KEYS.get(player) or partner_key(player))
    return None if value is None else value if type(value) is str else str(value)


def attack(state: GameState) -> dict[str, str] | None:
    value: Any = state.flags.get(ATTACK)
    return dict(value) if value else None


def names(state: GameState, key: str) -> list[str]:
    return list(state.flags.get(key) or [])

"""What a bot is, and the only things it is ever given.

A bot is made with its player's name, the *public* facts of the rule set
(:class:`RulesInfo`: role ids, their factions; what any player reads in the rules) and a
random source of its own. On its turn it receives exactly two things: the player's
projection (``game.view(player)``, a plain dict) and the legal-command list
(``game.legal_commands(player)``). It answers with commands, which the game master's loop
submits through ``game.execute``. A bot never holds a reference to the game or its state:
this package does not import the engine's game or state modules at all (a test checks).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from nightfall.engine.commands import Command

#: What a bot that does not read the projection is given instead (``wants_view = False``).
NO_VIEW: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class RulesInfo:
    """Public facts of a rule set: what every player knows from reading the rules."""

    ruleset: str
    factions: tuple[str, ...]
    role_faction: Mapping[str, str]
    special: frozenset[str]
    #: per ability of a rule file, how bots play it (its ``bots:`` hint, ``{}``: none;
    #: docs/rules-format.md): public like the rest of the file
    hints: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: the ids of a rule file's abilities (a plugin's: empty)
    abilities: frozenset[str] = frozenset()
    #: per ability of a rule file, its slot (where the view shows public votes)
    slots: Mapping[str, str] = field(default_factory=dict)

    def faction(self, role: str | None) -> str | None:
        return self.role_faction.get(role) if role is not None else None

    @classmethod
    def of(cls, ruleset: Any) -> RulesInfo:
        """Read the public facts off a rule-set plugin (its role table)."""
        roles = ruleset.roles
        hints = getattr(ruleset, "bot_hints", None) or {}
        return cls(
            ruleset.id,
            tuple(ruleset.factions),
            {role_id: role.faction for role_id, role in roles.items()},
            frozenset(role_id for role_id, role in roles.items() if role.special),
            MappingProxyType({k: MappingProxyType(dict(v)) for k, v in hints.items()}),
            frozenset(hints),
            MappingProxyType(dict(getattr(ruleset, "ability_slots", None) or {})),
        )


class Bot(ABC):
    """One player's brain. Subclasses keep whatever memory they like in ``self``."""

    kind = "bot"
    #: False: the bot decides on the legal list alone and is given :data:`NO_VIEW`
    #: (saves computing a projection it would not read)
    wants_view = True

    def __init__(self, name: str, rules: RulesInfo, rng: random.Random) -> None:
        self.name = name
        self.rules = rules
        self.rng = rng

    @abstractmethod
    def act(self, view: Mapping[str, Any], legal: Sequence[Command]) -> list[Command]:
        """The commands to submit now, in order (may be empty: wait for the deadline)."""

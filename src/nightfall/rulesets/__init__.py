"""The rule sets and their registry: Island of Fear's Python plugin, and the rule files
(``nightfall.rulefile``) — the shipped ones, Changelings first, and any registered here.

Changelings is the data file ``rulefile/sets/changelings.yaml`` (id ``changelings``; its
former id ``changelings-data`` still names it); its Python plugin was deleted in issue 20
once the file played the plugin's games event for event (tests/rulefile/frozen/)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nightfall.engine import Game, Ruleset


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The rule set of ``ruleset_id`` (``changelings``, ``island``, a rule file's id)."""
    if ruleset_id == "island":
        from nightfall.rulesets.island import ISLAND

        return ISLAND
    from nightfall.rulefile.ruleset import registered

    found = registered(ruleset_id)  # a rule file (docs/rules-format.md)
    if found is not None:
        return found
    raise KeyError(ruleset_id)


#: the built-in rule sets, offered first wherever a rule set is chosen
RULESET_IDS = ("changelings", "island")


def new_game(
    ruleset_id: str, seed: int, options: Mapping[str, Any] | None = None, locale: str = "en"
) -> Game:
    return Game.new(get_ruleset(ruleset_id), seed, options, locale)

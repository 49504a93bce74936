"""Rule-set plugins and their registry."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nightfall.engine import Game, Ruleset


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The plugin for ``ruleset_id`` (``changelings``, ``island``)."""
    if ruleset_id == "changelings":
        from nightfall.rulesets.changelings import CHANGELINGS

        return CHANGELINGS
    if ruleset_id == "island":
        from nightfall.rulesets.island import ISLAND

        return ISLAND
    from nightfall.rulefile.ruleset import registered

    found = registered(ruleset_id)  # a rule file (docs/rules-format.md)
    if found is not None:
        return found
    raise KeyError(ruleset_id)


RULESET_IDS = ("changelings", "island")


def new_game(
    ruleset_id: str, seed: int, options: Mapping[str, Any] | None = None, locale: str = "en"
) -> Game:
    return Game.new(get_ruleset(ruleset_id), seed, options, locale)

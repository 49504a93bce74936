"""The heuristic bot: a :class:`~nightfall.sim.bots.mind.Mind` plus a playbook per rule
set (``changelings``, its shipped rule file, and ``island``); any other rule set (a rule
file) gets the data-driven play of its ``bots:`` hints (:mod:`nightfall.sim.bots.generic`)."""

from __future__ import annotations

import random

from nightfall.sim.bots.base import Bot, RulesInfo
from nightfall.sim.bots.changelings import ChangelingsBot
from nightfall.sim.bots.generic import GenericBot
from nightfall.sim.bots.island import IslandBot
from nightfall.sim.bots.mind import HeuristicBase

#: the shipped Changelings file (``changelings``; ``changelings-data`` its former id, as
#: copies of the file may still say) is played by the Changelings playbook: with it the
#: same seeds give the deleted plugin's games (tests/rulefile/test_frozen_plugin.py)
PLAYBOOKS: dict[str, type[HeuristicBase]] = {"changelings": ChangelingsBot,
                                             "changelings-data": ChangelingsBot,
                                             "island": IslandBot}


def HeuristicBot(name: str, rules: RulesInfo, rng: random.Random) -> Bot:
    """The heuristic player for ``rules.ruleset`` (a factory, used like a class)."""
    return PLAYBOOKS.get(rules.ruleset, GenericBot)(name, rules, rng)

"""The heuristic bot: a :class:`~nightfall.sim.bots.mind.Mind` plus a playbook per rule
set (``changelings`` and its shipped rule file, ``island``); any other rule set (a rule
file) gets the data-driven play of its ``bots:`` hints (:mod:`nightfall.sim.bots.generic`)."""

from __future__ import annotations

import random

from nightfall.sim.bots.base import Bot, RulesInfo
from nightfall.sim.bots.changelings import ChangelingsBot
from nightfall.sim.bots.generic import GenericBot
from nightfall.sim.bots.island import IslandBot
from nightfall.sim.bots.mind import HeuristicBase

#: the shipped Changelings file (``changelings-data``) is played by the Changelings
#: playbook too: its views are the plugin's (tests/rulefile/test_changelings_data.py), so
#: the same seeds give the plugin's games — what deleting the plugin needs of the bots
PLAYBOOKS: dict[str, type[HeuristicBase]] = {"changelings": ChangelingsBot,
                                             "changelings-data": ChangelingsBot,
                                             "island": IslandBot}


def HeuristicBot(name: str, rules: RulesInfo, rng: random.Random) -> Bot:
    """The heuristic player for ``rules.ruleset`` (a factory, used like a class)."""
    return PLAYBOOKS.get(rules.ruleset, GenericBot)(name, rules, rng)

"""Bot players and their registry (``--bots random`` / ``--bots heuristic``)."""

from __future__ import annotations

import random
from collections.abc import Callable

from nightfall.sim.bots.base import NO_VIEW, Bot, RulesInfo
from nightfall.sim.bots.heuristic import HeuristicBot
from nightfall.sim.bots.random_bot import RandomBot

BotMaker = Callable[[str, RulesInfo, random.Random], Bot]
BOT_KINDS: dict[str, BotMaker] = {"random": RandomBot, "heuristic": HeuristicBot}


def make_bot(kind: str, name: str, rules: RulesInfo, rng: random.Random) -> Bot:
    return BOT_KINDS[kind](name, rules, rng)


__all__ = ["BOT_KINDS", "NO_VIEW", "Bot", "HeuristicBot", "RandomBot", "RulesInfo",
           "make_bot"]

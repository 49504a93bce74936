"""Bot players and their registry (``--bots random`` / ``--bots heuristic``)."""

from __future__ import annotations

import random
from collections.abc import Callable

from nightfall.sim.bots.base import NO_VIEW, Bot, RulesInfo
from nightfall.sim.bots.heuristic import HeuristicBot
from nightfall.sim.bots.random_bot import RandomBot

BotMaker = Callable[[str, RulesInfo, random.Random], Bot]
BOT_KINDS: dict[str, BotMaker] = {"random": RandomBot, "heuristic": HeuristicBot}


def parse_bots(spec: str) -> dict[str, str]:
    """``heuristic``, or per faction with a default: ``changelings=random,heuristic``.

    Returns ``{faction or "*": kind}``."""
    result: dict[str, str] = {}
    for part in (p.strip() for p in spec.split(",") if p.strip()):
        faction, _, kind = part.rpartition("=")
        if kind not in BOT_KINDS:
            raise ValueError(f"unknown bot {kind!r} (known: {', '.join(BOT_KINDS)})")
        result[faction.strip() or "*"] = kind
    if not result:
        raise ValueError("name a bot kind: " + ", ".join(BOT_KINDS))
    result.setdefault("*", "heuristic")
    return result


def make_bot(kind: str, name: str, rules: RulesInfo, rng: random.Random) -> Bot:
    return BOT_KINDS[kind](name, rules, rng)


__all__ = ["BOT_KINDS", "NO_VIEW", "Bot", "HeuristicBot", "RandomBot", "RulesInfo",
           "make_bot", "parse_bots"]

"""Per-game seeds: a pure function of (master seed, game index), so a run gives the same
games whatever the number of worker processes or the order in which they finish."""

from __future__ import annotations

from nightfall.engine.rng import splitmix64

_SEED_BITS = (1 << 62) - 1


def game_seed(master: int, index: int) -> int:
    """The seed of game ``index`` of a run with seed ``master`` (62 bits, non-negative)."""
    return splitmix64(master & ((1 << 64) - 1), index) & _SEED_BITS


def bot_seed(seed: int, salt: int) -> int:
    """A seed for the bots' own choices, apart from the engine's draws."""
    return splitmix64(seed ^ 0xB07B07B07, salt) & _SEED_BITS

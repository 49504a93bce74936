"""A portable, seeded random source whose draws are recorded as events.

Python's :mod:`random` may change between versions, so the engine uses SplitMix64:
draw *i* of a game with seed *s* is a pure function of ``(s, i)``. Every draw is also
written to the log as a :class:`~nightfall.engine.events.RandomDrawn` event, so a replay
never calls this module at all; it only folds the recorded outcomes.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1


def splitmix64(seed: int, index: int) -> int:
    """Return the 64-bit output number ``index`` of the SplitMix64 stream for ``seed``."""
    z = (seed + (index + 1) * 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def draw_index(seed: int, index: int, size: int) -> int:
    """Pick an index in ``range(size)`` for draw number ``index`` (size >= 1)."""
    if size < 1:
        raise ValueError("cannot draw from an empty population")
    return splitmix64(seed, index) % size

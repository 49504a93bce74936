"""Bounded module-level caches: the engine keeps built objects by what they are built
from (commands, refusal texts, the fold's frozen records, name keys) because looking
one up costs less than building it, and the simulator builds the same few thousand
over and over. Names and dates differ from game to game, so every such cache is
bounded: when it is full it starts again empty (its entries are equal to what would be
built again, so dropping them changes no result, only the time).

Callers look an entry up themselves and call :func:`keep` only for a new one: a Python
call costs about as much as the lookup, and the lookups are on the hot path."""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


def keep(cache: dict[K, V], key: K, value: V, limit: int) -> V:
    """Store ``value`` under ``key`` and return it; a ``cache`` holding ``limit``
    entries is emptied first."""
    if len(cache) >= limit:
        cache.clear()
    cache[key] = value
    return value


__all__ = ["keep"]

"""I3.1: the fixed circular seating order and the living neighbours."""

from __future__ import annotations

from nightfall.engine import GameState
from nightfall.rulesets.island import memory


def seating(state: GameState) -> list[str]:
    """Everyone in the fixed order (dealt at random; a hand-made setup keeps its order).
    Asked by most resolution steps and views: the names are read out of the flag once
    per value of it (kept in ``state.memo`` by the very flag object: a flag's value is
    replaced, never changed) and each caller gets a list of its own."""
    value = state.flags.get(memory.SEATING)
    if not value:
        return list(state.players)
    entry = state.memo.get(_SEATING)
    if entry is not None and entry[0] is value:
        return list(entry[1])
    order = memory.names(state, memory.SEATING)
    state.memo[_SEATING] = (value, order)
    return list(order)


_SEATING = "i.seating"


def neighbours(state: GameState, player: str) -> tuple[str, ...]:
    """The nearest living players before and after ``player`` in the circle [R]."""
    order = seating(state)
    if player not in order:
        return ()
    start = order.index(player)
    size = len(order)
    found: list[str] = []
    for step in (-1, 1):
        for distance in range(1, size):
            other = order[(start + step * distance) % size]
            if other != player and state.is_alive(other):
                if other not in found:
                    found.append(other)
                break
    return tuple(found)

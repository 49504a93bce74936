"""I3.1: the fixed circular seating order and the living neighbours."""

from __future__ import annotations

from nightfall.engine import GameState
from nightfall.rulesets.island import memory


def seating(state: GameState) -> list[str]:
    """Everyone in the fixed order (dealt at random; a hand-made setup keeps its order)."""
    order = memory.names(state, memory.SEATING)
    return order if order else list(state.players)


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

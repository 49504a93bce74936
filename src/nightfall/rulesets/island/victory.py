"""Win conditions (I1.2), checked after the lynch and after the night (I1.4)."""

from __future__ import annotations

from nightfall.engine import GameState
from nightfall.rulesets.island.roles import DRAW, HAMSTER, MAFIA, faction


def winner(state: GameState) -> tuple[str, tuple[str, ...]] | None:
    alive = state.alive()
    if not alive:
        return DRAW, ()  # I1.2
    sides = {faction(state.players[p].role) for p in alive}
    if len(sides) == 1:  # every living player belongs to one faction [R]
        side = next(iter(sides)) or DRAW
        return side, _members(state, side)
    if state.options.get("mafia_wins_at_parity"):
        mafia = [p for p in alive if faction(state.players[p].role) == MAFIA]
        hamster = any(state.players[p].role == HAMSTER for p in alive)
        if mafia and not hamster and len(mafia) >= len(alive) - len(mafia):
            return MAFIA, _members(state, MAFIA)
    return None


def _members(state: GameState, side: str) -> tuple[str, ...]:
    """Every player of the winning faction, the dead included."""
    return tuple(p.name for p in state.players.values() if faction(p.role) == side)

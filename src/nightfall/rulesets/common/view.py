"""Parts of a projection every rule set shows alike, so the players' pages, the GM's view
and the API read the same shapes whatever the rules: how a player left, a player's own
submissions, the resolution trace and the notices (the last two once the game is over).
"""

from __future__ import annotations

from typing import Any

from nightfall.engine import GameState
from nightfall.engine.events import StepTraced
from nightfall.engine.state import PlayerState
from nightfall.engine.text import to_data


def departure(player: PlayerState) -> dict[str, Any] | None:
    """How and when ``player`` left the game (public: a departure is announced)."""
    return {"cause": player.left_cause, "phase": player.left_phase} if not player.alive else None


def own_submissions(state: GameState, player: str) -> dict[str, dict[str, Any]]:
    """``player``'s standing submissions by slot (for him alone)."""
    return {
        slot: {"action": s.action, "targets": list(s.targets), "choice": s.choice,
               "text": s.text}
        for (owner, slot), s in state.submissions.items()
        if owner == player
    }


def own_notices(state: GameState, player: str) -> list[dict[str, Any]]:
    """``player``'s private notices (for him alone)."""
    return [dict(n) for n in state.notices.get(player, [])]


def all_notices(state: GameState) -> dict[str, list[dict[str, Any]]]:
    """Every player's notices (the GM's, and everyone's once the game is over)."""
    return {p: [dict(n) for n in ns] for p, ns in state.notices.items()}


def trace(state: GameState) -> list[dict[str, Any]]:
    """The resolution trace, step by step (the GM's, and everyone's once it is over)."""
    return [_step(t) for t in state.traces]


def _step(step: StepTraced) -> dict[str, Any]:
    return {
        "phase": step.phase, "number": step.number, "step": step.step, "rule": step.rule,
        "lines": to_data(step.lines),
    }

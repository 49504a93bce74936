"""The random bot: one command drawn uniformly from the legal list, or none."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from nightfall.engine.commands import Command
from nightfall.sim.bots.base import Bot


class RandomBot(Bot):
    """Uniform over the legal commands plus "do nothing and let the deadline pass"."""

    kind = "random"
    wants_view = False

    def act(self, view: Mapping[str, Any], legal: Sequence[Command]) -> list[Command]:
        choice = self.rng.randrange(len(legal) + 1)
        return [legal[choice]] if choice < len(legal) else []

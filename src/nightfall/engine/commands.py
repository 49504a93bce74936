"""Commands: what a player or the game master asks the engine to do."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

#: Commands of the game master (``by`` is ``None``); every other command is a player's.
GM_ACTIONS = frozenset({"advance", "extend", "shorten", "skip", "modkill"})


@dataclass(frozen=True, slots=True)
class Command:
    """One input. ``action`` names the ability or GM act; ``at`` is when it was made.

    ``target``/``targets`` name players; ``choice`` is a role id, item id or yes/no;
    ``text`` a free text (a scene text, a letter). ``minutes`` is for extend/shorten.
    """

    action: str
    by: str | None = None
    target: str | None = None
    targets: tuple[str, ...] = ()
    choice: str | None = None
    text: str | None = None
    minutes: int | None = None
    at: datetime | None = None

    @property
    def all_targets(self) -> tuple[str, ...]:
        """``targets`` if given, else the single ``target`` (or nothing)."""
        if self.targets:
            return self.targets
        return (self.target,) if self.target is not None else ()

    @property
    def is_gm(self) -> bool:
        return self.action in GM_ACTIONS

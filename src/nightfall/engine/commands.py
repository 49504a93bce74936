"""Commands: what a player or the game master asks the engine to do."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

#: Commands of the game master (``by`` is ``None``); every other command is a player's.
#: ``say`` posts in the thread, ``tell`` messages one player (``engine/talk.py``);
#: ``admit`` lets an observer into the thread (``engine/guests.py``).
GM_ACTIONS = frozenset({"advance", "extend", "shorten", "skip", "modkill", "say", "tell",
                        "admit"})


@dataclass(frozen=True, slots=True, init=False)
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

    # own __init__, compiled by mypyc (tests/test_record_inits.py)
    def __init__(self, action: str, by: str | None = None, target: str | None = None,
                 targets: tuple[str, ...] = (), choice: str | None = None,
                 text: str | None = None, minutes: int | None = None,
                 at: datetime | None = None) -> None:
        object.__setattr__(self, "action", action)
        object.__setattr__(self, "by", by)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "targets", targets)
        object.__setattr__(self, "choice", choice)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "minutes", minutes)
        object.__setattr__(self, "at", at)

    @property
    def all_targets(self) -> tuple[str, ...]:
        """``targets`` if given, else the single ``target`` (or nothing)."""
        if self.targets:
            return self.targets
        return (self.target,) if self.target is not None else ()

    @property
    def is_gm(self) -> bool:
        return self.action in GM_ACTIONS


_MADE: dict[tuple[str, str | None, tuple[str, ...], str | None, str | None], Command] = {}
_MADE_LIMIT = 50_000


def make_command(action: str, by: str | None, targets: tuple[str, ...] = (),
                 choice: str | None = None, text: str | None = None) -> Command:
    """The command with these fields, shared: legal-command lists build the same few
    commands over and over, and a frozen dataclass costs more to build than to look up.
    One target is given as ``target`` (as people write it), two or more as ``targets``."""
    key = (action, by, targets, choice, text)
    command = _MADE.get(key)
    if command is None:
        # names differ from game to game: stay bounded (inline, not ``caches.keep``: the
        # first games of a simulation miss here ~150 times a game, and the call showed)
        if len(_MADE) >= _MADE_LIMIT:
            _MADE.clear()
        if len(targets) == 1:
            command = Command(action, by, target=targets[0], choice=choice, text=text)
        else:
            command = Command(action, by, targets=targets, choice=choice, text=text)
        _MADE[key] = command
    return command


def by_action(commands: Iterable[Command]) -> dict[str, list[Command]]:
    """``commands`` grouped by action, in their order: how a player (a bot, a script)
    reads a legal-command list, one ability at a time."""
    found: dict[str, list[Command]] = {}
    last: str | None = None
    group: list[Command] = []
    for command in commands:
        action = command.action
        if action != last:  # a list gives each ability's commands together: one lookup
            group = found.setdefault(action, [])
            last = action
        group.append(command)
    return found

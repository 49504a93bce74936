"""Phases, stages and deadlines expressed as rules.

A deadline is never read from a clock: a rule set states it as *clock time + day offset
+ time zone* relative to the moment its phase began (:class:`DeadlineRule`), and the
adapter that owns the clock tells the engine the time (``Game.tick(now)``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from nightfall.engine.pickling import by_fields, restore

SIGNUP = "signup"
SETUP = "setup"
DAY = "day"
NIGHT = "night"
ENDED = "ended"


@dataclass(frozen=True, slots=True, init=False)
class Phase:
    """Where the game stands: ``kind`` (signup/setup/day/night/ended), number, stage."""

    kind: str
    number: int = 0
    stage: int = 1

    # own __init__, compiled by mypyc (tests/test_record_inits.py)
    def __init__(self, kind: str, number: int = 0, stage: int = 1) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "number", number)
        object.__setattr__(self, "stage", stage)

    @property
    def round(self) -> tuple[str, int]:
        """Phase identity without the stage: submissions live for one round."""
        return (self.kind, self.number)

    def is_play(self) -> bool:
        return self.kind in (DAY, NIGHT)

    def __reduce__(self) -> tuple[Any, ...]:
        return by_fields(self)

    def __setstate__(self, state: Any) -> None:
        restore(self, state)


@dataclass(frozen=True, slots=True)
class DeadlineRule:
    """``at`` o'clock, ``day_offset`` days after the phase's start date, in ``tz``.

    If that moment is not after the start (a phase opened late), the next day is used.
    """

    at: time
    day_offset: int
    tz: str

    def after(self, start: datetime) -> datetime:
        zone = ZoneInfo(self.tz)
        local = start.astimezone(zone)
        day = local.date() + timedelta(days=self.day_offset)
        deadline = datetime.combine(day, self.at, tzinfo=zone)
        while deadline <= local:
            day += timedelta(days=1)
            deadline = datetime.combine(day, self.at, tzinfo=zone)
        return deadline


def known_zone(name: object) -> ZoneInfo | None:
    """The time zone a setting names (a game's or a player's ``timezone``); ``None`` when
    it is unset or names no zone this machine knows, so a bad value shows times in the
    default zone (or is refused by whoever validates it, e.g.
    :meth:`~nightfall.engine.ruleset.Ruleset.check_options`) instead of failing a page."""
    if not isinstance(name, str) or not name or len(name) > 64:  # no zone name is longer
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a name too long for a path
        return None

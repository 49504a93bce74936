"""The iCalendar feed of a game's deadlines (``icalendar``).

One event per stage that had a deadline, at that deadline; its UID stays the same while
the GM extends or shortens the stage and its ``SEQUENCE`` counts the changes, so a
calendar that subscribed to the feed moves the event instead of adding one. The feed is
built from the effective log (an undone stage is gone from it) and names only what is
public: the stage and its deadline.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from icalendar import Calendar, Event

from nightfall.engine import events as ev
from nightfall.engine.phase import ENDED, SETUP, SIGNUP
from nightfall.engine.text import N_, Text
from nightfall.notify.compose import Reader


def deadlines(log: Iterable[ev.Event]) -> list[tuple[str, datetime, int]]:
    """(stage label, deadline, changes) of every stage that had a deadline, in order."""
    found: list[tuple[str, datetime, int]] = []
    current: str | None = None
    for event in log:
        if isinstance(event, ev.PhaseStarted):
            current = None
            if event.kind not in (SIGNUP, SETUP, ENDED) and event.deadline is not None:
                current = event.label
                found.append((event.label, event.deadline, 0))
        elif isinstance(event, ev.DeadlineChanged) and current is not None and found:
            label, _, changes = found[-1]
            if event.deadline is not None:
                found[-1] = (label, event.deadline, changes + 1)
    return found


def feed(game_id: str, log: Iterable[ev.Event], reader: Reader, url: str,
         stamp: datetime | None = None) -> bytes:
    calendar = Calendar()
    calendar.add("prodid", "-//Nightfall//deadlines//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", reader.say(N_("Deadlines: {game}"), game=reader.game_title))
    for label, deadline, changes in deadlines(log):
        item = Event()
        item.add("uid", f"{game_id}-{label}@nightfall")
        item.add("sequence", changes)
        item.add("dtstamp", stamp or datetime.now(UTC))
        item.add("dtstart", deadline.astimezone(UTC))
        item.add("dtend", deadline.astimezone(UTC) + timedelta(minutes=15))
        item.add("summary", reader.text(Text(N_("Deadline: {phase} ({game})"), {
            "phase": reader.phase(label), "game": reader.game_title})))
        item.add("url", url)
        calendar.add_component(item)
    return bytes(calendar.to_ical())

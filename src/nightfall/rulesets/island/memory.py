"""The rule set's memory between stages, kept in engine flags (namespaced ``i.``).

Every value is plain data (str, int, bool, lists and dicts of those), so the event store
can serialise it. Each key names the rule it serves.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from nightfall.engine import GameState

SEATING = "i.seating"  # I3.1 the fixed circular order
EVENT = "i.event"  # I5 today's event
EVENT_HISTORY = "i.events"  # I5 {day: event}, for the solar eclipse and the newspaper
NEXT_EVENT = "i.next_event"  # I7 step 21: tomorrow's event
PICK_ME = "i.pick_me"  # I5 pick me!: the player chance chose today
SPIRIT = "i.spirit"  # I5 spirit: {asker, text, answer}
VIOLATIONS = "i.violations"  # I5 palms bloom, I4 poison thorn: {player: [source, ...]}
DETECTIONS = "i.detections"  # I5 palms bloom: {player: [words]} found in today's posts
OVERRULED = "i.overruled"  # I5 palms bloom: detections the GM overruled today
LOVE_NOTES = "i.love_notes"  # I4 love note: [[sender, recipient], ...] today
SILENCE_NEXT = "i.silence_next"  # I2.7 players silenced for the next day
ACTIVATIONS = "i.activations"  # I4 every activation: [{day, item, user, target}]
SHOWN = "i.shown"  # I5 solar eclipse: night dead whose roles were announced in the morning
REPORT = "i.report"  # I3.2 what the last resolution did (for the newspaper)
SKIPPING = "i.skipping"  # the GM skipped the current stage


def authority_key(player: str) -> str:
    """I2.4: the day this authority revealed himself (once per game)."""
    return f"i.authority:{player}"


def witch_kill_key(player: str) -> str:
    """I2.5: this witch has killed (once per game)."""
    return f"i.witch_kill:{player}"


def witch_cancel_key(player: str) -> str:
    """I2.5: this witch has cancelled a night (once per game)."""
    return f"i.witch_cancel:{player}"


def nurse_self_key(player: str) -> str:
    """I2.2: this nurse has healed herself (once per game)."""
    return f"i.nurse_self:{player}"


def names(state: GameState, key: str) -> list[str]:
    return [str(n) for n in state.flags.get(key) or []]


def mapping(state: GameState, key: str) -> dict[str, Any]:
    return dict(state.flags.get(key) or {})


def today_event(state: GameState) -> str | None:
    value = state.flags.get(EVENT)
    if not value:
        return None
    return value if type(value) is str else str(value)


def event_on(state: GameState, day: int) -> str | None:
    value = mapping(state, EVENT_HISTORY).get(str(day))
    return str(value) if value else None


def spirit(state: GameState) -> dict[str, Any]:
    return mapping(state, SPIRIT)


def love_notes(state: GameState) -> list[tuple[str, str]]:
    return [(str(a), str(b)) for a, b in state.flags.get(LOVE_NOTES) or []]


def activations(state: GameState) -> list[dict[str, Any]]:
    return [dict(a) for a in state.flags.get(ACTIVATIONS) or []]


def midday(state: GameState) -> datetime | str:
    """I7 stage 1: the moment today's applications close (the ``midday`` option, 13:00 by
    default, in the game's zone) — a moment, so each reader sees it in his zone with the
    zone named (issue 18: "до 13:00" beside "10:00 UTC" on the player's page). Taken from
    today's first stage (its deadline, as the GM may have moved it); a game without a
    clock has none, and gets the option's time with the zone's name."""
    phase = state.phase
    if phase.kind == "day" and phase.stage == 1 and state.deadline is not None:
        return state.deadline
    for record in reversed(state.history):
        if record.kind == "day" and record.number == phase.number and record.stage == 1:
            if record.deadline is not None:
                return record.deadline
            break
    return f"{state.options.get('midday') or '13:00'} ({state.options.get('timezone')})"

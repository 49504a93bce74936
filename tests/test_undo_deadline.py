"""An undo never leaves a stage that claims a deadline it does not have (issue 18): the
reopened stage keeps its old deadline while that still lies ahead, else it has none until
the GM sets one (``extend`` from now, or ``undo(minutes=…)`` in the same step)."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from nightfall.engine import Command, Game
from nightfall.rulesets import get_ruleset, new_game

BERLIN = ZoneInfo("Europe/Berlin")


def day_closed_early(closed_at: datetime) -> Game:
    """Day 1 (deadline 02.12.2012 19:30, C2.5) closed by the GM at ``closed_at``."""
    game = new_game("changelings", 5, {"early_close": False})
    for name in ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"):
        game.join(name)
    game.assign({"Ann": "researcher", "Bob": "changeling", "Cid": "pony", "Dee": "pony",
                 "Eve": "changeling", "Fay": "pony", "Gus": "shield"})
    game.start(at=datetime(2012, 12, 1, 20, 0, tzinfo=BERLIN))
    game.advance(closed_at)
    assert game.state.phase_label == "night 1/1"
    return game


def test_an_undo_keeps_the_old_deadline_while_it_lies_ahead() -> None:
    game = day_closed_early(datetime(2012, 12, 2, 18, 0, tzinfo=BERLIN))
    game.undo(datetime(2012, 12, 2, 18, 5, tzinfo=BERLIN))
    assert game.state.phase_label == "day 1"
    assert game.state.deadline == datetime(2012, 12, 2, 19, 30, tzinfo=BERLIN)
    # and the scheduler closes it there, as if nothing had happened
    game.tick(datetime(2012, 12, 2, 19, 30, tzinfo=BERLIN))
    assert game.state.phase_label == "night 1/1"
    assert Game.from_events(get_ruleset("changelings"), game.events).state == game.state


def test_an_undo_after_the_old_deadline_leaves_the_stage_waiting_for_the_gm() -> None:
    game = day_closed_early(datetime(2012, 12, 2, 19, 0, tzinfo=BERLIN))
    late = datetime(2012, 12, 2, 20, 0, tzinfo=BERLIN)
    game.undo(late)
    assert game.state.phase_label == "day 1" and game.state.deadline is None
    # the GM sets the new deadline: extend on a stage without one starts from now
    game.execute(Command("extend", minutes=90, at=late))
    assert game.state.deadline == late + timedelta(minutes=90)
    said = game.state.announcements[-1].text
    assert said.msgid == "The game master set a new deadline for the phase: {deadline}."
    assert said.params["deadline"] == late + timedelta(minutes=90)


def test_an_undo_can_set_the_new_deadline_in_the_same_step() -> None:
    game = day_closed_early(datetime(2012, 12, 2, 19, 0, tzinfo=BERLIN))
    late = datetime(2012, 12, 2, 20, 0, tzinfo=BERLIN)
    game.undo(late, minutes=30)
    assert game.state.deadline == late + timedelta(minutes=30)
    assert Game.from_events(get_ruleset("changelings"), game.events).state == game.state

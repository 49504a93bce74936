"""What closing a stage now leaves the players (issue 18, C2.3): a day closed at 21:52
starts a night whose first stage still ends at 22:00 — the GM is told before."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from nightfall.engine import Game
from nightfall.engine.text import render
from nightfall.rulesets import new_game
from nightfall.service.outlook import after_close, shortening_ends_stage

BERLIN = ZoneInfo("Europe/Berlin")


def day_one() -> Game:
    game = new_game("changelings", 5, {"early_close": False})
    for name in ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"):
        game.join(name)
    game.assign({"Ann": "researcher", "Bob": "changeling", "Cid": "pony", "Dee": "pony",
                 "Eve": "changeling", "Fay": "pony", "Gus": "shield"})
    game.start(at=datetime(2012, 12, 1, 20, 0, tzinfo=BERLIN))
    return game


def test_closing_day_one_at_21_52_leaves_the_night_eight_minutes() -> None:
    game = day_one()
    head = game.seq
    now = datetime(2012, 12, 1, 21, 52, tzinfo=BERLIN)
    outlook = after_close(game, now)
    assert outlook is not None and game.seq == head  # worked out on a copy
    assert outlook.next_phase == "night 1/1"
    assert outlook.deadline == datetime(2012, 12, 1, 22, 0, tzinfo=BERLIN)
    assert outlook.left == timedelta(minutes=8) and outlook.short
    assert render(outlook.text(), tz=BERLIN) == (
        "Closing day 1 now starts night 1, stage 1, whose deadline is 01.12.2012 22:00 CET: "
        "8 minutes from now.")
    # the same close at noon leaves ten hours: no warning colour
    noon = after_close(game, datetime(2012, 12, 2, 12, 0, tzinfo=BERLIN))
    assert noon is not None and not noon.short
    assert "10 h 0 min from now" in render(noon.text(), tz=BERLIN)


def test_a_shortening_ends_the_stage_only_when_it_reaches_the_present() -> None:
    game = day_one()  # deadline 02.12.2012 19:30
    now = datetime(2012, 12, 2, 19, 0, tzinfo=BERLIN)
    assert not shortening_ends_stage(game, now, 29)
    assert shortening_ends_stage(game, now, 30)
    assert shortening_ends_stage(game, now, 10_000)

"""Every time a page or a text shows names its zone or is in the reader's (issue 18):
Island's "until 13:00" (I7 stage 1) is the day's first deadline as a moment, shown in the
reader's zone with the zone's name, and in the game's zone in the newspaper (I3.2)."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from nightfall.engine import Command, Game, Rejected
from nightfall.engine.text import render
from nightfall.i18n import gettext_for
from nightfall.rulesets import new_game
from nightfall.rulesets.island.newspaper import newspaper

MOSCOW = ZoneInfo("Europe/Moscow")
ROSTER = {"Аня": "seer", "Боря": "werewolf", "Вика": "passenger", "Гена": "authority",
          "Даша": "nurse", "Егор": "passenger", "Жора": "hamster"}
MORNING = datetime(2024, 3, 1, 9, 0, tzinfo=MOSCOW)


def island(event: str) -> Game:
    game = new_game("island", 7, {"random_events": False}, "ru")
    for name in ROSTER:
        game.join(name)
    game.assign(ROSTER, items={"Вика": ["sheep_skin"]})
    game.start(at=MORNING)
    game.execute(Command("event", choice=event, at=MORNING))
    return game


def test_the_days_event_names_its_closing_time_in_the_readers_zone() -> None:
    game = island("bunker")
    text = game.state.announcements[-1].text
    assert "{until}" in text.msgid
    assert text.params["until"] == datetime(2024, 3, 1, 13, 0, tzinfo=MOSCOW)
    russian = gettext_for("ru")
    assert "01.03.2024 10:00 UTC" in render(text, russian, UTC)  # a player in UTC
    assert "01.03.2024 13:00 MSK" in render(text, russian, MOSCOW)
    assert "13:00" not in text.msgid


def test_the_newspaper_names_the_games_zone() -> None:
    paper = newspaper(island("mystic_light").state, gettext_for("ru"))
    assert "01.03.2024 13:00 MSK" in paper
    assert "{" not in paper


def test_a_late_recharge_is_refused_with_the_time_and_its_zone() -> None:
    game = island("mystic_light")
    game.advance(datetime(2024, 3, 1, 13, 0, tzinfo=MOSCOW))  # stage 2 from 13:00
    try:
        game.execute(Command("recharge", by="Вика",
                             at=datetime(2024, 3, 1, 14, 0, tzinfo=MOSCOW)))
    except Rejected as error:
        shown = render(error.reason, gettext_for("en"), UTC)
    else:  # pragma: no cover - the rule refuses it
        raise AssertionError("a recharge after 13:00 was accepted")
    assert shown.endswith("is possible only until 01.03.2024 10:00 UTC."), shown

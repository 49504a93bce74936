"""The reveal page's log reads as sentences: what chance drew is named in the reader's
language, and so is what the draw was for (not ``seer (deal:Ann)``)."""

from __future__ import annotations

import pytest

from nightfall.engine import Game
from nightfall.engine import events as ev
from nightfall.rulesets import get_ruleset
from nightfall.web.i18n import Translator
from nightfall.web.texts import log_line


def dealt_island_game() -> Game:
    game = Game.new(get_ruleset("island"), 11, {"random_events": True})
    for name in ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"):
        game.join(name)
    game.deal(get_ruleset("island").roles_for(7))
    game.start()
    return game


@pytest.mark.parametrize("locale,role_for,item_for,event", [
    ("en", "role for", "item for", "the day's event"),
    ("de", "Rolle für", "Gegenstand für", "Ereignis des Tages"),
    ("ru", "роль для", "вещь для", "событие дня"),
])
def test_chance_lines_name_what_was_drawn_and_what_for(locale: str, role_for: str,
                                                       item_for: str, event: str) -> None:
    game = dealt_island_game()
    tr = Translator(locale)
    draws = [e for e in game.events if isinstance(e, ev.RandomDrawn)]
    lines = [log_line(e, game.ruleset, tr) or "" for e in draws]
    kinds = {e.purpose.partition(":")[0] for e in draws}
    assert {"deal", "seat", "item", "event"} <= kinds
    for draw, line in zip(draws, lines, strict=True):
        assert ":" not in line.split("(")[-1], line  # no raw "deal:Ann"
        kind, _, subject = draw.purpose.partition(":")
        if kind == "deal":
            role = game.state.players[subject].role or ""
            assert f"({role_for} {subject})" in line
            assert tr.term("role", role) in line
        elif kind == "item":
            assert f"({item_for} {subject})" in line and tr.term("item", draw.chosen) in line
        elif kind == "event":
            assert f"({event})" in line and tr.term("event", draw.chosen) in line

"""The Island newspaper (I3.2) in Russian and English, and the Russian demo game."""

from __future__ import annotations

import re

from babel.messages.pofile import read_po

from nightfall.demo_island import play_island_demo
from nightfall.engine import Command, Game
from nightfall.engine.events import StepTraced
from nightfall.i18n import LOCALES_DIR, gettext_for, localize
from nightfall.rulesets import new_game
from nightfall.rulesets.island.newspaper import newspaper

PLACEHOLDER = re.compile(r"\{[^{}]*\}")
ROSTER = (
    ("Аня", "seer", ["dark_glasses"]),
    ("Боря", "werewolf", ["megaphone"]),
    ("Вика", "passenger", ["sheep_skin"]),
    ("Гена", "authority", []),
    ("Даша", "nurse", ["shocker"]),
    ("Егор", "passenger", ["trap"]),
    ("Жора", "hamster", []),
)


def played_day() -> Game:
    """Day 1 under the spirit call: a shocker, the authority, a sheep skin and a night."""
    game = new_game("island", 7, {"random_events": False}, "ru")
    for name, _, _ in ROSTER:
        game.join(name)
    game.assign({n: r for n, r, _ in ROSTER}, items={n: i for n, _, i in ROSTER if i})
    game.start()
    game.execute(Command("event", choice="spirit"))
    game.execute(Command("spirit_ask", by="Аня", text="Оборотень сидит рядом с Егором?"))
    game.execute(Command("answer", choice="no"))
    game.execute(Command("use_item", by="Даша", choice="shocker", target="Жора"))
    game.execute(Command("authority", by="Гена", target="Егор"))
    game.advance()
    for voter in ("Аня", "Гена", "Даша"):
        game.execute(Command("vote", by=voter, target="Вика"))
    game.execute(Command("vote", by="Егор", target="Боря"))
    game.execute(Command("vote", by="Боря", target="Егор"))
    game.execute(Command("eat", by="Боря", target="Даша"))
    game.execute(Command("check", by="Аня", target="Жора"))
    game.advance()
    return game


def test_the_newspaper_in_russian() -> None:
    game = played_day()
    assert game.state.phase_label == "day 2/1"
    paper = newspaper(game.state, gettext_for("ru"))
    assert not PLACEHOLDER.search(paper), paper
    lines = paper.splitlines()
    assert lines[0] == "Газета острова — день 2"
    assert "Игроки в порядке списка:" in lines
    # seating order, statuses, revealed roles and public passive items (I3.2, I4)
    assert "1. Аня — в игре, вещи: Черные очки" in lines
    assert "2. Боря — в игре, вещи: Рупор" in lines
    assert "4. Гена — в игре, Авторитет, раскрыт(а)" in lines
    assert any(line.startswith("3. Вика — в игре") and "Овечья шкура (без заряда)" in line
               for line in lines)
    assert any(line.startswith("5. Даша — съеден(а) оборотнями (день 1), Медсестра")
               for line in lines)
    # activated items with user and target; no verb in the past tense, which would
    # need the player's gender (Даша, Вика), and a sheep skin hands the lynch on
    assert "- день 1: Даша → Жора: «Шокер»" in lines
    assert "- день 1: «Овечья шкура» игрока Вика — вместо него линчуют игрока Егор" in lines
    # the lynch table with its corrections
    assert "Голосование дня 1:" in lines
    assert "Егор → Вика (забран Авторитетом Гена)" in lines
    assert "Жора → Жора (потерян: под шокером)" in lines
    assert any(line.startswith("Итог: Вика 5") for line in lines)
    assert "Линчеваны: Егор" in lines
    # the night and the spirit
    assert "- Даша: съеден(а) оборотнями" in lines
    assert "- Жора: погиб(ла) от проверки ясновидящего" in lines
    assert any("Вопрос Духу от игрока Аня: «Оборотень сидит рядом с Егором?» — ответ: нет."
               in line for line in lines)


def test_the_newspaper_in_english() -> None:
    paper = newspaper(played_day().state, gettext_for("en"))
    assert not PLACEHOLDER.search(paper), paper
    lines = paper.splitlines()
    assert lines[0] == "The Island Newspaper — day 2"
    assert "4. Гена — alive, Authority, revealed" in lines
    assert "Егор → Вика (taken by the authority Гена)" in lines
    assert "Жора → Жора (lost: shocked)" in lines
    assert "Lynched: Егор" in lines
    assert "- Жора: died of the seer's check" in lines


def test_the_russian_demo_game_renders_completely() -> None:
    game = play_island_demo(seed=2024, locale="ru")
    assert game.state.ended
    with (LOCALES_DIR / "ru" / "LC_MESSAGES" / "nightfall.po").open("rb") as handle:
        ru = read_po(handle, locale="ru")
    texts = [a.text for a in game.state.announcements]
    texts += [line for e in game.events if isinstance(e, StepTraced) for line in e.lines]
    assert len(texts) > 50
    for text in texts:
        rendered = localize(text, "ru")
        assert not PLACEHOLDER.search(rendered), rendered
        message = ru.get(text.msgid)
        assert message is not None and message.string, text.msgid
    paper = newspaper(game.state, gettext_for("ru"))
    assert paper.startswith("Газета острова — игра окончена") and not PLACEHOLDER.search(paper)

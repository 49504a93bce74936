"""The Island newspaper (I3.2) in Russian and English, and the Russian demo game."""

from __future__ import annotations

import re

from nightfall.engine import Command, Game
from nightfall.i18n import gettext_for
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
    game.execute(Command("event", choice="bunker"))  # the roles of the night come with it
    return game


def test_the_night_roles_wait_for_the_days_event() -> None:
    """I5 [R]: without random events the GM sets the day's event; last night's roles are
    announced with it (so that his solar eclipse can still hide them), at 13:00 at the
    latest."""
    game = new_game("island", 7, {"random_events": False}, "en")
    for name, _, _ in ROSTER:
        game.join(name)
    game.assign({n: r for n, r, _ in ROSTER})
    game.start()
    game.execute(Command("eat", by="Боря", target="Даша"))
    game.advance()
    game.advance()
    paper = newspaper(game.state, gettext_for("en"))
    assert ("Даша — eaten by the werewolves (day 1), role to be revealed with the day's "
            "event") in paper
    assert {p["name"]: p["role"] for p in game.view("Аня")["players"]}["Даша"] is None
    game.advance()  # 13:00 without an event: shown now
    assert "5. Даша — eaten by the werewolves (day 1), Nurse" in newspaper(
        game.state, gettext_for("en")).splitlines()
    assert {p["name"]: p["role"] for p in game.view("Аня")["players"]}["Даша"] == "nurse"


def test_a_skipped_first_half_still_shows_the_night_roles() -> None:
    game = new_game("island", 7, {"random_events": False}, "en")
    for name, _, _ in ROSTER:
        game.join(name)
    game.assign({n: r for n, r, _ in ROSTER})
    game.start()
    game.execute(Command("eat", by="Боря", target="Даша"))
    game.advance()
    game.advance()
    game.execute(Command("skip"))
    assert {p["name"]: p["role"] for p in game.view("Аня")["players"]}["Даша"] == "nurse"


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
    # a vote that counts for the voter says why (I6.3), never a bare "Жора → Жора"
    assert "Жора → Жора (действительного голоса нет: под шокером; засчитан игроку Жора)" in lines
    assert any(line.startswith("Итог: Вика 5") for line in lines)
    assert "Линчеваны: Егор" in lines
    # the night and the spirit
    assert "- Даша: съеден(а) оборотнями" in lines
    # the seer's look kills only the hamster: the public reads "in the night" (I5 [R])
    assert "- Жора: погиб(ла) ночью" in lines
    assert "7. Жора — погиб(ла) ночью (день 1), Хомяк-Мутант" in lines
    assert any("Вопрос Духу от игрока Аня: «Оборотень сидит рядом с Егором?» — ответ: нет."
               in line for line in lines)


def test_the_newspaper_in_english() -> None:
    paper = newspaper(played_day().state, gettext_for("en"))
    assert not PLACEHOLDER.search(paper), paper
    lines = paper.splitlines()
    assert lines[0] == "The Island Newspaper — day 2"
    assert "4. Гена — alive, Authority, revealed" in lines
    assert "Егор → Вика (taken by the authority Гена)" in lines
    assert "Жора → Жора (no valid vote: shocked; it counts for Жора)" in lines
    assert "Lynched: Егор" in lines
    assert "- Жора: died in the night" in lines


def love_note_day(locale: str, event: str | None = None) -> Game:
    """Аня votes for Боря, then Боря plays a love note on her: her vote is lost (I4)."""
    game = new_game("island", 3, {"random_events": False}, locale)
    for name, _, _ in ROSTER:
        game.join(name)
    game.assign({n: r for n, r, _ in ROSTER}, items={"Боря": ["love_note"]})
    game.start()
    if event is not None:
        game.execute(Command("event", choice=event))
    game.execute(Command("vote", by="Аня", target="Боря"))
    for voter in ("Вика", "Гена", "Даша", "Егор", "Жора"):
        game.execute(Command("vote", by=voter, target="Егор"))
    game.execute(Command("use_item", by="Боря", choice="love_note", target="Аня"))
    game.advance()
    game.advance()
    return game


def test_a_lost_vote_says_where_it_was_cast_and_whom_it_counts_for() -> None:
    """I6.3, I4: "Аня → Аня (lost: Love Note)" read like a bug; the row names the vote's
    target and that it counts for the voter herself — in every language."""
    game = love_note_day("ru")
    lines = {loc: newspaper(game.state, gettext_for(loc)).splitlines()
             for loc in ("ru", "en", "de")}
    assert ("Аня → Аня (голос за игрока Боря потерян: Любовная записка; засчитан игроку "
            "Аня)") in lines["ru"]
    assert "Аня → Аня (the vote for Боря is lost: Love Note; it counts for Аня)" in lines["en"]
    assert ("Аня → Аня (die Stimme für Боря ist verloren: Liebesbrief; sie zählt für Аня)"
            in lines["de"])
    for paper in lines.values():
        assert not PLACEHOLDER.search("\n".join(paper))


def test_under_fear_a_lost_vote_counts_for_nobody() -> None:
    """I5 fear: lost votes do not stay on the voter, and the row says so."""
    from nightfall.rulesets.island.newspaper import _vote_line

    vote = {"owner": "Аня", "target": "Аня", "kind": "own", "cast": True,
            "lost": "silenced", "taken_by": None, "meant": "Боря"}
    assert _vote_line("Аня", [vote], True, gettext_for("en")) == (
        "Аня → Аня (the vote for Боря is lost: silenced; under fear it counts for nobody)")
    taken = {**vote, "owner": "Боря", "lost": "love_note", "taken_by": "Гена",
             "meant": "Вика", "target": "Гена"}
    assert _vote_line("Боря", [taken], False, gettext_for("ru")) == (
        "Боря → Гена (забран Авторитетом Гена, голос за игрока Вика потерян: Любовная "
        "записка; засчитан игроку Гена)")

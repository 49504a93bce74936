"""What an Island player reads: his role's own text, the refusals and announcements a
Russian game showed wrong in a played game (web QA), rendered in the game's language."""

from __future__ import annotations

import pytest

from nightfall.engine import Command, Game, Rejected
from nightfall.i18n import localize
from nightfall.rulesets import get_ruleset, new_game
from nightfall.rulesets.island.roles import ROLES

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


def island(roles: dict[str, str], items: dict[str, list[str]] | None = None,
           event: str | None = None) -> Game:
    game = new_game("island", 1, {"random_events": False})
    for name in roles:
        game.join(name)
    game.assign(roles, items=items or {})
    game.start()
    if event is not None:
        game.execute(Command("event", choice=event))
    return game


def announced(game: Game, locale: str = "en") -> list[str]:
    return [localize(a.text, locale) for a in game.state.announcements]


def traced(game: Game) -> list[str]:
    return [localize(line, "en") for t in game.state.traces for line in t.lines]


def test_every_role_has_its_own_text_with_the_rule() -> None:
    ruleset = get_ruleset("island")
    texts = {role: ruleset.role_text(role) for role in ROLES}
    assert len({t.msgid for t in texts.values()}) == len(ROLES)
    for role, text in texts.items():
        assert "(I" in text.msgid, role  # the rule a player can look up
    # I1.2: the pack does not win by outvoting, only when nobody else is left alive
    assert "outvote" not in texts["werewolf"].msgid
    assert "only they are left alive" in texts["werewolf"].msgid
    # I2.5: the cancel undoes the whole night, not the witch's own choice
    assert "cancel every other night move" in texts["witch"].msgid


def test_russian_role_texts_use_the_island_role_names() -> None:
    """The seer of the Island is «Ясновидящий», not the Changelings' «провидица»."""
    ruleset = get_ruleset("island")
    seer = localize(ruleset.role_text("seer"), "ru")
    half_blood = localize(ruleset.role_text("half_blood"), "ru")
    assert seer.startswith("Ты ясновидящий.") and "провидиц" not in seer + half_blood
    assert "ясновидящий не видит в тебе оборотня" in half_blood
    assert localize(ruleset.role_text("witch"), "ru").startswith("Ты колдунья.")


def test_full_moon_same_victim_twice_names_the_real_mistake() -> None:
    """Under the full moon two victims are allowed: naming one twice is refused as
    such, not with 'two only under the full moon'."""
    game = island({"Ann": "werewolf", "Bob": "passenger", "Cid": "passenger",
                   "Dee": "seer"}, event="full_moon")
    with pytest.raises(Rejected) as refused:
        game.execute(Command("eat", by="Ann", targets=("Bob", "Bob")))
    assert refused.value.reason.msgid == "Name two different players."
    assert localize(refused.value.reason, "ru") == "Назови двух разных игроков."
    game.execute(Command("eat", by="Ann", targets=("Bob", "Cid")))  # two are fine


def test_recharge_of_a_lynched_player_says_he_is_gone() -> None:
    """The sleepwalker's target was lynched the same evening: the trace says so
    instead of claiming he holds no used item."""
    game = island({"Ann": "werewolf", "Bob": "sleepwalker", "Cid": "passenger",
                   "Dee": "passenger", "Eve": "passenger"},
                  items={"Cid": ["shocker"]})
    game.execute(Command("use_item", by="Cid", target="Dee", choice="shocker"))
    game.advance()  # 13:00
    game.execute(Command("recharge", by="Bob", target="Cid"))
    for voter in ("Ann", "Bob", "Eve"):
        game.execute(Command("vote", by=voter, target="Cid"))
    game.advance()  # 21:00: Cid is lynched before the sleepwalker's step
    lines = traced(game)
    assert "Cid is gone: nothing to recharge." in lines
    assert "Cid holds no used item to recharge." not in lines


def test_sheep_skin_is_announced_as_passing_the_lynch_on() -> None:
    game = island({"Ann": "werewolf", "Bob": "passenger", "Cid": "passenger",
                   "Dee": "passenger", "Eve": "seer", "Fay": "passenger"},
                  items={"Bob": ["sheep_skin"]})
    game.advance()
    for voter in ("Ann", "Cid", "Dee"):
        game.execute(Command("vote", by=voter, target="Bob"))
    for voter in ("Eve", "Fay"):
        game.execute(Command("vote", by=voter, target="Cid"))
    game.advance()
    english = announced(game)
    assert "The Sheep Skin of Bob works: Cid is lynched in his place." in english
    assert not any("used the Sheep Skin on" in line for line in english)
    russian = announced(game, "ru")
    assert "Срабатывает вещь «Овечья шкура» игрока Bob: вместо него линчуют игрока Cid." \
        in russian


def test_russian_item_use_is_announced_without_a_gendered_verb() -> None:
    """Nightfall does not know who is a woman: «Катя применил…» was wrong half the
    time; the present tense has no gender."""
    game = island({"Ann": "werewolf", "Bob": "passenger", "Cid": "seer",
                   "Dee": "passenger"}, items={"Bob": ["shocker"]})
    game.execute(Command("use_item", by="Bob", target="Ann", choice="shocker"))
    game.advance()
    assert "Bob применяет вещь «Шокер» к игроку Ann." in announced(game, "ru")


def test_a_violation_is_announced_with_the_game_masters_reason() -> None:
    game = island({"Ann": "werewolf", "Bob": "passenger", "Cid": "seer",
                   "Dee": "passenger"}, items={"Bob": ["poison_thorn"]})
    game.execute(Command("violation", target="Bob", text="accused Ann"))
    game.execute(Command("violation", target="Cid"))
    english = announced(game)
    assert "The game master marks a violation of the rules by Bob: accused Ann" in english
    assert "The game master marks a violation of the rules by Cid." in english

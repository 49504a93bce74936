"""Island forms explain what each move does and what it costs (rulesets/island/hints.py):
every Island ability has its sentence, and the costs follow the state — once per game,
until 13:00, night moves at 21:00, items used up, foggy night, the full moon, votes."""

from __future__ import annotations

from nightfall.engine import Command, Game, render
from nightfall.i18n import gettext_for
from nightfall.rulesets import new_game
from nightfall.rulesets.island.abilities import ABILITIES
from nightfall.rulesets.island.hints import WHAT


def game(items: dict[str, list[str]] | None = None) -> Game:
    made = new_game("island", 1, {"random_events": False})
    roles = {"Ann": "witch", "Bob": "werewolf", "Cid": "nurse", "Dee": "passenger",
             "Eve": "sleepwalker", "Fay": "authority"}
    for name in roles:
        made.join(name)
    made.assign(roles, items=items or {})
    made.start()
    return made


def said(made: Game, player: str, action: str, locale: str = "en") -> str:
    gettext = gettext_for(locale)
    return " ".join(render(t, gettext) for t in made.ruleset.action_hints(
        made.state, player, action))


def test_every_move_but_the_post_has_its_explanation() -> None:
    assert set(ABILITIES) - {"post"} == set(WHAT)
    made = game()
    for action in WHAT:
        assert said(made, "Ann", action), action


def test_the_witchs_cancel_says_what_it_does_and_costs() -> None:
    made = game()
    text = said(made, "Ann", "witch_cancel")
    assert "cancels every other night move" in text
    assert "Once per game." in text and "Not both spells" in text and "21:00" in text
    assert "Foggy night" not in text
    made.execute(Command("event", choice="foggy_night"))
    assert "this move has no target and needs no vote" in said(made, "Ann", "witch_cancel")
    assert "give one of your votes" in said(made, "Ann", "witch_kill")
    assert "one werewolf's vote must go to the victim" in said(made, "Bob", "eat")
    assert "You have 2 votes today" in said(made, "Dee", "vote")
    # in the players' languages
    assert "Один раз за игру." in said(made, "Ann", "witch_cancel", "ru")
    assert "Einmal pro Spiel." in said(made, "Ann", "witch_cancel", "de")


def test_costs_follow_the_state() -> None:
    made = game({"Dee": ["shocker", "voodoo_doll"]})
    item = said(made, "Dee", "use_item")
    assert "Shocker:" in item and "Voodoo doll:" in item and "used up until" in item
    assert "Yourself only once per game" in said(made, "Cid", "heal")
    made.execute(Command("heal", by="Cid", target="Cid"))
    made.advance()
    made.advance()
    assert "You have healed yourself already." in said(made, "Cid", "heal")
    made.execute(Command("event", choice="full_moon"))
    assert "eat two players" in said(made, "Bob", "eat")
    made.execute(Command("event", choice="spirit"))
    nominate = said(made, "Dee", "spirit_nominate")
    assert "more than half of the living" in nominate and "Until 13:00." in nominate
    assert "Spirit Call" in nominate
    made.execute(Command("event", choice="mystic_light"))
    assert "your own used item works again" in said(made, "Dee", "recharge")
    assert "whose used item works again after tonight" in said(made, "Eve", "recharge")

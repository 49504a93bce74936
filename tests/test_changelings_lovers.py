"""C8.2 [R]: lovers never act against each other. Every choice that would remove the
partner or turn the village on him — the vote, the abduction, the leader's tie-break, the
pinkie chase, the black raven's letter, the drama queen's chase — is refused the moment
it is sent, with a reason in the player's language, and never offered on his page; a
standing choice given before the couple formed lapses when it forms."""

from __future__ import annotations

import pytest

from changelingskit import AGAINST_LOVER, CHANGELINGS
from gamekit import make_game
from nightfall.engine import Command, Game, Rejected
from nightfall.engine.events import StepTraced
from nightfall.i18n import localize

#: P00 pinkie sense and leader, P01 drama queen, P02 black raven, P03 love potion
ROLES = ["pinkie_sense", "drama_queen", "black_raven", "love_potion", "changeling",
         "pony", "pony", "pony"]


def night_one(couple: tuple[str, str] | None = ("P00", "P01")) -> Game:
    """Night 1, stage 1, P00 the leader; ``couple`` made lovers by the potion's night 1
    (played on a first game, then the same setup with the couple given by hand)."""
    game = make_game(ROLES, seed=3)
    game.execute(Command("elect", by="P00", target="P00"))
    game.advance()
    if couple is not None:
        game.execute(Command("love", by="P03", targets=couple))
        game.advance()
        game.advance()  # the couple forms at step 9; day 2
        game.advance()  # nobody voted; night 2, stage 1
    return game


def refusal(game: Game, command: Command, locale: str) -> str:
    with pytest.raises(Rejected) as refused:
        game.execute(command)
    return localize(refused.value.reason, locale)


@pytest.mark.parametrize(("command", "english", "german", "russian"), [
    (Command("tiebreak", by="P00", target="P01"),
     "You cannot banish your lover P01 by your tie-break",
     "Du kannst deine große Liebe P01 nicht per Stichentscheid verbannen",
     "Нельзя изгнать свою пару P01 своим решением при равенстве голосов"),
    (Command("pinkie_chase", by="P00", target="P01"),
     "You cannot chase away your lover P01",
     "Du kannst deine große Liebe P01 nicht verjagen",
     "Нельзя прогнать свою пару P01"),
    (Command("drama_chase", by="P01", target="P00"),
     "You cannot take your lover P00 with you in your drama chase",
     "Du kannst deine große Liebe P00 nicht mit deiner Drama-Vertreibung verjagen",
     "Нельзя прогнать свою пару P00 прогоном драма-квин"),
])
def test_a_lover_is_refused_at_once_in_his_language(command: Command, english: str,
                                                    german: str, russian: str) -> None:
    game = night_one()
    before = list(game.events)
    assert refusal(game, command, "en").startswith(english)
    assert refusal(game, command, "de").startswith(german)
    assert refusal(game, command, "ru").startswith(russian)
    assert game.events == before  # refused: nothing changed
    # the same choice naming somebody else is accepted
    game.execute(Command(command.action, by=command.by, target="P05"))


def test_the_raven_cannot_write_to_his_lover() -> None:
    game = night_one(("P02", "P06"))
    text = refusal(game, Command("letter", by="P02", target="P06"), "en")
    assert text == ("You cannot send your letter to your lover P06: lovers never act "
                    "against each other (C8.2).")
    assert "P06" not in {c.target for c in game.legal_commands("P02") if c.action == "letter"}
    game.execute(Command("letter", by="P02", target="P05"))


def test_the_partner_is_never_offered() -> None:
    """The legal list (the page's options, the bots' moves) leaves the partner out of
    every ability of C8.2 and offers him everywhere else."""
    game = night_one()
    offered = {(c.action, c.target) for c in game.legal_commands("P00")}
    assert ("tiebreak", "P01") not in offered and ("pinkie_chase", "P01") not in offered
    assert ("tiebreak", "P05") in offered and ("pinkie_chase", "P05") in offered
    assert ("successor", "P01") in offered  # naming him leader is no act against him
    offered = {(c.action, c.target) for c in game.legal_commands("P01")}
    assert ("drama_chase", "P00") not in offered and ("drama_chase", "P05") in offered
    expected = {"vote", "abduct", "replace", "tiebreak", "pinkie_chase", "letter",
                "drama_chase"}
    refusing = {name for name, ability in CHANGELINGS.file.abilities.items()
                if any(c.refuse.startswith("lover_") for c in ability.checks)}
    assert expected == AGAINST_LOVER == refusing  # each with its message


def test_standing_choices_against_the_new_partner_lapse_when_the_couple_forms() -> None:
    """[R] A tie-break and a drama chase given in night 1 naming the player who becomes
    the lover at step 9 lapse then (with a trace line); a choice naming another stays."""
    game = night_one(None)
    game.execute(Command("tiebreak", by="P00", target="P01"))
    game.execute(Command("drama_chase", by="P01", target="P00"))
    game.execute(Command("successor", by="P00", target="P01"))
    game.execute(Command("love", by="P03", targets=("P00", "P01")))
    game.advance()
    assert game.state.submission("P00", "tiebreak") is not None
    game.advance()
    state = game.state
    assert state.phase_label == "day 2"
    assert state.submission("P00", "tiebreak") is None
    assert state.submission("P01", "drama") is None
    assert state.submission("P00", "successor") is not None  # no act against him
    lapsed = [line.params for event in game.events if isinstance(event, StepTraced)
              and event.step == "love_potion" for line in event.lines
              if line.msgid.startswith("The standing choice of {actor} named {name}, now")]
    assert lapsed == [{"actor": "P00", "name": "P01"}, {"actor": "P01", "name": "P00"}]
    game.execute(Command("tiebreak", by="P00", target="P05"))  # he may name another

"""Sign-up refuses names that pass for another player's (issue 18): compared by their
UTS #39 confusable skeleton (engine/names.py), with mixed alphabets and combining marks
that form no letter refused; all-Cyrillic names (Island is played in Russian) and
ordinary accented names keep working."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nightfall.engine import Game, Rejected
from nightfall.engine.names import name_keys, name_problem
from nightfall.rulesets import new_game

CYRILLIC_A = "\u0410"  # А, looks like the Latin A


def game_with(*names: str, ruleset: str = "changelings") -> Game:
    game = new_game(ruleset, seed=1)
    for name in names:
        game.join(name)
    return game


def refusal(game: Game, name: str) -> str:
    with pytest.raises(Rejected) as refused:
        game.join(name)
    return str(refused.value)


@pytest.mark.parametrize(("taken", "look_alike"), [
    ("Asteria", CYRILLIC_A + "steria"),  # one Cyrillic letter
    ("Asteria", "\u0410st\u0435ri\u0430"),  # three Cyrillic letters, still mixed
    ("coco", "сосо"),  # all Cyrillic, a whole-script look-alike
    ("сосо", "coco"),
    ("Mary", "rnary"),  # rn looks like m
    ("BOBA", "ВОВА"),  # capitals: Cyrillic В, О, А
    ("Ann", "Ａnn"),  # full-width (NFKC)
    ("Ann", "ANN"),
    ("Lil", "LiI"),  # capital I for l
])
def test_a_look_alike_of_a_player_is_refused(taken: str, look_alike: str) -> None:
    game = game_with(taken)
    message = refusal(game, look_alike)
    assert "already" in message, message
    assert list(game.state.players) == [taken]


def test_the_refusal_names_the_player_it_mimics() -> None:
    message = refusal(game_with("Asteria"), CYRILLIC_A + "steria")
    assert message == ("The name Аsteria looks too much like Asteria, who has already "
                       "signed up.")
    assert "one alphabet" in refusal(game_with("Mary"), CYRILLIC_A + "steria")
    message = refusal(game_with("coco"), "сосо")
    assert message == "The name сосо looks too much like coco, who has already signed up."


@pytest.mark.parametrize("name", [
    "Ast\u0301eria",  # an accent on a t: no letter of any script
    "A\u0336s\u0336t\u0336",  # a long stroke overlay through the letters
    "A\u0338nn",  # a slash overlay
    "x\u20dd",  # an enclosing circle
    "\u0301Ann",  # a mark with nothing under it
    "Ann 7\u0301",  # a mark on a digit
    "Jose\u0301\u0301",  # a repeated mark on one letter
    "Ма\u0301\u0301ша",  # the same on a Cyrillic letter
    "\u0410nn",  # Cyrillic А with Latin letters
    "Ωmega",  # Greek with Latin
])
def test_stray_marks_and_mixed_alphabets_are_refused(name: str) -> None:
    game = game_with()
    assert name_problem(name) is not None
    refusal(game, name)
    assert list(game.state.players) == []


@pytest.mark.parametrize("names", [
    ["Zoë", "José", "Nguyễn", "Ann-Kathrin", "O'Neil", "R2D2", "Anna Maria"],
    ["Zoe\u0308", "Jose\u0301"],  # decomposed input composes to one letter each
    ["Анна", "Маша", "Саша", "Ёжик", "Вова", "Наташа", "Пётр", "Алексей"],  # Island
    ["नमस्ते", "محمد", "עִבְרִית", "東京Tokyo", "Ωμέγα"],  # marks of their own scripts
])
def test_ordinary_names_keep_working(names: list[str]) -> None:
    game = game_with(*names, ruleset="island")
    assert len(game.state.players) == len(names)


def test_an_island_game_takes_a_full_russian_roster() -> None:
    roster = ["Анна", "Борис", "Вера", "Глеб", "Даша", "Егор", "Женя", "Зоя", "Илья",
              "Кира", "Лёва", "Мила", "Нина", "Олег", "Паша", "Рита"]
    game = game_with(*roster, ruleset="island")
    assert list(game.state.players) == roster


@given(st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=12))
def test_a_name_never_clashes_with_itself_and_keys_are_stable(name: str) -> None:
    assert name_keys(name) & name_keys(unicodedata.normalize("NFKC", name))
    assert name_keys(name) == name_keys(name)


@given(st.sampled_from(["Asteria", "Paula", "Oscar", "Copper", "Xena"]),
       st.data())
def test_any_latin_letter_swapped_for_its_cyrillic_twin_is_refused(
    name: str, data: st.DataObject
) -> None:
    twins = {"A": "А", "a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х",
             "P": "Р", "O": "О", "C": "С", "X": "Х"}
    spots = [i for i, char in enumerate(name) if char in twins]
    chosen = data.draw(st.sets(st.sampled_from(spots), min_size=1))
    forged = "".join(twins[c] if i in chosen else c for i, c in enumerate(name))
    game = game_with(name)
    refusal(game, forged)
    assert list(game.state.players) == [name]

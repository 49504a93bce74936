"""The Changelings status post (C16.1) in the seed's format.

The seed (``seeds/000_ec16ac2b483a9d50.txt``) shows::

    Anmeldephase... finished
    Rollenverteilung... finished
    Erste Tagphase und Anführerwahl... finished
    Erste Nachtphase... finished
    ...
    Sechste Nachtphase... running
    (bis zum 24.12.12 um 20:00)

    appleblack: übermüdeter Hobbyklempner Forscher
    Fluttershy87: ernste Wache Cangeling, Anführer

Roles are shown only for players who left the game, or for everyone once it is over.
A revealed role is set apart from the player's own description by a dash ("übermüdeter
Hobbyklempner — Forscher"): in the seed's plain form a role ran into the description
(issue 18), and a player with nothing to show is his bare name, not "Ann:".
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from nightfall.engine import Command, Game
from nightfall.i18n import gettext_for
from nightfall.rulefile.ruleset import shipped
from nightfall.rulesets import new_game

BERLIN = ZoneInfo("Europe/Berlin")

#: name, public description, role (seating order is not alphabetical on purpose)
ROSTER = (
    ("Gwyn", "ungeschickter Bäcker - ♂ Einhorn", "pony"),
    ("appleblack", "übermüdeter Hobbyklempner", "researcher"),
    ("Fluttershy87", "ernste Wache", "changeling"),
    ("Asteria", "schüchterne Sternschnuppen-Liebhaberin - ♀", "love_potion"),
    ("Daylight", "netter Magieforscher - ♂ Einhorn", "pony"),
    ("Manic Moon", "Barkeeper - Dämonenpegasus", "liar"),
    ("Mochi", "treue Seele - ♂", "pinkie_sense"),
    ("Twonky", "fieser Rentner - ♂ Erdpony", "night_owl"),
    ("Loyalty", "anarchistischer Nichtstuer - ♂ Pegasus", "pony"),
)


def berlin(day: int, hour: int, minute: int = 0, month: int = 12) -> datetime:
    return datetime(2012, month, day, hour, minute, tzinfo=BERLIN)


def make_game(start: datetime | None = None) -> Game:
    game = new_game("changelings", 7, {"early_close": False}, "de")
    for name, description, _ in ROSTER:
        game.join(name, description)
    game.assign({name: role for name, _, role in ROSTER})
    game.start(at=start)
    return game


def do(game: Game, action: str, by: str, target: str | None = None, **kw: object) -> None:
    game.execute(Command(action, by=by, target=target, **kw))  # type: ignore[arg-type]


@pytest.fixture
def post():
    """The Changelings file's status post (``status_post:``, C16.1), which the pages
    show (``rulefile/status_post.status_post_of``)."""
    found = shipped("changelings").status_post
    assert found is not None
    return found.render


@pytest.fixture
def de():
    return gettext_for("de")


def phase_lines(post: str) -> list[str]:
    return post.split("\n\n", 1)[0].splitlines()


def roster_lines(post: str) -> dict[str, str]:
    lines = post.split("\n\n", 1)[1].splitlines()
    return {line.split(":", 1)[0]: line for line in lines if line}


# -- phase lines --------------------------------------------------------------------------
def test_day_one_running_with_vote_deadline(de, post) -> None:
    game = make_game(berlin(20, 20))
    assert phase_lines(post(game.state, de)) == [
        "Anmeldephase... finished",
        "Rollenverteilung... finished",
        "Erste Tagphase und Anführerwahl... running",
        "(bis zum 21.12.12 um 19:30)",
    ]


def test_second_night_running_until_christmas_eve(de, post) -> None:
    game = make_game(berlin(20, 20))
    game.tick(berlin(23, 23))  # day 1, night 1 (both stages), day 2, night 2 stage 1
    assert game.state.phase_label == "night 2/2"
    assert phase_lines(post(game.state, de)) == [
        "Anmeldephase... finished",
        "Rollenverteilung... finished",
        "Erste Tagphase und Anführerwahl... finished",
        "Erste Nachtphase... finished",
        "Zweite Tagphase... finished",
        "Zweite Nachtphase... running",
        "(bis zum 24.12.12 um 20:00)",
    ]


def test_night_stage_one_shows_the_22_oclock_deadline(de, post) -> None:
    game = make_game(berlin(20, 20))
    game.advance(at=berlin(21, 19, 30))  # day 1 closes at its deadline
    assert game.state.phase_label == "night 1/1"
    lines = phase_lines(post(game.state, de))
    assert lines[-2:] == ["Erste Nachtphase... running", "(bis zum 21.12.12 um 22:00)"]
    assert "Erste Tagphase und Anführerwahl... finished" in lines


def test_a_night_is_one_line_for_both_stages(de, post) -> None:
    game = make_game(berlin(20, 20))
    game.advance(at=berlin(21, 19, 30))
    game.advance(at=berlin(21, 22))
    game.advance(at=berlin(22, 20))
    assert game.state.phase_label == "day 2"
    lines = phase_lines(post(game.state, de))
    assert lines.count("Erste Nachtphase... finished") == 1
    assert lines[-2:] == ["Zweite Tagphase... running", "(bis zum 23.12.12 um 19:30)"]


def test_sixth_night_as_in_the_seed(de, post) -> None:
    game = make_game(berlin(12, 20))
    game.tick(berlin(24, 19))  # nobody acts: no abduction, no vote, nobody leaves
    assert game.state.phase_label == "night 6/2"
    lines = phase_lines(post(game.state, de))
    assert lines[:4] == [
        "Anmeldephase... finished",
        "Rollenverteilung... finished",
        "Erste Tagphase und Anführerwahl... finished",
        "Erste Nachtphase... finished",
    ]
    assert lines[-5:] == [
        "Fünfte Tagphase... finished",
        "Fünfte Nachtphase... finished",
        "Sechste Tagphase... finished",
        "Sechste Nachtphase... running",
        "(bis zum 24.12.12 um 20:00)",
    ]
    assert sum(line.endswith("... running") for line in lines) == 1


def test_gm_extension_moves_the_shown_deadline(de, post) -> None:
    game = make_game(berlin(20, 20))
    game.tick(berlin(23, 23))
    game.execute(Command("extend", minutes=90))
    assert phase_lines(post(game.state, de))[-1] == "(bis zum 24.12.12 um 21:30)"


def test_no_deadline_line_without_clock_times(de, post) -> None:
    game = make_game()
    game.advance()
    lines = phase_lines(post(game.state, de))
    assert lines[-1] == "Erste Nachtphase... running"
    assert not any(line.startswith("(bis zum") for line in lines)


def test_english_texts(post) -> None:
    game = make_game(berlin(20, 20))
    lines = phase_lines(post(game.state, gettext_for("en")))
    assert lines == [
        "Sign-up phase... finished",
        "Role assignment... finished",
        "First day phase and leader election... running",
        "(until 21.12.12 at 19:30)",
    ]


# -- roster lines -------------------------------------------------------------------------
def test_roster_sorted_by_name_with_descriptions_and_no_roles(de, post) -> None:
    game = make_game(berlin(20, 20))
    post = post(game.state, de)
    lines = post.split("\n\n", 1)[1].splitlines()
    assert lines == [
        "appleblack: übermüdeter Hobbyklempner",
        "Asteria: schüchterne Sternschnuppen-Liebhaberin - ♀",
        "Daylight: netter Magieforscher - ♂ Einhorn",
        "Fluttershy87: ernste Wache",
        "Gwyn: ungeschickter Bäcker - ♂ Einhorn",
        "Loyalty: anarchistischer Nichtstuer - ♂ Pegasus",
        "Manic Moon: Barkeeper - Dämonenpegasus",
        "Mochi: treue Seele - ♂",
        "Twonky: fieser Rentner - ♂ Erdpony",
    ]


def test_leader_is_public_roles_of_living_players_are_not(de, post) -> None:
    game = make_game(berlin(20, 20))
    do(game, "elect", "Gwyn", "Fluttershy87")
    game.tick(berlin(21, 19, 30))
    roster = roster_lines(post(game.state, de))
    assert roster["Fluttershy87"] == "Fluttershy87: ernste Wache, Anführer"
    assert roster["appleblack"] == "appleblack: übermüdeter Hobbyklempner"
    assert "Changeling" not in post(game.state, de)


def test_departed_players_show_their_role_and_statuses(de, post) -> None:
    game = make_game(berlin(20, 20))
    do(game, "elect", "Gwyn", "Fluttershy87")
    game.tick(berlin(21, 19, 30))
    do(game, "abduct", "Fluttershy87", "Daylight")
    do(game, "love", "Asteria", targets=("Asteria", "Manic Moon"))
    game.tick(berlin(22, 20))
    assert game.state.phase_label == "day 2"
    do(game, "vote", "appleblack", "Fluttershy87")
    do(game, "vote", "Gwyn", "Fluttershy87")
    game.tick(berlin(23, 19, 30))
    assert game.state.phase_label == "night 2/1"
    roster = roster_lines(post(game.state, de))
    # the abducted pony: role revealed after the description
    assert roster["Daylight"].startswith("Daylight: netter Magieforscher - ♂ Einhorn — Pony")
    # the banished changeling keeps the leader mark as history, as in the seed
    assert roster["Fluttershy87"].startswith("Fluttershy87: ernste Wache — Changeling, Anführer")
    # living lovers stay secret; living roles stay hidden
    assert roster["Asteria"] == "Asteria: schüchterne Sternschnuppen-Liebhaberin - ♀"
    assert roster["Manic Moon"] == "Manic Moon: Barkeeper - Dämonenpegasus"


def test_after_the_end_every_role_is_revealed(de, post) -> None:
    game = make_game(berlin(20, 20))
    do(game, "elect", "Gwyn", "Mochi")
    game.tick(berlin(21, 19, 30))
    do(game, "love", "Asteria", targets=("Gwyn", "Loyalty"))
    game.tick(berlin(22, 20))
    do(game, "vote", "Gwyn", "Fluttershy87")
    game.tick(berlin(24, 20))
    assert game.state.phase_label == "day 3"
    do(game, "vote", "Gwyn", "Manic Moon")
    game.tick(berlin(25, 19, 30))
    assert game.state.phase_label == "ended"
    assert game.state.winner == "ponies"
    post = post(game.state, de)
    lines = phase_lines(post)
    assert not any(line.endswith("... running") for line in lines)
    assert "Dritte Tagphase... finished" in lines
    assert "Das Spiel ist vorbei. Siegreiche Seite: die Ponys." in lines
    roster = roster_lines(post)
    assert roster["appleblack"] == "appleblack: übermüdeter Hobbyklempner — Forscher"
    assert roster["Mochi"] == "Mochi: treue Seele - ♂ — Pinkie Sense, Anführer"
    assert roster["Twonky"] == "Twonky: fieser Rentner - ♂ Erdpony — Nachtaktiv"
    assert roster["Asteria"] == "Asteria: schüchterne Sternschnuppen-Liebhaberin - ♀ — Love Potion"
    assert roster["Gwyn"].startswith("Gwyn: ungeschickter Bäcker - ♂ Einhorn — Pony, ")
    assert "verliebt" in roster["Gwyn"] and "Anführer" not in roster["Gwyn"]
    assert roster["Manic Moon"].startswith("Manic Moon: Barkeeper - Dämonenpegasus — Lügner")
    assert roster["Fluttershy87"].startswith("Fluttershy87: ernste Wache — Changeling")



def test_a_player_without_description_or_status_is_his_bare_name(de, post) -> None:
    game = new_game("changelings", 7, {"early_close": False}, "de")
    for name in ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"):
        game.join(name, "Drama-Fan" if name == "Bob" else "")
    game.assign({"Ann": "pony", "Bob": "drama_queen", "Cid": "changeling", "Dee": "pony",
                 "Eve": "pony", "Fay": "researcher", "Gus": "pony"})
    game.start(at=berlin(20, 20))
    game.execute(Command("modkill", target="Bob"))
    lines = post(game.state, de).split("\n\n", 1)[1].splitlines()
    assert "Ann" in lines and "Ann:" not in post(game.state, de)
    bob = next(line for line in lines if line.startswith("Bob"))
    assert bob.startswith("Bob: Drama-Fan — Drama Queen, "), bob

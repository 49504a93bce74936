"""The game master speaks (engine/talk.py): ``say`` posts in the thread, ``tell`` sends one
player a private message. Both are GM acts of the core, for every rule set; refused texts
and names change nothing; replay, the store's codec and undo keep them."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from gamekit import make_game
from islandkit import make_island_game
from nightfall.engine import Command, Game, Rejected
from nightfall.engine import events as ev
from nightfall.engine.talk import GM_MESSAGE, TEXT_LIMIT, notice_text
from nightfall.i18n import localize
from nightfall.scenario import run_file
from nightfall.store import codec

ROLES = ["changeling", "researcher", "pony", "pony", "shield", "pony", "pony"]


def thread_texts(game: Game, viewer: str | None = None) -> list[tuple[str | None, str]]:
    return [(p["player"], p["text"]) for p in game.view(viewer)["thread"]]


def test_a_gm_post_joins_the_thread_in_order_marked_as_the_game_masters() -> None:
    game = make_game(ROLES, seed=3)
    game.execute(Command("post", by="P01", text="Good morning!"))
    events = game.execute(Command("say", text="  Night falls over *Ponyville*…\n"))
    game.execute(Command("post", by="P02", text="Brr."))
    assert [type(e) for e in events] == [ev.GmActed, ev.GmPosted]
    assert events[0] == ev.GmActed("say")
    assert thread_texts(game) == [("P01", "Good morning!"), (None, "Night falls over *Ponyville*…"),
                                  ("P02", "Brr.")]
    gm_post = game.view("P03")["thread"][1]
    assert gm_post == {"player": None, "phase": "day 1", "text": "Night falls over *Ponyville*…",
                       "gm": True}
    assert "gm" not in game.view("P03")["thread"][0]


def test_the_gm_speaks_at_night_when_the_thread_is_closed_for_players() -> None:
    game = make_game(ROLES, seed=3)
    game.advance()  # day 1 -> night 1 (C2.8: the thread closes for the players)
    assert game.state.phase.kind == "night"
    with pytest.raises(Rejected):
        game.execute(Command("post", by="P01", text="psst"))
    game.execute(Command("say", text="The moon rises."))
    game.execute(Command("tell", target="P02", text="Your lantern was confiscated."))
    assert thread_texts(game)[-1] == (None, "The moon rises.")
    assert game.view("P02")["me"]["notices"][-1] == {"kind": GM_MESSAGE,
                                                    "text": "Your lantern was confiscated."}


def test_the_gm_speaks_after_the_end_but_not_before_the_start() -> None:
    game = make_game(["changeling", "pony", "pony"], seed=2)
    game.execute(Command("modkill", target="P00"))
    assert game.state.ended
    game.execute(Command("say", text="Well played, everybody."))
    game.execute(Command("tell", target="P00", text="Sorry about the modkill."))
    assert thread_texts(game)[-1] == (None, "Well played, everybody.")
    with pytest.raises(Rejected, match="The game is over"):
        game.execute(Command("skip"))  # the other GM acts still end with the game

    fresh = Game.from_events(game.ruleset, game.events[:2])  # still in sign-up
    for command in (Command("say", text="Hello"), Command("tell", target="P00", text="Hi")):
        with pytest.raises(Rejected) as refused:
            fresh.execute(command)
        assert refused.value.reason.msgid == "The game has not started yet."


@pytest.mark.parametrize(("command", "msgid"), [
    (Command("say", text=""), "A post needs some text."),
    (Command("say", text=" \n\t "), "A post needs some text."),
    (Command("say"), "A post needs some text."),
    (Command("say", text="x" * (TEXT_LIMIT + 1)),
     "The text is too long (at most {limit} characters)."),
    (Command("tell", target="P01", text="   "), "A message needs some text."),
    (Command("tell", target="P01", text="y" * (TEXT_LIMIT + 1)),
     "The text is too long (at most {limit} characters)."),
    (Command("tell", target="Nobody", text="hi"), "There is no player called {name}."),
    (Command("tell", text="hi"), "Choose a player."),
    # a GM act named in a player's command: never the GM's (a player's forged form)
    (Command("say", by="P01", text="I am the GM now"), "Only the game master can do that."),
    (Command("tell", by="P01", target="P02", text="psst"), "Only the game master can do that."),
    (Command("advance", by="P01"), "Only the game master can do that."),
    (Command("modkill", by="P01", target="P00"), "Only the game master can do that."),
])
def test_refused_texts_and_names_change_nothing(command: Command, msgid: str) -> None:
    game = make_game(ROLES, seed=4)
    before, count = copy.deepcopy(game.state), len(game.events)
    with pytest.raises(Rejected) as refused:
        game.execute(command)
    assert refused.value.reason.msgid == msgid
    assert game.state == before and len(game.events) == count


def test_the_longest_text_is_accepted_and_the_text_is_kept_as_written() -> None:
    game = make_game(ROLES, seed=4)
    written = "<b>bold?</b> {name} ((ooc)) " + "z" * (TEXT_LIMIT - 40)
    game.execute(Command("say", text=written))
    game.execute(Command("tell", target="P03", text=written[:TEXT_LIMIT]))
    assert thread_texts(game)[-1] == (None, written)
    assert game.state.notices["P03"][-1]["text"] == written[:TEXT_LIMIT]


def test_a_departed_player_may_be_told_and_reads_it() -> None:
    game = make_game(ROLES, seed=5)
    game.execute(Command("modkill", target="P05"))
    events = game.execute(Command("tell", target="P05", text="You were removed for inactivity."))
    assert events[0] == ev.GmActed("tell", "P05")
    assert events[1] == ev.NoticeSent("P05", {"kind": GM_MESSAGE,
                                             "text": "You were removed for inactivity."})
    assert game.view("P05")["me"]["notices"][-1]["text"] == "You were removed for inactivity."
    for viewer in [None, *(p for p in game.state.players if p != "P05")]:
        assert "inactivity" not in json.dumps(game.view(viewer), default=str), viewer


def test_the_message_reads_in_every_language() -> None:
    game = make_game(ROLES, seed=5)
    notice = {"kind": GM_MESSAGE, "text": "Warte {name} ab."}
    text = notice_text(game.ruleset, notice)
    assert localize(text, "en") == "Message from the game master: Warte {name} ab."
    assert "Warte {name} ab." in localize(text, "de") and localize(text, "de") != localize(
        text, "en")
    assert "Warte {name} ab." in localize(text, "ru") and localize(text, "ru") != localize(
        text, "de")
    # every other notice is worded by its rule set as before
    other = {"kind": "visit", "target": "P01", "home": True}
    assert notice_text(game.ruleset, other) == game.ruleset.notice_text(other)


def test_replay_the_codec_and_a_snapshot_keep_what_the_gm_said() -> None:
    game = make_game(ROLES, seed=6)
    game.execute(Command("say", text="Day one. **Be nice.**"))
    game.execute(Command("tell", target="P01", text="Привет, ты — исследователь."))
    game.advance()
    game.execute(Command("say", text="Night."))
    decoded = [codec.decode(*codec.encode(e)) for e in game.events]
    assert decoded == game.events
    assert Game.from_events(game.ruleset, decoded).state == game.state
    assert codec.audience(ev.GmPosted("day 1", "x")) == "public"
    assert codec.audience(ev.NoticeSent("P01", {"kind": GM_MESSAGE, "text": "x"})) == "player:P01"
    assert codec.audience(ev.GmActed("tell", "P01")) == "gm"
    import pickle

    snap = Game.from_snapshot(game.ruleset, pickle.loads(pickle.dumps(game.state)), game.seq, [])
    snap.execute(Command("say", text="Morning."))
    game.execute(Command("say", text="Morning."))
    assert snap.state == game.state


def test_undo_takes_back_what_the_gm_said_since_the_last_close_and_replays() -> None:
    game = make_game(ROLES, seed=6)
    game.execute(Command("say", text="before the close"))
    game.advance()
    game.execute(Command("say", text="after the close"))
    game.execute(Command("tell", target="P02", text="after the close, privately"))
    game.undo()
    assert thread_texts(game)[-1] == (None, "before the close")
    assert all(n.get("kind") != GM_MESSAGE for n in game.state.notices["P02"])
    game.execute(Command("say", text="again"))
    assert Game.from_events(game.ruleset, game.events).state == game.state


def test_the_gm_speaks_in_an_island_game_too() -> None:
    game = make_island_game(["werewolf", "passenger", "passenger", "passenger", "passenger"],
                            seed=7)
    game.execute(Command("say", text="Шторм усиливается."))
    game.execute(Command("tell", target="I02", text="Твой предмет конфискован."))
    assert thread_texts(game, "I01")[-1] == (None, "Шторм усиливается.")
    assert game.view("I02")["me"]["notices"][-1]["text"] == "Твой предмет конфискован."
    assert "конфискован" not in json.dumps(game.view("I01"), default=str, ensure_ascii=False)
    assert localize(notice_text(game.ruleset, game.state.notices["I02"][-1]), "ru").endswith(
        "Твой предмет конфискован.")
    assert Game.from_events(game.ruleset, game.events).state == game.state


def test_a_scenario_may_say_and_tell(tmp_path: Path) -> None:
    scenario = tmp_path / "talk.yaml"
    scenario.write_text("""
ruleset: changelings
rule: C2.8
title: the GM speaks at night
players:
  - {name: Ann, role: changeling}
  - {name: Bob, role: pony}
  - {name: Cid, role: pony}
  - {name: Dee, role: researcher}
  - {name: Eve, role: pony}
steps:
  - {gm: say, text: "Welcome to Ponyville."}
  - do: advance
  - {gm: say, text: "Night falls."}
  - {gm: tell, target: Bob, text: "Your item was confiscated."}
  - {gm: say, text: "  ", expect_error: true}
  - expect:
      phase: night 1/1
      notices:
        Bob: [{kind: gm_message, text: "Your item was confiscated."}]
""", encoding="utf-8")
    result = run_file(scenario)
    assert result.ok, result.failures

"""Island rulings of issue 15 that a scenario file cannot see: what the players are told
(I2.6), what the public ballots show (I2.4) and what the trace explains (I6.4)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamekit import play_checking_views
from islandkit import all_commands, make_island_game
from nightfall.engine import Command, Game
from nightfall.i18n import localize
from nightfall.rulesets import new_game
from nightfall.rulesets.island import memory
from nightfall.rulesets.island.texts import notice_text

CAST = {"Sle": "sleepwalker", "Voo": "passenger", "Ann": "passenger", "Aut": "authority",
        "See": "seer", "Wol": "werewolf", "Gus": "passenger", "Hal": "passenger"}


def game() -> Game:
    g = new_game("island", 2, {"random_events": False})
    for name in CAST:
        g.join(name)
    g.assign(CAST, items={"Voo": ["voodoo_doll"], "Ann": ["bomb"]})
    g.start()
    return g


def trace_lines(g: Game, step: str) -> list[str]:
    return [localize(line, "en") for t in g.state.traces if t.step == step for line in t.lines]


def test_the_holder_is_told_his_item_works_again_but_not_by_whom() -> None:
    """I2.6 [R]: the notice names the item, never the sleepwalker."""
    g = game()
    g.execute(Command("recharge", by="Sle", target="Voo"))
    g.execute(Command("use_item", by="Voo", choice="voodoo_doll", target="Wol"))
    g.advance()
    g.advance()
    notices = [n for n in g.state.notices.get("Voo", []) if n["kind"] == "item_recharged"]
    assert notices == [{"kind": "item_recharged", "item": "voodoo_doll"}]
    for locale in ("de", "en", "ru"):
        found = notice_text(notices[0])
        assert found is not None
        text = localize(found, locale)
        assert "Sle" not in text and text.strip()
    assert not any(i.used for i in g.state.players["Voo"].items)


def test_a_recharge_that_finds_nothing_used_lapses() -> None:
    """I2.6 [R]: judged at step 11; nothing used: nothing happens, nobody is told."""
    g = game()
    g.execute(Command("recharge", by="Sle", target="Ann"))
    g.advance()
    g.advance()
    assert "item_recharged" not in [n["kind"] for n in g.state.notices.get("Ann", [])]
    assert any("recharge lapses" in line for line in trace_lines(g, "sleepwalker"))


def test_the_taken_vote_is_in_the_authoritys_public_ballot() -> None:
    """I2.4 [R]: after the tally the ballots show the taken vote as the authority's, not
    as a vote its owner never cast."""
    g = game()
    g.execute(Command("authority", by="Aut", target="Gus"))
    g.execute(Command("vote", by="Aut", targets=("Hal", "Wol")))
    for voter in ("Sle", "Voo", "Ann", "See"):
        g.execute(Command("vote", by=voter, target="Hal"))
    g.advance()
    g.advance()
    ballots = dict(g.state.last_ballots)
    assert "Gus" not in ballots
    assert ballots["Aut"] == "Hal, Wol"


# -- random play: a taken vote is moved, never doubled or dropped (I2.4, I6.3) --------------
def assert_votes_add_up(game: Game, viewer: str) -> None:
    state = game.state
    report = memory.mapping(state, memory.REPORT)
    if viewer != next(iter(state.players)) or not report.get("votes"):
        return
    votes = report["votes"]
    taken: dict[str, int] = {}
    for vote in votes:
        if vote["taken_by"]:
            assert vote["taken_by"] != vote["owner"], vote
            assert vote["kind"] == "own", vote  # the megaphone's vote is never taken
            taken[vote["taken_by"]] = taken.get(vote["taken_by"], 0) + 1
    assert all(count == 1 for count in taken.values()), taken  # one vote each
    if not report.get("fear"):
        assert sum(report["tally"].values()) == len(votes), report  # each counted once


def gm_authority_day(game: Game, data: st.DataObject) -> None:
    """The GM makes the day one of the events that give two votes or bend the vote."""
    if game.state.phase.kind == "day":
        event = data.draw(st.sampled_from(["rage", "foggy_night", "fear", "palms_bloom"]))
        game.execute(Command("event", choice=event))


@st.composite
def authority_games(draw: st.DrawFn) -> Game:
    size = draw(st.integers(min_value=6, max_value=10))
    roles = ["werewolf", "authority", "authority", "maniac", "seer"]
    roles += ["passenger"] * (size - len(roles))
    return make_island_game(list(draw(st.permutations(roles))), draw(st.integers(0, 2**32)),
                            {"items_per_player": 1})


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=authority_games(), data=st.data())
def test_every_vote_is_counted_once(game: Game, data: st.DataObject) -> None:
    play_checking_views(game, data, 150, all_commands, assert_votes_add_up,
                        extra=(gm_authority_day,))

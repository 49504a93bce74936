"""Island projections: hidden information stays hidden (I3.2, I4, I5 solar eclipse),
the deal (I3.1, I4) and the palms-bloom word finder (I5)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamekit import GM_TALK, assert_no_gm_message_leaks, play_checking_views
from islandkit import PEACEFUL_SPECIALS, all_commands, make_island_game
from nightfall.engine import Command, Game
from nightfall.rulesets import new_game
from nightfall.rulesets.island import memory
from nightfall.rulesets.island.departures import role_hidden
from nightfall.rulesets.island.items import ITEM_IDS, PASSIVE
from nightfall.rulesets.island.palms import forbidden_words
from nightfall.rulesets.island.roles import PUBLIC_STATUSES, REVEALED, is_mafia
from nightfall.rulesets.island.seating import neighbours, seating


def assert_no_leak(game: Game, viewer: str) -> None:
    state = game.state
    if state.ended:
        return  # everything is revealed at the end
    view = game.view(viewer)
    me = state.players[viewer]
    team = is_mafia(me.role)
    for entry in view["players"]:
        other = state.players[entry["name"]]
        if other.name == viewer:
            assert entry["role"] == other.role
            continue
        may_know = (
            (not other.alive and not role_hidden(state, other.name))
            or REVEALED in other.statuses
            or (team and is_mafia(other.role))
        )
        assert entry["role"] == (other.role if may_know else None), (
            viewer, other.name, me.role, other.role, other.alive, other.statuses)
        for status in entry["statuses"]:
            assert status in PUBLIC_STATUSES, (viewer, other.name, status)
        for item in entry["items"]:
            assert item["id"] in PASSIVE or item["used"], (viewer, other.name, item)
    mine = view["me"]
    assert mine["notices"] == state.notices.get(viewer, [])
    assert set(mine["submissions"]) == {slot for (p, slot) in state.submissions if p == viewer}
    assert "notices" not in view and "traces" not in view and "flags" not in view
    if not team:
        assert mine["team"] == [] and "team_submissions" not in mine
    assert_no_gm_message_leaks(game, viewer)  # the GM's private messages (engine/talk.py)
    text = json.dumps(view, default=str, sort_keys=True, ensure_ascii=False)
    for other, notices in state.notices.items():
        if other == viewer:
            continue
        for notice in notices:
            if notice.get("kind") in ("check", "palms_bloom", "gm_message"):
                assert json.dumps(notice, sort_keys=True, ensure_ascii=False) not in text or (
                    notice in mine["notices"]), (viewer, other, notice)


def assert_observer_sees_the_public_view(game: Game, observer: str) -> None:
    """I6.7: an observer (engine/guests.py) sees exactly the public projection and his
    name: no role of a living player, no notice, no submission, no team, no GM message."""
    view = game.view(observer)
    public = game.view(None)
    assert view == {**public, "observer": {"name": observer}}
    assert "me" not in view
    if game.state.ended:
        return  # everything is revealed at the end, to everybody
    assert "notices" not in view and "traces" not in view and "flags" not in view
    for entry in view["players"]:
        other = game.state.players[entry["name"]]
        assert entry["role"] is None or not other.alive or REVEALED in other.statuses
        assert all(s in PUBLIC_STATUSES for s in entry["statuses"])
        assert all(i["id"] in PASSIVE or i["used"] for i in entry["items"])
    text = json.dumps(view, default=str, sort_keys=True, ensure_ascii=False)
    for notices in game.state.notices.values():
        for notice in notices:
            if notice.get("kind") in ("check", "palms_bloom", "gm_message", "team"):
                assert json.dumps(notice, sort_keys=True, ensure_ascii=False) not in text


def assert_no_leak_to_anybody(game: Game, viewer: str) -> None:
    """Each player's projection, and (once per check) every observer's."""
    assert_no_leak(game, viewer)
    if viewer == next(iter(game.state.players)):
        for observer in game.state.observers:
            assert_observer_sees_the_public_view(game, observer)


def admit_observers(game: Game, data: st.DataObject) -> None:
    """The GM lets an outsider in with an observer link (I6.7); he posts now and then."""
    name = data.draw(st.sampled_from(["Obs", "Zed"]), label="observer")
    if name not in game.state.observers:
        game.execute(Command("admit", target=name))
    game.execute(Command("post", by=name, text=f"obs-{len(game.events)} *watches*"))


@st.composite
def games(draw: st.DrawFn) -> Game:
    size = draw(st.integers(min_value=5, max_value=12))
    specials = draw(st.lists(st.sampled_from(PEACEFUL_SPECIALS), min_size=2, max_size=size))
    roles = (["werewolf", "half_blood", "hamster", *specials] + ["passenger"] * size)[:size]
    return make_island_game(list(draw(st.permutations(roles))), draw(st.integers(0, 2**32)))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games(), data=st.data())
def test_island_projections_never_leak(game: Game, data: st.DataObject) -> None:
    play_checking_views(game, data, 120, all_commands, assert_no_leak_to_anybody,
                        extra=(*GM_TALK, admit_observers))


def small_game(events: bool = False) -> Game:
    game = new_game("island", 1, {"random_events": events})
    for name in ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"):
        game.join(name)
    game.assign(
        {"Ann": "seer", "Bob": "werewolf", "Cid": "half_blood", "Dee": "passenger",
         "Eve": "authority", "Fay": "passenger", "Gus": "passenger"},
        items={"Ann": ["shocker"], "Dee": ["bomb"]},
    )
    game.start()
    return game


def test_public_and_secret_items() -> None:
    game = small_game()
    seen = {p["name"]: p["items"] for p in game.view("Fay")["players"]}
    assert seen["Dee"] == [{"id": "bomb", "used": False}]  # passive: public
    assert seen["Ann"] == []  # activatable and unused: secret
    game.execute(Command("use_item", by="Ann", choice="shocker", target="Bob"))
    game.advance()
    seen = {p["name"]: p["items"] for p in game.view("Fay")["players"]}
    assert seen["Ann"] == [{"id": "shocker", "used": True}]
    assert game.view("Fay")["activations"] == [
        {"day": 1, "item": "shocker", "user": "Ann", "target": "Bob"}]


def test_votes_are_secret_until_the_tally_and_the_team_knows_itself() -> None:
    game = small_game()
    game.execute(Command("vote", by="Ann", target="Gus"))
    assert "Ann" not in json.dumps(game.view("Fay")["last_votes"])
    assert "vote" not in game.view("Fay")["me"]["submissions"]
    assert game.view("Bob")["me"]["team"] == ["Bob", "Cid"]
    assert {p["name"]: p["role"] for p in game.view("Cid")["players"]}["Bob"] == "werewolf"
    assert {p["name"]: p["role"] for p in game.view("Fay")["players"]}["Bob"] is None
    game.execute(Command("authority", by="Eve", target="Dee"))
    assert {p["name"]: p["role"] for p in game.view("Fay")["players"]}["Eve"] == "authority"


def test_solar_eclipse_hides_the_roles_until_the_end() -> None:
    game = small_game()
    game.execute(Command("vote", by="Ann", target="Gus"))
    game.execute(Command("eat", by="Bob", target="Fay"))
    game.advance()
    game.advance()
    game.execute(Command("event", choice="solar_eclipse"))
    roles = {p["name"]: p["role"] for p in game.view("Dee")["players"]}
    assert roles["Gus"] == "passenger"  # lynched on a normal day
    assert roles["Fay"] is None  # died in the night before the eclipse
    game.execute(Command("vote", by="Ann", target="Dee"))
    game.advance()
    game.advance()
    roles = {p["name"]: p["role"] for p in game.view("Eve")["players"]}
    assert roles["Dee"] is None and roles["Fay"] is None
    game.execute(Command("modkill", target="Bob"))
    game.execute(Command("modkill", target="Cid"))
    assert game.state.ended
    roles = {p["name"]: p["role"] for p in game.view("Eve")["players"]}
    assert roles["Dee"] == "passenger" and roles["Fay"] == "passenger"


def test_the_deal_gives_a_random_seating_and_one_item_each() -> None:
    game = make_island_game(["werewolf", "seer", "nurse", "passenger", "passenger"], seed=5)
    state = game.state
    order = seating(state)
    assert sorted(order) == sorted(state.players) and order != list(state.players)
    assert all(len(p.items) == 1 for p in state.players.values())
    assert len({p.items[0].id for p in state.players.values()}) == 5
    assert all(p.items[0].id in ITEM_IDS for p in state.players.values())
    first, last = order[0], order[-1]
    assert neighbours(state, first) == (last, order[1])
    replay = Game.from_events(game.ruleset, game.events)
    assert replay.state == state
    assert memory.today_event(state) is not None  # day 1 has its event too


def test_the_palms_bloom_word_finder() -> None:
    assert forbidden_words("Нет, это не так.") == ["Нет", "не"]
    assert forbidden_words("Монета, нетерпение, данные, онлайн") == []
    assert forbidden_words("Меня зовут Ваня, а тебе что?") == ["Меня", "тебе"]
    assert forbidden_words("С ними и с нами, о нём и о ней, вами их ему") == [
        "ними", "нами", "нём", "ней", "вами", "их", "ему"]
    assert forbidden_words("я-то знаю, Да!") == ["я", "Да"]
    assert forbidden_words("Those people: те люди") == []


def test_gm_acts_are_rule_set_commands() -> None:
    game = small_game()
    events = game.execute(Command("event", choice="rage"))
    assert memory.today_event(game.state) == "rage"
    assert any(type(e).__name__ == "GmActed" for e in events)
    try:
        game.execute(Command("event", choice="no_such_event"))
    except ValueError:
        pass
    else:  # pragma: no cover
        raise AssertionError("an unknown event was accepted")


def test_every_step_of_i7_is_in_the_trace() -> None:
    game = small_game()
    game.execute(Command("vote", by="Ann", target="Gus"))
    game.advance()
    game.advance()
    traces = game.state.traces
    assert [t.number for t in traces if t.phase == "day 1/1"] == [1, 2]
    assert [t.number for t in traces if t.phase == "day 1/2"] == list(range(1, 22))
    assert [t.rule for t in traces if t.phase == "day 1/2"][:2] == ["I7.2.1", "I7.2.2"]


def test_the_two_deadlines_of_a_game_day_in_moscow_time() -> None:
    from datetime import datetime
    from zoneinfo import ZoneInfo

    moscow = ZoneInfo("Europe/Moscow")
    game = new_game("island", 1, {"random_events": False})
    for name in ("Ann", "Bob", "Cid", "Dee"):
        game.join(name)
    game.assign({"Ann": "seer", "Bob": "werewolf", "Cid": "passenger", "Dee": "passenger"})
    game.start(at=datetime(2024, 3, 1, 21, 30, tzinfo=moscow))
    assert game.state.deadline == datetime(2024, 3, 2, 13, 0, tzinfo=moscow)
    game.tick(datetime(2024, 3, 2, 13, 0, tzinfo=moscow))
    assert game.state.phase_label == "day 1/2"
    assert game.state.deadline == datetime(2024, 3, 2, 21, 0, tzinfo=moscow)
    late = Command("vote", by="Ann", target="Bob", at=datetime(2024, 3, 2, 21, 1, tzinfo=moscow))
    try:
        game.execute(late)
    except ValueError:
        pass
    else:  # pragma: no cover
        raise AssertionError("a vote after 21:00 was accepted")

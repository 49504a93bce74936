"""Hidden information is sacred: a player's projection holds nothing the rules keep from
him — no other player's unrevealed role, private status, notice or submission."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from changelingskit import PUBLIC_STATUSES, fact, is_changeling_side, partner_of
from gamekit import (
    GM_TALK,
    PONY_SPECIALS,
    TEAM_ROLES,
    all_commands,
    assert_no_gm_message_leaks,
    make_game,
    play_checking_views,
)
from nightfall.engine import Game


def assert_no_leak(game: Game, viewer: str) -> None:
    state = game.state
    if state.ended:
        return  # after the end everything is revealed (test_everything_is_revealed...)
    view = game.view(viewer)
    me = state.players[viewer]
    team = is_changeling_side(me.role)
    partner = partner_of(state, viewer)
    for entry in view["players"]:
        other = state.players[entry["name"]]
        if other.name == viewer:
            assert entry["role"] == other.role
            continue
        may_know_role = not other.alive or (team and is_changeling_side(other.role))
        if may_know_role:
            assert entry["role"] == other.role
        else:
            assert entry["role"] is None, (viewer, other.name)
        for status in entry["statuses"]:
            assert (
                status in PUBLIC_STATUSES
                or not other.alive
                or (status == "lover" and other.name == partner)
            ), (viewer, other.name, status)
    mine = view["me"]
    assert mine["notices"] == state.notices.get(viewer, [])
    assert all(key[0] == viewer for key in state.submissions if key[1] in mine["submissions"]
               and key[0] == viewer)
    assert set(mine["submissions"]) == {slot for (p, slot) in state.submissions if p == viewer}
    assert "notices" not in view and "traces" not in view  # the GM's, until the end
    if not team:
        assert mine["team"] == [] and "team_submissions" not in view["me"]
        assert "move_notes" not in mine  # C7.1: the team's plan is the team's alone
    else:
        # what the page says of the team's choices (C7.1) names only what a changeling
        # sees anyway: his team and the players they chose (C1.7)
        known = {*mine["team"], *(s["target"] for s in mine["team_submissions"].values())}
        if state.phase.kind == "night" and state.phase.stage == 2 and mine["move_notes"]:
            # after stage 1 only a disagreement is told, never a shield or a secret
            # lover (C7.3, C13.1)
            assert fact(state, "attack_reason") == "disagreement", viewer
        for note in mine["move_notes"]:
            for key, value in note["params"].items():
                names = value if isinstance(value, list) else [value]
                assert all(not isinstance(n, str) or n in known for n in names), (viewer, key)
    if partner is None:
        assert mine["partner"] is None
    assert_no_gm_message_leaks(game, viewer)  # the GM's private messages (engine/talk.py)
    # no other player's notice appears anywhere in the serialised view
    text = json.dumps(view, default=str, sort_keys=True)
    for other, notices in state.notices.items():
        if other == viewer:
            continue
        for notice in notices:
            if notice.get("kind") in ("investigation", "visit", "pending_abduction", "replaced",
                                      "gm_message"):
                assert json.dumps(notice, sort_keys=True) not in text or notice in mine[
                    "notices"], (viewer, other, notice)


@st.composite
def games(draw: st.DrawFn) -> Game:
    size = draw(st.integers(min_value=5, max_value=12))
    team = [draw(st.sampled_from(TEAM_ROLES)) for _ in range(draw(st.integers(1, 3)))]
    specials = draw(st.lists(st.sampled_from(PONY_SPECIALS), min_size=2, max_size=size - 3))
    roles = (team + specials + ["pony"] * size)[:size]
    return make_game(list(draw(st.permutations(roles))), draw(st.integers(0, 2**32)))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games(), data=st.data())
def test_projections_never_leak(game: Game, data: st.DataObject) -> None:
    play_checking_views(game, data, 120, all_commands, assert_no_leak, extra=GM_TALK)


def test_the_public_view_shows_no_role_of_a_living_player() -> None:
    game = make_game(["changeling", "researcher", "pony", "pony", "shield"], seed=1)
    public = game.view(None)
    assert all(p["role"] is None for p in public["players"])
    assert "me" not in public


def test_everything_is_revealed_after_the_end() -> None:
    game = make_game(["changeling", "pony", "pony"], seed=2)
    game.execute(__import__("nightfall.engine", fromlist=["Command"]).Command(
        "modkill", target="P00"))
    assert game.state.ended
    view = game.view("P01")
    assert {p["name"]: p["role"] for p in view["players"]} == {
        "P00": "changeling", "P01": "pony", "P02": "pony"}
    assert "traces" in view

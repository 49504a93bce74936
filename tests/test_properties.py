"""Property tests (hypothesis): random legal command streams on random setups.

Invariants: the engine never crashes; a departed player never acts (but for the drama
queen's chase and the leader's successor, C2.7); the game ends exactly when a win
condition holds (C1.7); a rejected command changes nothing; replaying the log gives an
identical state.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from changelingskit import against_lover, fact
from gamekit import (
    NAMES,
    PONY_SPECIALS,
    TEAM_ROLES,
    all_commands,
    check_rejections_change_nothing,
    make_game,
    play_at_random,
    play_keeping_invariants,
)
from nightfall.engine import Command, Game, GameState, Rejected

#: C2.7: a departed drama queen still chases (or, by ``pass``, declines to: the stage awaits
#: her answer), a departed leader still names his successor
AFTER_LEAVING = {"drama_chase", "successor", "pass"}


@st.composite
def setups(draw: st.DrawFn) -> tuple[list[str], int, dict[str, object]]:
    size = draw(st.integers(min_value=4, max_value=14))
    team_size = draw(st.integers(min_value=1, max_value=max(1, min(4, (size - 1) // 2))))
    team = [draw(st.sampled_from(TEAM_ROLES)) for _ in range(team_size)]
    specials = draw(st.lists(st.sampled_from(PONY_SPECIALS), max_size=size - team_size))
    roles = team + specials + ["pony"] * (size - team_size - len(specials))
    roles = draw(st.permutations(roles))
    options = {
        "first_day_banishment": draw(st.booleans()),
        "raven_vote_persists": draw(st.booleans()),
        "early_close": draw(st.booleans()),
    }
    return list(roles), draw(st.integers(0, 2**32)), options


def legal_of_players_in_play(game: Game) -> list[Command]:
    """Every legal command; none of a departed player's but for C2.7's."""
    commands = all_commands(game)
    for command in commands:
        player = game.state.players[command.by or ""]
        if not player.alive:
            assert command.action in AFTER_LEAVING, command
    return commands


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), data=st.data())
def test_random_games_keep_the_invariants(
    setup: tuple[list[str], int, dict[str, object]], data: st.DataObject
) -> None:
    roles, seed, options = setup
    game = make_game(roles, seed, options)
    play_keeping_invariants(game, data, 250, legal_of_players_in_play)


def check_standing_choices_still_count(game: Game, _: bool) -> None:
    """[R] (departures.py): a standing choice that is spent or can no longer take effect
    is withdrawn, so "your current choice" never shows one that does not count. After
    every move: no player's standing choice names somebody else who has left, a leader's
    tie-break belongs to the living leader, a successor is named only by a leader or
    by a departed leader whose succession is still open, and no standing choice acts
    against the chooser's lover (C8.2 [R]: it lapses when the couple forms)."""
    state = game.state
    open_succession = fact(state, "succession")
    for (player, slot), choice in state.submissions.items():
        if not choice.standing:
            continue
        for target in choice.targets:
            assert target == player or state.is_alive(target), (player, slot, target)
        assert not against_lover(state, choice.action, player, choice.targets), (player, slot)
        if slot == "tiebreak":
            assert state.is_alive(player) and "leader" in state.players[player].statuses
        if slot == "successor":
            assert "leader" in state.players[player].statuses
            assert state.is_alive(player) or open_succession == player, (player, slot)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), data=st.data())
def test_standing_choices_lapse_once_they_cannot_count(
    setup: tuple[list[str], int, dict[str, object]], data: st.DataObject
) -> None:
    roles, seed, options = setup
    game = make_game(roles, seed, options)
    play_at_random(game, data, 250, all_commands, check_standing_choices_still_count)


ACTIONS = sorted(
    {"vote", "elect", "abduct", "replace", "shield", "investigate", "scry", "disguise",
     "letter", "love", "visit", "pinkie_save", "pinkie_chase", "drama_chase", "tiebreak",
     "successor", "unvote", "pass", "post"}
)


def accepted_from_players_in_play(before: GameState, command: Command) -> None:
    """An accepted command came from a player; a departed one only under C2.7."""
    by = before.players.get(command.by or "")
    assert by is not None
    if not by.alive:
        assert command.action in AFTER_LEAVING


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), data=st.data())
def test_rejected_commands_change_nothing(
    setup: tuple[list[str], int, dict[str, object]], data: st.DataObject
) -> None:
    roles, seed, options = setup
    game = make_game(roles, seed, options)
    check_rejections_change_nothing(
        game, data, ACTIONS, [*NAMES[: len(roles)], "Nobody"], accepted_from_players_in_play,
        choice=st.sampled_from(["researcher", "pony", "queen", None]),
    )


def test_a_departed_player_is_rejected_for_everything_else() -> None:
    game = make_game(["changeling", "researcher", "pony", "pony", "pony"], seed=3)
    game.execute(Command("elect", by="P02", target="P02"))
    game.advance()
    game.execute(Command("abduct", by="P00", target="P01"))
    game.advance()
    game.advance()
    assert not game.state.is_alive("P01")
    for action in ("vote", "investigate", "post", "elect", "pass"):
        try:
            game.execute(Command(action, by="P01", target="P02", text="hi"))
        except Rejected:
            continue
        raise AssertionError(f"{action} by a departed player was accepted")

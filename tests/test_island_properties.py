"""Property tests for Island of Fear: random legal command streams on random setups.

The same invariants as for Changelings: the engine never crashes; a departed player never
acts; the game ends exactly when a win condition holds (I1.2); a rejected command changes
nothing; replaying the log gives an identical state.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamekit import check_rejections_change_nothing, play_keeping_invariants
from islandkit import NAMES, PEACEFUL_SPECIALS, all_commands, make_island_game
from nightfall.engine import Command, Game, GameState
from nightfall.rulesets.island.happenings import EVENT_IDS
from nightfall.rulesets.island.items import ITEM_IDS


@st.composite
def setups(draw: st.DrawFn) -> tuple[list[str], int, dict[str, object]]:
    size = draw(st.integers(min_value=4, max_value=14))
    wolves = draw(st.integers(min_value=1, max_value=max(1, (size - 1) // 3)))
    extras = draw(st.lists(st.sampled_from(["half_blood", "hamster"]), max_size=2))
    specials = draw(st.lists(st.sampled_from(PEACEFUL_SPECIALS), max_size=size))
    roles = (["werewolf"] * wolves + extras + specials)[:size]
    roles += ["passenger"] * (size - len(roles))
    mafia = sum(role in ("werewolf", "half_blood") for role in roles)
    options = {  # a setup must not be won before it starts
        "mafia_wins_at_parity": draw(st.booleans()) and 2 * mafia < size,
        "items_per_player": draw(st.integers(0, 2)),
    }
    return list(draw(st.permutations(roles))), draw(st.integers(0, 2**32)), options


def legal_of_the_living(game: Game) -> list[Command]:
    """Every legal command; of a departed player's (or an observer's) only the post in
    the thread (I6.7)."""
    commands = all_commands(game)
    for command in commands:
        assert game.state.is_alive(command.by) or command.action == "post", command
    return commands


def admit_an_observer(game: Game, data: st.DataObject) -> None:
    """The GM lets an outsider into the thread (I6.7); a second time the name is taken."""
    name = data.draw(st.sampled_from(["Obs", "Zed"]), label="observer")
    if name not in game.state.observers:
        game.execute(Command("admit", target=name))


def force_an_event(game: Game, data: st.DataObject) -> None:
    """The GM forces one of the daily events (I5)."""
    event = data.draw(st.sampled_from(EVENT_IDS), label="event")
    game.execute(Command("event", choice=event))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), data=st.data())
def test_random_island_games_keep_the_invariants(
    setup: tuple[list[str], int, dict[str, object]], data: st.DataObject
) -> None:
    roles, seed, options = setup
    game = make_island_game(roles, seed, options)
    play_keeping_invariants(game, data, 200, legal_of_the_living,
                            extra=(force_an_event, admit_an_observer))


ACTIONS = sorted(
    {"vote", "unvote", "post", "authority", "check", "heal", "witch_kill", "witch_cancel",
     "swap_items", "recharge", "assault", "eat", "hamster_kill", "use_item",
     "bunker_apply", "exchange_offer", "fear_pick", "pick_me_partner", "spirit_ask",
     "event", "answer", "violation", "admit"}
)
GM_ACTS = ("event", "answer", "violation", "admit")


def accepted_from_the_living(before: GameState, command: Command) -> None:
    """An accepted player's command came from a living player; a post also from a dead
    player or an admitted observer (I6.7), and nothing else from them."""
    if command.action in GM_ACTS:
        return
    if command.action == "post" and command.by in before.observers:
        return
    by = before.players.get(command.by or "")
    assert by is not None and (by.alive or command.action == "post"), command


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), data=st.data())
def test_rejected_island_commands_change_nothing(
    setup: tuple[list[str], int, dict[str, object]], data: st.DataObject
) -> None:
    roles, seed, options = setup
    game = make_island_game(roles, seed, options)
    names = [*NAMES[: len(roles)], "Nobody"]
    check_rejections_change_nothing(
        game, data, ACTIONS, names, accepted_from_the_living,
        targets=st.lists(st.sampled_from(names), max_size=3).map(tuple),
        choice=st.sampled_from([*ITEM_IDS[:4], *EVENT_IDS[:4], "yes", None]),
        text=st.sampled_from(["", "Да, это он", None]),
    )

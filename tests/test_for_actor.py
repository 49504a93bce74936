"""Actor checks prepared once per list (``ForActor``, issue 19 round 8): the listing asks
one once per actor for his whole list and drops exactly the abilities the prepared check
refuses; the command path calls it in its declared place like any actor check. Both
doors must agree (``tests/test_legality.py`` holds the rule sets' lists to the command
path on random states; Changelings' "still in the game", C2.7, is declared this way)."""

from __future__ import annotations

from gamekit import make_game
from nightfall.engine import N_, Command, GameState, Text
from nightfall.engine.abilities import (
    Ability,
    AbilityBook,
    ForActor,
    PreparedActorCheck,
    refusal,
)
from nightfall.engine.events import PlayerLeft

ROLES = ["changeling", "queen", "pony", "pony", "pony", "pony"]
GONE = N_("You have left the game and can no longer act.")


def _book(asked: list[str]) -> AbilityBook:
    """Three abilities behind one ForActor check: a departed actor keeps only "haunt"."""

    def in_game(state: GameState, actor: str) -> PreparedActorCheck | None:
        asked.append(actor)
        if state.players[actor].alive:
            return None

        def check(ability: Ability) -> Text | None:
            return None if ability.action == "haunt" else refusal(GONE)

        return check

    gate = ForActor(in_game)
    return AbilityBook([
        Ability("poke", "T1", "poke", actor_checks=(gate,)),
        Ability("wave", "T2", "wave", targets=0, actor_checks=(gate,)),
        Ability("haunt", "T3", "haunt", targets=0, actor_checks=(gate,)),
        Ability("shrug", "T4", "shrug", targets=0),
    ])


def test_prepared_once_per_list_and_nothing_refused_in_the_game() -> None:
    game = make_game(ROLES, seed=3)
    state = game.state
    players = list(state.players)
    asked: list[str] = []
    book = _book(asked)
    listed = book.legal_commands(state, players[0], players)
    assert asked == [players[0]]  # once for the list, not once per ability
    assert [c.action for c in listed] == ["poke"] * len(players) + ["wave", "haunt", "shrug"]
    assert all(book.problem(state, command) is None for command in listed)


def test_a_departed_actor_keeps_exactly_what_the_command_path_accepts() -> None:
    game = make_game(ROLES, seed=3)
    players = list(game.state.players)
    gone = players[1]
    game._record(PlayerLeft(gone, "test", "day 1"))
    state = game.state
    book = _book([])
    listed = book.legal_commands(state, gone, players)
    assert [c.action for c in listed] == ["haunt", "shrug"]
    candidates = [Command("poke", gone, target=p) for p in players if state.is_alive(p)] + [
        Command("wave", gone), Command("haunt", gone), Command("shrug", gone)]
    accepted = [c.action for c in candidates if book.problem(state, c) is None]
    assert accepted == ["haunt", "shrug"]
    refused = book.problem(state, Command("wave", gone))
    assert refused is not None and refused.msgid == GONE

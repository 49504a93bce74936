"""Checks of the number of targets (``ForCount``, issue 19): the listing asks one once per
number of targets it offers and lets or drops that whole group of commands; the command
path asks it with the command's number. Both doors must agree: every listed command is
accepted, and of every command naming one or two different players exactly the listed
ones are (Island's votes and the werewolves' meal are declared this way, I6.3, I2.8;
``tests/test_legality.py`` holds those to the same on random states)."""

from __future__ import annotations

from itertools import combinations

import pytest

from gamekit import NAMES, make_game
from nightfall.engine import N_, Command, GameState, Text
from nightfall.engine.abilities import (
    ANY,
    Ability,
    AbilityBook,
    ForCount,
    OnCommand,
    PreparedCountCheck,
    all_different,
    refusal,
)

ROLES = ["changeling", "queen", "pony", "pony", "pony", "pony"]


def _book(limit: int, asked: list[int]) -> AbilityBook:
    def most(state: GameState, ability: Ability, actor: str) -> PreparedCountCheck:
        def check(named: int) -> Text | None:
            asked.append(named)
            return refusal(N_("Name exactly one player.")) if named > limit else None
        return check

    return AbilityBook([Ability("pick", "T1", "pick", targets=ANY, listed_counts=(1, 2),
                                checks=(ForCount(most), OnCommand(all_different)))])


@pytest.mark.parametrize("limit", [0, 1, 2, 3])
def test_the_list_is_what_the_command_path_accepts(limit: int) -> None:
    game = make_game(ROLES, seed=5)
    state = game.state
    players = list(state.players)
    asked: list[int] = []
    book = _book(limit, asked)
    listed = book.legal_commands(state, players[0], players)
    assert asked == [1, 2]  # once per number of targets, not once per command
    assert all(book.problem(state, command) is None for command in listed)
    candidates = [Command("pick", players[0], target=p) for p in players] + [
        Command("pick", players[0], targets=pair) for pair in combinations(players, 2)]
    accepted = {c.all_targets for c in candidates if book.problem(state, c) is None}
    assert {c.all_targets for c in listed} == accepted
    assert len(listed) == (0 if limit == 0 else len(players) if limit == 1
                           else len(players) + len(players) * (len(players) - 1) // 2)


def test_the_command_path_counts_the_named_players() -> None:
    game = make_game(ROLES, seed=5)
    book = _book(2, [])
    a, b, c = NAMES[:3]
    assert book.problem(game.state, Command("pick", a, targets=(a, b))) is None
    refused = book.problem(game.state, Command("pick", a, targets=(a, b, c)))
    assert refused is not None and refused.msgid == "Name exactly one player."
    twice = book.problem(game.state, Command("pick", a, targets=(b, b)))
    assert twice is not None and twice.msgid == "Name two different players."

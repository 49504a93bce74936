"""The command path takes the legal list's word only for the very commands it listed on
the very same state (``AbilityBook.check``, issue 19): a simulated game executes commands
from a list of the state it executes them on, and those were accepted by the same checks
when they were listed. After any event a listed command is checked in full again."""

from __future__ import annotations

import pytest

from gamekit import NAMES, make_game
from nightfall.engine import Command, Game, Rejected

VOTER, TARGET = NAMES[1], NAMES[2]


def election_day() -> Game:
    """A game on day 1 (the election), no stage closing early."""
    return make_game(["changeling", "pony", "pony", "pony", "pony"], 7)


def listed_elect(game: Game) -> Command:
    """The command object the voter's list holds for electing the target."""
    found = [c for c in game.legal_commands(VOTER)
             if c.action == "elect" and c.target == TARGET]
    assert len(found) == 1
    return found[0]


def test_a_command_listed_on_this_state_is_accepted() -> None:
    game = election_day()
    game.execute(listed_elect(game))
    vote = game.state.submission(VOTER, "elect")
    assert vote is not None and vote.target == TARGET


def test_a_listed_command_is_checked_again_after_an_event() -> None:
    game = election_day()
    command = listed_elect(game)
    game.execute(Command("modkill", target=TARGET))
    with pytest.raises(Rejected) as refused:
        game.execute(command)
    assert refused.value.reason.msgid == "{name} is no longer in the game."


def test_a_list_of_a_later_state_vouches_only_for_what_it_holds() -> None:
    game = election_day()
    command = listed_elect(game)
    game.execute(Command("modkill", target=TARGET))
    assert command not in game.legal_commands(VOTER)  # listed again, on the new state
    with pytest.raises(Rejected):
        game.execute(command)
    assert game.state.submission(VOTER, "elect") is None

"""Shared helpers for the tests: random games driven by legal commands, and the random play
and invariant checks every rule set's property tests share."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import strategies as st

from nightfall.engine import Command, Game, GameState, Rejected
from nightfall.rulesets import get_ruleset, new_game

PONY_SPECIALS = sorted(r for r, spec in get_ruleset("changelings").roles.items()
                       if spec.faction == "ponies" and spec.special)
TEAM_ROLES = ("changeling", "queen", "liar")
NAMES = [f"P{i:02d}" for i in range(20)]

#: a move besides a legal command and the deadline (e.g. the GM forcing an event)
ExtraMove = Callable[[Game, st.DataObject], object]


def seated_game(ruleset_id: str, names: Sequence[str], seed: int,
                options: dict[str, object]) -> Game:
    """A new game with ``names`` joined, before the deal."""
    game = new_game(ruleset_id, seed, options)
    for name in names:
        game.join(name)
    return game


def make_game(roles: list[str], seed: int, options: dict[str, object] | None = None) -> Game:
    game = seated_game("changelings", NAMES[: len(roles)], seed,
                       {"early_close": False, **(options or {})})
    game.assign(dict(zip(NAMES, roles, strict=False)))
    game.start()
    return game


def all_commands(game: Game) -> list[Command]:
    """Every legal command of every player (living or not) right now."""
    commands: list[Command] = []
    for player in game.state.players:
        commands += game.legal_commands(player)
    return commands


def check_win_invariant(game: Game) -> None:
    """The game has ended exactly when its rule set names a winner, and that winner is the
    one recorded (any rule set: it asks ``game.ruleset.winner``)."""
    state = game.state
    result = game.ruleset.winner(state)
    assert state.ended == (result is not None), (state.phase_label, result)
    if result is not None:
        assert state.winner == result[0]


def play_at_random(
    game: Game,
    data: st.DataObject,
    moves: int,
    legal: Callable[[Game], list[Command]],
    after: Callable[[Game, bool], None],
    extra: Sequence[ExtraMove] = (),
) -> None:
    """Up to ``moves`` moves until the game ends, each drawn by hypothesis: one of the
    ``legal(game)`` commands, one of the ``extra`` moves, or (three chances) the deadline
    passing. ``after(game, advanced)`` checks the caller's invariants after every move."""
    for _ in range(moves):
        if game.state.ended:
            break
        commands = legal(game)
        choice = data.draw(st.integers(0, len(commands) + len(extra) + 2), label="move")
        advanced = choice >= len(commands) + len(extra)
        if advanced:
            game.advance()
        elif choice >= len(commands):
            extra[choice - len(commands)](game, data)
        else:
            game.execute(commands[choice])
        after(game, advanced)


def play_keeping_invariants(
    game: Game,
    data: st.DataObject,
    moves: int,
    legal: Callable[[Game], list[Command]],
    extra: Sequence[ExtraMove] = (),
) -> None:
    """Random play (:func:`play_at_random`) that checks the win invariant after every move
    and, at the end, that replaying the log gives an identical state."""
    play_at_random(game, data, moves, legal, lambda game, _: check_win_invariant(game), extra)
    replayed = Game.from_events(game.ruleset, game.events)
    assert replayed.state == game.state


def play_checking_views(
    game: Game,
    data: st.DataObject,
    moves: int,
    legal: Callable[[Game], list[Command]],
    check_view: Callable[[Game, str], None],
    extra: Sequence[ExtraMove] = (),
) -> None:
    """Random play (:func:`play_at_random`); each time a stage has been resolved, every
    player's view passes ``check_view(game, player)``."""

    def after(game: Game, advanced: bool) -> None:
        if advanced:
            for viewer in game.state.players:
                check_view(game, viewer)

    play_at_random(game, data, moves, legal, after, extra)


# -- the game master speaks (engine/talk.py) ------------------------------------------------
def gm_secret(game: Game, player: str) -> str:
    """A text no game writes by itself, unique in the game: what the GM tells ``player``."""
    return f"gm-secret-{len(game.events)}-for-{player}"


def gm_tells(game: Game, data: st.DataObject) -> None:
    """The GM sends a private message to a player drawn at random (left or not)."""
    player = data.draw(st.sampled_from(sorted(game.state.players)), label="told")
    game.execute(Command("tell", target=player, text=f"  {gm_secret(game, player)}\n"))


def gm_says(game: Game, data: st.DataObject) -> None:
    """The GM posts in the thread (in any phase, at night too)."""
    game.execute(Command("say", text=f"gm-post-{len(game.events)} *the night is dark*"))


GM_TALK: tuple[ExtraMove, ...] = (gm_tells, gm_says)


def gm_messages_of_others(game: Game, viewer: str | None) -> list[str]:
    """The texts of the GM's private messages to every player but ``viewer``."""
    return [str(n["text"]) for player, notices in game.state.notices.items()
            if player != viewer for n in notices if n.get("kind") == "gm_message"]


def assert_no_gm_message_leaks(game: Game, viewer: str) -> None:
    """No GM message to another player appears anywhere in ``viewer``'s view or in the
    public view; his own are among his notices."""
    import json

    if game.state.ended:
        return  # after the end everything is revealed
    text = json.dumps(game.view(viewer), default=str, ensure_ascii=False)
    public = json.dumps(game.view(None), default=str, ensure_ascii=False)
    for secret in gm_messages_of_others(game, viewer):
        assert secret not in text, (viewer, secret)
        assert secret not in public, secret
    mine = [n["text"] for n in game.view(viewer)["me"]["notices"]
            if n.get("kind") == "gm_message"]
    assert mine == [str(n["text"]) for n in game.state.notices.get(viewer, [])
                    if n.get("kind") == "gm_message"]


def check_rejections_change_nothing(
    game: Game,
    data: st.DataObject,
    actions: Sequence[str],
    names: Sequence[str],
    check_accepted: Callable[[GameState, Command], None],
    moves: int = 120,
    **fields: st.SearchStrategy[Any],
) -> None:
    """Random (mostly illegal) commands: one of ``actions`` by and against one of
    ``names``, with its other ``fields`` drawn from their strategies. A rejected one leaves
    the state and the log as they were; an accepted one passes ``check_accepted(state
    before, command)``. Now and then the deadline passes; the win invariant holds
    throughout."""
    for _ in range(moves):
        if game.state.ended:
            break
        command = Command(
            data.draw(st.sampled_from(actions)),
            by=data.draw(st.sampled_from(names)),
            target=data.draw(st.sampled_from(names)),
            **{name: data.draw(strategy) for name, strategy in fields.items()},
        )
        before_state, before_events = copy.deepcopy(game.state), len(game.events)
        try:
            game.execute(command)
        except Rejected:
            assert game.state == before_state
            assert len(game.events) == before_events
        else:
            check_accepted(before_state, command)
        # a command may end the game (its stage closes early); then no deadline is left
        if not game.state.ended and data.draw(st.integers(0, 5)) == 0:
            game.advance()
        check_win_invariant(game)

"""Enumeration == validation: the legal-command list holds exactly what the command path
accepts (issue 7). Both come from the same checks (``nightfall.engine.abilities``); these
property tests hold them to it on random reachable states of both rule sets:

- every listed command is accepted by ``Game.execute`` (on a copy of the game);
- of every candidate of the canonical shape of each ability (no target; one player, in
  the game or not; two different players; each choice the rule set knows), the rule
  set's validation accepts exactly those the list holds, for every player;
- on every state reached, each player's list is the same with the caches the game kept
  from the states before (target pools and shared verdicts in ``state.memo``, issue 19)
  as worked out from nothing: a cache that an event should have invalidated shows here.
"""

from __future__ import annotations

from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamekit import PONY_SPECIALS, TEAM_ROLES
from gamekit import make_game as make_changelings_game
from islandkit import PEACEFUL_SPECIALS, make_island_game
from nightfall.engine import Command, Game
from nightfall.engine.abilities import ANY, AbilityBook
from nightfall.rulefile.ruleset import shipped
from nightfall.rulesets.island.abilities import BOOK as ISLAND_BOOK
from nightfall.rulesets.island.items import ITEM_IDS

CHANGELINGS_BOOK = shipped("changelings").book

#: abilities whose commands carry a choice (a role or an item)
CHOICE_ACTIONS = frozenset({"disguise", "use_item"})


def canonical_candidates(book: AbilityBook, game: Game, player: str) -> list[Command]:
    """Every command of the shape each ability takes, over all players and choices."""
    names = list(game.state.players)
    domain = sorted({*game.ruleset.roles, *ITEM_IDS})
    found: list[Command] = []
    for ability in book.abilities.values():
        shapes: list[tuple[str, ...]] = []
        if ability.targets == 0:
            shapes = [()]
        if ability.targets in (1, ANY):
            shapes += [(name,) for name in names]
        if ability.targets in (2, ANY):
            shapes += list(combinations(names, 2))
        choices = domain if ability.action in CHOICE_ACTIONS else [None]
        for shape in shapes:
            for choice in choices:
                found.append(Command(ability.action, by=player, target=shape[0]
                                     if len(shape) == 1 else None,
                                     targets=shape if len(shape) > 1 else (), choice=choice,
                                     text=ability.listed_text))
    return found


def shape(command: Command) -> tuple[object, ...]:
    """A command as the rules read it: a pair of players in either order is one pair (the
    list gives it in seating order)."""
    return (command.action, command.by, tuple(sorted(command.all_targets)), command.choice,
            command.text)


def check_listing(book: AbilityBook, game: Game) -> None:
    """For every player: validation accepts exactly the listed candidates, and ``execute``
    accepts listed commands (the first, a middle and the last one, each on a copy)."""
    for player in game.state.players:
        listed = game.legal_commands(player)
        assert len(set(listed)) == len(listed), "a command is listed twice"
        accepted = {shape(c) for c in canonical_candidates(book, game, player)
                    if book.problem(game.state, c) is None}
        assert accepted == {shape(c) for c in listed}, (player, accepted ^ set(map(shape, listed)))
        for command in {*listed[:1], *listed[len(listed) // 2:][:1], *listed[-1:]}:
            copy = Game.from_events(game.ruleset, game.events)
            copy.execute(command)  # raises Rejected if the list were wrong


@st.composite
def changelings_setups(draw: st.DrawFn) -> tuple[list[str], int, dict[str, object]]:
    size = draw(st.integers(min_value=4, max_value=10))
    team_size = draw(st.integers(min_value=1, max_value=max(1, min(3, (size - 1) // 2))))
    team = [draw(st.sampled_from(TEAM_ROLES)) for _ in range(team_size)]
    specials = draw(st.lists(st.sampled_from(PONY_SPECIALS), max_size=size - team_size))
    roles = team + specials + ["pony"] * (size - team_size - len(specials))
    options: dict[str, object] = {"first_day_banishment": draw(st.booleans()),
               "early_close": draw(st.booleans())}
    return list(draw(st.permutations(roles))), draw(st.integers(0, 2**32)), options


@st.composite
def island_setups(draw: st.DrawFn) -> tuple[list[str], int, dict[str, object]]:
    size = draw(st.integers(min_value=5, max_value=10))
    wolves = draw(st.integers(min_value=1, max_value=max(1, (size - 1) // 3)))
    specials = draw(st.lists(st.sampled_from([*PEACEFUL_SPECIALS, "hamster"]), max_size=size))
    roles = (["werewolf"] * wolves + specials)[:size]
    roles += ["passenger"] * (size - len(roles))
    options: dict[str, object] = {"items_per_player": draw(st.integers(0, 2))}
    return list(draw(st.permutations(roles))), draw(st.integers(0, 2**32)), options


def check_caches(game: Game) -> None:
    """The lists with the caches kept so far equal the lists worked out from nothing."""
    state = game.state
    warm = {player: game.legal_commands(player) for player in state.players}
    kept = state.memo
    state.memo = {}
    try:
        cold = {player: game.legal_commands(player) for player in state.players}
    finally:
        state.memo = kept
    assert warm == cold, {p: set(warm[p]) ^ set(cold[p]) for p in warm if warm[p] != cold[p]}


def play_and_check(book: AbilityBook, game: Game, data: st.DataObject) -> None:
    """Random legal play (each move a listed command, which ``execute`` must accept); the
    caches are checked on every state reached, the listing on every third."""
    for turn in range(45):
        if game.state.ended:
            return
        check_caches(game)
        if turn % 3 == 0:
            check_listing(book, game)
        commands = [c for p in game.state.players for c in game.legal_commands(p)]
        choice = data.draw(st.integers(0, len(commands) + 1), label="move")
        if choice >= len(commands):
            game.advance()
        else:
            game.execute(commands[choice])


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=changelings_setups(), data=st.data())
def test_changelings_lists_exactly_what_it_accepts(
    setup: tuple[list[str], int, dict[str, object]], data: st.DataObject
) -> None:
    roles, seed, options = setup
    play_and_check(CHANGELINGS_BOOK, make_changelings_game(roles, seed, options), data)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=island_setups(), data=st.data())
def test_island_lists_exactly_what_it_accepts(
    setup: tuple[list[str], int, dict[str, object]], data: st.DataObject
) -> None:
    roles, seed, options = setup
    play_and_check(ISLAND_BOOK, make_island_game(roles, seed, options), data)


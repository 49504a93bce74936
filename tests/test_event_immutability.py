"""Events are immutable by contract (issue 19): they are plain slotted dataclasses, not
frozen ones (a frozen ``__init__`` cost a fifth of a simulated game), so nothing but this
test stops code from changing one. It plays every scenario, simulated games of both rule
sets with both kinds of bots (the views and legal lists of every player on the way), and
a game with GM acts and an undo, with two guards:

- every assignment to (or deletion of) a field of an event after its construction is
  refused (``Event.__setattr__`` is patched for the test: a slot that is already set may
  not be set again);
- every event the log ever recorded still pickles to the bytes it had when it was
  recorded, so changing a dict or a list an event holds (a notice, the options, a tally,
  a flag's value) is caught too, whoever did it (a rule, a fold, a view, a bot).

The compiled build's classes cannot be patched: there the test is skipped (the
interpreted run in ``./test`` covers the same code).
"""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from nightfall.engine import Command, Game
from nightfall.engine import events as ev
from nightfall.rulesets import RULESET_IDS, get_ruleset
from nightfall.scenario import run_file
from nightfall.sim.play import play_game, replay_game
from nightfall.sim.seeds import game_seed
from nightfall.sim.setup import preset_setup

SCENARIOS = sorted((Path(__file__).parent / "scenarios").rglob("*.yaml"))
COMPILED = not hasattr(ev.Event.__init__, "__code__") or Path(ev.__file__).suffix != ".py"
pytestmark = pytest.mark.skipif(COMPILED, reason="compiled events cannot be patched")


class EventMutated(AssertionError):
    pass


def _guarded_setattr(self: ev.Event, name: str, value: Any) -> None:
    try:
        getattr(self, name)
    except AttributeError:  # not set yet: the constructor (or unpickling) sets it
        object.__setattr__(self, name, value)
        return
    raise EventMutated(f"{type(self).__name__}.{name} assigned after construction")


def _guarded_delattr(self: ev.Event, name: str) -> None:
    raise EventMutated(f"{type(self).__name__}.{name} deleted")


class Recorded:
    """Every event recorded by any game while active, with its pickle at that moment."""

    def __init__(self) -> None:
        self.events: list[tuple[ev.Event, bytes]] = []

    def changed(self) -> list[str]:
        return [f"{type(event).__name__} #{index}: {event!r}"
                for index, (event, before) in enumerate(self.events)
                if pickle.dumps(event) != before]


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> Iterator[Recorded]:
    found = Recorded()
    record = Game._record

    def snapshot_then_record(game: Game, event: ev.Event) -> None:
        found.events.append((event, pickle.dumps(event)))  # before the fold sees it
        record(game, event)

    monkeypatch.setattr(ev.Event, "__setattr__", _guarded_setattr)
    monkeypatch.setattr(ev.Event, "__delattr__", _guarded_delattr)
    monkeypatch.setattr(Game, "_record", snapshot_then_record)
    yield found
    assert found.events, "no event was recorded"
    assert not found.changed(), found.changed()[:5]


def test_the_guards_catch_an_assignment_and_an_inner_change(recorded: Recorded) -> None:
    game = Game.new(get_ruleset("changelings"), 3)
    game.join("Ann")
    joined = game.events[-1]
    assert isinstance(joined, ev.PlayerJoined)
    with pytest.raises(EventMutated):
        joined.player = "Bob"  # type: ignore[misc]  # what the guard is for
    with pytest.raises(EventMutated):
        del joined.description
    created = game.events[0]
    assert isinstance(created, ev.GameCreated)
    before = dict(created.options)
    created.options["early_close"] = "changed"  # a change inside: the pickles tell
    assert recorded.changed() and recorded.changed()[0].startswith("GameCreated #0")
    created.options.clear()
    created.options.update(before)
    assert not recorded.changed()


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenarios_change_no_event(path: Path, recorded: Recorded) -> None:
    assert run_file(path).ok


SIM = [("changelings", "canterlot-15"), ("changelings", "city-20")]
if "island" in RULESET_IDS:
    SIM += [("island", "island-12"), ("island", "archipelago-20")]


@pytest.mark.parametrize("bots", ["random", "heuristic"])
@pytest.mark.parametrize(("ruleset", "preset"), SIM)
def test_simulated_games_change_no_event(ruleset: str, preset: str, bots: str,
                                         recorded: Recorded) -> None:
    setup = preset_setup(ruleset, preset)
    for index in range(3):
        play_game(setup, game_seed(5, index), bots, index=index)
    game = replay_game(setup, game_seed(5, 0), bots)  # traced, then every view and list
    for player in [None, *game.state.players]:
        game.view(player)
        if player is not None:
            game.legal_commands(player)
    Game.from_events(game.ruleset, game.events)


def test_gm_acts_and_undo_change_no_event(recorded: Recorded) -> None:
    setup = preset_setup("changelings", "village-8")
    game = replay_game(setup, game_seed(6, 0), "random", max_stages=3)
    game.execute(Command("say", text="Der Tag beginnt."))
    game.execute(Command("extend", minutes=30))
    game.advance()
    game.undo()
    alive = game.state.alive()
    game.execute(Command("modkill", target=alive[0], text="inactive"))
    for player in game.state.players:
        game.view(player)
        game.legal_commands(player)
    assert Game.from_events(game.ruleset, game.events).state == game.state

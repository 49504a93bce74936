"""The fold shares the frozen records it builds from equal events (issue 19, round 9):
a ``Submitted`` event's :class:`Submission`, a ``PhaseStarted`` event's :class:`Phase`
and :class:`PhaseRecord` are looked up by the event's fields instead of built again
(building a frozen record sets each field through ``object.__setattr__``). Sharing is
safe only because they are frozen and a state never holds two equal ones; these tests
hold the fold to building exactly what it built before, whatever was folded earlier."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from nightfall.engine import events as ev
from nightfall.engine.phase import Phase
from nightfall.engine.state import GameState, PhaseRecord, Submission, apply, fold
from nightfall.sim.play import replay_game
from nightfall.sim.seeds import game_seed
from nightfall.sim.setup import preset_setup


def _log(ruleset: str, preset: str, index: int) -> list[ev.Event]:
    setup = preset_setup(ruleset, preset)
    return replay_game(setup, game_seed(7, index), "random", index=index, tracing=False).events


@pytest.mark.parametrize(("ruleset", "preset"), [("changelings", "canterlot-15"),
                                                 ("island", "island-12")])
def test_folded_again_the_state_is_equal_and_holds_what_it_would_have_built(
        ruleset: str, preset: str) -> None:
    events = _log(ruleset, preset, 0)
    first, second = fold(events), fold(events)
    assert first == second
    assert pickle.loads(pickle.dumps(first)) == first
    # the records the fold shares equal the ones built from the events' fields
    submitted = [e for e in events if isinstance(e, ev.Submitted)]
    assert submitted, "a random game submits something"
    for key, submission in first.submissions.items():
        assert key == (submission.player, submission.slot)
        assert type(submission) is Submission
    last = [e for e in events if isinstance(e, ev.PhaseStarted)][-1]
    assert first.phase == Phase(last.kind, last.number, last.stage)
    assert first.history[-1] == PhaseRecord(last.kind, last.number, last.stage, last.label,
                                            last.at, last.deadline)
    started = [e for e in events if isinstance(e, ev.PhaseStarted)]
    assert [(r.kind, r.number, r.stage, r.label) for r in first.history] == [
        (e.kind, e.number, e.stage, e.label) for e in started]


def test_another_games_log_folds_to_its_own_state() -> None:
    """Folding game A first and then game B gives B's state exactly as folding B alone
    (the shared records carry nothing of A)."""
    a, b = _log("changelings", "canterlot-15", 1), _log("changelings", "canterlot-15", 2)
    alone = fold(b)
    fold(a)
    assert fold(b) == alone


def test_shared_records_stay_frozen_and_unhashable_fields_still_fold() -> None:
    state = GameState()
    apply(state, ev.Submitted("Ann", "vote", "vote", ("Bob",)))
    shared = state.submissions[("Ann", "vote")]
    with pytest.raises(dataclasses.FrozenInstanceError):
        shared.targets = ("Cid",)  # type: ignore[misc]
    other = GameState()
    apply(other, ev.Submitted("Ann", "vote", "vote", ("Bob",)))
    assert other.submissions[("Ann", "vote")] == shared
    # an event built with a list (not by the engine, which gives tuples) is folded as
    # before instead of failing on the lookup
    odd = GameState()
    apply(odd, ev.Submitted("Ann", "vote", "vote", ["Bob"]))  # type: ignore[arg-type]
    assert list(odd.submissions[("Ann", "vote")].targets) == ["Bob"]

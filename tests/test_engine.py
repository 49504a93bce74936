"""The engine core: seeded RNG, deadlines as rules (with daylight-saving changes), the
clock as input (advance/tick), early close, atomic commands, replay, and its purity."""

from __future__ import annotations

import ast
import copy
from datetime import UTC, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from gamekit import make_game
from nightfall.engine import Command, DeadlineRule, Game, Rejected
from nightfall.engine.rng import draw_index, splitmix64
from nightfall.rulesets import get_ruleset, new_game

BERLIN = ZoneInfo("Europe/Berlin")
ENGINE = Path(__file__).parents[1] / "src" / "nightfall" / "engine"


def test_splitmix64_is_the_published_sequence() -> None:
    # SplitMix64 with seed 0: the reference outputs (Vigna's splitmix64.c)
    assert splitmix64(0, 0) == 0xE220A8397B1DCDAF
    assert splitmix64(0, 1) == 0x6E789E6AA1B965F4
    assert [draw_index(7, i, 10) for i in range(5)] == [draw_index(7, i, 10) for i in range(5)]


def test_deadline_rules() -> None:
    start = datetime(2012, 12, 23, 20, 0, tzinfo=BERLIN)
    assert DeadlineRule(time(22, 0), 0, "Europe/Berlin").after(start) == start.replace(hour=22)
    assert DeadlineRule(time(20, 0), 1, "Europe/Berlin").after(start) == datetime(
        2012, 12, 24, 20, 0, tzinfo=BERLIN)
    # a phase that opens after the clock time of its own day rolls to the next day
    late = datetime(2012, 12, 23, 23, 0, tzinfo=BERLIN)
    assert DeadlineRule(time(22, 0), 0, "Europe/Berlin").after(late) == datetime(
        2012, 12, 24, 22, 0, tzinfo=BERLIN)


@pytest.mark.parametrize(
    ("start", "hours"),
    [
        (datetime(2026, 3, 28, 20, 0, tzinfo=BERLIN), 22.5),  # clocks go forward that night
        (datetime(2026, 10, 24, 20, 0, tzinfo=BERLIN), 24.5),  # clocks go back that night
        (datetime(2026, 6, 10, 20, 0, tzinfo=BERLIN), 23.5),
    ],
)
def test_deadlines_keep_the_wall_clock_across_daylight_saving(
    start: datetime, hours: float
) -> None:
    deadline = DeadlineRule(time(19, 30), 1, "Europe/Berlin").after(start)
    assert deadline.astimezone(BERLIN).strftime("%H:%M") == "19:30"
    # (aware datetimes of one zone subtract as wall-clock times: compare in UTC)
    assert deadline.astimezone(UTC) - start.astimezone(UTC) == timedelta(hours=hours)


def timed_game() -> Game:
    game = new_game("changelings", 5, {"early_close": False})
    for name in ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"):
        game.join(name)
    game.assign({"Ann": "researcher", "Bob": "changeling", "Cid": "pony", "Dee": "pony",
                 "Eve": "changeling", "Fay": "pony", "Gus": "shield"})
    game.start(at=datetime(2012, 12, 1, 20, 0, tzinfo=BERLIN))
    return game


def test_tick_closes_every_passed_deadline_in_order() -> None:
    game = timed_game()
    assert game.state.deadline == datetime(2012, 12, 2, 19, 30, tzinfo=BERLIN)
    game.tick(datetime(2012, 12, 2, 12, 0, tzinfo=BERLIN))
    assert game.state.phase_label == "day 1"  # not yet
    # the service was down for two days: catch up, each stage starting at its deadline
    game.tick(datetime(2012, 12, 4, 21, 0, tzinfo=BERLIN))
    labels = [(r.label, r.at) for r in game.state.history]
    assert [label for label, _ in labels[-4:]] == ["night 1/1", "night 1/2", "day 2",
                                                   "night 2/1"]
    assert [at for _, at in labels[-4:]] == [
        datetime(2012, 12, 2, 19, 30, tzinfo=BERLIN),
        datetime(2012, 12, 2, 22, 0, tzinfo=BERLIN),
        datetime(2012, 12, 3, 20, 0, tzinfo=BERLIN),
        datetime(2012, 12, 4, 19, 30, tzinfo=BERLIN),
    ]
    assert game.state.deadline == datetime(2012, 12, 4, 22, 0, tzinfo=BERLIN)


def test_a_late_command_is_rejected_with_the_deadline() -> None:
    game = timed_game()
    late = datetime(2012, 12, 2, 19, 31, tzinfo=BERLIN)
    with pytest.raises(Rejected) as error:
        game.execute(Command("elect", by="Ann", target="Bob", at=late))
    assert "02.12.2012 19:30" in str(error.value)
    assert game.state.phase_label == "day 1"


def test_early_close_when_every_expected_input_is_in() -> None:
    game = make_game(["changeling", "changeling", "shield", "pony", "pony", "pony", "pony"],
                     seed=1, options={"early_close": True})
    game.advance()  # day 1 never closes early
    assert game.state.phase_label == "night 1/1"
    game.execute(Command("abduct", by="P00", target="P03"))
    game.execute(Command("shield", by="P02", target="P04"))
    assert game.state.phase_label == "night 1/1"  # the second changeling is still awaited
    game.execute(Command("abduct", by="P01", target="P03"))
    # stage 1 closed; stage 2 awaits nobody (no stage-2 roles) and closed at once
    assert game.state.phase_label == "day 2"
    assert not game.state.is_alive("P03")


def test_a_rejected_command_changes_nothing_and_says_why() -> None:
    game = make_game(["changeling", "researcher", "pony", "pony", "pony"], seed=1)
    before, count = copy.deepcopy(game.state), len(game.events)
    with pytest.raises(Rejected) as error:
        game.execute(Command("investigate", by="P01", target="P00"))
    assert "not possible now" in str(error.value)
    assert game.state == before and len(game.events) == count


def _morning_texts(game: Game, day: str) -> list[str]:
    return [a.text.msgid for a in game.state.announcements if a.phase == day]


def test_the_morning_says_when_nobody_left_in_the_night() -> None:
    """C2.4 [R]: a quiet night is announced, a night with a departure is not called quiet."""
    quiet = "Nobody left the game last night."
    game = make_game(["changeling", "pony", "pony", "pony", "pony"], seed=3)
    for _ in range(3):  # day 1 (no election), night 1/1 (no abduction), night 1/2
        game.advance()
    assert game.state.phase_label == "day 2"
    assert quiet in _morning_texts(game, "day 2")
    game = make_game(["changeling", "pony", "pony", "pony", "pony"], seed=3)
    game.advance()
    game.execute(Command("abduct", by="P00", target="P01"))
    game.advance()
    game.advance()
    assert game.state.phase_label == "day 2" and not game.state.players["P01"].alive
    assert quiet not in _morning_texts(game, "day 2")


def test_replay_reproduces_the_state_exactly() -> None:
    from nightfall.demo import play_demo

    game = play_demo(seed=11, locale="en")
    assert game.state.ended
    replayed = Game.from_events(get_ruleset("changelings"), game.events)
    assert replayed.state == game.state
    assert replayed.events == game.events


def test_the_engine_imports_nothing_but_itself_and_the_standard_library() -> None:
    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith("nightfall.") or node.module.startswith(
                    "nightfall.engine"), (path.name, node.module)
                # contextlib, contextvars: the scope of term display names
                # (engine/text.py, a rule file's own titles): no I/O, no clock
                assert node.module.split(".")[0] in {"nightfall", "__future__", "collections",
                                                     "dataclasses", "datetime", "typing",
                                                     "zoneinfo", "abc", "itertools",
                                                     "operator", "contextlib",
                                                     "contextvars"}, (
                    path.name, node.module)
            if isinstance(node, ast.Import):
                for alias in node.names:
                    # icu: PyICU, UTS #39 skeletons of names (engine/names.py), pure
                    assert alias.name.split(".")[0] in {"datetime", "typing", "pickle",
                                                     "unicodedata", "icu"}, alias.name


def test_the_engine_knows_no_role_by_name() -> None:
    from nightfall.rulesets import RULESET_IDS

    role_ids = {r for ruleset in RULESET_IDS for r in get_ruleset(ruleset).roles}
    for path in ENGINE.glob("*.py"):
        strings = {
            node.value
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
        }
        assert not (strings & role_ids), (path.name, strings & role_ids)


def test_undo_returns_to_just_before_the_last_resolution_and_keeps_the_audit_trail() -> None:
    from nightfall.engine import events as ev

    game = make_game(["changeling", "researcher", "pony", "pony", "pony", "pony"], seed=4)
    game.execute(Command("elect", by="P02", target="P02"))
    game.advance()
    game.execute(Command("abduct", by="P00", target="P03"))
    game.advance()
    game.execute(Command("investigate", by="P01", target="P00"))
    before = copy.deepcopy(game.state)
    game.advance()
    assert not game.state.is_alive("P03")
    undone = game.undo()
    assert isinstance(undone[0], ev.RolledBack)
    assert game.state.phase_label == "night 1/2" and game.state.is_alive("P03")
    assert game.state.submission("P01", "investigate") is not None
    assert game.state.deadline is None
    before.deadline = None
    before.history[-1] = game.state.history[-1]
    assert game.state == before
    # the undone resolution is still in the log; a replay folds to the same state
    assert any(isinstance(e, ev.StepTraced) for e in game.events[-len(undone) - 15:])
    assert Game.from_events(get_ruleset("changelings"), game.events).state == game.state
    # resolve again, differently: the GM entered nothing new, same result
    game.advance()
    assert not game.state.is_alive("P03")


def test_nothing_to_undo_before_any_stage_closed() -> None:
    game = make_game(["changeling", "pony", "pony", "pony"], seed=1)
    with pytest.raises(Rejected):
        game.undo()


def test_a_game_continues_from_a_snapshot_exactly_as_from_the_log() -> None:
    import pickle

    from nightfall.demo import play_demo

    full = play_demo(seed=3, locale="en")
    middle = len(full.events) // 2
    half = Game.from_events(get_ruleset("changelings"), full.events[:middle])
    snapshot = pickle.loads(pickle.dumps(half.state))
    resumed = Game.from_snapshot(get_ruleset("changelings"), snapshot, middle,
                                 full.events[middle:])
    assert resumed.state == full.state and resumed.seq == len(full.events)


def test_the_gm_may_extend_a_stage_whose_deadline_passed_unnoticed() -> None:
    game = timed_game()
    late = datetime(2012, 12, 2, 21, 0, tzinfo=BERLIN)  # the scheduler was down
    with pytest.raises(Rejected):
        game.execute(Command("elect", by="Ann", target="Bob", at=late))
    game.execute(Command("extend", minutes=120, at=late))
    assert game.state.deadline == datetime(2012, 12, 2, 21, 30, tzinfo=BERLIN)
    game.execute(Command("elect", by="Ann", target="Bob", at=late))
    assert game.state.submission("Ann", "elect") is not None


def test_the_gm_never_shortens_a_stage_into_the_past() -> None:
    """C2.6: shortened past the present, a stage ends now (at the next tick), not at the
    moment the arithmetic gives: that used to lie months back and made the next tick close
    that stage and every stage after it. A stage without a deadline (after an undo) cannot
    be shortened; it is refused and nothing changes."""
    game = timed_game()  # day 1, deadline 02.12.2012 19:30
    now = datetime(2012, 12, 2, 18, 0, tzinfo=BERLIN)
    game.execute(Command("shorten", minutes=89, at=now))
    assert game.state.deadline == datetime(2012, 12, 2, 18, 1, tzinfo=BERLIN)
    game.execute(Command("shorten", minutes=100_000, at=now))
    assert game.state.deadline == now
    assert game.state.announcements[-1].text.msgid == (
        "The game master shortened the phase: it ends now.")
    game.tick(datetime(2012, 12, 2, 18, 0, 30, tzinfo=BERLIN))
    assert game.state.phase_label == "night 1/1"  # one stage closed, not a cascade
    assert game.state.deadline == datetime(2012, 12, 2, 22, 0, tzinfo=BERLIN)
    game.undo(datetime(2012, 12, 2, 18, 2, tzinfo=BERLIN))  # back to day 1, no deadline
    assert game.state.deadline is None
    head = game.seq
    with pytest.raises(Rejected) as error:
        game.execute(Command("shorten", minutes=10, at=datetime(2012, 12, 2, 18, 3,
                                                                  tzinfo=BERLIN)))
    assert "no deadline to shorten" in str(error.value) and game.seq == head


def test_starting_a_started_game_says_so() -> None:
    from nightfall.engine import SetupError

    game = timed_game()
    with pytest.raises(SetupError) as error:
        game.start()
    assert str(error.value) == "The game has already started."


@pytest.mark.parametrize("ruleset,options,message", [
    ("changelings", {"timezone": "Moon/Base"}, "Unknown time zone Moon/Base"),
    ("island", {"timezone": "Europe/Atlantis"}, "Unknown time zone Europe/Atlantis"),
    ("island", {"midday": "25:00"}, "The option midday takes a time of day as HH:MM"),
    ("island", {"evening": "nine"}, "The option evening takes a time of day as HH:MM"),
    ("island", {"items_per_player": -1}, "The option items_per_player takes a whole number"),
])
def test_an_option_the_game_could_not_be_played_with_is_refused_at_creation(
        ruleset: str, options: dict[str, object], message: str) -> None:
    """A bad time zone used to be accepted and crash the game's start for good."""
    from nightfall.engine import SetupError

    with pytest.raises(SetupError) as error:
        new_game(ruleset, 1, options)
    assert message in str(error.value)
    assert new_game(ruleset, 1, {"timezone": "Asia/Yekaterinburg"}).state.options[
        "timezone"] == "Asia/Yekaterinburg"

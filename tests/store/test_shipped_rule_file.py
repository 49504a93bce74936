"""A game of a shipped rule file keeps the file it was played with (issue 20,
docs/rules-format.md "Where a game's file is kept"), on SQLite and on PostgreSQL.

Creating a game of ``changelings`` (``rulefile/sets/changelings.yaml``) stores the file's
bytes in ``rule_files`` and its hash in ``games.rule_file``, in the game's transaction, as
an upload does. A release may ship other bytes under the same id: the test plays a game
with the file as an earlier release shipped it (its day ending at 21:00, not at 19:30,
C2.5) — created through the store exactly as that release created its games — and this
release loads, continues and replays it by the stored bytes, never by today's file."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import func, select

from nightfall.engine import Game
from nightfall.rulefile.load import parse_source
from nightfall.rulefile.ruleset import compile_rules, shipped
from nightfall.service import FixedClock, GameService
from nightfall.store import schema
from nightfall.store.rulefiles import CompiledRules
from rulekit import NAMES, SHIPPED_CHANGELINGS

START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
#: C2.5 as an earlier release said it: the day ended at 21:00 the next day
DAY_DEADLINE = b'deadline: {at: "19:30", days: 1}'
EARLIER = SHIPPED_CHANGELINGS.replace(DAY_DEADLINE, b'deadline: {at: "21:00", days: 1}', 1)


def stored_files(service: GameService) -> int:
    with service.engine.connect() as conn:
        count = conn.execute(select(func.count()).select_from(schema.rule_files)).scalar_one()
    return int(count)


def test_a_shipped_file_game_records_the_file_s_hash_and_bytes(database_url: str) -> None:
    service = GameService(url=database_url, clock=FixedClock(START))
    first = service.create("changelings", 3, locale="de")
    second = service.create("changelings", 4)
    island = service.create("island", 5)
    current = shipped("changelings")
    for game in (first, second):
        meta = service.meta(game.id)
        assert meta.rule_file == current.source.sha256
        record = service.store.rule_file(current.source.sha256)
        assert record is not None and record.data == SHIPPED_CHANGELINGS
        assert record.ruleset == "changelings" and record.format == "nightfall-rules/1"
        # loaded by its hash, the game plays by the very rule set this process compiled
        assert service.load(game.id).ruleset is current
    assert stored_files(service) == 1  # one row however many games use the file
    assert service.meta(island.id).rule_file is None  # a Python plugin: no file


def test_a_game_keeps_the_shipped_file_it_was_played_with(database_url: str) -> None:
    assert EARLIER != SHIPPED_CHANGELINGS
    earlier = compile_rules(parse_source(EARLIER, "changelings.yaml of an earlier release"))
    assert earlier.id == "changelings"
    # the earlier release: its shipped file created, dealt and started the game
    then = GameService(url=database_url, clock=FixedClock(START))
    game = Game.new(earlier, 9, None, "de")
    game_id, _ = then.store.create_game(game, "Season one")
    for name in NAMES:
        then.signup(game_id, name)
    then.deal(game_id)
    then.start(game_id)
    hash_then = parse_source(EARLIER).sha256
    assert then.meta(game_id).rule_file == hash_then != shipped("changelings").source.sha256
    stored = then.store.rule_file(hash_then)
    assert stored is not None and stored.data == EARLIER
    # this release, in a process that has not compiled the earlier file: by its bytes
    fresh = CompiledRules()
    rules = fresh.ruleset(hash_then, lambda: stored.data)
    assert rules is not shipped("changelings") and rules.rules_file.endswith(hash_then)
    assert fresh.ruleset(hash_then, lambda: b"not read again") is rules
    now = GameService(url=database_url, clock=FixedClock(START))
    loaded = now.load(game_id)
    assert loaded.ruleset.rules_file == loaded.state.options["rules_file"] == rules.rules_file
    assert now.load(game_id).ruleset is loaded.ruleset  # compiled once, not per load
    # the day's deadline is the earlier file's (21:00 Berlin time, December: 20:00 UTC),
    # where today's file says 19:30
    deadline = now.meta(game_id).next_deadline
    assert deadline is not None and (deadline.hour, deadline.minute) == (20, 0)
    day = loaded.state.phase
    assert loaded.ruleset.deadline_rule(loaded.state, day).at.strftime("%H:%M") == "21:00"
    assert shipped("changelings").deadline_rule(loaded.state, day).at.strftime(
        "%H:%M") == "19:30"
    # continued and replayed in this release: the stored file's rules, the very events
    now.gm(game_id, "advance")
    assert now.load(game_id).state.phase_label == "night 1/1"
    assert now.replay_matches(game_id)
    replayed = Game.from_events(rules, now.store.events(game_id))
    assert replayed.state == now.load(game_id).state

"""The event store and the service on SQLite and PostgreSQL: exact round trips,
snapshots, restarts, catch-up after downtime, late submissions, undo, tokens."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from nightfall.demo import play_demo
from nightfall.engine import Command, Game, Rejected
from nightfall.engine import events as ev
from nightfall.i18n import localize
from nightfall.rulesets import get_ruleset
from nightfall.service import FixedClock, GameService
from nightfall.store import codec

BERLIN = ZoneInfo("Europe/Berlin")
START = datetime(2012, 12, 1, 20, 0, tzinfo=BERLIN)
ROLES = {"Ann": "researcher", "Bob": "changeling", "Cid": "pony", "Dee": "pony",
         "Eve": "changeling", "Fay": "shield", "Gus": "pony", "Hal": "pony"}


def test_every_event_of_a_whole_game_survives_encoding_exactly() -> None:
    game = play_demo(seed=5, locale="en")
    decoded = [codec.decode(*codec.encode(e)) for e in game.events]
    assert decoded == game.events
    assert Game.from_events(get_ruleset("changelings"), decoded).state == game.state


def test_an_upcaster_turns_an_old_payload_into_the_current_shape() -> None:
    # pretend PlayerLeft version 1 had no `phase` field and version 2 added it
    codec.VERSIONS["PlayerLeft"] = 2
    codec.register_upcaster("PlayerLeft", 1, lambda p: {**p, "phase": "unknown"})
    try:
        event = codec.decode("PlayerLeft", 1, {"player": "Ann", "cause": "banished"})
        assert event == ev.PlayerLeft("Ann", "banished", "unknown")
        assert codec.encode(event)[1] == 2
    finally:
        del codec.VERSIONS["PlayerLeft"]
        del codec.UPCASTERS[("PlayerLeft", 1)]


def new_service(url: str, clock: FixedClock) -> GameService:
    return GameService(url=url, clock=clock)


def started_game(url: str, clock: FixedClock) -> tuple[GameService, str]:
    service = new_service(url, clock)
    created = service.create("changelings", 9, {"early_close": False}, "de")
    for name in ROLES:
        service.signup(created.id, name, timezone="America/New_York" if name == "Ann" else None)
    service.assign(created.id, ROLES)
    service.start(created.id)
    return service, created.id


def test_a_game_survives_restarts_between_every_phase(database_url: str) -> None:
    clock = FixedClock(START)
    service, game_id = started_game(database_url, clock)
    moves = [
        [Command("elect", by="Ann", target="Cid"), Command("elect", by="Bob", target="Cid")],
        [Command("abduct", by="Bob", target="Dee"), Command("shield", by="Fay", target="Ann")],
        [Command("investigate", by="Ann", target="Bob")],
        [Command("vote", by="Ann", target="Bob"), Command("vote", by="Cid", target="Bob"),
         Command("vote", by="Gus", target="Bob")],
        [Command("abduct", by="Eve", target="Gus")],
        [],
    ]
    memory = Game.from_events(get_ruleset("changelings"), service.store.events(game_id))
    for stage in moves:
        service = new_service(database_url, clock)  # a fresh process, as after a restart
        for command in stage:
            service.submit(game_id, command)
            memory.execute(Command(command.action, command.by, command.target,
                                   at=clock.now()))
        clock.set(service.meta(game_id).next_deadline or clock.now())
        service.tick_due()
        memory.tick(clock.now())
        service.engine.dispose()
    service = new_service(database_url, clock)
    stored = service.store.events(game_id)
    assert stored == memory.events
    loaded = service.load(game_id)  # from the newest snapshot
    assert loaded.state == memory.state
    assert service.replay_matches(game_id)
    assert not loaded.state.is_alive("Dee") and not loaded.state.is_alive("Bob")
    rows = service.store.raw_events(game_id)
    assert [r["seq"] for r in rows] == list(range(len(rows)))
    assert {r["audience"] for r in rows} >= {"public", "gm", "player:Ann"}


def test_catch_up_after_the_service_was_down_across_two_deadlines(database_url: str) -> None:
    clock = FixedClock(START)
    service, game_id = started_game(database_url, clock)
    service.submit(game_id, Command("elect", by="Ann", target="Cid"))
    service.engine.dispose()
    clock.set(datetime(2012, 12, 2, 23, 0, tzinfo=BERLIN))  # 19:30 and 22:00 passed
    restarted = new_service(database_url, clock)
    from nightfall.service import Scheduler

    Scheduler(restarted).run_once()
    state = restarted.load(game_id).state
    assert state.phase_label == "night 1/2"
    starts = {r.label: r.at for r in state.history}
    assert starts["night 1/1"] == datetime(2012, 12, 2, 19, 30, tzinfo=BERLIN)
    assert starts["night 1/2"] == datetime(2012, 12, 2, 22, 0, tzinfo=BERLIN)
    assert restarted.meta(game_id).next_deadline == datetime(2012, 12, 3, 20, 0, tzinfo=BERLIN)


def test_a_late_submission_is_rejected_with_the_deadline_in_the_players_zone(
    database_url: str,
) -> None:
    clock = FixedClock(START)
    service, game_id = started_game(database_url, clock)
    before = service.meta(game_id).head_seq
    clock.set(datetime(2012, 12, 2, 19, 31, tzinfo=BERLIN))
    with pytest.raises(Rejected) as error:
        service.submit(game_id, Command("elect", by="Ann", target="Cid"))
    assert service.meta(game_id).head_seq == before
    new_york = ZoneInfo("America/New_York")
    assert "02.12.2012 13:30" in localize(error.value.reason, "en", new_york)
    assert "02.12.2012 19:30" in localize(error.value.reason, "de", BERLIN)


def test_undo_through_the_service_keeps_the_log(database_url: str) -> None:
    clock = FixedClock(START)
    service, game_id = started_game(database_url, clock)
    service.gm(game_id, "advance")
    service.submit(game_id, Command("abduct", by="Bob", target="Dee"))
    service.gm(game_id, "advance")
    service.gm(game_id, "advance")
    assert not service.load(game_id).state.is_alive("Dee")
    length = service.meta(game_id).head_seq
    service.undo(game_id)
    assert service.load(game_id).state.phase_label == "night 1/2"
    assert service.load(game_id).state.is_alive("Dee")
    assert service.meta(game_id).head_seq > length  # undo appends, never deletes
    kept = service.meta(game_id).next_deadline  # the reopened stage's own deadline,
    assert kept is not None and kept > clock.now()  # still ahead, so it stays (issue 18)
    assert service.replay_matches(game_id)
    clock.advance(minutes=5)
    service.gm(game_id, "extend", minutes=60)  # extending moves the kept deadline
    assert service.meta(game_id).next_deadline == kept + timedelta(minutes=60)


def test_tokens_identify_players_and_the_gm_and_can_be_revoked(database_url: str) -> None:
    clock = FixedClock(START)
    service = new_service(database_url, clock)
    created = service.create("changelings", 1)
    token = service.signup(created.id, "Ann")
    assert service.store.who_holds(token) == (created.id, "Ann")
    assert service.store.who_holds(created.gm_token) == (created.id, None)
    assert service.store.who_holds("not-a-token") is None
    service.withdraw(created.id, "Ann")
    assert service.store.who_holds(token) is None
    with pytest.raises(Rejected):
        service.signup(created.id, "")

"""The writers' shortcut of the store (``nightfall.store.cache.WriterCache``), on SQLite
and on PostgreSQL: a write continues from the game this process's last commit left only
when the game's row still has that head, so it always equals a fresh load; a write that
fails (an exception after the engine applied its command, a rejected command) never hands
its game back, so nothing it did outlives its rolled-back transaction; a write by another
process is seen by the next write here."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import Connection

from nightfall.engine import Command, Game, Rejected
from nightfall.service import FixedClock, GameService

START = datetime(2012, 12, 1, 20, 0, tzinfo=ZoneInfo("Europe/Berlin"))
ROLES = {"Ann": "researcher", "Bob": "changeling", "Cid": "pony", "Dee": "pony",
         "Eve": "changeling", "Fay": "shield", "Gus": "pony", "Hal": "pony"}


def started(url: str) -> tuple[GameService, str]:
    service = GameService(url=url, clock=FixedClock(START))
    created = service.create("changelings", 9, {"early_close": False}, "en")
    for name in ROLES:
        service.signup(created.id, name)
    service.assign(created.id, ROLES)
    service.start(created.id)
    return service, created.id


def kept(service: GameService, game_id: str) -> Game | None:
    """The game this process keeps for its next write, as of the row's head (taken out
    and put back, as a writer would)."""
    head = service.meta(game_id).head_seq
    with service.engine.connect() as conn:
        key = service.store._lock(conn, game_id)
        conn.rollback()
    assert key[0] == head
    game = service.store.writers.take(game_id, key)
    if game is not None:
        service.store.writers.give(game_id, key, game)
    return game


def test_the_next_write_continues_from_the_last_commit_and_equals_a_fresh_load(
    database_url: str,
) -> None:
    service, game_id = started(database_url)
    other = GameService(url=database_url, clock=service.clock)  # another server process
    service.submit(game_id, Command("elect", by="Ann", target="Cid"))
    assert kept(service, game_id) is not None  # this process's last commit, kept
    other.submit(game_id, Command("elect", by="Eve", target="Ann"))
    assert kept(service, game_id) is None  # the head moved: the kept game is stale
    # ... and this process's next write loads it, seeing the other's vote
    service.submit(game_id, Command("elect", by="Fay", target="Ann"))
    votes = {s.player: s.targets for s in service.load(game_id).state.submissions.values()}
    assert votes == {"Ann": ("Cid",), "Eve": ("Ann",), "Fay": ("Ann",)}
    steps = [
        lambda: service.submit(game_id, Command("elect", by="Bob", target="Cid")),
        lambda: other.submit(game_id, Command("elect", by="Cid", target="Dee")),
        lambda: service.submit(game_id, Command("elect", by="Dee", target="Cid")),
        lambda: service.gm(game_id, "advance"),  # a new phase: a snapshot, a fresh start
        lambda: service.submit(game_id, Command("abduct", by="Bob", target="Dee")),
        lambda: service.gm(game_id, "advance"),
        lambda: service.undo(game_id),  # the whole log: the game is not kept
        lambda: service.gm(game_id, "extend", minutes=60),
    ]
    for step in steps:
        step()
        fresh = other.load(game_id)
        game = kept(service, game_id)
        if game is not None:
            assert game.state == fresh.state and game.seq == fresh.seq
    assert kept(service, game_id) is not None  # the last write was this process's
    assert service.replay_matches(game_id)
    other.engine.dispose()
    service.engine.dispose()


def test_a_failed_write_never_hands_its_game_back(database_url: str) -> None:
    service, game_id = started(database_url)
    service.submit(game_id, Command("elect", by="Ann", target="Cid"))
    assert kept(service, game_id) is not None

    def vote_then_fail(game: Game, conn: Connection) -> None:
        game.execute(Command("elect", by="Bob", target="Dee", at=START))
        raise RuntimeError("the server fell over after the engine applied the vote")

    with pytest.raises(RuntimeError):
        service.store.transact(game_id, vote_then_fail)
    assert kept(service, game_id) is None  # the game with Bob's unstored vote is gone
    with pytest.raises(Rejected):
        service.submit(game_id, Command("abduct", by="Ann", target="Bob"))  # not at day
    service.submit(game_id, Command("elect", by="Cid", target="Ann"))
    fresh = GameService(url=database_url, clock=service.clock)
    state = fresh.load(game_id).state
    assert kept(service, game_id).state == state  # type: ignore[union-attr]
    votes = {s.player: s.targets for s in state.submissions.values()}
    assert votes == {"Ann": ("Cid",), "Cid": ("Ann",)}  # Bob's vote was never stored
    fresh.engine.dispose()
    service.engine.dispose()

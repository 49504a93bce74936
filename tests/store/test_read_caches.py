"""The readers' shortcuts of the store (``nightfall.store.cache``), on SQLite and on
PostgreSQL: ``read`` (one round trip, folding only what is new to this process) always
equals a fresh ``load`` and the whole log, through commands, rejected commands, phase
changes, an undo and writes by another process; the token cache answers without the
database while on, forgets at once what this process revokes, and is off by default."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from nightfall.engine import Command, Rejected
from nightfall.service import FixedClock, GameService
from nightfall.store.cache import Holder

START = datetime(2012, 12, 1, 20, 0, tzinfo=ZoneInfo("Europe/Berlin"))
ROLES = {"Ann": "researcher", "Bob": "changeling", "Cid": "pony", "Dee": "pony",
         "Eve": "changeling", "Fay": "shield", "Gus": "pony", "Hal": "pony"}


def started(url: str) -> tuple[GameService, str, dict[str, str]]:
    service = GameService(url=url, clock=FixedClock(START))
    created = service.create("changelings", 9, {"early_close": False}, "en")
    tokens = {name: service.signup(created.id, name, locale="de" if name == "Ann" else None,
                                   timezone="America/New_York" if name == "Ann" else None)
              for name in ROLES}
    service.assign(created.id, ROLES)
    service.start(created.id)
    return service, created.id, tokens


def same_as_fresh(reader: GameService, fresh: GameService, game_id: str) -> None:
    meta, loaded = reader.read(game_id)
    assert loaded.game.state == fresh.load(game_id).state
    assert loaded.game.seq == meta.head_seq == fresh.meta(game_id).head_seq
    assert list(loaded.log) == fresh.store.log(game_id)


def test_read_equals_a_fresh_load_through_a_game_with_undo_and_another_writer(
    database_url: str,
) -> None:
    service, game_id, _ = started(database_url)
    other = GameService(url=database_url, clock=service.clock)  # another server process
    same_as_fresh(service, other, game_id)  # the first read: snapshot + whole log
    first = service.read(game_id)[1]
    assert service.read(game_id)[1] is first  # nothing new: the cached entry itself
    steps = [
        lambda: service.submit(game_id, Command("elect", by="Ann", target="Cid")),
        lambda: other.submit(game_id, Command("elect", by="Bob", target="Cid")),
        lambda: service.gm(game_id, "advance"),
        lambda: other.submit(game_id, Command("abduct", by="Bob", target="Dee")),
        lambda: service.gm(game_id, "advance"),
        lambda: other.gm(game_id, "advance"),
        lambda: service.undo(game_id),  # a RolledBack behind the cached head's snapshot
        lambda: other.gm(game_id, "extend", minutes=60),
    ]
    for step in steps:
        step()
        same_as_fresh(service, other, game_id)
    assert service.read(game_id)[1].game.state.is_alive("Dee")  # the undo counted

    before = service.read(game_id)[1]
    state_before = before.game.state
    with pytest.raises(Rejected):  # a write that fails leaves the cached game untouched
        service.submit(game_id, Command("abduct", by="Ann", target="Bob"))
    after = service.read(game_id)[1]
    assert after is before and after.game.state == state_before
    same_as_fresh(service, other, game_id)
    other.engine.dispose()
    service.engine.dispose()


def test_the_token_cache_is_off_by_default_and_forgets_what_this_process_revokes(
    database_url: str,
) -> None:
    service, game_id, tokens = started(database_url)
    other = GameService(url=database_url, clock=service.clock)
    store = service.store
    assert store.holder(tokens["Ann"]) == Holder(game_id, "Ann", "America/New_York", "de")
    assert store.holder(tokens["Bob"]) == Holder(game_id, "Bob", None, None)
    other.store.revoke_access(game_id, "Bob")
    assert store.holder(tokens["Bob"]) is None  # off: every lookup asks the database

    store.tokens.enable(True)  # as a server does while its listener hears revocations
    assert store.holder(tokens["Cid"]) == Holder(game_id, "Cid")
    other.store.revoke_access(game_id, "Cid")  # unheard here (no listener in this test)…
    assert store.holder(tokens["Cid"]) == Holder(game_id, "Cid")  # …so the cache answers
    store.tokens.clear()  # what the listener does on the notification
    assert store.holder(tokens["Cid"]) is None

    assert store.holder(tokens["Dee"]) is not None
    store.revoke_access(game_id, "Dee")  # this process: forgotten when the commit is done
    assert store.holder(tokens["Dee"]) is None
    assert store.holder(tokens["Eve"]) is not None
    new = store.issue_token(game_id, "Eve")
    assert store.holder(tokens["Eve"]) is None and store.holder(new) == Holder(game_id, "Eve")
    other.engine.dispose()
    service.engine.dispose()


def test_a_lookup_that_began_before_a_revocation_is_not_kept() -> None:
    from nightfall.store.cache import TokenCache

    cache = TokenCache()
    cache.enable(True)
    generation = cache.begin()  # a lookup reads the token from the database…
    cache.clear()  # …while a revocation commits and clears the cache…
    cache.put("hash", Holder("g", "Ann"), generation)  # …so its answer is dropped
    assert cache.get("hash") is None
    cache.put("hash", Holder("g", "Ann"), cache.begin())
    assert cache.get("hash") == Holder("g", "Ann")
    cache.enable(False)
    assert cache.get("hash") is None

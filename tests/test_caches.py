"""The engine's bounded caches (``engine/caches.py``): an entry is kept until the cache
is full, then the cache starts again empty. A cache that never emptied would grow with
every game's names and dates."""

from __future__ import annotations

from nightfall.engine.caches import keep
from nightfall.engine.commands import make_command


def test_keep_stores_and_returns_the_value_until_the_cache_is_full() -> None:
    cache: dict[str, int] = {}
    assert keep(cache, "a", 1, 3) == 1
    assert keep(cache, "b", 2, 3) == 2
    assert keep(cache, "c", 3, 3) == 3
    assert cache == {"a": 1, "b": 2, "c": 3}
    assert keep(cache, "d", 4, 3) == 4  # full: started again with the new entry alone
    assert cache == {"d": 4}


def test_a_made_command_is_shared_and_equal_to_one_built_again() -> None:
    made = make_command("vote", "Ann", ("Bob",))
    assert make_command("vote", "Ann", ("Bob",)) is made
    assert made.target == "Bob" and made.by == "Ann" and made.action == "vote"

"""The event store: events are the source of truth, in SQLite (default) or PostgreSQL.

``events(game_id, seq, ...)`` with primary key ``(game_id, seq)`` is the optimistic
concurrency guard; ``snapshots`` make loads fast; upcasters keep old logs replayable.
"""

from nightfall.store.db import database_url, make_engine, migrate
from nightfall.store.repository import ConcurrencyConflict, EventStore, GameMeta, UnknownGame

__all__ = [
    "ConcurrencyConflict",
    "EventStore",
    "GameMeta",
    "UnknownGame",
    "database_url",
    "make_engine",
    "migrate",
]

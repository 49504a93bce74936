"""Per-process caches of the web server's reads: token holders and loaded games.

Both exist to spare database round trips on every page (docs/performance.md, "What limits
it"); both are only shortcuts, so a miss or a cleared cache is always correct.

``TokenCache`` remembers who holds a private token (game, player, his settings). A token
changes only when it is revoked or reissued (``EventStore.revoke_tokens``), and that must
reach every process at once, so the cache is off unless someone can tell it of every
revocation: the web server switches it on while its PostgreSQL listener is up (revocations
of any process arrive as ``NOTIFY``, ``web/live.py``) and off when the listener is lost.
On SQLite it stays off, because a GM's ``nightfall game token revoke`` in another process
could not tell the server. A generation number closes the race between a lookup that read
a token just before its revocation committed and the clearing that follows the commit: a
lookup stores its answer only if no clearing happened since it began.

``GameCache`` keeps, per game, the loaded ``Game`` and the whole decoded log at one head.
Entries are never mutated: a newer head makes a new entry. The ``Game`` in an entry is
shared by concurrent readers and must only be read (views, legal commands, copies);
writers never see it (``EventStore.transact`` loads its own copy in its transaction), so a
rolled-back write cannot leave anything here.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from nightfall.engine import Game
from nightfall.engine import events as ev

T = TypeVar("T")
#: (seq, recorded at, event): one entry of a game's log
LogEntry = tuple[int, datetime, ev.Event]


@dataclass(frozen=True)
class Holder:
    """Who holds a valid private token, with his own settings (``None``: the game's)."""

    game_id: str
    player: str | None  # None: the game master
    timezone: str | None = None
    locale: str | None = None
    #: an observer's link (``player`` is his name; he is no player), Island I6.7
    observer: bool = False


class TokenCache:
    """token hash → :class:`Holder` of a valid token, while enabled (unknown and revoked
    tokens are not kept: a flood of wrong links must not push the good ones out)."""

    def __init__(self, max_entries: int = 20_000, max_age: float = 60.0) -> None:
        self.max_entries = max_entries
        #: seconds an answer is trusted at most (a safety net should a notice be lost)
        self.max_age = max_age
        self._lock = threading.Lock()
        self._entries: OrderedDict[str, tuple[float, Holder]] = OrderedDict()
        self._generation = 0
        self._enabled = False

    @property
    def enabled(self) -> bool:
        return self._enabled

    def enable(self, on: bool) -> None:
        """Switch on (someone now reports every revocation) or off; clears either way."""
        with self._lock:
            self._enabled = on
            self._clear()

    def clear(self) -> None:
        """Forget everything: a token was revoked or reissued somewhere."""
        with self._lock:
            self._clear()

    def _clear(self) -> None:
        self._entries.clear()
        self._generation += 1

    def begin(self) -> int:
        """The generation a lookup starts in (pass it to :meth:`put`)."""
        return self._generation

    def get(self, token_hash: str) -> Holder | None:
        """The holder if known, else ``None`` (then look it up)."""
        if not self._enabled:
            return None
        with self._lock:
            found = self._entries.get(token_hash)
            if found is None:
                return None
            stored_at, holder = found
            if time.monotonic() - stored_at > self.max_age:
                del self._entries[token_hash]
                return None
            self._entries.move_to_end(token_hash)
            return holder

    def put(self, token_hash: str, holder: Holder, generation: int) -> None:
        """Remember a lookup's answer unless the cache was cleared since it began."""
        with self._lock:
            if not self._enabled or generation != self._generation:
                return
            self._entries[token_hash] = (time.monotonic(), holder)
            self._entries.move_to_end(token_hash)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)


@dataclass(frozen=True)
class Loaded:
    """A game as of one head: the ``Game`` (read only!) and its whole log.

    ``derived`` remembers what readers computed from this entry alone — a player's
    projection, his legal commands, the public thread — so that the next page of the same
    head (a player's API call, then his page, then the next player's) does not compute it
    again. Whatever is kept is a function of the entry and of the key (which names the
    reader: one player's projection is kept under his name, never handed to another), and
    is shared: callers only read it. A newer head is a new entry with nothing remembered.
    """

    game: Game
    log: tuple[LogEntry, ...]
    derived: dict[Hashable, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def seq(self) -> int:
        return self.game.seq

    def remember(self, key: Hashable, compute: Callable[[], T]) -> T:
        """``compute()`` the first time ``key`` is asked for at this head, then the same
        value (two threads racing compute it twice and keep one: both are the same)."""
        try:
            value: T = self.derived[key]
        except KeyError:
            value = self.derived.setdefault(key, compute())
        return value


class GameCache:
    """game id → :class:`Loaded`, the most recently used ``max_games`` games."""

    def __init__(self, max_games: int = 500) -> None:
        self.max_games = max_games
        self._lock = threading.Lock()
        self._entries: OrderedDict[str, Loaded] = OrderedDict()

    def get(self, game_id: str) -> Loaded | None:
        with self._lock:
            found = self._entries.get(game_id)
            if found is not None:
                self._entries.move_to_end(game_id)
            return found

    def put(self, game_id: str, loaded: Loaded) -> None:
        """Keep ``loaded`` unless a newer head of the game is already kept."""
        with self._lock:
            current = self._entries.get(game_id)
            if current is not None and current.seq > loaded.seq:
                return
            self._entries[game_id] = loaded
            self._entries.move_to_end(game_id)
            while len(self._entries) > self.max_games:
                self._entries.popitem(last=False)


class WriterCache:
    """game id → the ``Game`` the last committed write of this process left, keyed by the
    game's row as it was then (head seq and creation time), for the next writer.

    Unlike :class:`GameCache` its games are mutable and each belongs to one writer at a
    time: :meth:`take` *removes* the entry, so no other thread can see the game while a
    transaction executes commands on it, and the writer hands it back with :meth:`give`
    only after its commit. A write that fails (rejected command, conflict, crash of the
    database connection, a fault injected between the statements) never gives it back,
    so nothing half-applied can outlive its rolled-back transaction. The key is checked
    against the row read under the writer's lock (PostgreSQL ``FOR UPDATE``, SQLite
    ``BEGIN IMMEDIATE``): a write by any other process moves the head, and the stale entry
    is dropped and the game loaded from the database as before.
    """

    def __init__(self, max_games: int = 500) -> None:
        self.max_games = max_games
        self._lock = threading.Lock()
        self._entries: OrderedDict[str, tuple[tuple[int, datetime], Game]] = OrderedDict()

    def take(self, game_id: str, key: tuple[int, datetime]) -> Game | None:
        """The game at ``key`` (head seq, created at), now owned by the caller; ``None``
        if this process holds no game at exactly that head."""
        with self._lock:
            found = self._entries.pop(game_id, None)
        if found is None or found[0] != key:
            return None
        return found[1]

    def give(self, game_id: str, key: tuple[int, datetime], game: Game) -> None:
        """Hand back a game after the commit that stored it at ``key``."""
        with self._lock:
            current = self._entries.get(game_id)
            if current is not None and current[0][0] > key[0]:
                return
            self._entries[game_id] = (key, game)
            self._entries.move_to_end(game_id)
            while len(self._entries) > self.max_games:
                self._entries.popitem(last=False)

    def drop(self, game_id: str) -> None:
        with self._lock:
            self._entries.pop(game_id, None)

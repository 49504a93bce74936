"""Live updates across server processes: one PostgreSQL ``LISTEN`` per process.

Every transaction that appends events sends ``NOTIFY nightfall_events,
'<game_id>:<head_seq>'`` (see ``nightfall.store.repository``); PostgreSQL delivers it at
commit to every listening connection, whichever process wrote. ``LiveHub`` holds this
process's one listening connection (an asyncio task on the server's event loop) and wakes
the live-update streams of that game, so a browser connected to process B hears of a
command made on process A at once, without each stream polling the database.

The listener reconnects after any failure (server restart, network cut) and then wakes
every stream, because notifications sent while it was away are lost; the streams also look
at the head on a slow safety poll (``Settings.sse_safety_poll``). SQLite serves a single
process and keeps the plain polling path (no hub).

The same connection listens on ``nightfall_tokens``: a commit that revoked or reissued a
private link (any process's, or the GM command line's) clears this process's token cache.
The token cache is on only while the connection listens (``TokenCache.enable``), since a
revocation sent while it was away would be missed. Such a notification also wakes every
stream of this process, which then checks its own link and ends if it was revoked.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator

import psycopg
from psycopg import sql
from sqlalchemy.engine import make_url

from nightfall.store.cache import TokenCache
from nightfall.store.repository import NOTIFY_CHANNEL, TOKENS_CHANNEL

log = logging.getLogger(__name__)
#: how the listening connections show in ``pg_stat_activity`` (one per server process)
APPLICATION_NAME = "nightfall-live"


def conninfo(database_url: str) -> str:
    """The libpq connection string of a SQLAlchemy PostgreSQL URL (any driver suffix)."""
    url = make_url(database_url).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


def is_postgres(database_url: str) -> bool:
    return make_url(database_url).get_backend_name() == "postgresql"


class Subscription:
    """One stream's interest in one game: set when a notification for it arrives."""

    def __init__(self, hub: LiveHub, game_id: str) -> None:
        self.hub, self.game_id = hub, game_id
        self._event = asyncio.Event()

    def wake(self) -> None:
        self._event.set()

    async def wait(self, timeout: float) -> bool:
        """Wait until woken or ``timeout`` seconds pass; True if woken.

        The flag is cleared on return, before the caller reads the head, so a
        notification that arrives while the caller works wakes the next ``wait`` at once:
        none is lost between two waits.
        """
        try:
            await asyncio.wait_for(self._event.wait(), max(timeout, 0.0))
            woken = True
        except TimeoutError:
            woken = False
        self._event.clear()
        return woken


class LiveHub:
    """This process's listener and the subscriptions of its live-update streams."""

    def __init__(self, database_url: str, channel: str = NOTIFY_CHANNEL,
                 ping_interval: float = 30.0, retry_delay: float = 1.0,
                 tokens: TokenCache | None = None) -> None:
        self._conninfo = conninfo(database_url)
        self.channel = channel
        #: this process's token cache, cleared on every revocation and on while listening
        self.tokens = tokens
        self.ping_interval = ping_interval
        self.retry_delay = retry_delay
        self._subscriptions: dict[str, set[Subscription]] = {}
        self._task: asyncio.Task[None] | None = None
        #: set while the listening connection is up (tests and diagnostics wait on it)
        self.listening = asyncio.Event()
        #: notifications received (a figure for tests and benchmarks)
        self.received = 0

    # -- streams ------------------------------------------------------------------------
    @contextlib.contextmanager
    def subscribe(self, game_id: str) -> Iterator[Subscription]:
        subscription = Subscription(self, game_id)
        self._subscriptions.setdefault(game_id, set()).add(subscription)
        try:
            yield subscription
        finally:
            subscribers = self._subscriptions.get(game_id)
            if subscribers is not None:
                subscribers.discard(subscription)
                if not subscribers:
                    del self._subscriptions[game_id]

    def dispatch(self, payload: str) -> None:
        """Wake the streams of the game named in ``payload`` (``'<game_id>:<head_seq>'``)."""
        game_id = payload.rpartition(":")[0] or payload
        for subscription in tuple(self._subscriptions.get(game_id, ())):
            subscription.wake()

    def wake_all(self) -> None:
        for subscribers in tuple(self._subscriptions.values()):
            for subscription in tuple(subscribers):
                subscription.wake()

    # -- the listening connection -------------------------------------------------------
    async def start(self, wait: float = 10.0) -> None:
        """Start listening; waits up to ``wait`` seconds for the first connection (the
        hub keeps retrying in the background if the database is not reachable yet)."""
        self._task = asyncio.create_task(self._run(), name="nightfall-live-listener")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.listening.wait(), wait)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self.tokens is not None:
            self.tokens.enable(False)

    async def _run(self) -> None:
        delay = self.retry_delay
        while True:
            try:
                await self._listen()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # reconnect after any failure of the connection
                log.warning("live-update listener lost its connection (%s); retrying",
                            error)
            if self.tokens is not None:  # revocations could be missed from now on
                self.tokens.enable(False)
            if self.listening.is_set():  # it had been up: start the back-off afresh
                delay = self.retry_delay
            self.listening.clear()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 30.0)

    async def _listen(self) -> None:
        conn = await psycopg.AsyncConnection.connect(
            self._conninfo, autocommit=True, application_name=APPLICATION_NAME,
            connect_timeout=10, keepalives=1, keepalives_idle=30)
        async with conn:
            await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
            await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(TOKENS_CHANNEL)))
            if self.tokens is not None:  # from now on every revocation reaches us
                self.tokens.enable(True)
            self.listening.set()
            self.wake_all()  # anything committed while we were not listening
            while True:
                async for notify in conn.notifies(timeout=self.ping_interval):
                    self.received += 1
                    if notify.channel == TOKENS_CHANNEL:
                        if self.tokens is not None:
                            self.tokens.clear()
                        self.wake_all()  # each private stream re-checks its link now
                        continue
                    self.dispatch(notify.payload)
                # a silent cut shows up here (no answer in time), then we reconnect
                await asyncio.wait_for(conn.execute("SELECT 1"), self.ping_interval)

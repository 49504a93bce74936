"""The rows of a game's forum thread: its link, its counts, the shared page cache.

Kept apart from the event store: none of this is game state (the engine never sees a
forum), it is what the server needs to read the thread by its address and what it keeps
to show how a count came about. The claim of a deadline's read is a row of
``forum_counts`` inserted inside the transaction that would close the stage (see
:mod:`nightfall.service.forum_link`), unique per ``(game, claim)``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, and_, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from nightfall.store import schema

READING, COUNTED, FAILED, ABANDONED = "reading", "counted", "failed", "abandoned"


@dataclass(frozen=True, slots=True)
class ForumLinkRow:
    game_id: str
    url: str
    credentials: dict[str, Any]
    auto_submit: bool
    review_minutes: int
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class CachedRow:
    """A cached page: its bytes and what the forum said to recognise them by."""

    url: str
    body: bytes
    etag: str | None
    last_modified: str | None
    fetched_at: datetime


@dataclass(frozen=True, slots=True)
class CountRow:
    id: int
    game_id: str
    claim: str | None
    phase: str
    deadline: datetime | None
    status: str
    url: str
    started_at: datetime
    finished_at: datetime | None
    result: dict[str, Any] | None

    @property
    def automatic(self) -> bool:
        return self.claim is not None


def _utc(moment: datetime | None) -> datetime | None:
    """In UTC (SQLite keeps times without a zone: they are written and read as UTC)."""
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _count(row: Any) -> CountRow:
    return CountRow(row["id"], row["game_id"], row["claim"], row["phase"],
                    _utc(row["deadline"]), row["status"], row["url"],
                    _utc(row["started_at"]) or datetime.now(UTC), _utc(row["finished_at"]),
                    dict(row["result"]) if row["result"] is not None else None)


class ForumStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- the link --------------------------------------------------------------------------
    def link(self, game_id: str, conn: Connection | None = None) -> ForumLinkRow | None:
        query = select(schema.forum_links).where(schema.forum_links.c.game_id == game_id)
        if conn is None:
            with self.engine.connect() as own:
                row = own.execute(query).mappings().first()
        else:
            row = conn.execute(query).mappings().first()
        if row is None:
            return None
        return ForumLinkRow(row["game_id"], row["url"], dict(row["credentials"]),
                            bool(row["auto_submit"]), int(row["review_minutes"]),
                            _utc(row["updated_at"]) or datetime.now(UTC))

    def set_link(self, game_id: str, url: str, credentials: dict[str, Any],
                 auto_submit: bool, review_minutes: int, now: datetime) -> None:
        table = schema.forum_links
        values = {"url": url, "credentials": credentials, "auto_submit": auto_submit,
                  "review_minutes": review_minutes, "updated_at": _utc(now)}
        with self.engine.begin() as conn:
            done = conn.execute(update(table).where(table.c.game_id == game_id)
                                .values(**values))
            if done.rowcount == 0:
                conn.execute(insert(table).values(game_id=game_id, **values))

    def unlink(self, game_id: str) -> bool:
        with self.engine.begin() as conn:
            done = conn.execute(delete(schema.forum_links)
                                .where(schema.forum_links.c.game_id == game_id))
        return bool(done.rowcount)

    # -- counts ----------------------------------------------------------------------------
    def claimed(self, conn: Connection, game_id: str, claim: str) -> CountRow | None:
        table = schema.forum_counts
        row = conn.execute(select(table).where(and_(
            table.c.game_id == game_id, table.c.claim == claim))).mappings().first()
        return _count(row) if row is not None else None

    def add_count(self, conn: Connection, game_id: str, claim: str | None, phase: str,
                  deadline: datetime | None, url: str, now: datetime) -> int:
        """A new count in ``READING`` (in the caller's transaction); its id."""
        done = conn.execute(insert(schema.forum_counts).values(
            game_id=game_id, claim=claim, phase=phase, deadline=_utc(deadline),
            status=READING, url=url, started_at=_utc(now), finished_at=None, result=None))
        key = done.inserted_primary_key
        assert key is not None
        return int(key[0])

    def start_count(self, game_id: str, phase: str, deadline: datetime | None, url: str,
                    now: datetime) -> int:
        with self.engine.begin() as conn:
            return self.add_count(conn, game_id, None, phase, deadline, url, now)

    def finish(self, count_id: int, status: str, result: dict[str, Any], now: datetime,
               conn: Connection | None = None) -> None:
        statement = (update(schema.forum_counts)
                     .where(schema.forum_counts.c.id == count_id)
                     .values(status=status, result=result, finished_at=_utc(now)))
        if conn is not None:
            conn.execute(statement)
            return
        with self.engine.begin() as own:
            own.execute(statement)

    def count(self, count_id: int) -> CountRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(schema.forum_counts).where(
                schema.forum_counts.c.id == count_id)).mappings().first()
        return _count(row) if row is not None else None

    def counts(self, game_id: str, limit: int = 10) -> list[CountRow]:
        """The game's counts, newest first."""
        table = schema.forum_counts
        with self.engine.connect() as conn:
            rows = conn.execute(select(table).where(table.c.game_id == game_id)
                                .order_by(table.c.id.desc()).limit(limit)).mappings().all()
        return [_count(row) for row in rows]

    def last_read(self, game_id: str, url: str, before: int) -> CountRow | None:
        """The newest finished count of ``url`` before count ``before`` that read pages."""
        table = schema.forum_counts
        with self.engine.connect() as conn:
            rows = conn.execute(select(table).where(and_(
                table.c.game_id == game_id, table.c.url == url, table.c.id < before,
                table.c.status == COUNTED)).order_by(table.c.id.desc()).limit(1)
            ).mappings().all()
        return _count(rows[0]) if rows else None

    # -- the page cache --------------------------------------------------------------------
    def cached_page(self, url: str) -> CachedRow | None:
        table = schema.forum_pages
        with self.engine.connect() as conn:
            row = conn.execute(select(table).where(
                table.c.url_hash == _hash(url))).mappings().first()
        if row is None or row["url"] != url:
            return None
        return CachedRow(url, bytes(row["body"]), row["etag"], row["last_modified"],
                         _utc(row["fetched_at"]) or datetime.now(UTC))

    def cache_page(self, page: CachedRow) -> None:
        table = schema.forum_pages
        values = {"url": page.url, "etag": (page.etag or "")[:300] or None,
                  "last_modified": (page.last_modified or "")[:100] or None,
                  "body": page.body, "fetched_at": _utc(page.fetched_at)}
        key = _hash(page.url)
        for _attempt in range(3):  # two processes caching one page at once: the last wins
            try:
                with self.engine.begin() as conn:
                    done = conn.execute(update(table).where(table.c.url_hash == key)
                                        .values(**values))
                    if done.rowcount == 0:
                        conn.execute(insert(table).values(url_hash=key, **values))
                return
            except IntegrityError:
                continue


def _hash(url: str) -> str:
    return hashlib.sha256(url.encode()).hexdigest()

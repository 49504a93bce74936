"""Reading and appending events, one transaction per command.

``EventStore.transact(game_id, work)`` loads the game (newest usable snapshot plus the
events after it), lets ``work`` run engine commands on it, and appends the new events
with consecutive ``seq`` numbers in the same database transaction. Two writers that
loaded the same head collide on the primary key ``(game_id, seq)``; the loser retries
from a fresh load. A crash at any point leaves the game before or after the command.

Several server processes may share one PostgreSQL database: the scheduler claims a due
game with ``SELECT … FOR UPDATE SKIP LOCKED`` in the transaction that resolves it
(``resolve_due``), so a game another process is resolving is skipped, not waited for, and
a process that dies mid-resolution leaves the row unlocked and the game still due. Every
transaction that appends events also sends ``NOTIFY nightfall_events, '<game>:<head>'``
(delivered at commit), which wakes the live-update streams of every process. SQLite
serves one process: its ``BEGIN IMMEDIATE`` already lets one writer in at a time.
"""

from __future__ import annotations

import functools
import hashlib
import pickle
import secrets
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import (
    Connection,
    Engine,
    Float,
    FromClause,
    Select,
    and_,
    bindparam,
    func,
    insert,
    null,
    or_,
    select,
    update,
)
from sqlalchemy import case as sql_case
from sqlalchemy.dialects import postgresql as pg_dialect
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.exc import IntegrityError, OperationalError

from nightfall.engine import Game, Ruleset
from nightfall.engine import events as ev
from nightfall.engine.phase import ENDED
from nightfall.rulefile.ruleset import registered
from nightfall.rulesets import get_ruleset
from nightfall.store import codec, faults, schema
from nightfall.store.cache import GameCache, Holder, Loaded, LogEntry, TokenCache, WriterCache
from nightfall.store.rulefiles import COMPILED, RuleFileRecord, is_rule_file

SNAPSHOT_FORMAT = 1
#: the PostgreSQL channel on which every commit that appends events is announced
NOTIFY_CHANNEL = "nightfall_events"
#: the channel on which every commit that revokes tokens is announced (payload: game id)
TOKENS_CHANNEL = "nightfall_tokens"
_TOKENS_CHANGED = "nightfall_tokens_changed"
T = TypeVar("T")


#: the writer's lock on a game's row (see ``EventStore._lock``), built once
_LOCK = (select(schema.games.c.head_seq, schema.games.c.created_at)
         .where(schema.games.c.id == bindparam("game_id")).with_for_update())
#: the scheduler's claim of a due game (see ``EventStore._claim_due``)
_CLAIM_DUE = (
    select(schema.games.c.head_seq, schema.games.c.created_at)
    .where(and_(schema.games.c.id == bindparam("game_id"), schema.games.c.ended.is_(False),
                schema.games.c.next_deadline.is_not(None),
                schema.games.c.next_deadline <= bindparam("now")))
    .with_for_update(skip_locked=True)
)

#: every write's move of the head (see ``EventStore._update_head``)
_UPDATE_HEAD = (
    update(schema.games).where(schema.games.c.id == bindparam("game_id"))
    .values(head_seq=bindparam("new_head"), phase=bindparam("new_phase"),
            next_deadline=bindparam("new_deadline"), ended=bindparam("new_ended"))
)
#: a write's events (see ``EventStore._append``)
_INSERT_EVENTS = insert(schema.events)
#: who holds a valid token (see ``EventStore.holder``): a page's first lookup of a link
_HOLDER = (
    select(schema.access_tokens.c.game_id, schema.access_tokens.c.player,
           schema.players.c.timezone, schema.players.c.locale, schema.access_tokens.c.observer)
    .select_from(schema.access_tokens.outerjoin(schema.players, and_(
        schema.players.c.game_id == schema.access_tokens.c.game_id,
        schema.players.c.name == schema.access_tokens.c.player,
        schema.access_tokens.c.observer.is_(False))))
    .where(and_(schema.access_tokens.c.token_hash == bindparam("token_hash"),
                schema.access_tokens.c.revoked_at.is_(None)))
)


@functools.cache
def _read_statement(snapshot: bool, from_snapshot: bool) -> Select[Any]:
    """The statement of :meth:`EventStore._read`, built once per shape (parameters
    ``game_id`` and ``from_seq``): building and keying a statement this size cost more
    CPU than the database answering it, on every page of the web server."""
    g, e = schema.games, schema.events
    game_id: Any = bindparam("game_id")
    snap = schema.snapshots.alias("snap")
    source: FromClause = g
    snap_seq: Any = null()
    snap_state: Any = null()
    start: Any = bindparam("from_seq")
    if snapshot:
        last_undo = (select(func.max(e.c.seq))
                     .where(and_(e.c.game_id == game_id, e.c.type == "RolledBack"))
                     .scalar_subquery())
        newest = (select(func.max(schema.snapshots.c.seq))
                  .where(and_(schema.snapshots.c.game_id == game_id,
                              schema.snapshots.c.format == SNAPSHOT_FORMAT,
                              schema.snapshots.c.seq > func.coalesce(last_undo, -1)))
                  .scalar_subquery())
        source = g.outerjoin(snap, and_(snap.c.game_id == g.c.id, snap.c.seq == newest))
        snap_seq = snap.c.seq
        if from_snapshot:
            start = func.coalesce(snap.c.seq, 0)
        snap_state = sql_case((or_(e.c.seq.is_(None), e.c.seq == start), snap.c.state),
                              else_=null())
    return (
        select(*g.c, snap_seq.label("snap_seq"), snap_state.label("snap_state"),
               e.c.seq.label("event_seq"), e.c.recorded_at, e.c.type, e.c.version,
               e.c.payload)
        .select_from(source.outerjoin(e, and_(e.c.game_id == g.c.id, e.c.seq >= start)))
        .where(g.c.id == game_id)
        .order_by(e.c.seq)
    )


@functools.cache
def _take_slot_statement(dialect_name: str) -> Any:
    """The statement of :meth:`EventStore.take_slot`, built once per dialect (parameters
    ``slot_key``, ``moment``, ``interval``, ``limit``, ``first_tat``): one is sent before
    every form a player posts."""
    table = schema.rate_limits
    dialect: Any = pg_dialect if dialect_name == "postgresql" else sqlite_dialect
    moment: Any = bindparam("moment", type_=Float)
    start = sql_case((table.c.tat > moment, table.c.tat), else_=moment)
    return (dialect.insert(table)
            .values(key=bindparam("slot_key"), tat=bindparam("first_tat", type_=Float))
            .on_conflict_do_update(index_elements=[table.c.key],
                                   set_={"tat": start + bindparam("interval", type_=Float)},
                                   where=start <= bindparam("limit", type_=Float))
            .returning(table.c.tat))


class UnknownGame(LookupError):
    """No game with that id."""


class ConcurrencyConflict(RuntimeError):
    """Another writer kept winning; the command was not applied."""


@dataclass(frozen=True)
class GameMeta:
    id: str
    ruleset: str
    seed: int
    locale: str
    title: str
    options: dict[str, Any]
    head_seq: int
    phase: str
    next_deadline: datetime | None
    ended: bool
    #: the SHA-256 of the game's rule file (``rule_files``); ``None``: a built-in rule set
    rule_file: str | None = None


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class _Read:
    """What one loading statement returned (see ``EventStore._read``)."""

    meta: GameMeta
    snapshot_seq: int | None
    snapshot: bytes | None
    events: list[LogEntry]


def _meta_of(row: Any) -> GameMeta:
    return GameMeta(
        row["id"], row["ruleset"], row["seed"], row["locale"], row["title"],
        dict(row["options"]), row["head_seq"], row["phase"],
        _utc(row["next_deadline"]), row["ended"], row["rule_file"],
    )


def _utc(moment: datetime | None) -> datetime | None:
    if moment is None:
        return None
    if moment.tzinfo is None:  # SQLite hands back naive datetimes: they are UTC
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


class EventStore:
    def __init__(self, engine: Engine, retries: int = 20) -> None:
        self.engine = engine
        self.retries = retries
        #: this process's shortcuts for readers (see ``nightfall.store.cache``)
        self.games = GameCache()
        self.tokens = TokenCache()
        #: called with (connection, game id, game, new events) after each append, before
        #: the commit: the notifications' outbox writes its rows there, in the same
        #: transaction as the events (``nightfall.notify.outbox``)
        self.on_append: list[Callable[[Connection, str, Game, list[ev.Event]], None]] = []
        #: this process's games as its last writes left them, for the next write
        self.writers = WriterCache()

    # -- games ------------------------------------------------------------------------
    def create_game(
        self, game: Game, title: str = "", game_id: str | None = None,
    ) -> tuple[str, str]:
        """Store a new game (its first events); returns (game id, GM token). When the
        game's rule set is a rule file — a GM's upload or a file shipped with Nightfall —
        the file's bytes are stored in the same transaction, once per hash, and the game
        records the hash: it is loaded with that file ever after (:meth:`ruleset_of`),
        even once a later release ships other bytes under the same id. A game id already
        taken raises ``IntegrityError`` and stores nothing (a form sent twice,
        ``web/routes/gm.py``)."""
        game_id = game_id or secrets.token_hex(6)
        gm_token = secrets.token_urlsafe(32)
        now = datetime.now(UTC)
        state = game.state
        rules = RuleFileRecord.of(game.ruleset) if is_rule_file(game.ruleset) else None
        with self.engine.begin() as conn:
            if rules is not None:
                self._store_rule_file(conn, rules, now)
            conn.execute(insert(schema.games).values(
                id=game_id, ruleset=state.ruleset, seed=state.seed, locale=state.locale,
                title=title, options=state.options, head_seq=0, phase=state.phase_label,
                next_deadline=None, ended=False, created_at=now,
                rule_file=rules.sha256 if rules is not None else None,
            ))
            self._append(conn, game_id, 0, game.events, now)
            self._update_head(conn, game_id, game)
            conn.execute(insert(schema.access_tokens).values(
                token_hash=hash_token(gm_token), game_id=game_id, player=None, created_at=now))
        if is_rule_file(game.ruleset):  # loading the game by its hash finds this very object
            COMPILED.put(game.ruleset)
        return game_id, gm_token

    # -- rule files (issue 20) ------------------------------------------------------------
    def _store_rule_file(self, conn: Connection, rules: RuleFileRecord, now: datetime) -> None:
        """Insert the file's row unless its hash is stored already (the same bytes: one
        row however many games use it; two games created at once with a new file both
        insert, and ``ON CONFLICT DO NOTHING`` lets the second keep the first's row)."""
        dialect: Any = pg_dialect if conn.dialect.name == "postgresql" else sqlite_dialect
        table = schema.rule_files
        conn.execute(dialect.insert(table).values(
            sha256=rules.sha256, format=rules.format, ruleset=rules.ruleset,
            title=rules.title[:200], data=rules.data, terms=rules.terms, created_at=now,
        ).on_conflict_do_nothing(index_elements=[table.c.sha256]))

    def rule_file(self, sha256: str) -> RuleFileRecord | None:
        """The stored rule file of that hash, or ``None``."""
        table = schema.rule_files
        with self.engine.connect() as conn:
            row = conn.execute(select(table).where(table.c.sha256 == sha256)).mappings().first()
        if row is None:
            return None
        return RuleFileRecord(row["sha256"], row["format"], row["ruleset"], row["title"],
                              bytes(row["data"]), dict(row["terms"]))

    def ruleset_of(self, meta: GameMeta, conn: Connection | None = None) -> Ruleset:
        """The rule set a stored game is played by: its rule file's, looked up by the
        hash it recorded (compiled once per process, ``store.rulefiles``), else the
        built-in plugin or shipped file of its id (a game stored before shipped files were
        recorded: it plays by the file this release ships)."""
        if meta.rule_file is None:
            return get_ruleset(meta.ruleset)
        sha256 = meta.rule_file
        current = registered(meta.ruleset)  # the shipped file of its id, compiled already
        if current is not None and current.source.sha256 == sha256:
            return current  # not compiled a second time from the stored bytes

        def read() -> bytes:
            table = schema.rule_files
            query = select(table.c.data).where(table.c.sha256 == sha256)
            if conn is not None:
                data = conn.execute(query).scalar()
            else:
                with self.engine.connect() as own:
                    data = own.execute(query).scalar()
            if data is None:
                raise LookupError(f"the rule file {sha256} of game {meta.id} is not stored")
            return bytes(data)

        return COMPILED.ruleset(sha256, read)

    def meta(self, game_id: str, conn: Connection | None = None) -> GameMeta:
        query = select(schema.games).where(schema.games.c.id == game_id)
        if conn is None:
            with self.engine.connect() as own:
                row = own.execute(query).mappings().first()
        else:
            row = conn.execute(query).mappings().first()
        if row is None:
            raise UnknownGame(game_id)
        return _meta_of(row)

    def list_games(self) -> list[GameMeta]:
        with self.engine.connect() as conn:
            ids = conn.execute(select(schema.games.c.id).order_by(schema.games.c.created_at))
            return [self.meta(row[0], conn) for row in ids.all()]

    def due_games(self, now: datetime) -> list[str]:
        """Games whose current deadline has passed (for the scheduler), oldest first."""
        now = now.astimezone(UTC)  # SQLite compares the stored UTC times as text
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(schema.games.c.id)
                .where(and_(schema.games.c.ended.is_(False),
                            schema.games.c.next_deadline.is_not(None),
                            schema.games.c.next_deadline <= now))
                .order_by(schema.games.c.next_deadline)
            ).all()
        return [row[0] for row in rows]

    # -- loading ----------------------------------------------------------------------
    def load(self, game_id: str, conn: Connection | None = None, full: bool = False) -> Game:
        if conn is None:
            with self.engine.connect() as own:
                return self._load(own, game_id, full)
        return self._load(conn, game_id, full)

    def _load(self, conn: Connection, game_id: str, full: bool) -> Game:
        """The game from its newest usable snapshot (none if ``full``) and the events
        after it, read together with the game's row in one round trip."""
        read = self._read(conn, game_id, from_seq=0 if full else None, snapshot=not full)
        game = self._game_from(read, 0 if full else None, conn)
        if game is None:  # an unreadable snapshot is only a lost shortcut
            return self._load(conn, game_id, full=True)
        return game

    def read(self, game_id: str) -> tuple[GameMeta, Loaded]:
        """The game's row, the game and its whole log, for readers only (the web pages):
        one round trip, and through this process's :class:`GameCache` only the events
        after the cached head are read and folded. The ``Game`` is shared with other
        readers: look, never execute on it."""
        cached = self.games.get(game_id)
        with self.engine.connect() as conn:
            if cached is not None:
                read = self._read(conn, game_id, from_seq=cached.seq, snapshot=False)
                loaded = self._advance(cached, read.events)
            if cached is None or loaded.seq != read.meta.head_seq:  # (a recreated database)
                read = self._read(conn, game_id, from_seq=0, snapshot=True)
                game = self._game_from(read, 0, conn) or Game.from_events(
                    self.ruleset_of(read.meta, conn), [e for _, _, e in read.events])
                loaded = Loaded(game, tuple(read.events))
        self.games.put(game_id, loaded)
        return read.meta, loaded

    @staticmethod
    def _advance(cached: Loaded, new: list[LogEntry]) -> Loaded:
        """``cached`` plus the events after it, as a new entry (``cached`` is untouched:
        other threads may be reading it)."""
        if not new:
            return cached
        ruleset = cached.game.ruleset
        log = cached.log + tuple(new)
        if any(isinstance(e, ev.RolledBack) for _, _, e in new):  # an undo: replay all
            return Loaded(Game.from_events(ruleset, [e for _, _, e in log]), log)
        data = pickle.dumps(cached.game.state)
        return Loaded(Game.from_pickled(ruleset, data, cached.seq, [e for _, _, e in new]),
                      log)

    def _game_from(self, read: _Read, from_seq: int | None,
                   conn: Connection | None = None) -> Game | None:
        """Build the game of one :meth:`_read`; ``None`` if its snapshot is unreadable."""
        ruleset = self.ruleset_of(read.meta, conn)
        if read.snapshot_seq is None:
            return Game.from_events(ruleset, [e for _, _, e in read.events])
        try:
            state = pickle.loads(read.snapshot or b"")
        except Exception:
            return None
        base = read.snapshot_seq
        after = [e for seq, _, e in read.events if seq >= base]
        if from_seq is not None and from_seq > base:
            return None  # the events before the snapshot's seq were not read
        return Game.from_snapshot(ruleset, state, base, after, pickled=read.snapshot)

    def _read(self, conn: Connection, game_id: str, from_seq: int | None,
              snapshot: bool) -> _Read:
        """One statement: the game's row, optionally its newest usable snapshot, and its
        events from ``from_seq`` (``None``: from the snapshot's seq, or 0 without one).

        The snapshot's bytes come only on the first row (the one whose seq is the first
        read, or the only row when no event follows), not once per event.
        """
        query = _read_statement(snapshot, from_seq is None)
        params = {"game_id": game_id, "from_seq": from_seq or 0}
        rows = conn.execute(query, params).mappings().all()
        if not rows:
            raise UnknownGame(game_id)
        first = rows[0]
        snapshot_bytes = next((r["snap_state"] for r in rows if r["snap_state"] is not None),
                              None)
        events = [(r["event_seq"], _utc(r["recorded_at"]) or datetime.now(UTC),
                   codec.decode(r["type"], r["version"], r["payload"]))
                  for r in rows if r["event_seq"] is not None]
        return _Read(_meta_of(first), first["snap_seq"], snapshot_bytes, events)

    def events(self, game_id: str) -> list[ev.Event]:
        """The whole log, in order."""
        with self.engine.connect() as conn:
            self.meta(game_id, conn)
            rows = conn.execute(
                select(schema.events.c.type, schema.events.c.version, schema.events.c.payload)
                .where(schema.events.c.game_id == game_id).order_by(schema.events.c.seq)
            ).all()
        return [codec.decode(t, v, p) for t, v, p in rows]

    def raw_events(self, game_id: str) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(schema.events).where(schema.events.c.game_id == game_id)
                .order_by(schema.events.c.seq)
            ).mappings().all()
        return [dict(row) for row in rows]

    # -- writing ----------------------------------------------------------------------
    def transact(
        self, game_id: str, work: Callable[[Game, Connection], T], full: bool = False
    ) -> T:
        """Run ``work`` on the loaded game and store its new events atomically."""
        done = self._run(game_id, work, full, due_at=None)
        return done[0]

    def resolve_due(
        self, game_id: str, now: datetime, work: Callable[[Game, Connection], T]
    ) -> list[T]:
        """Run ``work`` (the scheduler's tick) only if the game is still due at ``now`` and
        no other process holds it: ``[result]``, or ``[]`` when skipped.

        The claim is the row lock of the transaction that resolves the game, taken with
        ``SKIP LOCKED``: two schedulers never wait for each other nor resolve one deadline
        twice, and if the claiming process dies, PostgreSQL rolls its transaction back and
        the game is due again for the next tick of any process.
        """
        return self._run(game_id, work, False, due_at=now)

    def _run(self, game_id: str, work: Callable[[Game, Connection], T], full: bool,
             due_at: datetime | None) -> list[T]:
        for _attempt in range(self.retries):
            try:
                with self._begin() as conn:
                    if due_at is None:
                        key = self._lock(conn, game_id)
                    else:
                        claimed = self._claim_due(conn, game_id, due_at)
                        if claimed is None:
                            return []
                        key = claimed
                    # the game this process's last write left at exactly this head, or
                    # (another process wrote since, an undo needs the whole log) a load
                    game = None if full else self.writers.take(game_id, key)
                    if game is None:
                        self.writers.drop(game_id)
                        game = self._load(conn, game_id, full)
                    head = game.seq
                    result = work(game, conn)
                    new = game.events[len(game.events) - (game.seq - head):]
                    snapshot = None
                    if new:
                        self._append(conn, game_id, head, new, datetime.now(UTC))
                        faults.checkpoint("after_append")
                        self._update_head(conn, game_id, game)
                        if any(isinstance(e, ev.PhaseStarted) for e in new):
                            snapshot = self._snapshot(conn, game_id, game)
                        for hook in self.on_append:
                            hook(conn, game_id, game, list(new))
                        self._notify(conn, game_id, game.seq)
                # committed: the next writer of this process may continue from here
                if not full:
                    if snapshot is not None:  # start afresh from it, as a load would
                        game = Game.from_pickled(game.ruleset, snapshot, game.seq)
                    self.writers.give(game_id, (game.seq, key[1]), game)
                return [result]
            except IntegrityError:
                continue  # another writer appended the same seq first: reload, retry
            except OperationalError as error:
                if "locked" in str(error).lower() or "deadlock" in str(error).lower():
                    continue
                raise
        raise ConcurrencyConflict(game_id)

    def _lock(self, conn: Connection, game_id: str) -> tuple[int, datetime]:
        """Serialise writers of one game (PostgreSQL row lock; SQLite locks on BEGIN);
        returns the row's (head seq, created at) as read under the lock."""
        row = conn.execute(_LOCK, {"game_id": game_id}).first()
        if row is None:
            raise UnknownGame(game_id)
        return int(row[0]), row[1]

    def _claim_due(self, conn: Connection, game_id: str, now: datetime
                   ) -> tuple[int, datetime] | None:
        """Lock the game's row if it is still due and not locked by another transaction
        (PostgreSQL ``FOR UPDATE SKIP LOCKED``; on SQLite ``BEGIN IMMEDIATE`` already made
        this the only writer, so the due check alone decides); returns (head seq, created
        at) as :meth:`_lock` does, or ``None``."""
        now = now.astimezone(UTC)  # SQLite compares the stored UTC times as text
        row = conn.execute(_CLAIM_DUE, {"game_id": game_id, "now": now}).first()
        return (int(row[0]), row[1]) if row is not None else None

    def _notify(self, conn: Connection, game_id: str, head_seq: int) -> None:
        """Announce the new head to every process's live-update listener (PostgreSQL
        delivers it at commit, never for a rolled-back transaction)."""
        if conn.dialect.name == "postgresql":
            conn.execute(select(func.pg_notify(NOTIFY_CHANNEL, f"{game_id}:{head_seq}")))

    def _append(
        self, conn: Connection, game_id: str, head: int, new: Iterable[ev.Event], now: datetime
    ) -> None:
        rows = []
        for offset, event in enumerate(new):
            type_name, version, payload = codec.encode(event)
            rows.append({
                "game_id": game_id, "seq": head + offset, "type": type_name,
                "version": version, "payload": payload, "audience": codec.audience(event),
                "recorded_at": now,
            })
        if rows:
            conn.execute(_INSERT_EVENTS, rows)

    def _update_head(self, conn: Connection, game_id: str, game: Game) -> None:
        state = game.state
        conn.execute(_UPDATE_HEAD, {
            "game_id": game_id, "new_head": game.seq, "new_phase": state.phase_label,
            "new_deadline": _utc(state.deadline) if state.phase.is_play() else None,
            "new_ended": state.phase.kind == ENDED,
        })

    def _snapshot(self, conn: Connection, game_id: str, game: Game) -> bytes:
        """Store the state at the head; returns its bytes."""
        state = pickle.dumps(game.state)
        conn.execute(insert(schema.snapshots).values(
            game_id=game_id, seq=game.seq, format=SNAPSHOT_FORMAT,
            state=state, created_at=datetime.now(UTC),
        ))
        return state

    # -- players and tokens -------------------------------------------------------------
    def add_player_row(self, conn: Connection, game_id: str, name: str, description: str,
                       timezone: str | None = None, locale: str | None = None) -> str:
        """Record a sign-up and issue the player's private token (stored as a hash)."""
        token = secrets.token_urlsafe(32)
        now = datetime.now(UTC)
        existing = conn.execute(select(schema.players.c.name).where(and_(
            schema.players.c.game_id == game_id, schema.players.c.name == name))).first()
        if existing is None:
            conn.execute(insert(schema.players).values(
                game_id=game_id, name=name, description=description, locale=locale,
                timezone=timezone, signed_up_at=now, withdrawn=False))
        else:
            conn.execute(update(schema.players).where(and_(
                schema.players.c.game_id == game_id, schema.players.c.name == name)).values(
                withdrawn=False, description=description))
        self.revoke_tokens(conn, game_id, name)
        conn.execute(insert(schema.access_tokens).values(
            token_hash=hash_token(token), game_id=game_id, player=name, created_at=now))
        return token

    def withdraw_player_row(self, conn: Connection, game_id: str, name: str) -> None:
        conn.execute(update(schema.players).where(and_(
            schema.players.c.game_id == game_id, schema.players.c.name == name)).values(
            withdrawn=True))
        self.revoke_tokens(conn, game_id, name)

    def revoke_tokens(self, conn: Connection, game_id: str, player: str | None,
                      observer: bool = False) -> None:
        """Revoke the tokens of ``player`` (``None``: the GM's; ``observer``: of the
        observer of that name); every process's token cache is cleared: this one's after
        the commit (:meth:`_begin`), the others' by ``NOTIFY nightfall_tokens``
        (PostgreSQL delivers it at commit)."""
        tokens = schema.access_tokens
        condition = (tokens.c.player.is_(None) if player is None
                     else tokens.c.player == player)
        conn.execute(update(tokens).where(and_(
            tokens.c.game_id == game_id, condition, tokens.c.observer.is_(observer),
            tokens.c.revoked_at.is_(None))).values(revoked_at=datetime.now(UTC)))
        conn.info[_TOKENS_CHANGED] = True
        if conn.dialect.name == "postgresql":
            conn.execute(select(func.pg_notify(TOKENS_CHANNEL, game_id)))

    @contextmanager
    def _begin(self) -> Iterator[Connection]:
        """``engine.begin()`` that clears this process's token cache after a commit that
        revoked tokens (clearing before the commit could let a reader put the old answer
        back; see ``TokenCache``)."""
        changed = False
        try:
            with self.engine.begin() as conn:
                try:
                    yield conn
                finally:
                    changed = bool(conn.info.pop(_TOKENS_CHANGED, False))
        finally:
            if changed:
                self.tokens.clear()

    def who_holds(self, token: str) -> tuple[str, str | None] | None:
        """(game id, player name or None for the GM) for a valid token."""
        holder = self.holder(token)
        return (holder.game_id, holder.player) if holder is not None else None

    def known_holder(self, token: str) -> Holder | None:
        """The holder of ``token`` if this process's :class:`TokenCache` knows it, without
        any query (``None``: ask :meth:`holder`); cheap enough for the event loop."""
        return self.tokens.get(hash_token(token))

    def holder(self, token: str) -> Holder | None:
        """Who holds ``token`` if it is valid, with his settings: one query, or none while
        this process's :class:`TokenCache` is on and knows the token."""
        token_hash = hash_token(token)
        cached = self.tokens.get(token_hash)
        if cached is not None:
            return cached
        generation = self.tokens.begin()
        with self.engine.connect() as conn:
            row = conn.execute(_HOLDER, {"token_hash": token_hash}).first()
        if row is None:
            return None
        holder = Holder(row[0], row[1], row[2], row[3], bool(row[4]))
        self.tokens.put(token_hash, holder, generation)
        return holder

    # -- for the web app ------------------------------------------------------------------
    def issue_token(self, game_id: str, player: str | None, observer: bool = False,
                    then: Callable[[Connection, str], object] | None = None) -> str:
        """A new private token for ``player`` (``None``: the GM; ``observer``: for the
        observer of that name); older ones stop working. ``LookupError`` for a name that
        is no (signed-up) player, or no observer of the game. ``then(connection, token)``
        runs in the same transaction (the link's e-mail)."""
        token = secrets.token_urlsafe(32)
        with self._begin() as conn:
            self.meta(game_id, conn)
            if observer:
                if player is None or player not in self._load(conn, game_id, False
                                                              ).state.observers:
                    raise LookupError(player)
            elif player is not None:
                row = conn.execute(select(schema.players.c.name).where(and_(
                    schema.players.c.game_id == game_id, schema.players.c.name == player,
                    schema.players.c.withdrawn.is_(False)))).first()
                if row is None:
                    raise LookupError(player)
            self.revoke_tokens(conn, game_id, player, observer)
            conn.execute(insert(schema.access_tokens).values(
                token_hash=hash_token(token), game_id=game_id, player=player,
                created_at=datetime.now(UTC), observer=observer))
            if then is not None:
                then(conn, token)
        return token

    # -- observers (Island I6.7) -------------------------------------------------------
    def add_observer_token(self, conn: Connection, game_id: str, name: str) -> str:
        """The first link of an observer the engine has just admitted (same transaction,
        ``GameService.admit_observer``); stored as its hash like a player's."""
        token = secrets.token_urlsafe(32)
        conn.execute(insert(schema.access_tokens).values(
            token_hash=hash_token(token), game_id=game_id, player=name,
            created_at=datetime.now(UTC), observer=True))
        return token

    def _observer_rows(self, conn: Connection, game_id: str) -> dict[str, bool]:
        tokens = schema.access_tokens
        found: dict[str, bool] = {}
        for name, revoked in conn.execute(
                select(tokens.c.player, tokens.c.revoked_at)
                .where(and_(tokens.c.game_id == game_id, tokens.c.observer.is_(True)))
                .order_by(tokens.c.created_at)).all():
            found[str(name)] = found.get(str(name), False) or revoked is None
        return found

    def observer_links(self, game_id: str) -> dict[str, bool]:
        """Each observer of the game (in the order let in) and whether a link of his
        works now (``False``: revoked, until the GM issues a new one)."""
        with self.engine.connect() as conn:
            return self._observer_rows(conn, game_id)

    def player_settings(self, game_id: str, player: str) -> dict[str, str | None]:
        """A signed-up player's own settings: ``timezone`` and ``locale`` (or ``None``)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(schema.players.c.timezone, schema.players.c.locale)
                               .where(and_(schema.players.c.game_id == game_id,
                                           schema.players.c.name == player))).first()
        if row is None:
            return {"timezone": None, "locale": None}
        return {"timezone": row[0], "locale": row[1]}

    def log(self, game_id: str, after: int = -1) -> list[tuple[int, datetime, ev.Event]]:
        """(seq, recorded at, event) of every event with ``seq > after``, in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(schema.events.c.seq, schema.events.c.recorded_at, schema.events.c.type,
                       schema.events.c.version, schema.events.c.payload)
                .where(and_(schema.events.c.game_id == game_id, schema.events.c.seq > after))
                .order_by(schema.events.c.seq)
            ).all()
        return [(seq, _utc(at) or datetime.now(UTC), codec.decode(t, v, p))
                for seq, at, t, v, p in rows]

    # -- revoking links -------------------------------------------------------------------
    def revoke_access(self, game_id: str, player: str, observer: bool = False) -> int:
        """Revoke ``player``'s private links (``observer``: the observer's of that name)
        without issuing a new one (the GM may reissue later); returns how many were
        active. ``LookupError`` for a name not in the game."""
        with self._begin() as conn:
            self.meta(game_id, conn)
            if observer:
                known = player in self._load(conn, game_id, False).state.observers
            else:
                known = conn.execute(select(schema.players.c.name).where(and_(
                    schema.players.c.game_id == game_id,
                    schema.players.c.name == player))).first() is not None
            if not known:
                raise LookupError(player)
            active = conn.execute(select(func.count()).select_from(schema.access_tokens).where(
                and_(schema.access_tokens.c.game_id == game_id,
                     schema.access_tokens.c.player == player,
                     schema.access_tokens.c.observer.is_(observer),
                     schema.access_tokens.c.revoked_at.is_(None)))).scalar_one()
            self.revoke_tokens(conn, game_id, player, observer)
        return int(active)

    # -- rate limits ----------------------------------------------------------------------
    def take_slot(self, key: str, now: datetime, interval: float, burst: int) -> float:
        """Count one request under ``key``, at most one per ``interval`` seconds on average
        with up to ``burst`` at once; returns 0.0 if it is allowed, else the seconds until
        the next one is (and counts nothing).

        The generic cell rate algorithm (a token bucket kept as one number): the row holds
        the "theoretical arrival time" ``tat``; a request at ``now`` is allowed when
        ``max(tat, now) <= now + (burst - 1) * interval``, and then moves ``tat`` to
        ``max(tat, now) + interval``. Check and update are one ``INSERT … ON CONFLICT DO
        UPDATE … WHERE … RETURNING`` statement, atomic on SQLite and PostgreSQL, so every
        server process sharing the database counts against the same limit.
        """
        table = schema.rate_limits
        moment = now.timestamp()
        tolerance = max(burst - 1, 0) * interval
        params = {"slot_key": key, "moment": moment, "interval": interval,
                  "limit": moment + tolerance, "first_tat": moment + interval}
        with self.engine.begin() as conn:
            statement = _take_slot_statement(conn.dialect.name)
            if conn.execute(statement, params).first() is not None:
                return 0.0
            tat = conn.execute(select(table.c.tat).where(table.c.key == key)).scalar_one()
        return max(float(tat) - tolerance - moment, 0.001)

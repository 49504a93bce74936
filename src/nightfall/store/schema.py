"""Tables: games, players (sign-ups), access tokens, events, snapshots, rate limits."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    false,
)

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("ruleset", String(32), nullable=False),
    Column("seed", Integer, nullable=False),
    Column("locale", String(8), nullable=False),
    Column("title", String(200), nullable=False, default=""),
    Column("options", JSON, nullable=False),
    Column("head_seq", Integer, nullable=False, default=0),
    Column("phase", String(32), nullable=False, default="signup"),
    Column("next_deadline", DateTime(timezone=True), nullable=True),
    Column("ended", Boolean, nullable=False, default=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_games_due", "ended", "next_deadline"),
)

players = Table(
    "players",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("name", String(80), primary_key=True),
    Column("description", String(200), nullable=False, default=""),
    Column("locale", String(8), nullable=True),
    Column("timezone", String(64), nullable=True),
    Column("signed_up_at", DateTime(timezone=True), nullable=False),
    Column("withdrawn", Boolean, nullable=False, default=False),
)

access_tokens = Table(
    "access_tokens",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("player", String(80), nullable=True),  # NULL: the game master
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("revoked_at", DateTime(timezone=True), nullable=True),
    #: the link of an observer (``player`` is his name, no sign-up), Island I6.7
    Column("observer", Boolean, nullable=False, default=False, server_default=false()),
    Index("ix_tokens_game", "game_id", "player"),
)

events = Table(
    "events",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("type", String(40), nullable=False),
    Column("version", Integer, nullable=False),
    Column("payload", JSON, nullable=False),
    Column("audience", String(100), nullable=False),
    Column("recorded_at", DateTime(timezone=True), nullable=False),
)

snapshots = Table(
    "snapshots",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("format", Integer, nullable=False),
    Column("state", LargeBinary, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

#: one row per rate-limited key (e.g. a player's link): the "theoretical arrival time" of
#: the generic cell rate algorithm, in seconds since the epoch (see ``EventStore.take_slot``)
rate_limits = Table(
    "rate_limits",
    metadata,
    Column("key", String(100), primary_key=True),
    Column("tat", Float, nullable=False),
)

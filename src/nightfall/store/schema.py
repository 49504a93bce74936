"""Tables: games, players (sign-ups), access tokens, events, snapshots, rate limits, and
a game's forum thread (its link, its counts, the page cache)."""

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

#: a game's forum thread (issue 17): its address, what a closed forum needs (the GM's
#: cookies and headers, shown to nobody), and whether counted votes go in by themselves
forum_links = Table(
    "forum_links",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("url", String(2000), nullable=False),
    Column("credentials", JSON, nullable=False),
    Column("auto_submit", Boolean, nullable=False, default=False),
    Column("review_minutes", Integer, nullable=False, default=30),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

#: every count of a linked thread, automatic (at a vote deadline) or asked for by the GM,
#: with the pages it read; ``claim`` (``<stage>@<deadline>`` for an automatic one, else
#: NULL) is unique per game, so each deadline's read is claimed once by one process
forum_counts = Table(
    "forum_counts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("claim", String(120), nullable=True),
    Column("phase", String(32), nullable=False),
    Column("deadline", DateTime(timezone=True), nullable=True),
    Column("status", String(16), nullable=False),
    Column("url", String(2000), nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=True),
    Column("result", JSON, nullable=True),
    Index("ux_forum_counts_claim", "game_id", "claim", unique=True),
    Index("ix_forum_counts_game", "game_id", "id"),
)

#: pages as last read, for conditional requests (ETag / Last-Modified): shared by every
#: server process, keyed by the hash of the page's address
forum_pages = Table(
    "forum_pages",
    metadata,
    Column("url_hash", String(64), primary_key=True),
    Column("url", String(2000), nullable=False),
    Column("etag", String(300), nullable=True),
    Column("last_modified", String(100), nullable=True),
    Column("body", LargeBinary, nullable=False),
    Column("fetched_at", DateTime(timezone=True), nullable=False),
)

"""Tables: games, the rule files they were created with, players (sign-ups), access
tokens, events, snapshots, rate limits, and a game's forum thread (its link, its counts,
the page cache)."""

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

#: every rule file a game was created with (issue 20, docs/rules-format.md), by the
#: SHA-256 of its bytes: a stored game is loaded with the file of its hash, never by the
#: id inside the file (two files may claim one id). ``terms`` are the file's display
#: names (domain -> term -> title), what it calls its terms without compiling it (each
#: file's names have a scope of their own, so no check compares them with other files').
rule_files = Table(
    "rule_files",
    metadata,
    Column("sha256", String(64), primary_key=True),
    Column("format", String(40), nullable=False),
    Column("ruleset", String(32), nullable=False),
    Column("title", String(200), nullable=False),
    Column("data", LargeBinary, nullable=False),
    Column("terms", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

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
    #: the hash of the game's rule file (``rule_files``); NULL: a built-in rule set
    Column("rule_file", String(64), ForeignKey("rule_files.sha256",
                                               name="fk_games_rule_file"), nullable=True),
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

# -- notifications (``nightfall.notify``, docs/notifications.md) ------------------------------
#: how a player is reached besides his page: his e-mail address (double opt-in), his own
#: push channel (an Apprise URL, a secret) and which kinds of message he wants
contacts = Table(
    "contacts",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("player", String(80), primary_key=True),
    Column("email", String(320), nullable=True),
    #: ``pending`` (confirmation link sent), ``confirmed`` or ``unsubscribed``
    Column("email_state", String(16), nullable=False, default="pending"),
    Column("confirm_hash", String(64), nullable=True),
    #: the key of the one-click unsubscribe link (it can only switch e-mail off)
    Column("unsubscribe_key", String(64), nullable=False),
    Column("push_url", String(2000), nullable=True),
    Column("preferences", JSON, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Index("ix_contacts_email", "game_id", "email"),
    Index("ix_contacts_confirm", "confirm_hash"),
    Index("ix_contacts_unsubscribe", "unsubscribe_key"),
)

#: a game's announcement channels (Apprise URLs: secrets, never shown back in full)
channels = Table(
    "channels",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("url", String(2000), nullable=False),
    Column("shown", String(300), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_channels_game", "game_id"),
)

#: per game: minutes before a deadline at which a player whose input is awaited is
#: reminded (0: no reminders)
notify_settings = Table(
    "notify_settings",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("reminder_minutes", Integer, nullable=False),
)

#: the transactional outbox: every message a command causes, written in the command's
#: transaction; the delivery worker claims due rows, sends them and records the outcome
outbox = Table(
    "outbox",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("player", String(80), nullable=True),  # NULL: a game channel
    Column("channel_id", Integer, nullable=True),
    Column("transport", String(16), nullable=False),  # email | push | channel
    Column("kind", String(24), nullable=False),
    Column("locale", String(8), nullable=False),
    Column("subject", String(300), nullable=False),
    Column("body_text", String, nullable=False),
    Column("body_html", String, nullable=True),
    #: for a reminder: the stage and deadline it is about and the inputs it waits for
    Column("condition", JSON, nullable=True),
    #: held (waits for the e-mail's confirmation) | pending | sending | sent | failed |
    #: skipped (a reminder no longer needed, a turned-off kind) | unsent (no transport)
    Column("status", String(12), nullable=False),
    Column("attempts", Integer, nullable=False, default=0),
    Column("due_at", DateTime(timezone=True), nullable=False),
    Column("lease_until", DateTime(timezone=True), nullable=True),
    Column("claim", String(32), nullable=True),
    Column("last_error", String(1000), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("sent_at", DateTime(timezone=True), nullable=True),
    Index("ix_outbox_due", "status", "due_at"),
    Index("ix_outbox_game", "game_id", "id"),
)

"""Database connections: SQLite in WAL mode by default, PostgreSQL when configured.

``NIGHTFALL_DATABASE_URL`` picks the database (e.g.
``postgresql+psycopg://user:pw@127.0.0.1/nightfall``); without it Nightfall uses
``nightfall.db`` in the working folder. The schema is created and upgraded by Alembic.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text

MIGRATIONS = Path(__file__).parent / "migrations"


def database_url(explicit: str | None = None) -> str:
    """The database to use: ``explicit`` (``--db``), else ``NIGHTFALL_DATABASE_URL``, else
    ``nightfall.db`` here. Each may be a URL or the path of a SQLite file, as the README
    writes it for ``serve`` (``--db nightfall.db``), so a GM can give every command the
    same ``--db``."""
    chosen = explicit or os.environ.get("NIGHTFALL_DATABASE_URL") or "nightfall.db"
    if "://" not in chosen:
        return f"sqlite:///{Path(chosen).expanduser()}"
    return chosen


def make_engine(url: str | None = None) -> Engine:
    """An engine for ``url``; SQLite gets WAL, a busy timeout and BEGIN IMMEDIATE so
    that concurrent writers queue instead of failing half-way."""
    url = database_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _sqlite_begin(connection: Any) -> None:
            connection.exec_driver_sql("BEGIN IMMEDIATE")

        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=20, max_overflow=40)


def alembic_config(engine: Engine) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["engine"] = engine
    return config


#: PostgreSQL advisory lock key that serialises migrations of several starting processes
MIGRATION_LOCK = 0x6E6967687466  # "nightf"


def migrate(engine: Engine) -> None:
    """Create or upgrade the schema to the newest migration.

    On PostgreSQL several server processes may start at once on a fresh database; an
    advisory lock lets one of them migrate while the others wait, then find it done.
    """
    if engine.dialect.name != "postgresql":
        command.upgrade(alembic_config(engine), "head")
        return
    with engine.connect() as lock:
        lock.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
        try:
            command.upgrade(alembic_config(engine), "head")
        finally:
            lock.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
            lock.commit()

"""The database of a test that runs on SQLite and on a real PostgreSQL server (the
pattern of tests/store/conftest.py, for tests elsewhere).

The PostgreSQL URL comes from ``NIGHTFALL_TEST_POSTGRES_URL``; without it the PostgreSQL
variant is skipped locally, but in CI (``CI=true``) it is an error, never a silent skip.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from sqlalchemy import text

from nightfall.store import make_engine

POSTGRES_URL = os.environ.get("NIGHTFALL_TEST_POSTGRES_URL")
KINDS = ["sqlite", "postgresql"]


def database_url(kind: str, tmp_path: Path) -> str:
    """A fresh database of ``kind``: a new SQLite file, or the PostgreSQL test database
    with its public schema dropped and made anew."""
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'test.db'}"
    return fresh_postgres_url()


def fresh_postgres_url() -> str:
    """The PostgreSQL test database with an empty public schema (skipped locally without
    one, an error in CI)."""
    if not POSTGRES_URL:
        if os.environ.get("CI"):
            pytest.fail("NIGHTFALL_TEST_POSTGRES_URL is not set in CI")
        pytest.skip("no PostgreSQL (set NIGHTFALL_TEST_POSTGRES_URL)")
    engine = make_engine(POSTGRES_URL)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    return POSTGRES_URL

"""Test-session setup shared by every folder.

Under pytest-xdist (``./test`` runs ``pytest -n 2``) every worker gets its own
PostgreSQL database, ``<test database>_<worker>``: the PostgreSQL tests drop and recreate
the public schema of the database they use (``dbkit.fresh_postgres_url``), so two workers
on one database would wipe each other's games mid-test. The variable is rewritten before
any test module reads it (they read it at import).
"""

from __future__ import annotations

import os

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url


def _worker_database(url: str, worker: str) -> str:
    """The URL of this worker's own database next to ``url``'s, created if missing."""
    base = make_url(url)
    name = f"{base.database}_{worker}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            exists = conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :name"),
                                  {"name": name}).scalar()
            if not exists:
                conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        admin.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


def pytest_configure(config: pytest.Config) -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    url = os.environ.get("NIGHTFALL_TEST_POSTGRES_URL")
    if worker and url:
        os.environ["NIGHTFALL_TEST_POSTGRES_URL"] = _worker_database(url, worker)

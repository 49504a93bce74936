"""Every store test runs on SQLite and on a real PostgreSQL server.

The PostgreSQL URL comes from ``NIGHTFALL_TEST_POSTGRES_URL`` (``.ci/run`` starts the
server and sets it). Without it the PostgreSQL variants are skipped locally — but in CI
(``CI=true``) a missing server is an error, so they can never be skipped silently.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from nightfall.store import make_engine

POSTGRES_URL = os.environ.get("NIGHTFALL_TEST_POSTGRES_URL")


def _reset_postgres(engine: Engine) -> None:
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'nightfall.db'}"
        return
    if not POSTGRES_URL:
        if os.environ.get("CI"):
            pytest.fail("NIGHTFALL_TEST_POSTGRES_URL is not set in CI")
        pytest.skip("no PostgreSQL (set NIGHTFALL_TEST_POSTGRES_URL)")
    engine = make_engine(POSTGRES_URL)
    _reset_postgres(engine)
    engine.dispose()
    yield POSTGRES_URL

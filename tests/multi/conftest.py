"""The multi-process tests need a real PostgreSQL server shared by real server processes.

The URL comes from ``NIGHTFALL_TEST_POSTGRES_URL`` (``.ci/run`` starts the server and sets
it). Without it these tests are skipped locally — but in CI (``CI=true``) a missing server
is an error, so they can never be skipped silently.
"""

from __future__ import annotations

import os

import pytest
from sqlalchemy import text

from nightfall.store import make_engine

POSTGRES_URL = os.environ.get("NIGHTFALL_TEST_POSTGRES_URL")


@pytest.fixture(scope="module")
def postgres_url() -> str:
    """The test database with an empty public schema (the servers migrate it)."""
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

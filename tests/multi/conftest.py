"""The multi-process tests need a real PostgreSQL server shared by real server processes.

The URL comes from ``NIGHTFALL_TEST_POSTGRES_URL`` (``.ci/run`` starts the server and sets
it). Without it these tests are skipped locally — but in CI (``CI=true``) a missing server
is an error, so they can never be skipped silently.
"""

from __future__ import annotations

import pytest

from dbkit import fresh_postgres_url


@pytest.fixture(scope="module")
def postgres_url() -> str:
    """The test database with an empty public schema (the servers migrate it)."""
    return fresh_postgres_url()

"""Every store test runs on SQLite and on a real PostgreSQL server.

The PostgreSQL URL comes from ``NIGHTFALL_TEST_POSTGRES_URL`` (``.ci/run`` starts the
server and sets it). Without it the PostgreSQL variants are skipped locally — but in CI
(``CI=true``) a missing server is an error, so they can never be skipped silently.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dbkit import KINDS
from dbkit import database_url as fresh_database_url


@pytest.fixture(params=KINDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return fresh_database_url(request.param, tmp_path)

"""The multi-process tests need a real PostgreSQL server shared by real server processes.

The URL comes from ``NIGHTFALL_TEST_POSTGRES_URL`` (``.ci/run`` starts the server and sets
it). Without it these tests are skipped locally — but in CI (``CI=true``) a missing server
is an error, so they can never be skipped silently.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from multikit import Server, start_servers

from dbkit import fresh_postgres_url
from nightfall.service import GameService


@pytest.fixture(scope="module")
def postgres_url() -> str:
    """The test database with an empty public schema (the servers migrate it)."""
    return fresh_postgres_url()


@pytest.fixture(scope="module")
def pair(postgres_url: str, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[Server, Server]]:
    """Two real ``nightfall serve`` processes, A and B, on the module's database."""
    servers = start_servers(postgres_url, tmp_path_factory.mktemp("multi"), ["A", "B"])
    try:
        yield servers[0], servers[1]
    finally:
        for server in servers:
            server.stop()


@pytest.fixture(scope="module")
def service(postgres_url: str, pair: tuple[Server, Server]) -> Iterator[GameService]:
    """The test's own view of the database (after the servers migrated it together)."""
    svc = GameService(url=postgres_url)
    yield svc
    svc.engine.dispose()

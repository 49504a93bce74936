"""Fixtures of the notification tests: the servers of ``mailkit`` and a service whose
outbox they receive."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from mailkit import JsonReceiver, SmtpBox


@pytest.fixture
def smtp() -> Iterator[SmtpBox]:
    box = SmtpBox().start()
    yield box
    box.stop()


@pytest.fixture
def receiver() -> Iterator[JsonReceiver]:
    server = JsonReceiver().start()
    yield server
    server.stop()

from __future__ import annotations

from pathlib import Path

import pytest

from webkit import Env, Small, make_env, small_game


@pytest.fixture
def env(tmp_path: Path) -> Env:
    return make_env(tmp_path)


@pytest.fixture
def small(env: Env) -> Small:
    return small_game(env.service)

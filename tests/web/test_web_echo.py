"""Refused forms are written back for correction, but never the whole of an oversized
input (issue 18: a 1 MB name gave a 1 MB error page): a body past the form limit is
refused unread (413), a field past any form's limit by a page that does not repeat it
(400), and what is written back is clipped to its field's own limit. Nothing changes."""

from __future__ import annotations

from pathlib import Path

import pytest

from nightfall.web.bodies import MAX_FIELD_CHARS
from webkit import Env, csrf_of, make_env, small_game


@pytest.fixture
def env(tmp_path: Path) -> Env:
    return make_env(tmp_path)


def test_a_megabyte_name_gets_a_short_answer(env: Env) -> None:
    game = small_game(env.service, start=False)
    csrf = csrf_of(env.client)
    name = "Z" * (1024 * 1024)
    page = env.client.post(f"/g/{game.game_id}/signup", data={"csrf_token": csrf,
                                                              "name": name})
    assert page.status_code == 413 and len(page.text) < 5000
    assert "The form is too large" in page.text
    assert len(env.service.load(game.game_id).state.players) == 5


@pytest.mark.parametrize("field", ["name", "description", "timezone"])
def test_signup_writes_back_at_most_what_a_field_takes(env: Env, field: str) -> None:
    game = small_game(env.service, start=False)
    csrf = csrf_of(env.client)
    for size in (MAX_FIELD_CHARS - 1, MAX_FIELD_CHARS + 1):
        data = {"csrf_token": csrf, "name": "Quinn", field: "Z" * size}
        page = env.client.post(f"/g/{game.game_id}/signup", data=data)
        assert page.status_code in (303, 400), page.status_code
        assert len(page.text) < 5000 and "Z" * 300 not in page.text, (field, size)
    assert "Quinn" not in env.service.load(game.game_id).state.players


def test_new_game_writes_back_clipped_values(env: Env) -> None:
    csrf = csrf_of(env.client, "/new")
    before = len(env.service.store.list_games())
    for field in ("title", "seed", "opt_timezone", "locale"):
        page = env.client.post("/new", data={"csrf_token": csrf, "ruleset": "changelings",
                                             field: "Z" * (MAX_FIELD_CHARS - 1)})
        assert page.status_code == 400, field
        assert len(page.text) < 8000 and "Z" * 300 not in page.text, field
    assert len(env.service.store.list_games()) == before


def test_a_refused_post_is_written_back_no_longer_than_a_post(env: Env) -> None:
    game = small_game(env.service)
    csrf = csrf_of(env.client)
    page = env.client.post(game.p("Ann") + "/post", data={"csrf_token": csrf,
                                                         "text": "Z" * 15_000})
    assert page.status_code == 400 and "Z" * 10_001 not in page.text
    page = env.client.post(game.g + "/act", data={"csrf_token": csrf, "action": "say",
                                                  "text": "Z" * 15_000})
    assert page.status_code == 400 and "Z" * 10_001 not in page.text
    page = env.client.post(game.p("Ann") + "/post", data={
        "csrf_token": csrf, "text": "Z" * (MAX_FIELD_CHARS + 1)})
    assert page.status_code == 400 and len(page.text) < 5000


def test_the_longest_post_still_fits_the_form_limit(env: Env) -> None:
    """10,000 Cyrillic characters, percent-encoded: 60 kB, well inside the limit."""
    game = small_game(env.service)
    csrf = csrf_of(env.client)
    page = env.client.post(game.p("Ann") + "/post", data={"csrf_token": csrf,
                                                         "text": "Ж" * 10_000},
                           follow_redirects=False)
    assert page.status_code == 303
    assert any(getattr(e, "text", "") == "Ж" * 10_000
               for e in env.service.store.events(game.game_id))

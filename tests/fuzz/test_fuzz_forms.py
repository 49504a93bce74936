"""Hypothesis against every form of the players and the GM: random fields (any unicode,
control characters, huge values, unknown and missing fields) sent with a valid CSRF token
through real links. An answer is a page (200), a redirect (303) or a refusal (400/409)
with a message; a refusal changes nothing. Never a 5xx or a traceback."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dbkit import KINDS, database_url
from nightfall.service import FixedClock, GameService
from nightfall.web import Settings, create_app
from webkit import START, Env, Small, csrf_of, small_game

FIELDS = ["action", "option", "text", "phase", "from", "name", "description", "player",
          "mode", "preset", "target", "minutes", "choice", "ruleset", "title", "seed",
          "locale", "timezone", "role_pony", "role_changeling", "opt_early_close",
          "opt_timezone", "first", "second"]
#: the message of a refusal: on the form's page, or on the error page
ERROR = re.compile(r'(<p class="flash error" role="alert" id="error">|<p class="message">)\s*\S')
SETTINGS = settings(max_examples=60, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))

#: any text a browser can send (no lone surrogates: they cannot be UTF-8 encoded)
_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=60)
_huge = st.builds(lambda piece, times: piece * times,
                  st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=4),
                  st.integers(3000, 25_000))
_values = _text | _huge | st.sampled_from([
    "", " ", "\x00", "Ann", "Bob", "*", "advance", "undo", "modkill", "extend", "default",
    "pick", "preset", '[["Bob"],null]', '[[],null]', "[", "null", "-1", "1e9", "99999999999",
    "day 1", "night 1/1", "Europe/Berlin", "Mars/Olympus", "de", "xx", "changelings",
])
_forms = st.dictionaries(st.sampled_from(FIELDS) | _text, _values, max_size=8)


@dataclass
class Site:
    env: Env
    small: Small
    signup: Small
    csrf: str

    def routes(self) -> list[str]:
        p, g = self.small.p("Ann"), self.small.g
        return [f"{p}/act", f"{p}/post", f"{g}/players", f"{g}/withdraw", f"{g}/deal",
                f"{g}/start", f"{g}/act", f"{g}/links", f"{g}/revoke",
                f"/gm/{self.signup.gm}/players", f"/gm/{self.signup.gm}/withdraw",
                f"/gm/{self.signup.gm}/deal", f"/g/{self.signup.game_id}/signup", "/new"]

    def heads(self) -> list[int]:
        store = self.env.service.store
        return [store.meta(g).head_seq for g in (self.small.game_id, self.signup.game_id)]

    def games(self) -> int:
        return len(self.env.service.store.list_games())


@pytest.fixture(params=KINDS)
def site(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Site]:
    """On SQLite and PostgreSQL: some text breaks only one of them (a NUL character was a
    500 on PostgreSQL)."""
    clock = FixedClock(START)
    service = GameService(url=database_url(request.param, tmp_path), clock=clock)
    # no rate limit here: this test is about the fields (tests/web/test_web_rate_limit.py)
    app = create_app(Settings(secret_key="test-secret", base_url="http://testserver",
                              submit_rate=0), service=service)
    env = Env(app, service, clock, TestClient(app))
    small = small_game(env.service)
    signup = small_game(env.service, start=False)
    yield Site(env, small, signup, csrf_of(env.client))
    env.service.engine.dispose()


def _send(site: Site, url: str, fields: dict[str, str]) -> tuple[int, str]:
    response = site.env.client.post(url, data={**fields, "csrf_token": site.csrf},
                                    follow_redirects=False)
    return response.status_code, response.text


def test_random_fields_get_a_page_or_a_refusal_that_changes_nothing(site: Site) -> None:
    @SETTINGS
    @given(st.sampled_from(site.routes()), _forms)
    def check(url: str, fields: dict[str, str]) -> None:
        heads, games = site.heads(), site.games()
        status, text = _send(site, url, fields)
        assert status in (200, 303, 400, 409, 413), (url, fields, status)  # 413: body cap
        if status >= 400:
            assert ERROR.search(text), (url, fields, status)
            assert site.heads() == heads and site.games() == games, (url, fields)

    check()


#: (route, a valid form, the field whose absence or huge value must be refused)
_REFUSED = [
    ("p/act", {"action": "vote", "option": '[["Bob"],null]'}, "option"),
    ("p/act", {"action": "vote", "option": '[["Bob"],null]'}, "action"),
    ("p/post", {"text": "hello"}, "text"),
    ("signup-gm/players", {"name": "Zed"}, "name"),
    ("gm/links", {"player": "Ann"}, "player"),
    ("gm/revoke", {"player": "Ann"}, "player"),
    ("signup-gm/deal", {"mode": "default"}, "mode"),
    ("gm/act", {"action": "extend", "minutes": "60"}, "minutes"),
    ("gm/act", {"action": "modkill", "target": "Bob"}, "target"),
]


@pytest.mark.parametrize(("route", "form", "field"), _REFUSED,
                         ids=[f"{r}-{f}" for r, _, f in _REFUSED])
def test_a_missing_or_huge_field_is_refused_and_changes_nothing(
        site: Site, route: str, form: dict[str, str], field: str) -> None:
    kind, action = route.split("/")
    base = {"p": site.small.p("Ann"), "gm": site.small.g, "signup-gm": site.signup.g}[kind]

    @settings(max_examples=8, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.none() | _huge.filter(lambda value: len(value.strip()) > 10_000))
    def check(value: str | None) -> None:
        heads = site.heads()
        fields = {k: v for k, v in form.items() if k != field}
        if value is not None:
            fields[field] = value
        status, text = _send(site, f"{base}/{action}", fields)
        assert status in (400, 413), (route, field, status)  # 413: over the body cap
        assert ERROR.search(text), (route, field)
        assert site.heads() == heads

    check()


def test_a_null_character_is_refused_in_every_form(site: Site) -> None:
    """NUL in a field that is stored as text was a 500 on PostgreSQL (sign-up description,
    game title, …): every form refuses it with a message, whatever the field."""
    valid = {"name": "Zed", "description": "d", "title": "t", "ruleset": "changelings",
             "text": "hello", "player": "Ann", "action": "extend", "minutes": "60"}
    for url in site.routes():
        for field in ("description", "title", "text", "name"):
            heads, games = site.heads(), site.games()
            status, text = _send(site, url, {**valid, field: "a\x00b"})
            assert status == 400 and ERROR.search(text), (url, field, status)
            assert site.heads() == heads and site.games() == games, (url, field)
    assert site.env.client.get(f"/g/{site.small.game_id}%00").status_code == 404

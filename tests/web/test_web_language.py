"""The pages speak the browser's language and a new game the language of the page it was
created from (issue 18)."""

from __future__ import annotations

import re

import pytest

from webkit import Env, csrf_of


@pytest.mark.parametrize(("header", "locale"), [
    ("de-DE,de;q=0.9,en;q=0.8", "de"),
    ("ru-RU", "ru"),
    ("fr, de;q=0.3, en;q=0.9", "en"),  # by weight, not by the order listed
    ("en;q=0, ru;q=0.2", "ru"),  # q=0: not this one
    ("fr-CA, *;q=0.5", "en"),  # nothing we speak: English
])
def test_home_and_new_game_follow_accept_language(env: Env, header: str, locale: str) -> None:
    for url in ("/", "/new", "/new?ruleset=island"):
        page = env.client.get(url, headers={"Accept-Language": header}).text
        assert f'<html lang="{locale}">' in page, (url, header)


@pytest.mark.parametrize("ruleset", ["island", "changelings"])
def test_a_game_created_from_the_english_page_is_english(env: Env, ruleset: str) -> None:
    headers = {"Accept-Language": "en-GB,en;q=0.9"}
    form = env.client.get(f"/new?ruleset={ruleset}", headers=headers).text
    chosen = re.search(r'<select name="locale">.*?<option value="(\w+)" selected', form, re.S)
    assert chosen is not None and chosen.group(1) == "en"
    csrf = csrf_of(env.client, "/new")
    # the form as the browser sends it: the selected language with the other fields
    response = env.client.post("/new", headers=headers, data={
        "csrf_token": csrf, "ruleset": ruleset, "title": "T", "locale": chosen.group(1)})
    assert response.status_code == 200 and '<html lang="en">' in response.text
    game_id = re.search(r"<code>(\w+)</code>", response.text)
    assert game_id is not None
    assert env.service.load(game_id.group(1)).state.locale == "en"


def test_the_rule_sets_own_language_can_still_be_chosen(env: Env) -> None:
    form = env.client.get("/new?ruleset=island", headers={"Accept-Language": "ru"}).text
    assert re.search(r'<option value="ru" selected>', form)

"""Every private notice and every role reads as a sentence in every language."""

from __future__ import annotations

import pytest

from nightfall.demo import play_demo
from nightfall.i18n import localize
from nightfall.rulesets import get_ruleset

CHANGELINGS = get_ruleset("changelings")
KINDS = {"investigation", "visit", "pending_abduction", "lovers", "replaced", "joined",
         "athlete", "athlete_replaced", "team", "drama_prompt"}


@pytest.mark.parametrize("locale", ["de", "en"])
def test_notices_of_whole_games_render_as_sentences(locale: str) -> None:
    seen: set[str] = set()
    for seed in range(1, 8):
        game = play_demo(seed=seed, locale=locale)
        for notices in game.state.notices.values():
            for notice in notices:
                seen.add(notice["kind"])
                text = CHANGELINGS.notice_text(notice)
                assert text.msgid != "Notice: {kind}", notice
                rendered = localize(text, locale)
                assert "{" not in rendered and rendered.strip()
    assert seen <= KINDS
    assert {"investigation", "pending_abduction", "team"} <= seen


@pytest.mark.parametrize("notice", [
    {"kind": "visit", "target": "Ann", "home": True},
    {"kind": "visit", "target": "Ann", "home": False},
    {"kind": "lovers", "partner": "Ann", "mixed": True},
    {"kind": "replaced"},
    {"kind": "joined", "name": "Ann"},
    {"kind": "athlete", "name": "Ann"},
    {"kind": "athlete_replaced", "name": "Ann"},
    {"kind": "drama_prompt"},
    {"kind": "pending_abduction", "target": None},
])
def test_each_notice_kind_has_its_own_words(notice: dict[str, object]) -> None:
    text = CHANGELINGS.notice_text(notice)
    assert text.msgid != "Notice: {kind}"
    assert localize(text, "de") != localize(text, "en")


def test_every_role_is_explained_in_german_and_english() -> None:
    for role in CHANGELINGS.roles:
        text = CHANGELINGS.role_text(role)
        assert text.msgid != "You are {role}."
        assert localize(text, "de") != localize(text, "en")

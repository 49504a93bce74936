"""Every private notice and every role reads as a sentence in every language."""

from __future__ import annotations

import pytest

from nightfall.demo import play_demo
from nightfall.engine.ruleset import UNKNOWN_NOTICE
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
                assert text.msgid != UNKNOWN_NOTICE, notice
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
    assert text.msgid != UNKNOWN_NOTICE
    assert localize(text, "de") != localize(text, "en")


def test_every_role_is_explained_in_german_and_english() -> None:
    for role in CHANGELINGS.roles:
        text = CHANGELINGS.role_text(role)
        assert text.msgid != "You are {role}."
        assert localize(text, "de") != localize(text, "en")


@pytest.mark.parametrize("ruleset_id,preset", [("changelings", "canterlot-15"),
                                               ("island", "island-12")])
def test_every_resolution_step_has_a_title_in_every_language(ruleset_id: str, preset: str
                                                             ) -> None:
    """The GM's preview and the reveal page name each step of the log by its title (a
    term registered by ``declare_steps``), never by its id; the titles are translated."""
    from nightfall.engine.events import StepTraced
    from nightfall.engine.text import Term, TermNames
    from nightfall.i18n import gettext_for
    from nightfall.sim.play import play_game
    from nightfall.sim.setup import preset_setup

    seen: set[str] = set()
    last_game: list[object] = []
    for seed in range(12):
        play_game(preset_setup(ruleset_id, preset), seed, "heuristic",
                  on_turn=lambda game, *_: last_game.append(game), tracing=True)
        game = last_game[-1]
        seen |= {e.step for e in game.events  # type: ignore[attr-defined]
                 if isinstance(e, StepTraced)}
    assert len(seen) >= 10
    for step in seen:
        title = TermNames.known(Term("step", step))
        assert title is not None and title != step, step
        for locale in ("de", "ru"):
            assert gettext_for(locale)(title) != title, (locale, title)


def test_term_names_of_a_scope_come_first_and_stay_in_it() -> None:
    """Issue 20: a scope's names (a rule file's) are asked before the global table, only
    inside :meth:`TermNames.scoped` (nested scopes restore the outer one), and a thread
    of its own starts in no scope, whatever scope another thread is rendering in."""
    from concurrent.futures import ThreadPoolExecutor

    from nightfall.engine.text import Term, TermNames, Text, render

    oracle = Term("zz_test_role", "seer")
    own = Term("zz_test_role", "owl")
    TermNames.register("zz_test_role", {"seer": "Seer"})
    TermNames.register("zz_test_role", {"seer": "Oracle", "owl": "Owl"}, "rules:a")
    TermNames.register("zz_test_role", {"seer": "Sibyl"}, "rules:b")
    TermNames.register_missing("zz_test_role", {"seer": "not this", "owl": "Owl"})
    said = Text("{who}", {"who": oracle})
    assert (render(said), TermNames.msgid(own)) == ("Seer", "Owl")
    with TermNames.scoped("rules:a"):
        assert render(said) == "Oracle"
        with TermNames.scoped("rules:b"):
            assert (render(said), TermNames.msgid(own)) == ("Sibyl", "Owl")  # falls back
            with ThreadPoolExecutor(max_workers=1) as pool:
                assert pool.submit(render, said).result() == "Seer"
        assert TermNames.current() == "rules:a"
    assert TermNames.current() is None and render(said) == "Seer"
    assert TermNames.known(Term("zz_test_role", "nobody")) is None

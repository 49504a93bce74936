"""What deleting the Python Changelings plugin relies on (issue 20): a log the plugin
wrote — a stored game of rule set ``changelings`` — folds with the shipped data file into
the very state the plugin gave, so ``get_ruleset("changelings")`` may then return the
data rule set and every stored game replays; and no page needs the plugin's status post."""

from __future__ import annotations

import pytest

from nightfall.engine import Game
from nightfall.i18n import gettext_for
from nightfall.rulefile.ruleset import shipped
from nightfall.rulefile.status_post import status_post_of
from nightfall.rulesets import get_ruleset
from nightfall.sim.play import replay_game
from nightfall.sim.setup import Setup

PYTHON = get_ruleset("changelings")
DATA = shipped("changelings-data")


@pytest.mark.parametrize("seed", range(8))
def test_a_plugin_log_folds_with_the_data_file_into_the_plugins_state(seed: int) -> None:
    roles = tuple(PYTHON.roles_for(6 + 4 * seed))
    options = {"first_day_banishment": seed % 2 == 1, "raven_vote_persists": seed % 3 == 1}
    python = replay_game(Setup("p", "changelings", roles, options), seed,
                         "heuristic" if seed % 2 else "random")
    assert "rules_file" not in python.events[0].options  # as stored plugin games are
    folded = Game.from_events(DATA, python.events)
    assert folded.state == python.state and folded.state.ruleset == "changelings"
    for name in [None, *python.state.players]:
        assert folded.view(name) == python.view(name)
    post = status_post_of(PYTHON)
    assert post is not None and post is DATA.status_post
    assert post.render(folded.state, gettext_for("de")) == post.render(python.state,
                                                                       gettext_for("de"))


def test_every_ability_is_explained_under_its_form_as_the_plugin_explains_it() -> None:
    from nightfall.web.explain import action_explanation

    for action in DATA.file.abilities:  # the same ids as the plugin's (the legality test)
        assert action_explanation(DATA, action) == action_explanation(PYTHON, action), action
    assert action_explanation(DATA, "elect") is not None


def test_an_explanation_that_names_no_text_is_refused_by_key_and_line() -> None:
    from nightfall.rulefile.load import RuleFileError, parse_source
    from nightfall.rulefile.ruleset import compile_rules

    data = DATA.source.data.replace(b"explain: explain_elect", b"explain: explain_elekt")
    with pytest.raises(RuleFileError) as caught:
        compile_rules(parse_source(data), register_terms=False)
    (problem,) = caught.value.problems
    assert problem.key == "abilities.elect.explain" and problem.message == (
        "unknown text 'explain_elekt'")
    assert problem.line == data[:data.index(b"explain_elekt")].count(b"\n") + 1

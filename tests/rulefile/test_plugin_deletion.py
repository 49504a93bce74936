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

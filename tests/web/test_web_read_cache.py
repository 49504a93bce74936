"""What the web server remembers per game head (``Loaded.remember``, docs/performance.md):
each player's projection and legal commands are kept under his name, so two players
reading the same head each get their own — equal to a fresh projection — and a new head
(a command) is seen at once; the public thread is the same for every reader."""

from __future__ import annotations

import re
from typing import Any

from nightfall.engine import Command
from nightfall.engine.text import to_data
from nightfall.web.pages import paged_view
from webkit import Env, Small


def fresh(env: Env, small: Small, name: str) -> dict[str, Any]:
    game = env.service.load(small.game_id)
    view = to_data(game.view(name))
    assert isinstance(view, dict)
    return {"view": paged_view(view, None),  # the API answers the newest page of the thread
            "legal": [{"action": c.action, "targets": list(c.all_targets), "choice": c.choice}
                      for c in game.legal_commands(name)]}


def api(env: Env, small: Small, name: str) -> dict[str, Any]:
    answer = env.client.get(f"/api/p/{small.tokens[name]}").json()
    return {"view": answer["view"], "legal": answer["legal"]}


def test_each_player_gets_his_own_projection_of_a_shared_head(env: Env, small: Small) -> None:
    for _ in range(2):  # the second round is answered from what the first computed
        for name in ("Ann", "Bob", "Cid"):
            assert api(env, small, name) == fresh(env, small, name), name
    derived = env.service.store.games.get(small.game_id).derived  # type: ignore[union-attr]
    assert {("view", "Ann"), ("view", "Bob"), ("legal", "Bob")} <= set(derived)
    bob = env.client.get(small.p("Bob")).text
    ann = env.client.get(small.p("Ann")).text
    assert "Your fellow changelings" in bob and "Your fellow changelings" not in ann
    assert 'data-role="changeling"' in bob and 'data-role="changeling"' not in ann

    env.service.submit(small.game_id, Command("elect", by="Ann", target="Cid"))
    assert api(env, small, "Ann") == fresh(env, small, "Ann")  # the new head, at once
    assert api(env, small, "Ann")["view"]["me"]["submissions"]
    for name in ("Ann", "Bob"):
        thread = env.client.get(small.p(name) + "/thread").text
        assert re.search(r'<li class="post vote" id="e-\d+" data-player="Ann">', thread), name

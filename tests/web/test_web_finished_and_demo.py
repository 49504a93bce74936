"""Finished games are listed on the start page, and ``./run`` reuses its demo game instead
of dealing one more each time (issue 18)."""

from __future__ import annotations

from nightfall.web.demo import DEMO_TITLE, ensure_demo, links_text
from webkit import Env, Small


def test_the_start_page_lists_finished_games(env: Env, small: Small) -> None:
    assert "No game has finished yet." in env.client.get("/").text
    for name in ("Bob",):  # the only changeling: the ponies win (C1)
        env.service.gm(small.game_id, "modkill", target=name)
    assert env.service.load(small.game_id).state.ended
    home = env.client.get("/").text
    finished = home.split('id="finished-games"', 1)[1].split("</ul>", 1)[0]
    assert f'href="/g/{small.game_id}/reveal"' in finished and "Small" in finished
    running = home.split("Running games", 1)[1].split("Finished games", 1)[0]
    assert small.game_id not in running


def test_the_demo_game_is_reused_with_new_links(env: Env) -> None:
    first = ensure_demo(env.service)
    assert not first.reused
    again = ensure_demo(env.service)
    assert again.reused and again.game_id == first.game_id
    assert len([g for g in env.service.store.list_games() if g.title == DEMO_TITLE]) == 1
    text = links_text(again, "http://host:1")
    assert "an earlier run dealt" in text and "the old links no longer work" in text
    assert f"http://host:1/gm/{again.gm_token}" in text
    # the new links work, the old ones are gone
    assert env.client.get(f"/gm/{again.gm_token}").status_code == 200
    assert env.client.get(f"/gm/{first.gm_token}").status_code == 404
    assert env.client.get(f"/p/{again.tokens['Mochi']}").status_code == 200
    assert env.client.get(f"/p/{first.tokens['Mochi']}").status_code == 404
    # asked for, or once the old one is over, a fresh one is dealt
    fresh = ensure_demo(env.service, fresh=True)
    assert not fresh.reused and fresh.game_id != first.game_id

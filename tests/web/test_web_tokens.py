"""The GM revokes and reissues players' links on the dashboard: a revoked link gets the
same 404 as an unknown one; a reissued link is shown once, works, and the old one not."""

from __future__ import annotations

import re

from webkit import Env, Small, csrf_of

LINK = re.compile(r'value="http://testserver(/p/[^"]+)"')


def not_found_page(env: Env, url: str, token: str) -> tuple[int, str]:
    response = env.client.get(url)
    return response.status_code, response.text.replace(token, "TOKEN")


def test_revoke_answers_like_an_unknown_link_until_a_new_one(env: Env, small: Small) -> None:
    old = small.tokens["Ann"]
    csrf = csrf_of(env.client, small.g)
    head = env.service.meta(small.game_id).head_seq
    response = env.client.post(small.g + "/revoke", data={"csrf_token": csrf, "player": "Ann"})
    assert response.status_code == 200
    assert "The private link of Ann no longer works." in response.text
    assert env.service.meta(small.game_id).head_seq == head  # the game itself is untouched
    unknown = "x" * len(old)
    for suffix in ("", "/thread", "/events"):
        assert not_found_page(env, f"/p/{old}{suffix}", old) == not_found_page(
            env, f"/p/{unknown}{suffix}", unknown)
        assert env.client.get(f"/p/{old}{suffix}").status_code == 404
    assert env.client.get(f"/api/p/{old}").status_code == 404
    posted = env.client.post(f"/p/{old}/post", data={"csrf_token": csrf, "text": "still here?"})
    assert posted.status_code == 404
    assert env.client.get(small.p("Bob")).status_code == 200  # nobody else's link

    page = env.client.post(small.g + "/links", data={"csrf_token": csrf, "player": "Ann"})
    found = LINK.search(page.text)
    assert page.status_code == 200 and found is not None
    new = found.group(1)
    assert "Your role" in env.client.get(new).text
    assert env.client.get(f"/p/{old}").status_code == 404
    assert new not in env.client.get(small.g).text  # shown once, never again


def test_revoke_needs_a_player_of_the_game(env: Env, small: Small) -> None:
    csrf = csrf_of(env.client, small.g)
    for who in ("", "Zed", "*", "x" * 500):
        response = env.client.post(small.g + "/revoke", data={"csrf_token": csrf,
                                                              "player": who})
        assert response.status_code == 400 and "Choose a player." in response.text
    assert env.client.get(small.p("Ann")).status_code == 200

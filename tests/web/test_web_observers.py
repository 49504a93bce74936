"""I6.7 on the web: the dead and observers chat in the Island thread, marked as such.

The GM makes an observer link on the dashboard (shown once; revoked and reissued like a
player's link); the observer's page is the public thread with a post form and nothing
more; a dead player keeps his post form; Changelings keeps the thread for the living
(C2.7) and offers no observer links."""

from __future__ import annotations

import json
import re

import pytest

from nightfall.engine import Command, Rejected
from webkit import Env, csrf_of, small_game

ROLES = {"Ann": "werewolf", "Bob": "seer", "Cid": "passenger", "Dee": "passenger",
         "Eve": "passenger"}
LINK = re.compile(r'value="http://testserver(/o/[^"]+)"')


def island_game(env: Env, locale: str = "en") -> tuple[str, str, dict[str, str]]:
    svc = env.service
    created = svc.create("island", 5, {"random_events": False, "items_per_player": 0},
                         locale)
    tokens = {name: svc.signup(created.id, name) for name in ROLES}
    svc.assign(created.id, ROLES)
    svc.start(created.id)
    return created.id, created.gm_token, tokens


def make_observer(env: Env, gm: str, name: str = "Zoe") -> str:
    csrf = csrf_of(env.client, f"/gm/{gm}")
    page = env.client.post(f"/gm/{gm}/observers", data={"csrf_token": csrf, "name": name})
    assert page.status_code == 200, page.text
    found = LINK.search(page.text)
    assert found is not None, "the new observer link is shown once"
    return found.group(1)


def test_the_gm_lets_an_observer_in_who_posts_marked_and_sees_the_public_view(
        env: Env) -> None:
    game_id, gm, _ = island_game(env)
    dashboard = env.client.get(f"/gm/{gm}").text
    assert 'id="observers"' in dashboard and 'id="add-observer"' in dashboard
    url = make_observer(env, gm)
    page = env.client.get(url)
    assert page.status_code == 200
    assert page.headers["Cache-Control"] == "no-store"
    assert 'id="observer-note"' in page.text and 'class="post-form"' in page.text
    assert 'data-action="vote"' not in page.text  # he never votes or acts
    csrf = csrf_of(env.client, url)
    answer = env.client.post(url + "/post", data={"csrf_token": csrf, "text": "*watches*"},
                             follow_redirects=False)
    assert answer.status_code == 303
    thread = env.client.get(f"/g/{game_id}").text
    assert 'data-player="Zoe" data-voice="observer"' in thread
    assert "(observer)" in thread and 'class="action">*watches*' in thread
    # his view is the public one: no role of a living player, no notice, no "me"
    view = env.client.get("/api" + url).json()
    assert view["observer"] == "Zoe" and "me" not in view["view"]
    assert all(p["role"] is None for p in view["view"]["players"])
    assert view["view"] == {**env.client.get(f"/api/g/{game_id}").json()["view"],
                            "observer": {"name": "Zoe"}}
    text = json.dumps(view, ensure_ascii=False)
    assert "werewolf" not in text and "seer" not in text
    assert "werewolf" not in page.text and "Werewolf" not in page.text
    # the dashboard lists him with a working link
    assert 'data-observer="Zoe"' in env.client.get(f"/gm/{gm}").text


def test_an_observer_cannot_vote_through_a_crafted_form(env: Env) -> None:
    game_id, gm, _ = island_game(env)
    url = make_observer(env, gm)
    head = env.service.meta(game_id).head_seq
    csrf = csrf_of(env.client, url)
    # there is no action route for observers, and the player's routes do not take his link
    token = url.removeprefix("/o/")
    assert env.client.post(f"/p/{token}/act", data={
        "csrf_token": csrf, "action": "vote", "option": '[["Ann"],null]'}).status_code == 404
    assert env.client.post(f"/o/{token}/act", data={
        "csrf_token": csrf, "action": "vote", "option": '[["Ann"],null]'}).status_code in (
        404, 405)
    assert env.service.meta(game_id).head_seq == head
    # and the engine refuses him anything but a post, in words
    with pytest.raises(Rejected, match="never votes or acts"):
        env.service.submit(game_id, Command("vote", by="Zoe", target="Ann"))


def test_observer_links_are_revoked_and_reissued_like_players_links(env: Env) -> None:
    _game_id, gm, _ = island_game(env)
    old = make_observer(env, gm)
    csrf = csrf_of(env.client, f"/gm/{gm}")
    answer = env.client.post(f"/gm/{gm}/observers/link", data={
        "csrf_token": csrf, "name": "Zoe", "op": "revoke"}, follow_redirects=False)
    assert answer.status_code == 303
    assert env.client.get(old).status_code == 404
    assert "revoked" in env.client.get(f"/gm/{gm}").text
    page = env.client.post(f"/gm/{gm}/observers/link", data={
        "csrf_token": csrf, "name": "Zoe", "op": "new"})
    found = LINK.search(page.text)
    assert found is not None and found.group(1) != old
    assert env.client.get(found.group(1)).status_code == 200
    assert env.client.get(old).status_code == 404
    for bad in ({"name": "Ann", "op": "new"}, {"name": "Nobody", "op": "revoke"},
                {"name": "Zoe", "op": "explode"}):
        answer = env.client.post(f"/gm/{gm}/observers/link", data={"csrf_token": csrf, **bad})
        assert answer.status_code == 400 and "Choose an observer." in answer.text


def test_a_taken_name_is_refused_in_the_gms_language(env: Env) -> None:
    game_id, gm, _ = island_game(env, "ru")
    make_observer(env, gm)
    csrf = csrf_of(env.client, f"/gm/{gm}")
    head = env.service.meta(game_id).head_seq
    for name in ("zoe", "ANN", "***"):
        answer = env.client.post(f"/gm/{gm}/observers", data={"csrf_token": csrf, "name": name},
                                 params={"lang": "ru"})
        assert answer.status_code == 400, name
        assert ("уже занято" in answer.text or "хотя бы одна буква" in answer.text), name
    assert env.service.meta(game_id).head_seq == head


def test_a_dead_player_keeps_posting_marked_as_dead(env: Env) -> None:
    game_id, _gm, tokens = island_game(env)
    env.service.gm(game_id, "modkill", target="Cid")
    page = env.client.get(f"/p/{tokens['Cid']}/thread")
    assert 'class="post-form"' in page.text and 'id="thread-closed"' not in page.text
    csrf = csrf_of(env.client, f"/p/{tokens['Cid']}/thread")
    answer = env.client.post(f"/p/{tokens['Cid']}/post",
                             data={"csrf_token": csrf, "text": "Boo from beyond"},
                             follow_redirects=False)
    assert answer.status_code == 303
    thread = env.client.get(f"/g/{game_id}", params={"lang": "ru"}).text
    assert 'data-player="Cid" data-voice="dead"' in thread and "(из мёртвых)" in thread
    # he still has no vote or move on his page
    assert 'data-action="vote"' not in env.client.get(f"/p/{tokens['Cid']}").text


def test_changelings_keeps_the_thread_for_the_living(env: Env) -> None:
    small = small_game(env.service)
    dashboard = env.client.get(small.g).text
    assert 'id="observers"' not in dashboard
    csrf = csrf_of(env.client, small.g)
    head = env.service.meta(small.game_id).head_seq
    answer = env.client.post(small.g + "/observers", data={"csrf_token": csrf, "name": "Zoe"})
    assert answer.status_code == 400
    assert "let no observers into the thread" in answer.text
    assert env.service.meta(small.game_id).head_seq == head
    env.service.gm(small.game_id, "modkill", target="Eve")
    page = env.client.get(small.p("Eve") + "/thread").text
    assert 'id="thread-closed"' in page and "(C2.7)" in page

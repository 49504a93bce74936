"""The GM page's "Forum thread": link the game to a thread served by a local HTTP server,
count it on demand (every page read, kept with hashes and times), submit the counted
votes, see the count the scheduler makes at the vote deadline; bad input is refused with
a clear message and changes nothing; cookie values are never shown again, and nothing of
it reaches a player's page."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from selectolax.lexbor import LexborHTMLParser

from forum.forumserver import ForumServer, forum_server
from forum.threadkit import day_thread, xf2_pages
from nightfall.forum.fetch import Credentials, Limits
from webkit import ROLES, START, Env, csrf_of, make_env, small_game

SECRET = "s3cr3t-cookie-value"
THREAD = "/threads/changelings-9-day-2.3301/"


@pytest.fixture
def server() -> Iterator[ForumServer]:
    posts = day_thread(START + timedelta(hours=1), list(ROLES), [
        ("Ann", "Cid"), ("Bob", "Cid"), ("Cid", "Dee"), ("Dee", "Cid"), ("Eve", "Ann")],
        extra=6)

    def setup(server: ForumServer) -> None:
        for target, body in xf2_pages(posts).items():
            server.serve(target, body.replace("{base}", server.url("")),
                         cookie=f"xf_session={SECRET}")
        server.serve("/login-wall", b"", status=302, location="/login/")

    with forum_server(setup) as running:
        yield running


def env_for(tmp_path: Path) -> Env:
    env = make_env(tmp_path)
    env.app.state.forum.limits = Limits(delay=0.01, timeout=3.0)
    return env


def test_link_count_and_submit(tmp_path: Path, server: ForumServer) -> None:
    env = env_for(tmp_path)
    game = small_game(env.service)
    token = csrf_of(env.client, game.g)
    linked = env.client.post(f"{game.g}/forum", data={
        "csrf_token": token, "url": server.url(THREAD + "page-2"),
        "cookies": f"xf_session={SECRET}", "auto_submit": "on", "review_minutes": "15"},
        follow_redirects=True)
    assert linked.status_code == 200
    assert "xf_session" in linked.text and SECRET not in linked.text  # names only
    counted = env.client.post(f"{game.g}/forum/count", data={"csrf_token": token})
    assert counted.status_code == 200, counted.text
    tree = LexborHTMLParser(counted.text)
    entry = tree.css_first("#forum-thread details.forum-count-entry")
    assert entry is not None and entry.attributes["data-status"] == "counted"
    tally = {row.attributes["data-player"]: row.attributes["data-votes"]
             for row in entry.css("table.tally tr[data-player]")}
    assert tally == {"Cid": "3", "Dee": "1", "Ann": "1"}
    pages = entry.css("table.forum-pages tbody tr")
    assert len(pages) == 3 and all(p.attributes["data-status"] == "200" for p in pages)
    assert all(len(p.css_first("code").attributes["title"] or "") == 64 for p in pages)
    form = entry.css_first("form.votecount-submit")
    assert form is not None and SECRET not in counted.text
    fields = {i.attributes["name"]: i.attributes.get("value") or ""
              for i in form.css("input[type=hidden]")}
    done = env.client.post(f"{game.g}/votecount/submit", data=fields)
    assert done.status_code == 200
    state = env.service.load(game.game_id).state
    assert {s.player: s.target for s in state.submissions_in("elect")} == {
        "Ann": "Cid", "Bob": "Cid", "Cid": "Dee", "Dee": "Cid", "Eve": "Ann"}  # C5.1
    for page in (game.p("Ann"), f"/api/p/{game.tokens['Ann']}", f"/g/{game.game_id}",
                 f"/g/{game.game_id}/status", f"/api/g/{game.game_id}"):
        shown = env.client.get(page).text  # nothing of the link or its counts
        assert SECRET not in shown and "xf_session" not in shown, page
        assert "forum-thread" not in shown and server.url(THREAD) not in shown, page


def test_the_deadline_count_is_shown(tmp_path: Path, server: ForumServer) -> None:
    env = env_for(tmp_path)
    game = small_game(env.service)
    env.app.state.forum.link(game.game_id, server.url(THREAD),
                             Credentials.parse([f"xf_session={SECRET}"]), True, 0)
    deadline = env.service.load(game.game_id).state.deadline
    assert deadline is not None
    env.clock.set(deadline + timedelta(minutes=1))
    early = env.client.get(game.g)  # a page load after the vote stop: the read is claimed,
    assert early.status_code == 200  # the stage is not closed without it
    assert env.service.load(game.game_id).state.phase_label == "day 1"
    assert 'data-status="reading"' in env.client.get(game.g).text
    env.service.tick_due()  # the scheduler's pass: reads, submits, closes
    state = env.service.load(game.game_id).state
    assert "leader" in state.players["Cid"].statuses  # the thread's votes elected him
    page = env.client.get(game.g)
    entry = LexborHTMLParser(page.text).css_first("details.forum-count-entry")
    assert entry is not None and entry.attributes["data-automatic"] == "yes"
    outcomes = {li.attributes["data-voter"]: li.attributes["data-outcome"]
                for li in entry.css("ul.forum-submitted li")}
    assert outcomes == dict.fromkeys(ROLES, "submitted")


def test_bad_input_changes_nothing(tmp_path: Path, server: ForumServer) -> None:
    env = env_for(tmp_path)
    game = small_game(env.service)
    token = csrf_of(env.client, game.g)
    bad_url = env.client.post(f"{game.g}/forum", data={"csrf_token": token,
                                                       "url": "javascript:alert(1)"})
    assert bad_url.status_code == 400 and env.app.state.forum.get(game.game_id) is None
    bad_cookie = env.client.post(f"{game.g}/forum", data={
        "csrf_token": token, "url": server.url(THREAD), "cookies": "no equals sign"})
    assert bad_cookie.status_code == 400 and "NAME=VALUE" in bad_cookie.text
    assert env.app.state.forum.get(game.game_id) is None
    not_linked = env.client.post(f"{game.g}/forum/count", data={"csrf_token": token})
    assert not_linked.status_code == 409
    env.client.post(f"{game.g}/forum", data={"csrf_token": token,
                                             "url": server.url("/login-wall")})
    head = len(env.service.store.events(game.game_id))
    wall = env.client.post(f"{game.g}/forum/count", data={"csrf_token": token})
    assert wall.status_code == 502 and "login" in wall.text
    closed = env.client.post(f"{game.g}/forum", data={"csrf_token": token,
                                                      "url": server.url(THREAD)},
                             follow_redirects=True)
    assert closed.status_code == 200
    refused = env.client.post(f"{game.g}/forum/count", data={"csrf_token": token})
    assert refused.status_code == 502 and "403" in refused.text
    assert len(env.service.store.events(game.game_id)) == head  # nothing changed
    gone = env.client.post(f"{game.g}/forum/unlink", data={"csrf_token": token},
                           follow_redirects=True)
    assert gone.status_code == 200 and env.app.state.forum.get(game.game_id) is None

"""The GM page of a rule file's game (the classic Werwolf, K3.1) shows the forum vote
count and the forum thread sections, as a plugin's game does, because the file says how
its votes are written (``forum_votes:``); linked to a thread served by a local HTTP
server, the page counts it and submits the counted votes into the game."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from selectolax.lexbor import LexborHTMLParser

from forum.forumserver import ForumServer, forum_server
from forum.threadkit import day_thread, phpbb_pages
from nightfall.forum.fetch import Limits
from webkit import START, Env, Small, csrf_of, make_env

ROLES = {"Anna": "werewolf", "Bert": "werewolf", "Clara": "seer", "Dora": "witch",
         "Emil": "hunter", "Frida": "villager", "Gustav": "villager"}
VOTES = [("Clara", "Anna"), ("Dora", "Anna"), ("Frida", "Bert"), ("Anna", "Frida")]
THREAD = "/viewtopic.php?f=3&t=77"


@pytest.fixture
def server() -> Iterator[ForumServer]:
    posts = day_thread(START + timedelta(minutes=1), list(ROLES), VOTES, extra=4)

    def setup(server: ForumServer) -> None:
        for target, body in phpbb_pages(posts).items():
            server.serve(target, body.replace("{base}", server.url("")))

    with forum_server(setup) as running:
        yield running


def classic_day(env: Env) -> Small:
    created = env.service.create("werwolf-classic", 5, {"early_close": False}, "de",
                                 title="Düsterwald")
    game = Small(created.id, created.gm_token)
    for name in ROLES:
        game.tokens[name] = env.service.signup(created.id, name)
    env.service.assign(created.id, ROLES)
    env.service.start(created.id)
    while env.service.load(created.id).state.phase.kind != "day":
        env.service.gm(created.id, "advance")
    return game


def test_the_gm_page_of_a_data_game_counts_its_thread(tmp_path: Path,
                                                     server: ForumServer) -> None:
    env = make_env(tmp_path)
    env.app.state.forum.limits = Limits(delay=0.01, timeout=3.0)
    game = classic_day(env)
    page = LexborHTMLParser(env.client.get(game.g).text)
    assert page.css_first("section#forum-thread") is not None
    assert page.css_first("section#votecount") is not None
    token = csrf_of(env.client, game.g)
    linked = env.client.post(f"{game.g}/forum", data={
        "csrf_token": token, "url": server.url(THREAD), "review_minutes": "0"},
        follow_redirects=True)
    assert linked.status_code == 200, linked.text
    counted = env.client.post(f"{game.g}/forum/count", data={"csrf_token": token})
    assert counted.status_code == 200, counted.text
    entry = LexborHTMLParser(counted.text).css_first("#forum-thread details.forum-count-entry")
    assert entry is not None and entry.attributes["data-status"] == "counted"
    tally = {row.attributes["data-player"]: row.attributes["data-votes"]
             for row in entry.css("table.tally tr[data-player]")}
    assert tally == {"Anna": "2", "Bert": "1", "Frida": "1"}
    assert "Werwolf (classic)" in counted.text  # the file's title heads the count post
    form = entry.css_first("form.votecount-submit")
    assert form is not None
    fields = {i.attributes["name"]: i.attributes.get("value") or ""
              for i in form.css("input[type=hidden]")}
    done = env.client.post(f"{game.g}/votecount/submit", data=fields)
    assert done.status_code == 200
    state = env.service.load(game.game_id).state
    assert {s.player: s.target for s in state.submissions.values()} == dict(VOTES)


def test_a_file_without_forum_votes_shows_no_forum_sections(tmp_path: Path) -> None:
    """The same classic file with its ``forum_votes:`` section cut out, uploaded: the
    game is played as ever, but its GM page offers no forum count, and a count sent
    anyway is refused without changing anything."""
    from nightfall.rulefile.ruleset import SHIPPED

    text = SHIPPED["werwolf-classic"].read_text(encoding="utf-8")
    start = text.index("forum_votes:\n")
    end = text.index("\n\n", start)
    data = (text[:start] + text[end + 2:]).replace(", forum_votes]", "]")
    env = make_env(tmp_path)
    created = env.service.create_from_rules(
        data.replace("id: werwolf-classic", "id: werwolf-upload").encode(), 5,
        {"early_close": False}, "de")
    game = Small(created.id, created.gm_token)
    for name in ROLES:
        env.service.signup(created.id, name)
    env.service.assign(created.id, ROLES)
    env.service.start(created.id)
    while env.service.load(created.id).state.phase.kind != "day":
        env.service.gm(created.id, "advance")
    page = LexborHTMLParser(env.client.get(game.g).text)
    assert page.css_first("section#votecount") is None
    assert page.css_first("section#forum-thread") is None
    head = env.service.meta(created.id).head_seq
    token = csrf_of(env.client, game.g)
    refused = env.client.post(f"{game.g}/forum", data={
        "csrf_token": token, "url": "http://127.0.0.1:9/viewtopic.php?t=1"})
    assert refused.status_code == 409
    assert env.app.state.forum.get(created.id) is None
    assert env.service.meta(created.id).head_seq == head

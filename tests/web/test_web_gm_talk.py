"""The game master speaks on the web: "Post as game master" puts a post in the thread,
styled as his; "Message to a player" reaches that player's page and nobody else's (no
other page, view, status post or API answer). Texts are escaped; refusals keep the draft;
a player's forged form naming a GM act is refused."""

from __future__ import annotations

import re

from nightfall.engine import Command
from nightfall.engine import events as ev
from nightfall.web.routes.sse import classify
from webkit import Env, Small, csrf_of

SECRET = "Your lantern was <b>confiscated</b> — gm-secret-4711"


def gm_post(env: Env, small: Small, **fields: str) -> tuple[int, str]:
    csrf = csrf_of(env.client, small.g)
    response = env.client.post(small.g + "/act", data={"csrf_token": csrf, **fields},
                               follow_redirects=False)
    return response.status_code, response.text


def thread_items(html: str) -> list[str]:
    """The thread's posts in order (not the announcements), each as "class|who|body"
    without tags."""
    items = re.findall(r'<li class="(post[^"]*)"[^>]*>\s*<div class="who">(.*?)</div>\s*'
                       r'<div class="body">(.*?)</div>', html, re.S)
    return [f"{cls}|{who.strip()}|{re.sub(r'<[^>]+>', '', body).strip()}"
            for cls, who, body in items if "announcement" not in cls]


def test_the_dashboard_offers_both_forms_outside_the_live_part(env: Env, small: Small) -> None:
    page = env.client.get(small.g).text
    assert 'id="gm-say"' in page and 'id="gm-tell"' in page
    # after the live-updated block (a live refresh must not wipe a text being written)
    assert page.index('id="talk"') > page.index('id="announcements"')
    tell = page[page.index('id="gm-tell"'):]
    assert all(f"<option>{name}</option>" in tell for name in ("Ann", "Bob", "Eve"))


def test_a_gm_post_is_in_the_thread_in_order_styled_and_escaped(env: Env, small: Small) -> None:
    env.service.submit(small.game_id, Command("post", by="Ann", text="Morning!"))
    status, _ = gm_post(env, small, action="say",
                        text="  Night falls over *Ponyville*. <script>alert(1)</script>\n")
    assert status == 303
    env.service.submit(small.game_id, Command("post", by="Bob", text="Brr."))
    for url in (f"/g/{small.game_id}", small.p("Cid") + "/thread"):
        html = env.client.get(url).text
        assert thread_items(html) == [
            "post|Ann|Morning!",
            "post gm-post|Game master|Night falls over *Ponyville*. "
            "&lt;script&gt;alert(1)&lt;/script&gt;",
            "post|Bob|Brr.",
        ], url
        assert "<script>alert(1)" not in html
        assert '<em class="action">*Ponyville*</em>' in html  # the thread's markup rules
    german = env.client.get(f"/g/{small.game_id}?lang=de").text
    assert "post gm-post|Spielleitung|" in "\n".join(thread_items(german))
    russian = env.client.get(f"/g/{small.game_id}?lang=ru").text
    assert "post gm-post|Ведущий|" in "\n".join(thread_items(russian))
    api = env.client.get(f"/api/g/{small.game_id}").json()["view"]["thread"]
    assert api[1] == {"player": None, "phase": "day 1", "gm": True,
                      "text": "Night falls over *Ponyville*. <script>alert(1)</script>"}


def test_the_gm_posts_at_night_when_the_players_cannot(env: Env, small: Small) -> None:
    env.service.gm(small.game_id, "advance")
    assert env.service.load(small.game_id).state.phase.kind == "night"
    assert 'id="thread-closed"' in env.client.get(small.p("Ann") + "/thread").text
    status, _ = gm_post(env, small, action="say", text="The moon rises.")
    assert status == 303
    assert "post gm-post|Game master|The moon rises." in thread_items(
        env.client.get(f"/g/{small.game_id}").text)


def test_only_the_target_reads_the_message(env: Env, small: Small) -> None:
    status, _ = gm_post(env, small, action="tell", target="Ann", text=SECRET)
    assert status == 303
    ann = env.client.get(small.p("Ann")).text
    assert "Message from the game master:" in ann
    assert "Your lantern was &lt;b&gt;confiscated&lt;/b&gt; — gm-secret-4711" in ann
    assert "<b>confiscated</b>" not in ann
    notices = env.client.get("/api" + small.p("Ann")).json()["view"]["me"]["notices"]
    assert {"kind": "gm_message", "text": SECRET} in notices
    assert "gm-secret-4711" in env.client.get(small.g).text  # the GM's "Messages sent"
    elsewhere = [f"/g/{small.game_id}", f"/g/{small.game_id}/status",
                 f"/api/g/{small.game_id}"]
    for name in ("Bob", "Cid", "Dee", "Eve"):
        elsewhere += [small.p(name), small.p(name) + "/thread", "/api" + small.p(name)]
    for url in elsewhere:
        response = env.client.get(url)
        assert response.status_code == 200, url
        assert "gm-secret-4711" not in response.text, url
    assert env.client.get(f"/g/{small.game_id}/reveal").status_code == 403
    german = env.client.get(small.p("Ann") + "?lang=de").text
    assert "Nachricht von der Spielleitung:" in german


def test_a_departed_player_may_be_told(env: Env, small: Small) -> None:
    env.service.gm(small.game_id, "modkill", target="Eve")
    status, _ = gm_post(env, small, action="tell", target="Eve", text="Sorry, gm-secret-5")
    assert status == 303
    assert "gm-secret-5" in env.client.get(small.p("Eve")).text


def test_refusals_say_why_keep_the_draft_and_change_nothing(env: Env, small: Small) -> None:
    head = env.service.meta(small.game_id).head_seq
    for fields, message in [
        ({"action": "say", "text": "   "}, "A post needs some text."),
        ({"action": "say", "text": "x" * 10_001},
         "The text is too long (at most 10000 characters)."),
        ({"action": "tell", "target": "Ann", "text": ""}, "A message needs some text."),
        ({"action": "tell", "target": "Zed", "text": "draft-for-zed"},
         "There is no player called Zed."),
        ({"action": "tell", "text": "draft-for-nobody"}, "Choose a player."),
    ]:
        status, text = gm_post(env, small, **fields)
        assert status == 400 and message in text, (fields["action"], text[:300])
        if fields["text"].startswith("draft"):
            assert fields["text"] + "</textarea>" in text  # the GM's text is kept
    assert env.service.meta(small.game_id).head_seq == head


def test_a_player_cannot_speak_as_the_game_master(env: Env, small: Small) -> None:
    head = env.service.meta(small.game_id).head_seq
    for action in ("say", "tell", "advance", "modkill"):
        csrf = csrf_of(env.client, small.p("Ann"))
        response = env.client.post(small.p("Ann") + "/act", data={
            "csrf_token": csrf, "action": action, "option": '[["Bob"],null]',
            "text": "I am the game master now"}, follow_redirects=False)
        assert response.status_code == 303, action
        assert response.headers["X-Nightfall-Result"] == "error", action
        assert "Only the game master can do that." in env.client.get(small.p("Ann")).text
    assert env.service.meta(small.game_id).head_seq == head


def test_the_gm_speaks_after_the_end(env: Env, small: Small) -> None:
    env.service.gm(small.game_id, "modkill", target="Bob")  # the only changeling
    assert env.service.load(small.game_id).state.ended
    page = env.client.get(small.g).text
    assert 'id="gm-say"' in page
    status, _ = gm_post(env, small, action="say", text="Well played!")
    assert status == 303
    assert "post gm-post|Game master|Well played!" in thread_items(
        env.client.get(f"/g/{small.game_id}").text)
    gm_post(env, small, action="tell", target="Bob", text="gm-secret-after-end")
    reveal = env.client.get(f"/g/{small.game_id}/reveal").text  # everything is revealed
    assert "Message from the game master: gm-secret-after-end" in reveal


def test_live_streams_name_a_gm_post_and_a_message_only_to_its_reader() -> None:
    post = ev.GmPosted("day 1", "hello")
    told = ev.NoticeSent("Ann", {"kind": "gm_message", "text": "psst"})
    assert classify(post, None, False, frozenset()) == {"post"}
    assert classify(told, "Ann", False, frozenset()) == {"notice"}
    assert classify(told, "Bob", False, frozenset()) == set()
    assert classify(told, None, False, frozenset()) == set()
    assert classify(ev.GmActed("tell", "Ann"), "Bob", False, frozenset()) == set()

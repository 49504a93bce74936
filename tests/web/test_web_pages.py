"""What the pages show: the thread with the role-play conventions and highlighted votes,
the private page, the GM dashboard with its preview, status post, reveal, live updates,
languages."""

from __future__ import annotations

from test_web_security import play_first_night

from nightfall.engine import Command
from nightfall.web.markup import roleplay
from nightfall.web.routes.sse import classify
from webkit import ROLES, Env, Small, csrf_of


def test_roleplay_conventions() -> None:
    html = str(roleplay("Hi *waves* **tired** ((brb)) //hmm// <script>x</script> "
                        "https://example.org/a//b 2*3*4"))
    assert '<em class="action">*waves*</em>' in html
    assert '<strong class="status">tired</strong>' in html
    assert '<span class="ooc">((brb))</span>' in html
    assert '<span class="thought">hmm</span>' in html
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "https://example.org/a//b" in html and "2*3*4" in html


def test_thread_shows_posts_votes_and_announcements(env: Env, small: Small) -> None:
    svc = env.service
    svc.submit(small.game_id, Command("post", by="Ann", text="*yawns* Morning **sleepy**"))
    svc.submit(small.game_id, Command("elect", by="Ann", target="Bob"))
    svc.submit(small.game_id, Command("elect", by="Ann", target="Cid"))
    page = env.client.get(f"/g/{small.game_id}").text
    assert '<em class="action">*yawns*</em>' in page
    assert page.count('class="post vote superseded"') == 1  # Ann's first vote
    assert "Ann votes for Cid as leader." in page
    assert "Day 1 begins. Elect your leader!" in page  # the GM's announcement
    assert 'data-target="Cid" data-count="1"><strong>Cid</strong> (1): Ann<' in page  # tally


def test_private_page_shows_role_notices_actions_and_countdown(env: Env, small: Small) -> None:
    play_first_night(env, small)
    page = env.client.get(small.p("Cid")).text
    assert 'data-role="researcher"' in page
    assert "You are the researcher. Each night you investigate one player" in page
    assert "Your look at Bob reveals: Changeling." in page  # the investigation, in words
    assert 'class="countdown" data-deadline="' in page
    # the public statuses in the list of players: Ann was elected leader (C5.1)
    ann = page[page.index('<ul class="players">'):].split("</li>")[0]
    assert "Ann" in ann and 'data-status="leader">leader<' in ann
    # Bob (changeling) sees his team notice; the abduct form never offers a changeling
    env.service.gm(small.game_id, "advance")  # day 2 -> night 2
    bob = env.client.get(small.p("Bob")).text
    assert "Your fellow changelings: Bob." in bob
    form = bob[bob.index('data-action="abduct"'):]
    form = form[:form.index("</form>")]
    assert "Bob" not in form.split("<select")[1].split("</select>")[0]
    assert "Cid" in form and "Ann" in form


def test_private_page_time_zone_is_the_player_s(env: Env) -> None:
    from webkit import small_game

    small = small_game(env.service, start=False)
    token = env.service.signup(small.game_id, "Zed", timezone="Asia/Tokyo")
    env.service.assign(small.game_id, {**ROLES, "Zed": "pony"})
    env.service.start(small.game_id)
    page = env.client.get(f"/p/{token}").text
    assert "JST" in page  # the deadline in Zed's own time zone
    assert "CET" in env.client.get(small.p("Ann")).text


def test_submission_is_changeable_until_the_deadline(env: Env, small: Small) -> None:
    env.service.gm(small.game_id, "advance")  # night 1/1
    csrf = csrf_of(env.client, small.p("Cid"))
    for target in ("Ann", "Dee"):
        response = env.client.post(small.p("Cid") + "/act", data={
            "csrf_token": csrf, "action": "investigate", "option": f'[["{target}"],null]',
            "phase": "night 1/1"})
        assert response.status_code == 200
    page = env.client.get(small.p("Cid")).text
    assert "Your current choice:" in page and "<strong>Dee</strong>" in page
    assert 'value="[[&#34;Dee&#34;],null]" selected' in page


def test_gm_dashboard_and_preview_change_nothing(env: Env, small: Small) -> None:
    svc = env.service
    for name in ROLES:
        svc.submit(small.game_id, Command("elect", by=name, target="Dee"))
    svc.gm(small.game_id, "advance")
    # what the stage still awaits, by name (C2.3): the changelings' slot takes two actions
    assert 'data-slot="kill">abduct or replace<' in env.client.get(small.g).text
    german = env.client.get(small.g, params={"lang": "de"}).text
    assert 'data-slot="kill">entführen oder austauschen<' in german
    env.client.get(small.g, params={"lang": "en"})  # the language is remembered: back
    svc.submit(small.game_id, Command("abduct", by="Bob", target="Ann"))
    head = svc.meta(small.game_id).head_seq
    page = env.client.get(small.g).text
    assert svc.meta(small.game_id).head_seq == head  # the preview was thrown away
    assert "Pending resolution (preview, not final)" in page
    # the steps by their titles in the reader's language, with the rule (C15)
    assert "Step 2: Researcher&#39;s investigation" in page and "(C15.2)" in page
    assert "Dee" in page and 'data-player="Bob"' in page
    assert "abduct → Ann" in page  # who submitted what
    # the stage closed early once the changelings chose; now stage 2 awaits the researcher
    assert 'data-slot="investigate">investigate<' in page


def test_status_and_reveal(env: Env, small: Small) -> None:
    play_first_night(env, small)
    status = env.client.get(f"/g/{small.game_id}/status").text
    assert "First day phase and leader election... finished" in status
    assert env.client.get(f"/g/{small.game_id}/reveal").status_code == 403
    svc = env.service
    for name in ("Ann", "Cid", "Dee"):
        svc.submit(small.game_id, Command("vote", by=name, target="Bob"))
    svc.gm(small.game_id, "advance")
    state = svc.load(small.game_id).state
    assert state.ended and state.winner == "ponies"
    reveal = env.client.get(f"/g/{small.game_id}/reveal").text
    for name in ROLES:
        assert f'data-player="{name}"' in reveal
    assert "Researcher" in reveal and "Night Owl" in reveal and "Changeling" in reveal
    assert "Step 2: Leader election" in reveal  # the resolution traces, by title
    assert "Your look at Bob reveals: Changeling." in reveal  # every notice
    assert "the ponies won." in reveal


def test_sse_classifies_without_leaking() -> None:
    from nightfall.engine import events as ev

    assert classify(ev.Posted("Ann", "day 1", "hi"), "Bob", False, frozenset()) == {"post"}
    notice = ev.NoticeSent("Ann", {"kind": "team"})
    assert classify(notice, "Ann", False, frozenset()) == {"notice"}
    assert classify(notice, "Bob", False, frozenset()) == set()
    secret = ev.Submitted("Bob", "abduct", "kill", ("Ann",))
    assert classify(secret, "Ann", False, frozenset({"vote", "elect"})) == set()
    assert classify(secret, None, True, frozenset()) == {"change"}
    vote = ev.Submitted("Bob", "vote", "vote", ("Ann",))
    assert classify(vote, None, False, frozenset({"vote"})) == {"post"}


def test_sse_stream_reports_a_new_post(env: Env, small: Small) -> None:
    with env.client.stream("GET", small.p("Bob") + "/events") as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        chunks = response.iter_text()
        body = next(chunks)  # "retry": the stream has read the head, so post only now
        assert body.startswith("retry:")
        env.service.submit(small.game_id, Command("post", by="Ann", text="hello"))
        body += "".join(chunks)
    assert "event: post" in body
    assert "event: notice" not in body


def test_languages(env: Env, small: Small) -> None:
    page = env.client.get(small.p("Ann")).text  # the game is English
    assert "Your role" in page and '<html lang="en">' in page
    german = env.client.get(small.p("Ann") + "?lang=de")
    assert "Deine Rolle" in german.text and "nf_lang=de" in german.headers["set-cookie"]
    assert "Deine Rolle" in env.client.get(small.p("Ann")).text  # remembered
    russian = env.client.get(f"/g/{small.game_id}?lang=ru").text
    assert "Ветка" in russian or "Тема" in russian
    for locale in ("de", "en", "ru"):
        for url in ("/", "/new", f"/g/{small.game_id}", f"/g/{small.game_id}/status",
                    f"/g/{small.game_id}/signup", small.p("Ann"), small.p("Ann") + "/thread",
                    small.g, "/p/nope"):
            response = env.client.get(url, params={"lang": locale})
            assert f'<html lang="{locale}">' in response.text, (url, locale)


def test_the_demo_game_and_its_links(env: Env) -> None:
    from nightfall.web.demo import create_demo, links_text

    demo = create_demo(env.service)
    text = links_text(demo, "http://host:1")
    assert f"http://host:1/gm/{demo.gm_token}" in text
    assert len(demo.tokens) == 15 and all(f"/p/{t}" in text for t in demo.tokens.values())
    state = env.service.load(demo.game_id).state
    assert state.phase_label == "day 1" and len(state.players) == 15
    assert "Mochi" in env.client.get(f"/p/{demo.tokens['Mochi']}").text


def test_the_new_game_form_explains_each_option_in_the_readers_language(env: Env) -> None:
    """A game master reads what an option does (with its rule), not only its id."""
    from nightfall.rulesets import get_ruleset

    english = env.client.get("/new", params={"ruleset": "changelings", "lang": "en"}).text
    assert "Day 1 also banishes a player, not only elects the leader (C2.2)" in english
    assert 'class="option-id">first_day_banishment<' in english
    german = env.client.get("/new", params={"ruleset": "changelings", "lang": "de"}).text
    assert "Auch Tag 1 verbannt einen Spieler" in german
    russian = env.client.get("/new", params={"ruleset": "island", "lang": "ru"}).text
    assert "Мафия побеждает и при равенстве" in russian
    for ruleset_id in ("changelings", "island"):
        plugin = get_ruleset(ruleset_id)
        assert set(plugin.option_titles) == set(plugin.choosable_options()), ruleset_id

"""Every form rejects bad input with a clear message in the page's language and changes
nothing; a stale tab (a form for a phase that is over) gets a clear message too."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from nightfall.engine import Command
from webkit import ROLES, Env, Small, csrf_of, small_game


def unchanged(env: Env, small: Small) -> Callable[[], None]:
    head = env.service.meta(small.game_id).head_seq

    def check() -> None:
        assert env.service.meta(small.game_id).head_seq == head

    return check


def post(env: Env, url: str, page: str, **fields: str) -> tuple[int, str]:
    csrf = csrf_of(env.client, page)
    response = env.client.post(url, data={"csrf_token": csrf, **fields},
                               follow_redirects=False)
    return response.status_code, response.text


@pytest.mark.parametrize(("fields", "message"), [
    ({"name": ""}, "A player needs a name."),
    ({"name": "x" * 41}, "A name has at most 40 printable characters."),
    ({"name": "Ann"}, "The name Ann is already taken."),
    ({"name": "Zed", "timezone": "Mars/Olympus"}, "Unknown time zone Mars/Olympus."),
    ({"name": "Zed", "description": "d" * 201}, "The description has at most 200 characters."),
])
def test_signup_rejects_bad_input(env: Env, fields: dict[str, str], message: str) -> None:
    small = small_game(env.service, start=False)
    check = unchanged(env, small)
    url = f"/g/{small.game_id}/signup"
    status, text = post(env, url, url, **fields)
    assert status == 400 and message in text
    check()


def test_signup_works_and_lands_on_the_private_page(env: Env) -> None:
    small = small_game(env.service, start=False)
    url = f"/g/{small.game_id}/signup"
    csrf = csrf_of(env.client, url)
    response = env.client.post(url, data={"csrf_token": csrf, "name": "Zed",
                                          "timezone": "Asia/Tokyo", "locale": "ru"})
    assert response.status_code == 200 and "/p/" in str(response.url)
    assert "Zed" in response.text and "закладки" in response.text  # Russian by his choice
    assert "Zed" in env.service.load(small.game_id).state.players


def test_signup_when_closed(env: Env, small: Small) -> None:
    check = unchanged(env, small)
    url = f"/g/{small.game_id}/signup"
    assert "Sign-up for this game is closed." in env.client.get(url).text
    status, text = post(env, url, url, name="Zed")
    assert status == 400 and "Sign-up is closed." in text
    check()


def refused(env: Env, url: str, page: str, **fields: str) -> tuple[int, str]:
    """Post a move; a refusal redirects (Post/Redirect/Get): then the page it lands on,
    which shows the message once."""
    status, text = post(env, url, page, **fields)
    if status == 303:
        response = env.client.get(page)
        assert 'id="error"' in response.text
        return status, response.text
    return status, text


@pytest.mark.parametrize(("fields", "status", "message"), [
    # a form our pages never make (garbled or missing fields): answered in place
    ({"action": "elect", "option": "not json"}, 400, "That choice is not valid."),
    ({"action": "elect", "option": '{"a": 1}'}, 400, "That choice is not valid."),
    ({"action": "elect", "option": ""}, 400, "Choose one of the options."),
    ({"action": "", "option": '[["Bob"],null]'}, 400, "Choose an action."),
    ({"action": "elect", "option": '[["Bob"],null]', "text": "t" * 4001}, 400,
     "The text is too long"),
    # a move the rules refuse: back to the page with the message
    ({"action": "fly", "option": '[["Bob"],null]'}, 303, "Unknown command fly."),
    ({"action": "elect", "option": '[["Zed"],null]'}, 303, "There is no player called Zed."),
    ({"action": "abduct", "option": '[["Bob"],null]'}, 303, "is not an ability of your role"),
    ({"action": "vote", "option": '[["Bob"],null]'}, 303, "There is no banishment on day 1"),
])
def test_actions_reject_bad_input(env: Env, small: Small, fields: dict[str, str], status: int,
                                  message: str) -> None:
    check = unchanged(env, small)
    answer, text = refused(env, small.p("Ann") + "/act", small.p("Ann"), phase="day 1",
                           **fields)
    assert answer == status and message in text, text[:2000]
    check()


def test_a_stale_tab_gets_a_clear_message(env: Env, small: Small) -> None:
    env.service.gm(small.game_id, "advance")  # day 1 is over: night 1/1
    check = unchanged(env, small)
    status, text = refused(env, small.p("Ann") + "/act", small.p("Ann"), phase="day 1",
                           action="elect", option='[["Bob"],null]')
    assert status == 303
    assert "This form was made for day 1, which is over; now it is night 1, stage 1." in text
    status, text = post(env, small.p("Ann") + "/post", small.p("Ann"), phase="day 1",
                        text="hello")
    assert status == 409 and "which is over" in text
    check()


def test_a_submission_after_the_deadline_is_refused(env: Env, small: Small) -> None:
    env.clock.advance(days=3)  # the deadline of day 1 has passed, nobody ticked yet
    status, text = refused(env, small.p("Ann") + "/act", small.p("Ann"), phase="day 1",
                           action="elect", option='[["Bob"],null]')
    # the game is brought up to date first: day 1 was resolved, so the form is stale
    assert status == 303 and "Nothing was changed" in text
    assert env.service.load(small.game_id).state.phase_label != "day 1"


def test_posting_rules(env: Env, small: Small) -> None:
    check = unchanged(env, small)
    status, text = post(env, small.p("Ann") + "/post", small.p("Ann") + "/thread", text="  ")
    assert status == 400 and "A post needs some text." in text
    check()
    env.service.gm(small.game_id, "advance")  # night: the thread is closed (C2.8)
    page = env.client.get(small.p("Ann") + "/thread").text
    assert 'id="thread-closed"' in page and "post is not possible now" in page
    status, text = post(env, small.p("Ann") + "/post", small.p("Ann") + "/thread",
                        text="psst")
    assert status == 400 and "post is not possible now (night 1, stage 1)" in text


def test_departed_players_cannot_post(env: Env, small: Small) -> None:
    env.service.gm(small.game_id, "modkill", target="Eve")
    page = env.client.get(small.p("Eve") + "/thread").text
    assert 'id="thread-closed"' in page and "You have left the game" in page
    status, text = post(env, small.p("Eve") + "/post", small.p("Eve") + "/thread", text="hi")
    assert status == 400 and "You have left the game and can no longer act" in text


def test_messages_come_in_the_page_s_language(env: Env, small: Small) -> None:
    status, text = post(env, small.p("Ann") + "/post?lang=de", small.p("Ann"), text=" ")
    assert status == 400 and "Ein Post braucht etwas Text." in text
    status, text = post(env, small.p("Ann") + "/act?lang=ru", small.p("Ann"),
                        action="elect", option="[")
    assert status == 400 and "Этот выбор недопустим" in text


@pytest.mark.parametrize(("fields", "message"), [
    ({"action": "extend", "minutes": "soon"}, "Give a positive number of minutes."),
    ({"action": "extend", "minutes": "-5"}, "Give a positive number of minutes."),
    ({"action": "modkill", "target": ""}, "Choose a player."),
    ({"action": "modkill", "target": "Zed"}, "There is no player called Zed."),
    ({"action": "launch"}, "Unknown command launch."),
    ({"action": "undo"}, "There is nothing to undo."),
])
def test_gm_acts_reject_bad_input(env: Env, small: Small, fields: dict[str, str],
                                  message: str) -> None:
    check = unchanged(env, small)
    status, text = post(env, small.g + "/act", small.g, **fields)
    assert status == 400 and message in text, text[:1500]
    check()


def test_gm_setup_forms_reject_bad_input(env: Env) -> None:
    small = small_game(env.service, start=False)
    check = unchanged(env, small)
    for fields, message in [
        ({"mode": "pick", "role_pony": "many"}, "must be a whole number"),
        ({"mode": "pick", "role_pony": "-1"}, "must be between 0 and 100"),
        ({"mode": "pick"}, "Pick at least one role."),
        ({"mode": "pick", "role_pony": "3"}, "3 roles for 5 players."),
        ({"mode": "preset", "preset": "nope"}, "Unknown preset nope"),
        ({"mode": ""}, "Choose how to deal the roles."),
    ]:
        status, text = post(env, small.g + "/deal", small.g, **fields)
        assert status == 400 and message in text, (fields, text[:1500])
    status, text = post(env, small.g + "/start", small.g)
    assert status == 400 and "Deal the roles before the game starts." in text
    status, text = post(env, small.g + "/players", small.g, name="Ann")
    assert status == 400 and "already taken" in text
    status, text = post(env, small.g + "/links", small.g, player="Zed")
    assert status == 400 and "Choose a player." in text
    check()


def test_create_game_rejects_bad_input(env: Env) -> None:
    games = len(env.service.store.list_games())
    for fields, message in [
        ({"ruleset": "chess"}, "Choose a rule set."),
        ({"ruleset": "changelings", "seed": "abc"}, "The seed must be a whole number."),
        ({"ruleset": "changelings", "opt_timezone": "Nowhere/City"},
         "Unknown time zone Nowhere/City."),
        ({"ruleset": "changelings", "locale": "fr"}, "Unknown language fr."),
        ({"ruleset": "changelings", "title": "t" * 201}, "The title has at most 200"),
    ]:
        status, text = post(env, "/new", "/new", **fields)
        assert status == 400 and message in text, (fields, text[:1500])
    assert len(env.service.store.list_games()) == games


def test_gm_setup_flow(env: Env) -> None:
    csrf = csrf_of(env.client, "/new")
    response = env.client.post("/new", data={
        "csrf_token": csrf, "ruleset": "changelings", "title": "Web game", "locale": "en",
        "seed": "5", "opt_early_close": "on", "opt_timezone": "Europe/Vienna"})
    assert response.status_code == 200 and "/gm/" in str(response.url)
    gm_url = str(response.url).replace("http://testserver", "")
    game_id = env.service.store.list_games()[-1].id
    assert env.service.meta(game_id).options["timezone"] == "Europe/Vienna"
    links = {}
    for name in ROLES:
        page = env.client.post(gm_url + "/players", data={"csrf_token": csrf, "name": name})
        assert page.status_code == 200 and f'data-player="{name}"' in page.text
        links[name] = page.text
    response = env.client.post(gm_url + "/deal", data={
        "csrf_token": csrf, "mode": "pick", "role_pony": "3", "role_changeling": "1",
        "role_researcher": "1"})
    assert "The roles are dealt." in response.text
    response = env.client.post(gm_url + "/start", data={"csrf_token": csrf})
    assert "The game has started." in response.text
    assert env.service.load(game_id).state.phase_label == "day 1"
    response = env.client.post(gm_url + "/act", data={"csrf_token": csrf, "action": "extend",
                                                      "minutes": "30", "phase": "day 1"})
    assert "extended the phase by 30 minutes" in response.text


def test_gm_undo_and_skip(env: Env, small: Small) -> None:
    svc = env.service
    for name in ROLES:
        svc.submit(small.game_id, Command("elect", by=name, target="Ann"))
    csrf = csrf_of(env.client, small.g)
    env.client.post(small.g + "/act", data={"csrf_token": csrf, "action": "advance"})
    assert svc.load(small.game_id).state.phase_label == "night 1/1"
    response = env.client.post(small.g + "/act", data={"csrf_token": csrf, "action": "undo"})
    assert response.status_code == 200
    assert svc.load(small.game_id).state.phase_label == "day 1"
    env.client.post(small.g + "/act", data={"csrf_token": csrf, "action": "skip"})
    assert svc.load(small.game_id).state.phase_label == "night 1/1"

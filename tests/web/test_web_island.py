"""Island of Fear on the web: items on the private page, secret votes (cast on the
private page, never shown in the thread), the newspaper, the rule set's own GM acts."""

from __future__ import annotations

import re

import pytest

from nightfall.engine import Command, Text
from nightfall.web.i18n import Translator
from webkit import Env, csrf_of

island = pytest.importorskip("nightfall.rulesets.island.newspaper")

ROLES = {"Ann": "werewolf", "Bob": "seer", "Cid": "passenger", "Dee": "passenger",
         "Eve": "passenger"}


def island_game(env: Env) -> tuple[str, str, dict[str, str]]:
    svc = env.service
    created = svc.create("island", 5, {"random_events": False, "items_per_player": 1}, "en")
    tokens = {name: svc.signup(created.id, name) for name in ROLES}
    svc.deal(created.id, roles=list(ROLES.values()))
    svc.start(created.id)
    return created.id, created.gm_token, tokens


def test_island_pages(env: Env) -> None:
    game_id, _gm, tokens = island_game(env)
    state = env.service.load(game_id).state
    role = {n: p.role for n, p in state.players.items()}
    wolf = next(n for n, r in role.items() if r == "werewolf")
    voter = next(n for n, r in role.items() if r == "passenger")
    page = env.client.get(f"/p/{tokens[voter]}").text
    assert 'id="items"' in page and "data-item=" in page
    assert 'data-action="vote"' in page  # secret votes are cast on the private page
    env.service.submit(game_id, Command("vote", by=voter, target=wolf))
    thread = env.client.get(f"/g/{game_id}").text
    assert "votes:" not in thread and 'class="post vote' not in thread
    news = env.client.get(f"/g/{game_id}/status").text
    assert "The Island Newspaper" in news and "Newspaper" in news


def test_island_gm_acts(env: Env) -> None:
    game_id, gm, _ = island_game(env)
    csrf = csrf_of(env.client, f"/gm/{gm}")
    page = env.client.get(f"/gm/{gm}").text
    assert 'id="ruleset-acts"' in page and "mark a conduct violation" in page
    # the events the GM may force are offered by name (I5), the form sends the id
    assert '<option value="full_moon">Full Moon</option>' in page
    russian = env.client.get(f"/gm/{gm}", params={"lang": "ru"}).text
    assert '<option value="full_moon">Полнолуние</option>' in russian
    env.client.get(f"/gm/{gm}", params={"lang": "en"})  # the language is remembered: back
    response = env.client.post(f"/gm/{gm}/act", data={
        "csrf_token": csrf, "action": "violation", "target": "Cid", "text": "spoke at night"})
    assert response.status_code == 200
    assert "marks a violation of the rules by Cid" in response.text
    head = env.service.meta(game_id).head_seq
    response = env.client.post(f"/gm/{gm}/act", data={
        "csrf_token": csrf, "action": "answer", "choice": "maybe"})
    assert response.status_code == 400 and "The spirit answers yes or no." in response.text
    assert env.service.meta(game_id).head_seq == head


def test_russian_private_page_explains_the_island_role(env: Env) -> None:
    """The page shows the rule set's own role text in the player's language: the
    Island's «ясновидящий», the side in the nominative, no gendered «выбыл»."""
    svc = env.service
    created = svc.create("island", 5, {"random_events": False}, "ru")
    tokens = {name: svc.signup(created.id, name) for name in ROLES}
    svc.assign(created.id, ROLES)
    svc.start(created.id)
    page = env.client.get(f"/p/{tokens['Bob']}", params={"lang": "ru"}).text
    assert "Ты ясновидящий. Каждый день ты называешь одного игрока" in page
    assert "провидица" not in page and "твоя сторона: мирные жители" in page
    wolf = env.client.get(f"/p/{tokens['Ann']}", params={"lang": "ru"}).text
    assert "Мафия побеждает, когда в живых остаются только её игроки" in wolf


# -- a Russian game played through the GM's pages ---------------------------------------------
RUSSIAN = {"Аня": "werewolf", "Егор": "seer", "Зоя": "passenger", "Дима": "passenger",
           "Оля": "passenger"}


def russian_game(env: Env, start: bool = True) -> tuple[str, str, dict[str, str]]:
    svc = env.service
    created = svc.create("island", 5, {"random_events": False, "items_per_player": 0}, "ru")
    tokens = {name: svc.signup(created.id, name) for name in RUSSIAN}
    if start:
        svc.assign(created.id, RUSSIAN)
        svc.start(created.id)
    return created.id, created.gm_token, tokens


def ruleset_act(page: str, act: str) -> str:
    """The dashboard's form of one rule-set act."""
    found = re.search(rf'<form [^>]*data-act="{act}">.*?</form>', page, re.S)
    assert found is not None, page
    return found.group(0)


def test_presets_are_offered_by_their_description_in_the_game_s_language(env: Env) -> None:
    _game, gm, _ = russian_game(env, start=False)
    page = env.client.get(f"/gm/{gm}").text
    assert '<option value="cove-7">7 игроков, 2 оборотня.</option>' in page
    assert ('<option value="archipelago-20">20 игроков, 4 оборотня, полукровка и хомяк.'
            '</option>') in page
    assert "cove-7 (7)" not in page
    german = env.service.create("changelings", 1, {}, "de")
    page = env.client.get(f"/gm/{german.gm_token}", params={"lang": "de"}).text
    assert '<option value="village-8">8 Spieler, 2 Changelinge.</option>' in page
    assert "Die ursprüngliche Besetzung für 15 Spieler (C16.3)." in page


def test_gm_acts_offer_their_choices_by_name_and_take_names(env: Env) -> None:
    game_id, gm, _ = russian_game(env)
    page = env.client.get(f"/gm/{gm}").text
    event = ruleset_act(page, "event")
    assert '<select name="choice" required>' in event
    assert '<option value="spirit">Вызов духа</option>' in event
    answer = ruleset_act(page, "answer")
    assert '<option value="yes">да</option>' in answer and 'name="target"' not in answer
    assert 'name="choice"' not in ruleset_act(page, "violation")
    csrf = csrf_of(env.client, f"/gm/{gm}")
    phase = env.service.load(game_id).state.phase_label
    # a name typed (or sent by an old form) is taken as well as the id
    response = env.client.post(f"/gm/{gm}/act", data={
        "csrf_token": csrf, "phase": phase, "action": "event", "choice": "Вызов духа"})
    assert response.status_code == 200 and 'id="error"' not in response.text
    assert env.service.load(game_id).view(None)["event"] == "spirit"
    env.service.submit(game_id, Command("spirit_ask", by="Зоя", text="Аня оборотень?"))
    response = env.client.post(f"/gm/{gm}/act", data={
        "csrf_token": csrf, "phase": phase, "action": "answer", "choice": "Да"})
    assert response.status_code == 200 and 'id="error"' not in response.text
    assert env.service.load(game_id).state.flags["i.spirit"]["answer"] == "yes"


def test_the_reveal_names_gm_acts_items_and_answers(env: Env) -> None:
    game_id, _gm, _ = russian_game(env)
    svc = env.service
    svc.gm(game_id, "event", choice="spirit")
    svc.submit(game_id, Command("spirit_ask", by="Зоя", text="Аня оборотень?"))
    svc.gm(game_id, "answer", choice="yes")
    svc.gm(game_id, "violation", target="Зоя", choice="overrule")
    svc.gm(game_id, "violation", target="Дима", text="грубость")
    svc.gm(game_id, "extend", minutes=30)
    svc.gm(game_id, "modkill", target="Аня", text="ушла")
    page = env.client.get(f"/g/{game_id}/reveal", params={"lang": "ru"}).text
    assert "Ведущий: задать событие дня Вызов духа" in page
    assert "Ведущий: ответить за духа да" in page
    assert "Ведущий: отменить нарушение Зоя" in page
    assert "Ведущий: отметить нарушение правил Дима грубость" in page
    assert "Ведущий: продлить срок 30 мин." in page
    assert "Ведущий: убрать игрока (модкилл) Аня ушла" in page
    for raw in ("event spirit", "answer yes", "overrule", "violation", "extend 30"):
        assert raw not in page, raw


def test_palms_bloom_detections_wait_for_the_gm_on_the_dashboard(env: Env) -> None:
    game_id, gm, _ = russian_game(env)
    env.service.gm(game_id, "event", choice="palms_bloom")
    page = env.client.get(f"/gm/{gm}").text
    assert 'id="gm-decisions"' not in page  # nothing found yet
    env.service.submit(game_id, Command("post", by="Зоя", text="Нет, я не оборотень."))
    page = env.client.get(f"/gm/{gm}").text
    found = re.search(r'<section class="card decisions" id="gm-decisions">.*?</section>',
                      page, re.S)
    assert found is not None
    decisions = found.group(0)
    assert '<li data-player="Зоя">' in decisions
    assert "найдены запретные слова: Нет, я, не" in decisions
    assert "лишает голоса" in decisions
    assert 'data-decision="Зоя"' in page  # her row says it too
    csrf = csrf_of(env.client, f"/gm/{gm}")
    overrule = re.search(r'<form [^>]*>(?:(?!</form>).)*value="overrule"(?:(?!</form>).)*'
                         r'</form>', decisions, re.S)
    assert overrule is not None and 'name="target" value="Зоя"' in overrule.group(0)
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', overrule.group(0)))
    response = env.client.post(f"/gm/{gm}/act", data={**fields, "csrf_token": csrf})
    assert response.status_code == 200 and "Готово: отменить нарушение." in response.text
    assert env.service.load(game_id).state.flags["i.overruled"] == ["Зоя"]
    assert "отменено" in response.text and 'data-decision="Зоя"' not in response.text


def test_a_refused_move_redirects_with_its_message(env: Env) -> None:
    """Post/Redirect/Get for refusals too: the address bar leaves ``/p/…/act``, so a
    refresh does not send the form again, and the message comes in the player's language."""
    game_id, _gm, tokens = russian_game(env)
    me = f"/p/{tokens['Зоя']}"
    csrf = csrf_of(env.client, me)
    head = env.service.meta(game_id).head_seq
    response = env.client.post(me + "/act", follow_redirects=False, data={
        "csrf_token": csrf, "phase": "day 7/1", "action": "vote", "option": '[["Аня"],null]'})
    assert response.status_code == 303 and response.headers["location"] == me
    assert response.headers["x-nightfall-result"] == "error"  # for programs (load test)
    page = env.client.get(me).text
    assert '<p class="flash error" role="alert" id="error">Эта форма была' in page
    # an engine refusal from the thread's form goes back to the thread, ?lang= kept
    response = env.client.post(me + "/act?lang=de", follow_redirects=False, data={
        "csrf_token": csrf, "action": "eat", "option": '[["Егор"],null]', "from": "thread"})
    assert response.status_code == 303
    assert response.headers["location"] == me + "/thread?lang=de"
    page = env.client.get(response.headers["location"]).text
    assert 'role="alert" id="error">„fressen“ ist keine Fähigkeit deiner Rolle.' in page
    assert env.service.meta(game_id).head_seq == head


def test_the_german_fear_leader_line_needs_no_plural() -> None:
    line = Text("Fear: {name} is elected leader with {count} votes (I6.5).",
                {"name": "Ann", "count": 1})
    assert Translator("de").text(line) == ("Angst: Ann wird zum Anführer gewählt – "
                                           "Stimmen: 1 (I6.5).")
    assert Translator("ru").text(line) == "Страх: игрок Ann избран лидером, голосов: 1 (I6.5)."

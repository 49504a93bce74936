"""Island forms on the private page explain what each move does and costs, in the
reader's language (Ruleset.action_hints), and the spirit call on the web: a player names
the asker, the GM refuses a question with a reason; both in the thread and newspaper."""

from __future__ import annotations

import re

from nightfall.engine import Command
from webkit import Env, csrf_of

ROLES = {"Ann": "witch", "Bob": "werewolf", "Cid": "seer", "Dee": "passenger",
         "Eve": "passenger"}


def island_game(env: Env) -> tuple[str, str, dict[str, str]]:
    svc = env.service
    created = svc.create("island", 5, {"random_events": False, "items_per_player": 0}, "ru")
    tokens = {name: svc.signup(created.id, name) for name in ROLES}
    svc.assign(created.id, ROLES)
    svc.start(created.id)
    return created.id, created.gm_token, tokens


def form_of(page: str, action: str) -> str:
    found = re.search(rf'<form class="action"[^>]*data-action="{action}".*?</form>', page,
                      re.S)
    assert found is not None, action
    return found.group(0)


def test_every_island_form_explains_itself_in_the_readers_language(env: Env) -> None:
    game_id, _gm, tokens = island_game(env)
    env.service.gm(game_id, "event", choice="foggy_night")
    english = env.client.get(f"/p/{tokens['Ann']}", params={"lang": "en"}).text
    cancel = form_of(english, "witch_cancel")
    assert "cancels every other night move" in cancel and "Once per game." in cancel
    assert "needs no vote" in cancel
    assert "give one of your votes" in form_of(english, "witch_kill")
    russian = env.client.get(f"/p/{tokens['Ann']}", params={"lang": "ru"}).text
    assert "Один раз за игру." in form_of(russian, "witch_cancel")
    german = env.client.get(f"/p/{tokens['Ann']}", params={"lang": "de"}).text
    assert "Einmal pro Spiel." in form_of(german, "witch_cancel")
    for action in re.findall(r'<form class="action"[^>]*data-action="(\w+)"', english):
        assert 'class="hint action-hint"' in form_of(english, action), action


def test_spirit_asker_and_refusal_on_the_web(env: Env) -> None:
    game_id, gm, tokens = island_game(env)
    env.service.gm(game_id, "event", choice="spirit")
    page = env.client.get(f"/p/{tokens['Dee']}", params={"lang": "en"}).text
    assert "more than half of the living" in form_of(page, "spirit_nominate")
    csrf = csrf_of(env.client, f"/p/{tokens['Dee']}")
    for voter in ("Ann", "Cid", "Dee"):
        answer = env.client.post(f"/p/{tokens[voter]}/act", data={
            "csrf_token": csrf, "action": "spirit_nominate", "option": '[["Dee"],null]'},
            follow_redirects=False)
        assert answer.status_code == 303
    thread = env.client.get(f"/g/{game_id}", params={"lang": "en"}).text
    assert "The players have chosen Dee to ask the Island Spirit today." in thread
    env.service.submit(game_id, Command("spirit_ask", by="Dee", text="Is Cid the seer?"))
    dashboard = env.client.get(f"/gm/{gm}").text
    assert 'value="refuse"' in dashboard
    answer = env.client.post(f"/gm/{gm}/act", data={
        "csrf_token": csrf, "action": "refuse", "text": "That names a role."},
        follow_redirects=False)
    assert answer.status_code == 303
    thread = env.client.get(f"/g/{game_id}", params={"lang": "ru"}).text
    assert "Дух Острова отклоняет вопрос игрока Dee («Is Cid the seer?»)" in thread
    news = env.client.get(f"/g/{game_id}/status", params={"lang": "en"}).text
    assert "The players chose Dee to ask the spirit." in news
    assert "The spirit refused the question of Dee (“Is Cid the seer?”): That names a role." in (
        news)
    own = env.client.get(f"/p/{tokens['Dee']}", params={"lang": "en"}).text
    assert "The Island Spirit refuses your question" in own

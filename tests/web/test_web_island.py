"""Island of Fear on the web: items on the private page, secret votes (cast on the
private page, never shown in the thread), the newspaper, the rule set's own GM acts."""

from __future__ import annotations

import pytest

from nightfall.engine import Command
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
    assert '<datalist id="gm-choices">' in page
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

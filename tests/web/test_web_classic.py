"""Werwolf (classic), the rule set written only as data, played through the web pages
with no Python of its own: the GM's game (the shipped rule file), every move sent from
a player's page, refusals in the player's language, each page showing only what its
player may know (docs/rules/classic.md K1.2, K5.1, K6.1, K7.1, K8.2)."""

from __future__ import annotations

import json

from webkit import Env, csrf_of

ROLES = {"Anna": "werewolf", "Bert": "werewolf", "Clara": "seer", "Dora": "witch",
         "Emil": "hunter", "Frida": "villager", "Gustav": "villager"}


class Table:
    def __init__(self, env: Env) -> None:
        created = env.service.create("werwolf-classic", 5, {"early_close": True}, "de",
                                     title="Düsterwald")
        self.env, self.game_id = env, created.id
        self.tokens = {name: env.service.signup(created.id, name) for name in ROLES}
        env.service.assign(created.id, ROLES)
        env.service.start(created.id)

    def page(self, name: str) -> str:
        return self.env.client.get(f"/p/{self.tokens[name]}").text

    def send(self, name: str, action: str, *targets: str) -> tuple[int, str]:
        url = f"/p/{self.tokens[name]}"
        csrf = csrf_of(self.env.client, url)
        phase = self.phase()
        response = self.env.client.post(url + "/act", data={
            "csrf_token": csrf, "phase": phase, "action": action,
            "option": json.dumps([list(targets), None])}, follow_redirects=False)
        if response.status_code == 303:
            return 303, self.env.client.get(response.headers["location"]).text
        return response.status_code, response.text

    def phase(self) -> str:
        return self.env.service.load(self.game_id).state.phase_label

    def head(self) -> int:
        return self.env.service.meta(self.game_id).head_seq


def test_a_classic_night_and_morning_played_from_the_players_pages(env: Env) -> None:
    table = Table(env)
    assert table.phase() == "night 1/1"
    anna = table.page("Anna")
    assert "Dein Rudel: Anna, Bert." in anna and 'data-action="eat"' in anna
    assert 'data-action="eat"' not in table.page("Frida")

    head = table.head()
    status, page = table.send("Anna", "eat", "Bert")
    assert status == 303 and "Bert ist ein Werwolf; das Rudel wählt einen Dorfbewohner" in page
    assert table.head() == head  # a refusal changes nothing

    for wolf in ("Anna", "Bert"):
        assert table.send(wolf, "eat", "Emil")[0] == 303
    assert table.phase() == "night 1/1"  # the seer is still awaited (K2.3)
    assert table.send("Clara", "see", "Anna")[0] == 303
    assert table.phase() == "night 1/2"  # early close: every stage-1 move is in

    assert "Deine Vision von Anna" in table.page("Clara")
    dora = table.page("Dora")
    assert "Heute Nacht wollen die Werwölfe Emil fressen." in dora
    for other in ("Anna", "Bert", "Emil", "Frida", "Gustav"):
        page = table.page(other)
        assert "Deine Vision von" not in page and "wollen die Werwölfe" not in page, other
    # the villagers' pages do not name the werewolves; the public page does not either
    frida = table.page("Frida")
    assert "Dein Rudel" not in frida
    public = env.client.get(f"/g/{table.game_id}").text
    assert "Dein Rudel" not in public and "Deine Vision" not in public

    assert table.send("Dora", "poison", "Anna")[0] == 303
    assert table.send("Dora", "pass")[0] == 303  # no healing tonight
    assert table.phase() == "night 1/3"  # the hunter was eaten: his last shot (K2.2)
    state = env.service.load(table.game_id).state
    assert state.players["Emil"].left_cause == "eaten"
    assert state.players["Anna"].left_cause == "poisoned"

    emil = table.page("Emil")
    assert 'data-action="shoot"' in emil
    assert table.send("Emil", "shoot", "Bert")[0] == 303
    state = env.service.load(table.game_id).state
    assert state.players["Bert"].left_cause == "shot"
    assert state.winner == "village"

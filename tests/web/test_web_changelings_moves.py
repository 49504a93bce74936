"""The Changelings pages of issue 15: the love potion picks two players with two
drop-downs (not one option per pair), refusals stay clear messages in the player's
language; a changeling's page says whom his team chose and whether they disagree,
before and after he chooses, and nobody else's page says anything of it."""

from __future__ import annotations

import re

from nightfall.engine import Command
from webkit import Env, csrf_of

#: a German table: two changelings, a love potion, a researcher
ROLES = {"Apfel": "changeling", "Bonbon": "changeling", "Caramel": "love_potion",
         "Derpy": "researcher", "Erdbeere": "pony", "Feder": "pony", "Gala": "pony"}


class Table:
    def __init__(self, env: Env, early_close: bool = False) -> None:
        created = env.service.create("changelings", 5, {"early_close": early_close}, "de",
                                     title="Liebe")
        self.env, self.game_id = env, created.id
        self.tokens = {name: env.service.signup(created.id, name) for name in ROLES}
        env.service.assign(created.id, ROLES)
        env.service.start(created.id)
        env.service.submit(created.id, Command("elect", by="Derpy", target="Derpy"))
        env.service.gm(created.id, "advance")  # night 1, stage 1

    def p(self, name: str) -> str:
        return f"/p/{self.tokens[name]}"

    def page(self, name: str) -> str:
        return self.env.client.get(self.p(name)).text

    def send(self, name: str, **fields: str) -> tuple[int, str]:
        """Post one action form; a redirect is followed to the page it lands on."""
        csrf = csrf_of(self.env.client, self.p(name))
        phase = self.env.service.load(self.game_id).state.phase_label
        response = self.env.client.post(self.p(name) + "/act", data={
            "csrf_token": csrf, "phase": phase, **fields}, follow_redirects=False)
        if response.status_code == 303:
            return 303, self.env.client.get(response.headers["location"]).text
        return response.status_code, response.text

    def head(self) -> int:
        return self.env.service.meta(self.game_id).head_seq


def form_of(page: str, action: str) -> str:
    form = page[page.index(f'data-action="{action}"'):]
    return form[:form.index("</form>")]


def test_the_love_potion_picks_two_players_with_two_drop_downs(env: Env) -> None:
    table = Table(env)
    form = form_of(table.page("Caramel"), "love")
    assert "Erster Spieler" in form and "Zweiter Spieler" in form
    for field in ("first", "second"):
        select = form[form.index(f'name="{field}"'):]
        select = select[:select.index("</select>")]
        # each player once (himself included, C8.1), not one option per pair
        assert re.findall(r'<option value="([^"]*)"', select) == ["", *ROLES]
    assert " + " not in form and 'name="option"' not in form


def test_two_drop_downs_refuse_clearly_and_change_nothing(env: Env) -> None:
    table = Table(env)
    head = table.head()
    status, page = table.send("Caramel", action="love", first="Feder", second="Feder")
    assert status == 303 and "Nenne zwei verschiedene Spieler." in page
    status, page = table.send("Caramel", action="love", first="Feder")
    assert status == 400 and "Wähle zwei Spieler. Es wurde nichts geändert." in page
    status, page = table.send("Caramel", action="love", first="Feder", second="Zorro")
    assert status == 303 and "Es gibt keinen Spieler namens Zorro." in page
    assert table.head() == head  # nothing was stored
    status, page = table.send("Derpy", action="love", first="Feder", second="Gala")
    assert status == 303 and "keine Fähigkeit deiner Rolle" in page
    assert table.head() == head


def test_the_chosen_pair_is_stored_and_shown_as_chosen(env: Env) -> None:
    table = Table(env)
    status, page = table.send("Caramel", action="love", first="Gala", second="Apfel")
    assert status == 303 and "Gespeichert: Liebestrank einsetzen → Gala, Apfel." in page
    state = env.service.load(table.game_id).state
    assert state.submission("Caramel", "love").targets == ("Gala", "Apfel")
    form = form_of(page, "love")
    first = form[form.index('name="first"'):form.index('name="second"')]
    second = form[form.index('name="second"'):]
    assert '<option value="Gala" selected>' in first
    assert '<option value="Apfel" selected>' in second
    # the command line and the scenario format keep their shape: targets [A, B]
    assert env.service.load(table.game_id).legal_commands("Caramel")[0].targets


def test_a_changeling_reads_his_team_s_choices_before_and_after(env: Env) -> None:
    table = Table(env)
    assert 'class="move-note"' not in table.page("Bonbon")
    status, _ = table.send("Apfel", action="abduct", option='[["Feder"],null]')
    assert status == 303
    before = table.page("Bonbon")
    assert ("Gewählt von Apfel: entführen → Feder. Wählst du etwas anderes, wird heute "
            "Nacht niemand entführt oder ausgetauscht (C7.1, C7.2).") in before
    status, after = table.send("Bonbon", action="abduct", option='[["Gala"],null]')
    assert status == 303
    assert ("Gewählt von Apfel: entführen → Feder, von dir: entführen → Gala. So wie es "
            "steht, wird heute Nacht niemand entführt oder ausgetauscht") in after
    assert "von dir: entführen → Feder" in table.page("Apfel")  # and his teammate reads it
    for outsider in ("Caramel", "Derpy", "Feder", "Gala"):
        page = table.page(outsider)
        assert 'class="move-note"' not in page and "Gewählt von" not in page, outsider
    public = env.client.get(f"/g/{table.game_id}").text
    assert "Gewählt von" not in public and "move_notes" not in public


def test_a_disagreement_that_closes_stage_one_early_is_told(env: Env) -> None:
    """With early close on, the last changeling's differing choice closes stage 1 at once
    (C2.3): the page he lands on says that nobody is taken tonight."""
    table = Table(env, early_close=True)
    table.send("Apfel", action="abduct", option='[["Feder"],null]')
    status, after = table.send("Bonbon", action="abduct", option='[["Gala"],null]')
    assert status == 303 and "Er ist jetzt beendet." in after  # the flash: stage closed
    told = ("Dein Team war sich nicht einig: Heute Nacht wird niemand entführt oder "
            "ausgetauscht (C7.1, C7.2).")
    assert told in after and told in table.page("Apfel")
    assert told not in table.page("Derpy") and 'class="move-note"' not in table.page("Feder")


def test_the_note_is_in_the_changeling_s_own_language(env: Env) -> None:
    table = Table(env)
    env.service.submit(table.game_id, Command("abduct", by="Apfel", target="Feder"))
    english = env.client.get(table.p("Bonbon") + "?lang=en").text
    assert ("Apfel chose abduct → Feder: if you choose anything else, nobody is abducted "
            "or replaced tonight (C7.1, C7.2).") in english
    russian = env.client.get(table.p("Bonbon") + "?lang=ru").text
    assert "Выбор (Apfel): похитить → Feder." in russian

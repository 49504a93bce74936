"""What a German Changelings table stumbled over when a whole game was played through the
pages (GM and nine players): raw ids on the page, a move's flash that did not say what
was stored, a tally to count by hand, standing choices that read like acts done now, a
departed leader shown as leader, no word on who won, and "mit 1 Stimmen".

Each test plays a small German game through the service and reads the real pages."""

from __future__ import annotations

from dataclasses import dataclass, field

from nightfall.engine import Command
from nightfall.engine.text import Text, render
from nightfall.i18n import gettext_for
from webkit import Env, csrf_of

#: who plays what: a liar (disguise), a researcher, a shield, a drama queen
ROLES = {"Apfel": "pony", "Bonbon": "liar", "Caramel": "researcher", "Derpy": "shield",
         "Erdbeere": "drama_queen", "Feder": "pony"}


@dataclass
class German:
    game_id: str
    gm: str
    tokens: dict[str, str] = field(default_factory=dict)

    def p(self, name: str) -> str:
        return f"/p/{self.tokens[name]}"


def german_game(env: Env) -> German:
    created = env.service.create("changelings", 7, {"early_close": True}, "de", title="Nebel")
    game = German(created.id, created.gm_token)
    for name in ROLES:
        game.tokens[name] = env.service.signup(created.id, name)
    env.service.assign(created.id, ROLES)
    env.service.start(created.id)
    return game


def act(env: Env, game: German, name: str, action: str, option: str) -> str:
    """Send one action form as the player's browser does; the page he lands on."""
    csrf = csrf_of(env.client, game.p(name))
    phase = env.service.load(game.game_id).state.phase_label
    response = env.client.post(game.p(name) + "/act", data={
        "csrf_token": csrf, "action": action, "option": option, "phase": phase})
    assert response.status_code == 200, response.text[:2000]
    return response.text


def test_a_move_s_message_says_what_was_stored_by_name(env: Env) -> None:
    game = german_game(env)
    env.service.gm(game.game_id, "advance")  # night 1, stage 1
    page = act(env, game, "Caramel", "investigate", '[["Bonbon"],null]')
    assert "Gespeichert: erforschen → Bonbon. Bis zur Frist kannst du das noch ändern." in page
    assert "Erledigt:" not in page
    page = act(env, game, "Bonbon", "disguise", '[[],"shield"]')
    # the liar's disguise by its German name, in the message and in his submissions
    assert "Gespeichert: tarnen → Anti-Hate-Shield." in page
    submissions = page[page.index('id="submissions"'):]
    assert "tarnen</strong> → Anti-Hate-Shield" in submissions
    assert "(shield)" not in page
    dashboard = env.client.get(f"/gm/{game.gm}").text
    assert "tarnen → Anti-Hate-Shield" in dashboard and "(shield)" not in dashboard


def test_the_last_awaited_input_says_the_stage_closed(env: Env) -> None:
    game = german_game(env)
    env.service.gm(game.game_id, "advance")  # night 1, stage 1 awaits Bonbon and Derpy
    page = act(env, game, "Derpy", "shield", '[["Apfel"],null]')
    assert "Bis zur Frist kannst du das noch ändern." in page
    page = act(env, game, "Bonbon", "abduct", '[["Feder"],null]')
    assert "Das war die letzte Eingabe, auf die dieser Abschnitt gewartet hat" in page
    assert "Bis zur Frist" not in page.split('class="flash')[1].split("</")[0]


def test_the_tally_counts_per_player_and_votes_read_as_sentences(env: Env) -> None:
    game = german_game(env)
    for voter, target in (("Apfel", "Caramel"), ("Bonbon", "Caramel"), ("Derpy", "Apfel")):
        env.service.submit(game.game_id, Command("elect", by=voter, target=target))
    thread = env.client.get(f"/g/{game.game_id}").text
    tally = thread[thread.index('class="tally"'):thread.index('id="thread"')]
    assert "Stimmen für den Anführer:" in tally
    assert tally.index("<strong>Caramel</strong> (2): Apfel, Bonbon") < tally.index(
        "<strong>Apfel</strong> (1): Derpy")
    assert "Apfel wählt Caramel zum Anführer." in thread
    env.service.gm(game.game_id, "advance")  # night: no voting, so no tally
    assert 'class="tally"' not in env.client.get(f"/g/{game.game_id}").text
    env.service.gm(game.game_id, "skip")  # night 1 skipped: day 2
    env.service.submit(game.game_id, Command("vote", by="Feder", target="Bonbon"))
    thread = env.client.get(f"/g/{game.game_id}").text
    assert "Stimmen zur Verbannung:" in thread
    assert "Feder stimmt für die Verbannung von Bonbon." in thread
    assert "stimmt ab: abstimmen" not in thread


def test_action_forms_say_what_a_standing_choice_does(env: Env) -> None:
    game = german_game(env)
    page = env.client.get(game.p("Erdbeere")).text  # the drama queen on day 1
    form = page[page.index('data-action="drama_chase"'):]
    form = form[:form.index("</form>")]
    assert "Im Voraus festgelegt: Wirst du entführt oder verbannt" in form


def test_a_departed_leader_is_shown_as_former_leader(env: Env) -> None:
    game = german_game(env)
    env.service.submit(game.game_id, Command("elect", by="Apfel", target="Feder"))
    env.service.gm(game.game_id, "advance")  # Feder leads
    env.service.gm(game.game_id, "modkill", target="Feder")  # chance names a successor
    for url in (game.p("Apfel"), game.p("Feder"), f"/gm/{game.gm}"):
        page = env.client.get(url).text
        feder = page[page.index('data-player="Feder"') if "/gm/" in url
                     else page.index("<li class=\"gone\">Feder"):]
        feder = feder[:feder.index("</tr>" if "/gm/" in url else "</li>")]
        assert "ehemaliger Anführer" in feder, url


def test_the_end_tells_each_player_whether_he_won(env: Env) -> None:
    game = german_game(env)
    env.service.gm(game.game_id, "modkill", target="Bonbon")  # the only changeling
    won = env.client.get(game.p("Apfel")).text
    assert 'data-won="yes"' in won and "Du hast gewonnen!" in won
    assert "Siegreiche Seite: die Ponys." in won
    lost = env.client.get(game.p("Bonbon")).text
    assert 'data-won="no"' in lost and "Diesmal hast du nicht gewonnen." in lost


def test_the_reveal_log_names_a_disguise(env: Env) -> None:
    game = german_game(env)
    env.service.gm(game.game_id, "advance")
    env.service.submit(game.game_id, Command("disguise", by="Bonbon", choice="shield"))
    env.service.gm(game.game_id, "modkill", target="Bonbon")
    reveal = env.client.get(f"/g/{game.game_id}/reveal").text
    assert "Bonbon: tarnen → Anti-Hate-Shield" in reveal
    assert "tarnen shield" not in reveal


def test_german_counts_and_phase_names_read_right() -> None:
    de = gettext_for("de")
    elected = render(Text("{name} is elected leader with {count} votes (C5.1).",
                          {"name": "Ann", "count": 1}), de)
    assert "1 Stimmen" not in elected and "Ann" in elected
    status = render(Text("{name}: {status} on.", {"name": "Ann", "status": "Anführer"}), de)
    assert status == "Ann erhält den Status „Anführer“."


def test_the_gm_s_acts_that_cut_players_off_ask_first(env: Env) -> None:
    game = german_game(env)
    env.service.gm(game.game_id, "advance")  # something to undo
    page = env.client.get(f"/gm/{game.gm}").text
    asks = {
        'name="player" value="*"': "Neue Links für alle erstellen?",
        'action="/gm/{gm}/revoke"': "Den Link von Apfel sperren?",
        'name="action" value="skip"': "Diese Phase überspringen?",
        'name="action" value="modkill"': "Diesen Spieler aus dem Spiel nehmen?",
        'name="action" value="undo"': "Alles seit der letzten Phasengrenze zurücknehmen?",
    }
    for marker, question in asks.items():
        at = page.index(marker.format(gm=game.gm))
        form = page[page.rindex("<form", 0, at):page.index("</form>", at)]
        assert f'data-confirm="{question}' in form, marker
    script = env.client.get("/static/nightfall.js").text
    assert 'addEventListener("submit", confirmSubmit)' in script
    assert "window.confirm(form.dataset.confirm)" in script

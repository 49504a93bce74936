"""The status page shows the rule file's status post (``status_post:``, C16.1): a classic
game (the shipped file, and a GM's stored copy with titles of his own) gets its own post
in the reader's language, and so does a Changelings game (the Changelings file's post).
On SQLite and PostgreSQL."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from dbkit import KINDS, database_url
from nightfall.i18n import gettext_for
from nightfall.rulefile.ruleset import shipped
from nightfall.service import FixedClock, GameService
from nightfall.web import Settings, create_app
from webkit import START

CLASSIC = Path(__file__).parents[2] / "src" / "nightfall" / "rulefile" / "sets" / "classic.yaml"
ROLES = {
    "Anna": "werewolf",
    "Bert": "werewolf",
    "Clara": "seer",
    "Dora": "witch",
    "Emil": "hunter",
    "Frida": "villager",
    "Gustav": "villager",
}


@pytest.fixture(params=KINDS)
def site(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[GameService, TestClient]:
    service = GameService(url=database_url(request.param, tmp_path), clock=FixedClock(START))
    app = create_app(
        Settings(database_url=None, secret_key="test-secret", base_url="http://testserver"),
        service=service,
    )
    return service, TestClient(app)


def _post(client: TestClient, game_id: str, lang: str) -> tuple[str, str]:
    page = client.get(f"/g/{game_id}/status?lang={lang}").text
    heading = re.search(r"<h1>(.*?)</h1>", page, re.S)
    text = re.search(r'<pre class="status-post" id="status-text">(.*?)</pre>', page, re.S)
    assert heading is not None and text is not None
    return html.unescape(heading.group(1)), html.unescape(text.group(1))


def _classic(service: GameService, game_id: str) -> None:
    for name in ROLES:
        service.signup(game_id, name, "Bäcker" if name == "Frida" else "")
    service.assign(game_id, ROLES)
    service.start(game_id)
    service.gm(game_id, "modkill", "Frida")


def test_a_classic_game_has_its_own_post_in_the_readers_language(site) -> None:
    service, client = site
    game_id = service.create("werwolf-classic", 5, {"early_close": True}, "de").id
    _classic(service, game_id)
    heading, text = _post(client, game_id, "de")
    assert heading.endswith("— Statuspost")
    lines = text.splitlines()
    # the deadline in the game's zone (Europe/Berlin), as the file's formats write it
    assert re.fullmatch(r"\(bis zum \d\d\.\d\d\.\d\d um \d\d:\d\d\)", lines.pop(3))
    assert lines == [
        "Anmeldephase... finished",
        "Rollenverteilung... finished",
        "Nacht 1... running",
        "",
        "Noch im Spiel (6):",
        "Anna",
        "Bert",
        "Clara",
        "Dora",
        "Emil",
        "Gustav",
        "",
        "Ausgeschieden (1):",
        "Frida: Bäcker — Dorfbewohner, vom Spielleiter entfernt (Nacht 1)",
    ]
    _, russian = _post(client, game_id, "ru")
    assert "Frida: Bäcker — Житель, " in russian and "Выбыли (1):" in russian


def test_a_gms_stored_file_shows_his_own_titles_in_the_post(site) -> None:
    service, client = site
    data = (
        CLASSIC.read_bytes()
        .replace(b"id: werwolf-classic", b"id: my-village")
        .replace(
            b'villager: {faction: village, rule: K1.1, special: false, title: "Villager"',
            b'villager: {faction: village, rule: K1.1, special: false, title: "Farmer"',
        )
        .replace(b"languages: [en, de, ru]", b"languages: [en]")
    )
    game_id = service.create_from_rules(data, 5, {"early_close": True}, "en").id
    _classic(service, game_id)
    heading, text = _post(client, game_id, "en")
    assert heading.endswith("— Status post")
    assert text.splitlines()[-1] == "Frida: Bäcker — Farmer, removed by the game master (night 1)"


def test_a_changelings_game_shows_the_files_post(site) -> None:
    service, client = site
    game_id = service.create("changelings", 3, {"early_close": False}, "de").id
    for name in ("Ann", "bob", "Cid", "Dee", "Eve", "Fay"):
        service.signup(game_id, name, f"{name} the baker" if name != "Cid" else "")
    service.deal(game_id)
    service.start(game_id)
    service.gm(game_id, "modkill", "Cid")
    for lang in ("de", "en", "ru"):
        heading, text = _post(client, game_id, lang)
        post = shipped("changelings").status_post
        assert post is not None
        assert text == post.render(service.load(game_id).state, gettext_for(lang))
        assert heading.endswith(gettext_for(lang)("Status post"))
    assert "Cid: " in text


def test_a_changelings_game_explains_each_form(site) -> None:
    """Not the status post, but the page beside it: a Changelings game explains its
    abilities under their forms (the file's ``explain:``)."""
    service, client = site
    game_id = service.create("changelings", 3, {"early_close": False}, "de").id
    tokens = {name: service.signup(game_id, name) for name in ("Ann", "Bob", "Cid", "Dee",
                                                                "Eve", "Fay")}
    service.deal(game_id)
    service.start(game_id)
    page = html.unescape(client.get(f"/p/{tokens['Ann']}/thread?lang=en").text)
    # under "elect a leader", which day 1 offers in the thread (a public vote)
    assert "the most votes at the deadline win (C5.1)." in page


def test_a_classic_game_explains_its_forms_in_the_players_language(site) -> None:
    """classic.yaml explains every ability but ``post`` (``explain:``), in de and ru."""
    from nightfall.rulefile.ruleset import shipped
    from nightfall.web.explain import action_explanation

    classic = shipped("werwolf-classic")
    assert all(action_explanation(classic, a) for a in classic.file.abilities if a != "post")
    service, client = site
    game_id = service.create("werwolf-classic", 5, {"early_close": True}, "de").id
    tokens = {name: service.signup(game_id, name) for name in ROLES}
    service.assign(game_id, ROLES)
    service.start(game_id)
    anna = html.unescape(client.get(f"/p/{tokens['Anna']}?lang=de").text)
    assert "Das Opfer des Rudels heute Nacht: wen die Werwölfe am häufigsten nennen" in anna
    clara = html.unescape(client.get(f"/p/{tokens['Clara']}?lang=ru").text)
    assert "Игрок, чью сторону ты узнаешь в конце этапа" in clara

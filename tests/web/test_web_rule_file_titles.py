"""A GM's rule file names its own terms (issue 20, docs/rules-format.md "Where a game's file
is kept"): a file that calls the classic seer (K6.1) "Oracle" is accepted by the web's
/new/rules and by ``nightfall game new --rules``, and its game's pages, its e-mails,
``nightfall game setup``/``status`` and ``nightfall simulate --rules`` say "Oracle", while a
classic game open in the same server at the same time says "Seer" — requests of both
games interleaved, and sent at once from several threads; the shipped games' pages stay
byte for byte the same beside such files. A term's display name is looked up in the
scope of the game's rule file (``TermNames``, ``Ruleset.term_scope``), never in one table
for every game."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from nightfall.notify.config import NotifyConfig
from nightfall.rulefile.ruleset import SHIPPED
from nightfall.service import FixedClock, GameService
from nightfall.store import schema
from nightfall.web import Settings, create_app
from webkit import START, Env, csrf_of

HIDDEN = re.compile(r'<input type="hidden" name="([a-z_0-9]+)" value="([^"]*)"')
ROLES = {"Anna": "werewolf", "Bert": "werewolf", "Clara": "seer", "Dora": "witch",
         "Emil": "hunter", "Frida": "villager", "Gustav": "villager"}
ROLE_NAME = re.compile(r'<p class="role-name"><strong>([^<]+)</strong>')


def own_titles(ruleset_id: str, seer: str) -> bytes:
    """The shipped classic file under ``ruleset_id``, English only, its seer titled
    ``seer``, his ability "ask the SEER" and his role text naming his title (``{role}``),
    as a GM would edit it."""
    text = SHIPPED["werwolf-classic"].read_text(encoding="utf-8")
    edits = [("id: werwolf-classic", f"id: {ruleset_id}"),
             ("languages: [en, de, ru]", "languages: [en]"),
             ('title: "Seer", text: role_seer', f'title: "{seer}", text: role_seer'),
             ('title: "see a player\'s side"', f'title: "ask the {seer}"'),
             ('role_seer: "You are the seer.', 'role_seer: "You are the {role}.')]
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text.encode()


@pytest.fixture
def env(tmp_path: Path) -> Env:
    """A web app whose service writes e-mails into its outbox (no SMTP: nothing is sent)."""
    clock = FixedClock(START)
    notify = NotifyConfig(base_url="http://testserver", mail_from="gm@nightfall.test")
    service = GameService(url=f"sqlite:///{tmp_path / 'titles.db'}", clock=clock,
                          notify=notify)
    app = create_app(Settings(database_url=None, secret_key="test-secret",
                              base_url="http://testserver", sse_interval=0.05,
                              sse_max_seconds=0.5), service=service)
    return Env(app, service, clock, TestClient(app))


def create_on_the_web(env: Env, data: bytes) -> tuple[str, str]:
    """The game of the rule file ``data``, created through /new/rules: (its id, the GM
    page's path)."""
    before = {m.id for m in env.service.store.list_games()}
    token = csrf_of(env.client, "/new")
    checked = env.client.post("/new/rules?lang=en", data={"csrf_token": token},
                              files={"rules_file": ("oracle.yaml", data, "text/yaml")})
    assert checked.status_code == 200, checked.text[:3000]
    fields = dict(HIDDEN.findall(checked.text), title="Oracle game", locale="en", seed="5")
    created = env.client.post("/new/rules/create", data=fields,
                              files={"none": ("", b"", "application/octet-stream")},
                              follow_redirects=False)
    assert created.status_code == 303, created.text[:3000]
    [game_id] = {m.id for m in env.service.store.list_games()} - before
    return game_id, str(created.headers["location"])


def seat(env: Env, game_id: str) -> dict[str, str]:
    """Every player signed up (with an address the GM vouches for), the roles dealt as
    ``ROLES``, the game started: the players' tokens."""
    tokens = {name: env.service.signup(game_id, name, email=f"{name.lower()}@example.org",
                                       vouched=True) for name in ROLES}
    env.service.assign(game_id, ROLES)
    env.service.start(game_id)
    return tokens


def mails(env: Env, game_id: str, player: str) -> str:
    outbox = schema.outbox
    with env.service.engine.connect() as conn:
        rows = conn.execute(select(outbox.c.body_text).where(
            (outbox.c.game_id == game_id) & (outbox.c.player == player)
            & (outbox.c.transport == "email"))).all()
    return "\n".join(str(r[0]) for r in rows)


def test_an_oracle_file_and_a_classic_game_side_by_side(env: Env) -> None:
    oracle_id, oracle_gm = create_on_the_web(env, own_titles("werwolf-oracle", "Oracle"))
    assert env.service.meta(oracle_id).ruleset == "werwolf-oracle"
    classic = env.service.create("werwolf-classic", 5, {"early_close": True}, "en")
    classic_id = classic.id
    tokens = {oracle_id: seat(env, oracle_id), classic_id: seat(env, classic_id)}
    gm = {oracle_id: oracle_gm, classic_id: f"/gm/{classic.gm_token}"}
    said = {oracle_id: "Oracle", classic_id: "Seer"}

    def clara(game_id: str, client: TestClient) -> str:
        page = client.get(f"/p/{tokens[game_id]['Clara']}?lang=en").text
        found = ROLE_NAME.search(page)
        assert found is not None, page[:2000]
        return found.group(1)

    def gm_names(game_id: str) -> set[str]:
        page = env.client.get(f"{gm[game_id]}?lang=en").text
        return {name for name in ("Oracle", "Seer") if f"<td>{name}" in page}

    # interleaved: each game's pages between the other's, several times
    for game_id in [oracle_id, classic_id] * 3:
        assert clara(game_id, env.client) == said[game_id]
        assert gm_names(game_id) == {said[game_id]}
    # at once: both games' pages from four threads, each with its own client
    order = [oracle_id, classic_id] * 8
    clients = [TestClient(env.app) for _ in range(4)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        shown = list(pool.map(lambda i: clara(order[i], clients[i % 4]), range(len(order))))
    assert shown == [said[g] for g in order]

    # the role text names the role by the file's title (a Term in the game's scope)
    assert "You are the Oracle." in env.client.get(f"/p/{tokens[oracle_id]['Clara']}").text
    # e-mail: the stage's mail names the seer's ability, composed by the notifier (in the
    # command's transaction, not in a request) in the game's own scope
    oracle_mail, classic_mail = mails(env, oracle_id, "Clara"), mails(env, classic_id, "Clara")
    assert "What you can do now: ask the Oracle, pass." in oracle_mail
    assert "What you can do now: see a player's side, pass." in classic_mail
    assert "Oracle" not in classic_mail
    # the classic game's names were never changed by the file
    assert clara(classic_id, env.client) == "Seer"


def test_two_gm_files_with_clashing_titles_both_load(env: Env) -> None:
    """Two GMs' files call the seer otherwise: both are accepted on one site, and each
    game says its own file's name."""
    first, _ = create_on_the_web(env, own_titles("werwolf-oracle", "Oracle"))
    second, _ = create_on_the_web(env, own_titles("werwolf-sibyl", "Sibyl"))
    tokens = {first: seat(env, first), second: seat(env, second)}
    for game_id, title in [(first, "Oracle"), (second, "Sibyl")] * 2:
        page = env.client.get(f"/p/{tokens[game_id]['Clara']}?lang=en").text
        found = ROLE_NAME.search(page)
        assert found is not None and found.group(1) == title
        assert f"What you can do now: ask the {title}, pass." in mails(env, game_id, "Clara")


def test_the_command_line_names_the_file_s_titles(tmp_path: Path) -> None:
    """``nightfall game new --rules`` accepts the Oracle file beside a game of the shipped
    classic file in the same database, and ``game setup`` and ``game status --gm`` of each
    (each command a new process) say its own name for the seer."""
    db = tmp_path / "cli.db"
    oracle_file = tmp_path / "oracle.yaml"
    oracle_file.write_bytes(own_titles("werwolf-oracle", "Oracle"))

    def run(*args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "nightfall.cli", "game", *args,
                               "--db", f"sqlite:///{db}"], capture_output=True, text=True,
                              timeout=120, check=False, env={**os.environ, "COLUMNS": "200"})
        assert done.returncode == 0, (args, done.stdout, done.stderr)
        return done.stdout

    def new(path: Path) -> str:
        found = re.search(r"game: ([0-9a-f]+)", run("new", "--rules", str(path), "--seed", "3",
                                                    "--locale", "en"))
        assert found is not None
        return found.group(1)

    games = {new(oracle_file): "Oracle", new(SHIPPED["werwolf-classic"]): "Seer"}
    service = GameService(url=f"sqlite:///{db}")
    assignment = ",".join(f"{name}={role}" for name, role in ROLES.items())
    for game_id in games:
        for name in ROLES:
            service.signup(game_id, name)
    # in this process too, where Island and the classic file call the seer "Seer" in the
    # global table: each command names the terms in its game's scope
    from typer.testing import CliRunner

    import nightfall.rulesets.island  # noqa: F401
    from nightfall.cli.app import app
    from nightfall.rulefile.ruleset import shipped

    shipped("werwolf-classic")

    def here(*args: str) -> str:
        done = CliRunner().invoke(app, ["game", *args, "--db", f"sqlite:///{db}"],
                                  env={"COLUMNS": "200"})
        assert done.exit_code == 0, (args, done.output)
        return done.output

    for game_id, title in games.items():
        dealt = here("setup", game_id, "--assign", assignment)
        assert f"{title} (seer)" in dealt, dealt
    for game_id, title in [*games.items(), *games.items()]:
        other = ({"Oracle", "Seer"} - {title}).pop()
        for shown in (here("status", game_id, "--gm"), run("status", game_id, "--gm")):
            assert any("Clara" in line and title in line for line in shown.splitlines()), shown
            assert other not in shown, shown


SHIPPED_GAMES = {
    "changelings": ({"Ann": "pony", "Bob": "changeling", "Cid": "researcher",
                     "Dee": "night_owl", "Eve": "pony"}, "de", {}),
    "island": ({"Ann": "werewolf", "Bob": "seer", "Cid": "passenger", "Dee": "passenger",
                "Eve": "passenger"}, "ru", {"random_events": False, "items_per_player": 1}),
    "werwolf-classic": (ROLES, "de", {}),
    "changelings-data": ({"Ann": "pony", "Bob": "changeling", "Cid": "researcher",
                          "Dee": "night_owl", "Eve": "pony"}, "en", {}),
}


def test_the_shipped_games_pages_stay_the_same_beside_gm_files(env: Env) -> None:
    """The built-in rule sets' and the shipped files' pages say the same, byte for byte,
    before and after GM files that retitle their terms (the seer of classic and island,
    Changelings' pony) were created and shown in the same server: a GM's file never
    changes the global names (checked against main's output too, see the issue's notes)."""
    from rulekit import SHIPPED_CHANGELINGS

    urls: list[str] = []
    for ruleset_id, (roles, locale, options) in SHIPPED_GAMES.items():
        created = env.service.create(ruleset_id, 5, options, locale)
        tokens = {name: env.service.signup(created.id, name) for name in roles}
        env.service.assign(created.id, roles)
        env.service.start(created.id)
        urls += [f"/gm/{created.gm_token}", f"/g/{created.id}", f"/g/{created.id}/status",
                 *(f"/p/{t}" for t in tokens.values())]
    pages = [f"{u}?lang={lang}" for u in urls for lang in ("en", "de", "ru")]
    before = [env.client.get(url).text for url in pages]
    assert any("<td>Seer" in page for page in before)  # the GM page of classic, island
    assert any("<td>Pony" in page for page in before)

    little = (SHIPPED_CHANGELINGS.replace(b"id: changelings\n", b"id: little-ponies\n", 1)
              .replace(b'title: "Pony", text: role_pony', b'title: "Little pony", '
                                                        b'text: role_pony', 1)
              .replace(b"languages: [de, en]", b"languages: [en]", 1))
    for data, seats, title in ((own_titles("werwolf-oracle", "Oracle"), list(ROLES), "Oracle"),
                               (little, ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"],
                                "Little pony")):
        created = env.service.create_from_rules(data, 5, locale="en")
        for name in seats:
            env.service.signup(created.id, name)
        env.service.deal(created.id)
        env.service.start(created.id)
        assert f"<td>{title}" in env.client.get(f"/gm/{created.gm_token}?lang=en").text
    after = [env.client.get(url).text for url in pages]
    changed = [url for url, old, new in zip(pages, before, after, strict=True) if old != new]
    assert changed == []


def test_the_simulation_report_names_the_file_s_titles(tmp_path: Path) -> None:
    """``nightfall simulate --rules`` reports the file's roles by its own titles, in a
    process where another rule set (Island of Fear, the shipped classic file) calls the
    seer "Seer" in the global table: the report is printed in its setups' scope."""
    from typer.testing import CliRunner

    import nightfall.rulesets.island  # noqa: F401  (registers its "Seer")
    from nightfall.cli.app import app
    from nightfall.engine.text import Term, TermNames
    from nightfall.rulefile.ruleset import shipped

    shipped("werwolf-classic")
    assert TermNames.msgid(Term("role", "seer")) == "Seer"
    path = tmp_path / "oracle.yaml"
    path.write_bytes(own_titles("werwolf-oracle", "Oracle"))
    done = CliRunner().invoke(app, ["simulate", "--rules", str(path), "--games", "2",
                                    "--jobs", "1", "--seed", "4"], env={"COLUMNS": "200"})
    assert done.exit_code == 0, done.output
    assert "Oracle (seer)" in done.output and "Seer (seer)" not in done.output
    assert TermNames.msgid(Term("role", "seer")) == "Seer"  # outside the report's scope

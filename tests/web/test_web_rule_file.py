"""A game created from a GM's rule file on the web (issue 20, docs/web.md): the check lists
every problem as "key (line N): message" in the GM's language and stores nothing; a valid
file's create form stores the game and its file; a form whose file changed since the
check, or one sent twice, creates nothing more; the rule-file fields are not cut at the
20,000 characters of every other field; a player's page of such a game shows no other
player's role."""

from __future__ import annotations

import html
import re

from markupsafe import escape
from sqlalchemy import func, select

from nightfall.engine.text import Term, TermNames
from nightfall.store import schema
from rulekit import NAMES, broken_rules, house_rules
from webkit import Env, csrf_of

HIDDEN = re.compile(r'<input type="hidden" name="([a-z_0-9]+)" value="([^"]*)"')


def counts(env: Env) -> tuple[int, int]:
    with env.service.engine.connect() as conn:
        return (int(conn.execute(select(func.count()).select_from(schema.games)).scalar_one()),
                int(conn.execute(select(func.count()).select_from(schema.rule_files))
                    .scalar_one()))


def problems_of(page: str) -> list[str]:
    block = page[page.index('<ul class="rule-problems">'):]
    block = block[:block.index("</ul>")]
    return [html.unescape(item) for item in re.findall(r"<li>(.*?)</li>", block)]


def check(env: Env, data: bytes, lang: str = "en", as_file: bool = True) -> str:
    token = csrf_of(env.client, "/new")
    if as_file:
        response = env.client.post(f"/new/rules?lang={lang}", data={"csrf_token": token},
                                   files={"rules_file": ("house.yaml", data, "text/yaml")})
    else:
        response = env.client.post(f"/new/rules?lang={lang}", data={
            "csrf_token": token, "rules_text": data.decode()},
            files={"none": ("", b"", "application/octet-stream")})
    return f"{response.status_code}\n{response.text}"


def test_the_new_page_offers_the_shipped_rule_files(env: Env) -> None:
    from nightfall.service.rules import SETS

    page = env.client.get("/new").text
    assert 'action="/new/rules"' in page and 'enctype="multipart/form-data"' in page
    for path in SETS.glob("*.yaml"):
        assert f'<option value="{path.name}">' in page


def test_errors_are_listed_by_key_and_line_in_the_gm_s_language(env: Env) -> None:
    data, line = broken_rules()
    for lang, word, message in (("en", "line", "unknown faction 'poneys'"),
                                ("de", "Zeile", "unbekannte Seite 'poneys'"),
                                ("ru", "строка", "неизвестная сторона 'poneys'")):
        status, page = check(env, data, lang, as_file=(lang != "ru")).split("\n", 1)
        assert status == "400"
        listed = problems_of(page)
        assert f"roles.pony.faction ({word} {line}): {message}" in listed
        assert 'name="rules_data"' not in page  # no create form for a broken file
    assert counts(env) == (0, 0)
    assert TermNames.known(Term("role", "zz_stranger")) is None
    # the pasted text came back for correcting, whole (it is longer than 20,000 characters)
    assert len(data) > 20_000
    assert str(escape(data.decode()[-2000:])) in page


def test_a_valid_file_creates_a_game_whose_pages_work_and_keep_roles_hidden(env: Env) -> None:
    data = house_rules()
    status, page = check(env, data).split("\n", 1)
    assert status == "200", page[:2000]
    assert "house-ponies" in page and counts(env) == (0, 0)  # checked: nothing stored yet
    fields = dict(HIDDEN.findall(page))
    fields.update(title="House game", locale="en", seed="3")
    created = env.client.post("/new/rules/create", data=fields,
                              files={"none": ("", b"", "application/octet-stream")},
                              follow_redirects=False)
    assert created.status_code == 303, created.text[:2000]
    gm = created.headers["location"]
    dashboard = env.client.get(gm)
    assert dashboard.status_code == 200 and "House game" in dashboard.text
    [meta] = env.service.store.list_games()
    assert meta.ruleset == "house-ponies" and meta.rule_file and counts(env) == (1, 1)
    tokens = {name: env.service.signup(meta.id, name) for name in NAMES}
    env.service.deal(meta.id)
    env.service.start(meta.id)
    game = env.service.load(meta.id)
    roles = {name: game.state.players[name].role for name in NAMES}
    for name in NAMES:
        page = env.client.get(f"/p/{tokens[name]}").text
        assert f'data-role="{roles[name]}"' in page
        shown = set(re.findall(r'data-role="([a-z_]+)"', page))
        assert shown <= {r for n, r in roles.items() if n == name or _may_see(game, name, n)}
        view = env.client.get(f"/api/p/{tokens[name]}").json()["view"]
        for entry in view["players"]:
            if entry["name"] != name and entry["role"] is not None:
                assert _may_see(game, name, entry["name"]), (name, entry)
    from test_leaks import assert_no_leak

    for name in NAMES:
        assert_no_leak(game, name)


def _may_see(game: object, viewer: str, other: str) -> bool:
    """A changeling knows his team (C7.1); nobody else's role shows before the end."""
    from changelingskit import is_changeling_side

    players = game.state.players  # type: ignore[attr-defined]
    return bool(is_changeling_side(players[viewer].role)
                and is_changeling_side(players[other].role))


def test_a_changed_file_or_a_form_sent_twice_creates_nothing_more(env: Env) -> None:
    import base64

    status, page = check(env, house_rules()).split("\n", 1)
    assert status == "200"
    fields = dict(HIDDEN.findall(page))
    empty = {"none": ("", b"", "application/octet-stream")}
    # the file changed between the check and the create form
    changed = dict(fields, rules_data=base64.b64encode(house_rules("other-ponies")).decode())
    refused = env.client.post("/new/rules/create?lang=de", data=changed, files=empty)
    assert refused.status_code == 400
    assert "Die Regeldatei ist nicht die geprüfte" in refused.text
    assert counts(env) == (0, 0)
    # a forged hash with the forged file is refused all the same (the signature)
    forged = dict(changed, rules_sha256=__import__("hashlib").sha256(
        house_rules("other-ponies")).hexdigest())
    assert env.client.post("/new/rules/create", data=forged, files=empty).status_code == 400
    assert counts(env) == (0, 0)
    first = env.client.post("/new/rules/create", data=fields, files=empty,
                            follow_redirects=False)
    assert first.status_code == 303
    again = env.client.post("/new/rules/create", data=fields, files=empty,
                            follow_redirects=False)
    assert again.status_code == 409  # (the language chosen above stays: German)
    assert "Dieses Formular hat sein Spiel schon angelegt" in again.text
    assert counts(env) == (1, 1)


def test_one_rule_file_at_a_time_and_a_bad_option_keeps_the_form(env: Env) -> None:
    token = csrf_of(env.client, "/new")
    both = env.client.post("/new/rules", data={"csrf_token": token, "rules_text": "a: 1",
                                               "shipped": "changelings.yaml"},
                           files={"none": ("", b"", "application/octet-stream")})
    assert both.status_code == 400 and "not two at once" in both.text
    none = env.client.post("/new/rules", data={"csrf_token": token},
                           files={"none": ("", b"", "application/octet-stream")})
    assert none.status_code == 400 and "Upload a rule file, paste one" in none.text
    shipped = env.client.post("/new/rules", data={"csrf_token": token,
                                                  "shipped": "changelings.yaml"},
                              files={"none": ("", b"", "application/octet-stream")})
    assert shipped.status_code == 200 and "changelings" in shipped.text
    fields = dict(HIDDEN.findall(shipped.text), opt_timezone="Mars/Olympus")
    bad = env.client.post("/new/rules/create", data=fields,
                          files={"none": ("", b"", "application/octet-stream")})
    assert bad.status_code == 400 and "Mars/Olympus" in bad.text
    assert 'name="rules_data"' in bad.text  # the create form again, to correct
    assert counts(env) == (0, 0)


def test_every_shipped_rule_file_creates_a_game_from_the_new_page(env: Env) -> None:
    """A GM picks a shipped file (Changelings as data, the classic Werwolf of K1-K11): its
    own id is not refused as reserved, the game is stored with the file and its pages
    work — one GM form for every file in rulefile/sets, none named in code."""
    import yaml

    from nightfall.service.rules import SETS

    empty = {"none": ("", b"", "application/octet-stream")}
    paths = sorted(SETS.glob("*.yaml"))
    assert len(paths) >= 2
    for number, path in enumerate(paths, start=1):
        token = csrf_of(env.client, "/new")
        checked = env.client.post("/new/rules", data={"csrf_token": token,
                                                      "shipped": path.name}, files=empty)
        rid = yaml.safe_load(path.read_bytes())["id"]
        assert checked.status_code == 200 and rid in checked.text, (path, checked.text[:2000])
        fields = dict(HIDDEN.findall(checked.text), title=f"Shipped {number}", seed="5")
        created = env.client.post("/new/rules/create", data=fields, files=empty,
                                  follow_redirects=False)
        assert created.status_code == 303, (path, created.text[:2000])
        assert env.client.get(created.headers["location"]).status_code == 200
        meta = next(m for m in env.service.store.list_games() if m.ruleset == rid)
        assert meta.rule_file and counts(env) == (number, number)


def test_a_changelings_game_of_the_new_form_stores_the_shipped_file(env: Env) -> None:
    """Issue 20: the /new form's "changelings" stores the shipped file's bytes with the game,
    in the row a GM's pick of ``changelings.yaml`` uses too (one row per hash); an Island
    game (a Python plugin) stores none."""
    from rulekit import SHIPPED_CHANGELINGS

    empty = {"none": ("", b"", "application/octet-stream")}
    for ruleset in ("changelings", "island"):
        token = csrf_of(env.client, "/new")
        created = env.client.post("/new", data={"csrf_token": token, "ruleset": ruleset,
                                                "title": ruleset}, follow_redirects=False)
        assert created.status_code == 303, created.text[:2000]
    token = csrf_of(env.client, "/new")
    checked = env.client.post("/new/rules", data={"csrf_token": token,
                                                  "shipped": "changelings.yaml"}, files=empty)
    fields = dict(HIDDEN.findall(checked.text), title="picked", seed="5")
    assert env.client.post("/new/rules/create", data=fields, files=empty,
                           follow_redirects=False).status_code == 303
    metas = {m.title: m for m in env.service.store.list_games()}
    assert metas["changelings"].rule_file == metas["picked"].rule_file is not None
    assert metas["island"].rule_file is None and counts(env) == (3, 1)
    stored = env.service.store.rule_file(metas["changelings"].rule_file or "")
    assert stored is not None and stored.data == SHIPPED_CHANGELINGS

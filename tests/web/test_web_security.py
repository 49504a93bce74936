"""Private links and CSRF: every route with every wrong token answers 404 and leaks
nothing; every form needs the CSRF token; a player never sees another player's secrets."""

from __future__ import annotations

import dataclasses
import re
import threading
import time

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from nightfall.engine import Command
from nightfall.web.routes import api, gm, observer, player, public, sse
from webkit import ROLES, Env, Small, csrf_of, small_game


def app_routes() -> list[APIRoute]:
    """Every route of the app (each area's router; FastAPI wraps them once included)."""
    return [route for module in (public, player, observer, gm, api, sse)
            for route in module.router.routes if isinstance(route, APIRoute)]


def island_observer(env: Env, name: str = "Zoe") -> tuple[str, str]:
    """A started Island game with an observer (I6.7): (game id, the observer's token)."""
    created = env.service.create("island", 3, {"random_events": False})
    for name_ in ("Ivy", "Jon", "Kim", "Lea", "Max"):
        env.service.signup(created.id, name_)
    env.service.deal(created.id)
    env.service.start(created.id)
    return created.id, env.service.admit_observer(created.id, name)


def token_routes(env: Env) -> list[tuple[str, str]]:
    found = []
    for route in app_routes():
        if "{token}" in route.path:
            for method in sorted(route.methods):
                found.append((method, route.path))
    return found


def wrong_tokens(env: Env, small: Small, kind: str) -> dict[str, str]:
    """Every kind of wrong token for a route of ``kind`` (p or gm). (Routes carry no game
    id or player name: a token opens exactly its holder's pages, nothing else.)"""
    revoked_player = small.tokens["Eve"]
    env.service.store.issue_token(small.game_id, "Eve")  # the old link stops working
    revoked_gm = small.gm
    small.gm = env.service.store.issue_token(small.game_id, None)
    small.tokens["Eve"] = env.service.store.issue_token(small.game_id, "Eve")
    tokens = {
        "junk": "x" * 43, "short": "a", "revoked player": revoked_player,
        "revoked gm": revoked_gm, "with slash": "..%2F..%2Fgm",
    }
    island, watcher = island_observer(env)
    revoked_observer = env.service.store.issue_token(island, "Zoe", True)
    env.service.store.revoke_access(island, "Zoe", True)
    env.service.store.issue_token(island, "Zoe", True)
    tokens["revoked observer"] = revoked_observer
    if kind == "p":
        tokens["this game's gm on a player page"] = small.gm
    else:
        tokens["this game's player on a gm or observer page"] = small.tokens["Ann"]
    if kind == "o":
        tokens["a gm on an observer page"] = small.gm
    else:
        tokens["an observer on a player or gm page"] = watcher
    return tokens


SECRETS = ("Changeling", "changeling", "researcher", "Researcher", "Night Owl")


@pytest.mark.parametrize("kind", ["p", "gm", "o", "api/p", "api/gm", "api/o"])
def test_every_token_route_answers_404_to_every_wrong_token(env: Env, small: Small,
                                                            kind: str) -> None:
    routes = [(m, p) for m, p in token_routes(env) if p.startswith(f"/{kind}/{{token}}")]
    assert routes, kind
    tokens = wrong_tokens(env, small, kind.removeprefix("api/"))
    csrf = csrf_of(env.client)
    head = env.service.meta(small.game_id).head_seq
    for method, path in routes:
        for label, token in tokens.items():
            url = path.replace("{token}", token)
            if method == "GET":
                response = env.client.get(url)
            else:
                response = env.client.request(method, url, data={
                    "csrf_token": csrf, "action": "advance", "option": '[["Ann"],null]',
                    "text": "hello", "name": "Zed", "player": "*", "mode": "default"})
            assert response.status_code == 404, (method, path, label, response.status_code)
            # The page's language links repeat the URL asked for; a random token can spell
            # a name ('...AnnS...'), so the asked-for token is not part of what is checked.
            shown = response.text.replace(token, "")
            for secret in (*SECRETS, small.game_id, *ROLES):
                assert secret not in shown, (method, path, label, secret)
    assert env.service.meta(small.game_id).head_seq == head


def test_unknown_game_ids_answer_404(env: Env, small: Small) -> None:
    for path in ("/g/{id}", "/g/{id}/signup", "/g/{id}/status", "/g/{id}/reveal",
                 "/g/{id}/events", "/api/g/{id}"):
        for game_id in ("nope", "0" * 12, "x" * 300):
            response = env.client.get(path.replace("{id}", game_id))
            assert response.status_code == 404, (path, game_id)


def test_the_right_tokens_open_their_pages(env: Env, small: Small) -> None:
    assert env.client.get(small.p("Ann")).status_code == 200
    assert env.client.get(small.p("Ann") + "/thread").status_code == 200
    assert env.client.get(small.g).status_code == 200
    assert env.client.get(f"/api/p/{small.tokens['Ann']}").json()["player"] == "Ann"


def test_a_new_link_revokes_the_old_one(env: Env, small: Small) -> None:
    old = small.p("Ann")
    csrf = csrf_of(env.client, small.g)
    page = env.client.post(small.g + "/links", data={"csrf_token": csrf, "player": "Ann"})
    assert page.status_code == 200
    new = re.search(r'value="http://testserver(/p/[^"]+)"', page.text)
    assert new is not None
    assert env.client.get(old).status_code == 404
    assert "Ann" in env.client.get(new.group(1)).text


def post_routes(env: Env) -> list[str]:
    return [route.path for route in app_routes() if "POST" in route.methods]


def test_every_form_needs_the_csrf_token(env: Env, small: Small) -> None:
    routes = post_routes(env)
    assert len(routes) >= 10
    good = csrf_of(env.client)
    head = env.service.meta(small.game_id).head_seq
    island, watcher = island_observer(env)
    island_head = env.service.meta(island).head_seq
    games = len(env.service.store.list_games())
    for path in routes:
        url = (path.replace("{game_id}", small.game_id)
               .replace("/p/{token}", small.p("Ann")).replace("/gm/{token}", small.g)
               .replace("/o/{token}", f"/o/{watcher}"))
        fields = {"action": "advance", "option": '[["Bob"],null]', "text": "hi",
                  "name": "Zed", "player": "*", "mode": "default", "ruleset": "changelings"}
        # no token, a wrong token, a forged cookie
        assert env.client.post(url, data=fields).status_code == 403, url
        assert env.client.post(url, data={**fields, "csrf_token": good + "x"}
                               ).status_code == 403, url
        forger = TestClient(env.app, cookies={"nf_csrf": "abc.def"})
        response = forger.post(url, data={**fields, "csrf_token": "abc"})
        assert response.status_code == 403, url
        assert "Nothing was changed" in response.text
    assert env.service.meta(small.game_id).head_seq == head
    assert env.service.meta(island).head_seq == island_head
    assert len(env.service.store.list_games()) == games


def test_csrf_header_works_for_htmx(env: Env, small: Small) -> None:
    csrf = csrf_of(env.client, small.p("Ann"))
    response = env.client.post(small.p("Ann") + "/post", data={"text": "hello"},
                               headers={"X-CSRF-Token": csrf}, follow_redirects=False)
    assert response.status_code == 303


def test_security_headers(env: Env, small: Small) -> None:
    response = env.client.get(small.p("Ann"))
    assert response.headers["cache-control"] == "no-store"
    assert response.headers["referrer-policy"] == "no-referrer"
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    assert "script-src 'self'" in response.headers["content-security-policy"]
    cookie = response.headers.get("set-cookie", "")
    assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()


def play_first_night(env: Env, small: Small) -> None:
    svc = env.service
    for name in ROLES:
        svc.submit(small.game_id, Command("elect", by=name, target="Ann"))
    svc.submit(small.game_id, Command("post", by="Cid", text="I am watching you all."))
    svc.gm(small.game_id, "advance")  # day 1 -> night 1/1
    svc.submit(small.game_id, Command("investigate", by="Cid", target="Bob"))
    svc.submit(small.game_id, Command("visit", by="Dee", target="Eve"))
    svc.submit(small.game_id, Command("abduct", by="Bob", target="Eve", text="Gone!"))
    assert svc.load(small.game_id).state.phase_label == "day 2"


def test_player_a_never_sees_b_s_role_items_notices_or_submissions(env: Env,
                                                                    small: Small) -> None:
    play_first_night(env, small)
    env.service.submit(small.game_id, Command("vote", by="Cid", target="Bob"))
    secrets_of = {
        "Cid": ["reveals: Changeling", "investigate"],
        "Dee": ["knocked at Eve", "nobody is at home"],
        "Bob": ["Your fellow changelings", "team_submissions"],
    }
    ann = small.tokens["Ann"]
    pages = [f"/p/{ann}", f"/p/{ann}/thread", f"/api/p/{ann}", f"/g/{small.game_id}",
             f"/g/{small.game_id}/status", f"/api/g/{small.game_id}"]
    for url in pages:
        text = env.client.get(url).text
        for owner, secrets in secrets_of.items():
            for secret in secrets:
                assert secret not in text, (url, owner, secret)
    view = env.client.get(f"/api/p/{ann}").json()["view"]
    roles = {p["name"]: p["role"] for p in view["players"]}
    assert roles == {"Ann": "pony", "Bob": None, "Cid": None, "Dee": None, "Eve": "pony"}
    assert set(view["me"]["submissions"]) <= {"vote", "elect"}
    # the owners do see their own secrets
    assert "Your look at Bob reveals: Changeling." in env.client.get(small.p("Cid")).text
    assert "nobody is at home" in env.client.get(small.p("Dee")).text
    page = env.client.get(small.p("Ann")).text
    assert 'data-role="pony"' in page
    for name in ("Bob", "Cid", "Dee"):
        assert re.search(rf"<li class=\"alive\">{name}</li>", page), name


def test_no_public_or_player_view_counts_hidden_events(env: Env, small: Small) -> None:
    """The log's head grows with every event, a secret night action too: shown to anybody
    but the GM, it told when (and how many) hidden moves were made."""
    svc = env.service
    for name in ROLES:
        svc.submit(small.game_id, Command("elect", by=name, target="Ann"))
    svc.gm(small.game_id, "advance")  # night 1/1
    urls = [f"/api/g/{small.game_id}", f"/api/p/{small.tokens['Ann']}"]
    before = [env.client.get(url).json() for url in urls]
    svc.submit(small.game_id, Command("investigate", by="Cid", target="Bob"))
    assert [env.client.get(url).json() for url in urls] == before
    gm_view = env.client.get(f"/api/gm/{small.gm}").json()
    assert gm_view["head_seq"] == svc.meta(small.game_id).head_seq  # the GM may know


def test_a_live_update_names_no_log_position_except_to_the_gm(env: Env, small: Small) -> None:
    def later() -> None:
        time.sleep(0.1)
        env.service.submit(small.game_id, Command("post", by="Ann", text="hello"))

    bodies = {}
    for label, url in (("public", f"/g/{small.game_id}/events"),
                       ("player", small.p("Bob") + "/events"), ("gm", small.g + "/events")):
        thread = threading.Thread(target=later)
        chunks: list[str] = []
        with env.client.stream("GET", url) as response:
            for chunk in response.iter_text():
                if not chunks:  # the stream has read its head: now the post comes
                    thread.start()
                chunks.append(chunk)
        bodies[label] = "".join(chunks)
        thread.join()
    head = str(env.service.meta(small.game_id).head_seq)
    for label in ("public", "player"):
        assert "event: post\ndata: post\n" in bodies[label], bodies[label]
        assert not re.search(r"^data: \d", bodies[label], re.M), bodies[label]
    assert f"data: {head}" in bodies["gm"]


@pytest.mark.parametrize(("name", "reason"), [
    ("Ａnn", "The name Ａnn is already taken."),  # full-width A: Ann to the eye
    ("ＡＮＮ", "The name ＡＮＮ is already taken."),
    ("\u0410nn", "looks too much like Ann"),  # a Cyrillic А (UTS #39 skeleton)
    ("An\u0336n", "marks that form no letter"),  # an overlay through the n
    ("*", "A name needs at least one letter or digit."),  # the GM's "every player"
    ("---", "A name needs at least one letter or digit."),
])
def test_no_look_alike_or_symbol_names(env: Env, name: str, reason: str) -> None:
    small = small_game(env.service, start=False)
    csrf = csrf_of(env.client)
    page = env.client.post(f"/g/{small.game_id}/signup", data={"csrf_token": csrf, "name": name})
    assert page.status_code == 400 and reason in page.text
    page = env.client.post(small.g + "/players", data={"csrf_token": csrf, "name": name})
    assert page.status_code == 400 and reason in page.text
    assert list(env.service.load(small.game_id).state.players) == list(ROLES)


def test_a_hidden_event_does_not_skip_a_keep_alive(env: Env, small: Small) -> None:
    """Every look at the head sends a line; once a look that found only someone else's
    secret move sent nothing, so the gap in the keep-alives timed that move."""
    svc = env.service
    for name in ROLES:
        svc.submit(small.game_id, Command("elect", by=name, target="Ann"))
    svc.gm(small.game_id, "advance")  # night 1/1
    # exactly one look, 1 s after the stream starts (SQLite polls): the secret move at
    # 0.1 s comes before it; whatever the machine's load, the fixed stream sends one
    # keep-alive, the old one sent none when it found only the hidden move
    env.app.state.settings = dataclasses.replace(env.app.state.settings, sse_interval=1.0,
                                                 sse_max_seconds=1.0)

    def later() -> None:
        time.sleep(0.1)  # before the first look
        svc.submit(small.game_id, Command("visit", by="Dee", target="Eve"))

    thread = threading.Thread(target=later)
    thread.start()
    with env.client.stream("GET", small.p("Ann") + "/events") as response:
        body = "".join(response.iter_text())
    thread.join()
    assert body.count(": keep-alive") == 1 and "event:" not in body, body

"""The GM page's "Count forum votes": a real saved phpBB page uploaded into a game whose
players are the thread's; what the page shows equals what ``nightfall votecount --game
--json`` prints (a real subprocess on the same database), the post equals its BBCode
post, the submitted votes reach the engine at their posts' times; every error names its
cause and changes nothing."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from selectolax.lexbor import LexborHTMLParser

from nightfall.engine import events as ev
from nightfall.forum import limits
from nightfall.web.votecount import MAX_FILE_BYTES
from webkit import Env, csrf_of, make_env

FIXTURES = Path(__file__).parents[1] / "forum" / "fixtures"
PAGE = FIXTURES / "phpbb3_day2.html"
EXPECTED = json.loads((FIXTURES / "phpbb3_day2.expected.json").read_text(encoding="utf-8"))
#: the thread's players (the fixture's --players), their roles in the game
ROLES = {"Anna Bell": "changeling", "Bob": "pony", "Dan_the_Man": "pony",
         "Dana": "researcher", "Jörg": "pony", "Zoë K": "pony"}


class Forum:
    def __init__(self, env: Env, game_id: str, gm: str) -> None:
        self.env, self.game_id, self.gm = env, game_id, gm

    @property
    def url(self) -> str:
        return f"/gm/{self.gm}"

    def head(self) -> int:
        return len(self.env.service.store.events(self.game_id))

    def count(self, files: list[tuple[str, bytes]], **fields: str) -> Any:
        token = csrf_of(self.env.client, self.url)
        return self.env.client.post(
            f"{self.url}/votecount", data={"csrf_token": token, **fields},
            files=[("pages", (name, data, "application/octet-stream")) for name, data in files])


@pytest.fixture
def forum(tmp_path: Path) -> Forum:
    """A German Changelings game of the thread's players, on day 2 from 23.12.2012 20:00
    until 24.12.2012 19:30 (Berlin): the fixture's --since and --deadline."""
    env = make_env(tmp_path)
    svc = env.service
    env.clock.set(datetime(2012, 12, 22, 11, 0, tzinfo=UTC))
    created = svc.create("changelings", 3, {"early_close": False}, "de", title="Forum")
    for name in ROLES:
        svc.signup(created.id, name)
    svc.assign(created.id, ROLES)
    svc.start(created.id)
    env.clock.set(datetime(2012, 12, 23, 19, 0, tzinfo=UTC))  # 20:00 in Berlin
    for _ in range(3):  # day 1 → night 1/1 → night 1/2 → day 2
        svc.gm(created.id, "advance")
    assert svc.load(created.id).state.phase_label == "day 2"
    return Forum(env, created.id, created.gm_token)


def shown(html: str) -> dict[str, Any]:
    """The count as the page shows it, in the contract's JSON shape."""
    tree = LexborHTMLParser(html)
    votes, tally = {}, {}
    for row in tree.css("#votecount-tally tbody tr"):
        target = str(row.attributes["data-player"])
        tally[target] = int(str(row.attributes["data-votes"]))
        for voter in row.css("td")[2].text().split(", "):
            votes[voter] = target
    not_voting = tree.css_first("#votecount-not-voting").text().split(": ", 1)[1]
    return {
        "votes": dict(sorted(votes.items())), "tally": tally,
        "not_voting": [] if not_voting == "—" else not_voting.split(", "),
        "invalid": [{"post": li.attributes["data-post"], "author": li.attributes["data-author"],
                     "reason": li.attributes["data-reason"]}
                    for li in tree.css("#votecount-invalid li")],
        "unresolved": [(li.attributes["data-post"], li.attributes["data-author"])
                       for li in tree.css("#votecount-unresolved li")],
    }


def cli(forum: Forum, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "nightfall.cli", "votecount", str(PAGE), "--game",
         forum.game_id, "--db", str(forum.env.service.engine.url), *args],
        capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_page_shows_the_count_of_the_command_line_and_submits_it(forum: Forum) -> None:
    before = forum.head()
    response = forum.count([(PAGE.name, PAGE.read_bytes())])  # since/deadline: the game's
    assert response.status_code == 200, response.text
    assert forum.head() == before  # counting changes nothing
    page = shown(response.text)
    command_line = json.loads(cli(forum, "--json"))
    assert command_line == EXPECTED["count"]  # the game's window is the fixture's
    assert page["votes"] == dict(sorted(command_line["votes"].items()))
    assert page["tally"] == command_line["tally"]
    assert page["not_voting"] == command_line["not_voting"]
    assert page["invalid"] == command_line["invalid"]
    assert page["unresolved"] == [(u["post"], u["author"]) for u in command_line["unresolved"]]
    tree = LexborHTMLParser(response.text)
    post = tree.css_first("#votecount-post").text()
    assert post == cli(forum)  # the BBCode post, in the game's language
    assert post.startswith("[b]Stimmenauszählung[/b]")
    assert "Ungültige Stimmen" in tree.css_first("#votecount-result").text()

    # submit: each vote at its post's time, in post order, the engine judging each
    form = tree.css_first("form.votecount-submit")
    fields = {str(i.attributes["name"]): str(i.attributes["value"]) for i in form.css("input")}
    done = forum.env.client.post(f"{forum.url}/votecount/submit", data=fields)
    assert done.status_code == 200, done.text
    results = {(li.attributes["data-voter"], li.attributes["data-target"]):
               li.attributes["data-accepted"]
               for li in LexborHTMLParser(done.text).css("#votecount-submitted li")}
    # Dan_the_Man posted at 19:30:00, inside the forum's deadline minute; the engine's
    # deadline is 19:30 sharp, so his vote (made at its post's time) is too late
    assert results == {("Anna Bell", "Bob"): "yes", ("Bob", "Dan_the_Man"): "yes",
                       ("Zoë K", "Bob"): "yes", ("Dana", "Bob"): "yes",
                       ("Dan_the_Man", "Anna Bell"): "no"}
    assert "Zu spät" in done.text
    game = forum.env.service.load(forum.game_id)
    assert {s.player: s.target for s in game.state.submissions_in("vote")} == {
        "Anna Bell": "Bob", "Bob": "Dan_the_Man", "Zoë K": "Bob", "Dana": "Bob"}
    new = forum.env.service.store.events(forum.game_id)[before:]
    assert [e.player for e in new if isinstance(e, ev.Submitted)] == [
        "Anna Bell", "Bob", "Zoë K", "Dana"]  # in the order of their posts
    # the same list again: the votes already in the game are not sent twice
    head = forum.head()
    again = forum.env.client.post(f"{forum.url}/votecount/submit", data=fields)
    assert again.status_code == 200, again.text
    assert again.text.count("unverändert: ist schon die Stimme im Spiel") == 4
    assert forum.head() == head


def test_aliases_and_a_typed_window_are_used(forum: Forum) -> None:
    response = forum.count([(PAGE.name, PAGE.read_bytes())], since="2012-12-24 12:30",
                           deadline="24.12.2012", aliases="Jörg=Jorg\n\n")
    assert response.status_code == 200, response.text
    page = shown(response.text)
    assert ("p5008", "Bob") not in page["unresolved"]  # "Jorg" is Jörg now
    assert {"post": "p5006", "author": "Zoë K", "reason": "before_start"} in page["invalid"]
    assert page["votes"]["Bob"] == "Jörg"


ERRORS: list[tuple[str, list[tuple[str, bytes]], dict[str, str], int, str]] = [
    ("no file", [], {}, 400, "Wähle mindestens eine gespeicherte Seite"),
    ("no file chosen", [("", b"")], {}, 400, "Wähle mindestens eine gespeicherte Seite"),
    ("wrong kind", [("photo.png", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)], {}, 415,
     "photo.png"),
    ("garbled", [("cut.html", PAGE.read_bytes()[:3000])], {}, 422, "cut.html"),
    ("empty", [("empty.bbcode", b"  \n")], {}, 400, "empty.bbcode"),
    ("oversized", [("huge.html", b" " * (MAX_FILE_BYTES + 1))], {}, 413, "5 MB"),
    # issue 18: 200,000 nested blockquotes took two minutes of CPU before a 415
    ("nested too deep", [("deep.html", b"<html><body>" + b"<blockquote>" * 200_000
                          + b"</blockquote>" * 200_000 + b"</body></html>")], {}, 422,
     "deep.html verschachtelt sein Markup tiefer als 400 Ebenen"),
    ("too many files", [(f"p{i}.html", PAGE.read_bytes()) for i in range(31)], {}, 413,
     "Höchstens 30 Dateien"),
    ("too much markup", [(f"p{i}.html", PAGE.read_bytes().replace(
        b'<div class="content">', b'<div class="content">' + b"<b>x</b>" * 60_000, 1))
        for i in range(5)], {}, 422, "p4.html"),
    ("one good, one bad", [(PAGE.name, PAGE.read_bytes()), ("notes.txt", b"just notes")],
     {}, 415, "notes.txt"),
    ("bad time", [(PAGE.name, PAGE.read_bytes())], {"since": "gestern"}, 400, "gestern"),
    ("bad alias", [(PAGE.name, PAGE.read_bytes())], {"aliases": "Jörg Jorg"}, 400,
     "Zeile 1"),
    ("alias of nobody", [(PAGE.name, PAGE.read_bytes())], {"aliases": "Zed=Z"}, 400, "Zed"),
]


@pytest.mark.parametrize(("case", "files", "fields", "status", "named"), ERRORS,
                         ids=[e[0] for e in ERRORS])
def test_errors_are_clear_and_change_nothing(forum: Forum, case: str,
                                             files: list[tuple[str, bytes]],
                                             fields: dict[str, str], status: int,
                                             named: str) -> None:
    before = forum.head()
    response = forum.count(files, **fields)
    assert response.status_code == status, response.text
    error = LexborHTMLParser(response.text).css_first("#error")
    assert error is not None and named in error.text(), error.text() if error else case
    assert "votecount-result" not in response.text
    assert forum.head() == before


def test_hostile_uploads_are_answered_quickly(forum: Forum) -> None:
    """The hostile cases above each in a few seconds (the unfixed server: minutes)."""
    deep = b"<html><body>" + b"<div>" * 100_000 + b"</div>" * 100_000 + b"</body></html>"
    started = time.monotonic()
    response = forum.count([(f"deep{i}.html", deep) for i in range(10)])
    assert response.status_code == 422 and "deep0.html" in response.text
    assert time.monotonic() - started < 10


def test_a_request_larger_than_a_count_reads_is_refused_before_it_is_read(
    forum: Forum
) -> None:
    before = forum.head()
    big = b"x" * (MAX_FILE_BYTES - 100)
    response = forum.count([(f"big{i}.bbcode", big) for i in range(3)])
    assert response.status_code == 413, response.text[:300]
    assert f"mehr als {limits.MAX_TOTAL_MB} MB" in response.text  # the game's language
    assert forum.head() == before


def test_a_game_not_running_counts_and_submits_nothing(tmp_path: Path) -> None:
    env = make_env(tmp_path)
    created = env.service.create("changelings", 1, {}, "en", title="Not yet")
    for name in ROLES:
        env.service.signup(created.id, name)
    url = f"/gm/{created.gm_token}"
    page = env.client.get(url)
    assert 'id="votecount"' not in page.text  # the section is offered in a running game
    token = csrf_of(env.client, url)
    before = len(env.service.store.events(created.id))
    response = env.client.post(f"{url}/votecount", data={"csrf_token": token},
                               files=[("pages", (PAGE.name, PAGE.read_bytes(), "text/html"))])
    assert response.status_code == 409 and "only while the game is running" in response.text
    response = env.client.post(f"{url}/votecount/submit", data={
        "csrf_token": token, "votes": "{}", "seal": "x"})
    assert response.status_code == 409
    assert len(env.service.store.events(created.id)) == before


def test_submitting_a_changed_stale_or_forged_list_changes_nothing(forum: Forum) -> None:
    response = forum.count([(PAGE.name, PAGE.read_bytes())])
    form = LexborHTMLParser(response.text).css_first("form.votecount-submit")
    fields = {str(i.attributes["name"]): str(i.attributes["value"]) for i in form.css("input")}
    before = forum.head()
    client = forum.env.client
    changed = {**fields, "votes": fields["votes"].replace('"Bob"', '"Dana"')}
    answer = client.post(f"{forum.url}/votecount/submit", data=changed)
    assert answer.status_code == 400 and "verändert" in answer.text
    no_csrf = {k: v for k, v in fields.items() if k != "csrf_token"}
    assert client.post(f"{forum.url}/votecount/submit", data=no_csrf).status_code == 403
    assert forum.head() == before
    forum.env.service.gm(forum.game_id, "advance")  # day 2 is over: the list is stale
    before = forum.head()
    answer = client.post(f"{forum.url}/votecount/submit", data=fields)
    assert answer.status_code == 409 and re.search(r"Tag 2", answer.text)
    assert forum.head() == before


def test_a_garbled_upload_is_answered_with_a_page(forum: Forum) -> None:
    """Multipart data Starlette cannot parse: the app's error page (400), not JSON."""
    before = forum.head()
    response = forum.env.client.post(
        f"{forum.url}/votecount", content=b"--b\r\n-garbage--b--\r\n",
        headers={"content-type": "multipart/form-data; boundary=b"})
    assert response.status_code == 400
    assert response.headers["content-type"].startswith("text/html")
    assert "The form could not be read" in response.text
    assert forum.head() == before

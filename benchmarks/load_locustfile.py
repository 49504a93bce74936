"""Locust users for ``benchmarks/load_test.py``: players of running games, and a static
file as the ceiling.

Run by the driver (``load_test.py``), which passes everything through environment
variables (the players' tokens come from the games it created):

``NIGHTFALL_LOAD_PLAYERS``  JSON file: ``[[game_id, player, token], …]``
``NIGHTFALL_LOAD_HOSTS``    comma-separated base URLs; user *i* talks to host *i mod n*
``NIGHTFALL_LOAD_USERS``    the user count, so user *i* plays tokens *i, i+n, i+2n, …*
``NIGHTFALL_LOAD_WAIT``     ``MIN,MAX`` think time between two turns, in seconds
``NIGHTFALL_LOAD_GMS``      JSON file: ``[[game_id, gm_token], …]`` for ``GameMaster``
``NIGHTFALL_LOAD_GM_USERS`` how many ``GameMaster`` users run beside the players
``NIGHTFALL_LOAD_RECORD``   JSON file written at the end: what the servers accepted, and
                            locust's figures (taken after every user has finished)

A ``Player`` turn acts like a browser would: read the JSON view with the legal commands
(``/api/p/{token}``), then either poll (nothing to do), or open the private page, take the
CSRF field and the phase from its form and POST one legal command as that form does, or
open the thread and POST a message with a unique text. Every POST is recorded: accepted
(303), rejected by the rules (a 303 marked ``X-Nightfall-Result: error``, or 400/409: a stale
view, the thread closed at night) or by the
per-link rate limit (429) — both counted apart from errors — or of unknown outcome (an
error or a cut connection). The driver checks the accepted ones against the event store afterwards.

A ``GameMaster`` closes the current phase of its games one after the other (his
dashboard, then its "close the phase now" form), as a GM does when everyone has voted:
the games move through days and nights, so the players' views go stale under them and
the nights' resolutions run while they play.

Why the unique texts and the recorded commands: a lost or doubled command is invisible in
response codes; only comparing what the users were told was accepted with what the store
holds can show it.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
from typing import Any
from urllib.parse import urlencode

from locust import FastHttpUser, between, events, task
from locust.exception import StopUser


def _rows(variable: str) -> list[list[str]]:
    path = os.environ.get(variable)
    if not path:
        return []
    with open(path, encoding="utf-8") as data:
        rows: list[list[str]] = json.load(data)
    return rows


PLAYERS = _rows("NIGHTFALL_LOAD_PLAYERS")
GMS = _rows("NIGHTFALL_LOAD_GMS")
GM_USERS = int(os.environ.get("NIGHTFALL_LOAD_GM_USERS", "0"))
HOSTS = [h for h in os.environ.get("NIGHTFALL_LOAD_HOSTS", "").split(",") if h]
USERS = int(os.environ.get("NIGHTFALL_LOAD_USERS", "1"))
WAIT = tuple(float(x) for x in os.environ.get("NIGHTFALL_LOAD_WAIT", "0,0").split(","))
RECORD = os.environ.get("NIGHTFALL_LOAD_RECORD", "")
#: share of turns that post a message to the thread instead of acting
POST_SHARE = 0.15
#: commands a load user does not send: withdrawing and passing leave no event per command
#: that the check could match one to one; a post goes through its own form
SKIPPED_ACTIONS = frozenset({"post", "unvote", "pass"})
#: votes are cast in the thread (where the rule set makes them public, as Changelings does)
THREAD_ACTIONS = frozenset({"elect", "vote"})
FORM_FIELD = re.compile(r'<input type="hidden" name="(csrf_token|phase)" value="([^"]*)">')
FORM_HEADERS = {"Content-Type": "application/x-www-form-urlencoded"}

_numbers = itertools.count()
_gm_numbers = itertools.count()
_host_numbers = itertools.count()
_gm_numbers = itertools.count()
#: what the users were told (written to NIGHTFALL_LOAD_RECORD at the end)
accepted: list[list[Any]] = []
posts: list[list[str]] = []
gm_acts: list[list[str]] = []
rejected: dict[str, int] = {}
unknown: list[list[Any]] = []


def _host() -> str:
    if not HOSTS:
        raise RuntimeError("NIGHTFALL_LOAD_HOSTS is empty")
    return HOSTS[next(_host_numbers) % len(HOSTS)]


def _form_fields(html: str) -> dict[str, str]:
    return dict(FORM_FIELD.findall(html))


class Player(FastHttpUser):
    """One browser: plays its share of the players' private links, one turn at a time."""

    wait_time = between(WAIT[0], WAIT[-1])
    network_timeout = 60.0
    connection_timeout = 30.0
    #: never resend a POST by itself: a resent command would be a duplicate the check
    #: blames on the server
    max_retries = 0

    def __init__(self, environment: Any) -> None:
        number = next(_numbers)
        self.host = _host()
        super().__init__(environment)
        self.mine = PLAYERS[number % USERS::USERS] if number < USERS else []
        self.turns = itertools.cycle(self.mine) if self.mine else None
        self.name_number = number
        #: every other user's first turn posts, the others' first turn acts: every game
        #: starts by day with its thread open, so each run sends posts and commands
        #: however few turns a loaded machine gets through (a 10 s CI run at load 4 got
        #: one turn per user: by chance alone it once sent no post, and with every first
        #: turn posting it sent no command); later turns post at POST_SHARE (at night
        #: the thread has no form and a turn that chose to post sends nothing)
        self.posted = number % 2 == 1

    @task
    def turn(self) -> None:
        if self.turns is None:
            raise StopUser()
        game_id, player, token = next(self.turns)
        with self.client.get(f"/api/p/{token}", name="GET /api/p/[token]",
                             catch_response=True) as answer:
            if answer.status_code != 200:
                answer.failure(f"view: HTTP {answer.status_code}")
                return
            legal = [c for c in answer.json()["legal"] if c["action"] not in SKIPPED_ACTIONS]
        if not self.posted or random.random() < POST_SHARE:
            self.posted = True
            self._post(game_id, player, token)
        elif legal:
            self._act(game_id, player, token, random.choice(legal))

    def _page(self, url: str, name: str) -> dict[str, str] | None:
        with self.client.get(url, name=name, catch_response=True) as answer:
            if answer.status_code != 200:
                answer.failure(f"page: HTTP {answer.status_code}")
                return None
            return _form_fields(answer.text or "")

    def _act(self, game_id: str, player: str, token: str, command: dict[str, Any]) -> None:
        where = "thread" if command["action"] in THREAD_ACTIONS else "page"
        fields = (self._page(f"/p/{token}/thread", "GET /p/[token]/thread") if where == "thread"
                  else self._page(f"/p/{token}", "GET /p/[token]"))
        if fields is None or "csrf_token" not in fields:
            return  # the page just changed (no form now): a later turn tries again
        option = json.dumps([command["targets"], command["choice"]], ensure_ascii=False,
                            separators=(",", ":"))
        form = {"csrf_token": fields["csrf_token"], "action": command["action"],
                "option": option, "phase": fields.get("phase", ""), "from": where}
        entry = [game_id, player, command["action"], command["targets"], command["choice"]]
        self._send(f"/p/{token}/act", "POST /p/[token]/act", form, entry, accepted)

    def _post(self, game_id: str, player: str, token: str) -> None:
        fields = self._page(f"/p/{token}/thread", "GET /p/[token]/thread")
        if fields is None or "csrf_token" not in fields:
            return
        text = f"load {os.getpid()}-{self.name_number}-{len(posts)}-{random.getrandbits(32)}"
        form = {"csrf_token": fields["csrf_token"], "text": text,
                "phase": fields.get("phase", "")}
        self._send(f"/p/{token}/post", "POST /p/[token]/post", form,
                   [game_id, player, text], posts)

    def _send(self, url: str, name: str, form: dict[str, str], entry: list[Any],
              ok: list[Any]) -> None:
        _post_form(self, url, name, form, entry, ok)


def _post_form(user: FastHttpUser, url: str, name: str, form: dict[str, str],
               entry: list[Any], ok: list[Any]) -> None:
    """POST a form without following the redirect; file the outcome under ``ok``,
    ``rejected`` or ``unknown`` (also when the user is stopped mid-request)."""
    outcome = "unknown"
    try:
        with user.client.post(url, data=urlencode(form), headers=FORM_HEADERS, name=name,
                              allow_redirects=False, catch_response=True) as answer:
            if answer.status_code == 303 and answer.headers.get("X-Nightfall-Result") == "error":
                outcome = "rejected"  # refused, redirected back with its message
                answer.success()
            elif answer.status_code == 303:
                outcome = "accepted"
                answer.success()
            elif answer.status_code in (400, 409, 429):
                outcome = "rejected"
                answer.success()  # the rules (or the rate limit) said no: not an error
            else:
                answer.failure(f"HTTP {answer.status_code}")
    finally:
        if outcome == "accepted":
            ok.append(entry)
        elif outcome == "rejected":
            rejected[name] = rejected.get(name, 0) + 1
        else:
            unknown.append([name, *entry])


class GameMaster(FastHttpUser):
    """Closes the phase of each of his games in turn, through the GM's own form."""

    fixed_count = GM_USERS
    wait_time = between(WAIT[0], WAIT[-1])
    network_timeout = 60.0
    connection_timeout = 30.0
    max_retries = 0

    def __init__(self, environment: Any) -> None:
        number = next(_gm_numbers)
        self.host = _host()
        super().__init__(environment)
        mine = GMS[number % max(GM_USERS, 1)::max(GM_USERS, 1)] if number < GM_USERS else []
        self.games = itertools.cycle(mine) if mine else None

    @task
    def close_phase(self) -> None:
        if self.games is None:
            raise StopUser()
        game_id, token = next(self.games)
        with self.client.get(f"/gm/{token}", name="GET /gm/[token]",
                             catch_response=True) as answer:
            if answer.status_code != 200:
                answer.failure(f"dashboard: HTTP {answer.status_code}")
                return
            fields = _form_fields(answer.text or "")
        if "csrf_token" not in fields or "phase" not in fields:
            return  # the game is over: nothing to close
        form = {"csrf_token": fields["csrf_token"], "phase": fields["phase"],
                "action": "advance"}
        _post_form(self, f"/gm/{token}/act", "POST /gm/[token]/act", form,
                   [game_id, "GM", fields["phase"]], gm_acts)


class Static(FastHttpUser):
    """The ceiling: the same users and think time, fetching a static file of the server."""

    wait_time = between(WAIT[0], WAIT[-1])
    network_timeout = 60.0
    connection_timeout = 30.0
    max_retries = 0

    def __init__(self, environment: Any) -> None:
        self.host = _host()
        super().__init__(environment)

    @task
    def fetch(self) -> None:
        self.client.get("/static/nightfall.css", name="GET /static/nightfall.css")


def _figures(entry: Any) -> dict[str, float]:
    return {"requests": entry.num_requests, "failures": entry.num_failures,
            "per_second": entry.total_rps,
            "p50": entry.get_response_time_percentile(0.5) if entry.num_requests else 0,
            "p99": entry.get_response_time_percentile(0.99) if entry.num_requests else 0}


def _write_record(environment: Any, **_kwargs: Any) -> None:
    """Fired once every user has finished: the record and the figures agree."""
    if not RECORD:
        return
    stats = environment.stats
    with open(RECORD, "w", encoding="utf-8") as out:
        json.dump({
            "accepted": accepted, "posts": posts, "gm_acts": gm_acts, "rejected": rejected,
            "unknown": unknown, "total": _figures(stats.total),
            "by_name": {entry.name: _figures(entry) for entry in stats.entries.values()},
            "errors": [f"{error.occurrences}× {error.method} {error.name}: {error.error}"
                       for error in stats.errors.values()],
        }, out, ensure_ascii=False)


events.test_stop.add_listener(_write_record)  # type: ignore[no-untyped-call]

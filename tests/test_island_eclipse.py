"""I5 solar eclipse [R]: nothing public gives a hidden role away before the end.

A game is played through the real service and web app in which a player dies of every
cause there is — lynched, eaten, killed by the witch, killed by the hamster, dead of the
seer's look — while a solar eclipse hides their roles (set by the GM, and drawn at random
at step 21). At every point of the eclipse day and the day after, every public text is
read in de, en and ru: the announcements, the newspaper, the thread page, the status
page, the public API (and what another player's page shows). No line about a hidden
player may name his role, nor name the role of a killer who can kill only that one role
(such a cause would tell the role: which roles each killer can kill is found out by
playing it, not written down here). Once the game is over everything is shown, and the
same scan finds the roles: it can fail.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamekit import play_checking_views
from islandkit import all_commands
from nightfall.engine import Command, Game, Term, Text
from nightfall.engine.text import TermNames
from nightfall.i18n import gettext_for, localize
from nightfall.rulesets import new_game
from nightfall.rulesets.island import memory
from nightfall.rulesets.island.newspaper import newspaper
from nightfall.rulesets.island.roles import ROLES
from test_island_views import games
from webkit import Env, make_env

LOCALES = ("de", "en", "ru")
#: the night moves that can kill (I2.1 seer, I2.5 witch, I2.8 werewolves, I2.9 hamster)
KILLERS = {"seer": "check", "werewolf": "eat", "witch": "witch_kill", "hamster": "hamster_kill"}
#: who plays what; the victims of the first night are Cid, Eve, Fay, Gus; Ivy is lynched
#: on the eclipse day, Jon on the day before (shown: the scan's control inside the game)
CAST = {"Ann": "seer", "Bob": "werewolf", "Cid": "hamster", "Dee": "witch",
        "Eve": "passenger", "Fay": "maniac", "Gus": "sleepwalker", "Hal": "nurse",
        "Ivy": "authority", "Jon": "passenger", "Kim": "passenger"}
NIGHT_DEAD = {"Cid": "seer_check", "Eve": "eaten", "Fay": "witch", "Gus": "hamster"}
#: the cause ids of the killers' moves (I2.1, I2.5, I2.8, I2.9)
CAUSED_BY = {"seer_check": "seer", "eaten": "werewolf", "witch": "witch", "hamster": "hamster"}


# -- what each killer can kill: found by playing one night per victim role -------------------
@cache
def victims_of(killer: str) -> frozenset[str]:
    """The roles a ``killer``'s night move can kill (I2): one small game per role."""
    found = set()
    for role in ROLES:
        names = {"Act": killer, "Vic": role, "Wol": "werewolf", "Pa1": "passenger",
                 "Pa2": "passenger", "Pa3": "passenger"}
        if killer == "werewolf":
            names["Wol"] = "passenger"
        game = new_game("island", 1, {"random_events": False})
        for name in names:
            game.join(name)
        game.assign(names)
        game.start()
        try:
            game.execute(Command(KILLERS[killer], by="Act", target="Vic"))
        except ValueError:
            continue  # refused at once: not a victim
        for voter in ("Act", "Vic", "Wol", "Pa2", "Pa3"):
            game.execute(Command("vote", by=voter, target="Pa1"))
        game.advance()
        game.advance()
        if not game.state.players["Vic"].alive:
            found.add(role)
    return frozenset(found)


def test_which_roles_each_killer_kills() -> None:
    """The facts the scan relies on, as the engine plays them: only the hamster dies of
    the seer's look (I2.1); the others kill many roles (I2.3, I2.8, I2.5, I2.9)."""
    assert victims_of("seer") == {"hamster"}
    assert len(victims_of("werewolf")) > 1 and "werewolf" not in victims_of("werewolf")
    assert len(victims_of("witch")) > 1 and len(victims_of("hamster")) > 1


# -- the scan --------------------------------------------------------------------------------
def stems(phrase: str) -> list[str]:
    """The word stems of a role name, lower case (so that «хомяком-мутантом» and
    "werewolves" are found for «Хомяк-Мутант» and "Werewolf")."""
    return [w[:max(4, len(w) - 3)] for w in re.split(r"[\s\-]+", phrase.lower()) if w]


def names_role(line: str, role: str, locale: str) -> bool:
    name = gettext_for(locale)(TermNames.msgid(Term("role", role)))
    low = line.lower()
    return all(stem in low for stem in stems(name))


def revealing(line: str, role: str, locale: str) -> str | None:
    """Why ``line`` about a player of ``role`` gives the role away, if it does: it names
    it, or it names a killer who can kill only that role."""
    if names_role(line, role, locale):
        return f"names the role {role}"
    for killer in KILLERS:
        if victims_of(killer) == {role} and names_role(line, killer, locale):
            return f"names the {killer}, who kills only the {role}"
    return None


def lines_of_page(page: str) -> list[str]:
    """A page's text, one line per block element."""
    page = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", page)
    page = re.sub(r"(?i)<br\s*/?>|</(p|li|div|tr|h\d|article|section|pre|td)>", "\n", page)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", part)).split())
            for part in page.splitlines()]


def text_of(data: dict[str, Any]) -> Text:
    """A ``Text`` back from the API's data (``engine.text.to_data``)."""
    def value(v: Any) -> Any:
        if isinstance(v, dict) and set(v) == {"term", "id"}:
            return Term(v["term"], v["id"])
        if isinstance(v, list):
            return tuple(value(x) for x in v)
        return v
    return Text(data["msgid"], {k: value(v) for k, v in data.get("params", {}).items()})


@dataclass
class Table:
    """A game of ``CAST`` on the web app; ``hidden`` holds who must stay hidden now."""

    env: Env
    game_id: str
    gm_token: str
    tokens: dict[str, str]
    hidden: set[str] = field(default_factory=set)

    def game(self) -> Game:
        return self.env.service.load(self.game_id)

    def texts(self, locale: str) -> Iterator[tuple[str, str]]:
        """(where, line) of every public text in ``locale``."""
        state = self.game().state
        for announcement in state.announcements:
            yield "announcement", localize(announcement.text, locale)
        for line in newspaper(state, gettext_for(locale)).splitlines():
            yield "newspaper", line
        client = self.env.client
        for url in (f"/g/{self.game_id}", f"/g/{self.game_id}/status",
                    f"/p/{self.tokens['Hal']}"):
            response = client.get(url, params={"lang": locale})
            assert response.status_code == 200, url
            for line in lines_of_page(response.text):
                yield url, line
        api = client.get(f"/api/g/{self.game_id}").json()["view"]
        for announcement in api["announcements"]:
            yield "api announcement", localize(text_of(announcement["text"]), locale)
        for entry in api["players"]:
            yield "api player", json.dumps(entry, ensure_ascii=False)

    def leaks(self) -> list[str]:
        """Every public line that gives a hidden role away, in every language."""
        state = self.game().state
        found = []
        api = self.env.client.get(f"/api/g/{self.game_id}").json()["view"]
        for entry in api["players"]:
            name = entry["name"]
            if name not in self.hidden:
                continue
            role = state.players[name].role or ""
            if entry["role"] is not None:
                found.append(f"api: {name}'s role is {entry['role']}")
            cause = (entry.get("left") or {}).get("cause")
            killer = CAUSED_BY.get(cause or "")
            if killer is not None and victims_of(killer) == {role}:
                found.append(f"api: {name} left by {cause}: only the {role} can")
        for locale in LOCALES:
            for where, line in self.texts(locale):
                for name in self.hidden:
                    if re.search(rf"\b{name}\b", line):
                        why = revealing(line, state.players[name].role or "", locale)
                        if why:
                            found.append(f"{locale} {where}: {line!r} {why}")
        return found

    def vote_all(self, target: str) -> None:
        state = self.game().state
        for name in state.players:
            if state.is_alive(name) and name != target:
                self.env.service.submit(self.game_id, Command("vote", by=name, target=target))

    def advance(self) -> None:
        self.env.service.gm(self.game_id, "advance")


def table(env: Env, seed: int, random_events: bool) -> Table:
    svc = env.service
    created = svc.create("island", seed, {"random_events": random_events}, "en")
    tokens = {name: svc.signup(created.id, name) for name in CAST}
    svc.assign(created.id, CAST)
    svc.start(created.id)
    return Table(env, created.id, created.gm_token, tokens)


def first_night(t: Table) -> None:
    """Day 1: Jon is lynched (shown, I5 has no eclipse today); in the evening the seer's
    look kills the hamster Cid, the werewolf eats Eve, the witch kills Fay and the hamster
    kills Gus."""
    svc = t.env.service
    svc.gm(t.game_id, "event", choice="bunker")  # a day that bends nothing
    for actor, action, target in (("Ann", "check", "Cid"), ("Bob", "eat", "Eve"),
                                  ("Dee", "witch_kill", "Fay"), ("Cid", "hamster_kill", "Gus")):
        svc.submit(t.game_id, Command(action, by=actor, target=target))
    t.vote_all("Jon")
    t.advance()
    t.advance()
    state = t.game().state
    assert {n: state.players[n].left_cause for n in NIGHT_DEAD} == NIGHT_DEAD
    assert state.players["Jon"].left_cause == "lynched"


def eclipse_day(t: Table) -> None:
    """The eclipse day: Ivy is lynched; the day after, all of them stay hidden; then the
    game ends and everything is shown."""
    t.hidden = set(NIGHT_DEAD)
    assert t.leaks() == []
    t.vote_all("Ivy")
    assert t.leaks() == []
    t.advance()
    assert t.leaks() == []
    t.advance()  # the lynch of the eclipse day, its night, the next day
    assert t.game().state.players["Ivy"].left_cause == "lynched"
    t.hidden.add("Ivy")
    assert t.leaks() == []
    t.vote_all("Kim")
    t.advance()
    t.advance()
    assert t.leaks() == [] and not t.game().state.ended
    t.env.service.gm(t.game_id, "modkill", target="Bob")  # the last werewolf: it is over
    assert t.game().state.ended
    shown = t.leaks()  # the control: the scan finds every role once it is public
    for name in t.hidden:
        assert any(f"api: {name}'s role" in leak for leak in shown), (name, shown)
        for locale in LOCALES:
            assert any(leak.startswith(locale) and name in leak for leak in shown), (name, locale)


@pytest.fixture
def env(tmp_path: Path) -> Env:
    return make_env(tmp_path)


def test_an_eclipse_the_gm_sets_hides_every_cause(env: Env) -> None:
    """Without random events the GM sets the day's event: the night's roles wait for it
    (I5 [R]), so his eclipse hides them; the night's causes give nothing away before."""
    t = table(env, 3, random_events=False)
    first_night(t)
    t.hidden = set(NIGHT_DEAD)  # the day's event is not set yet: nothing is shown
    assert t.leaks() == []
    env.service.gm(t.game_id, "event", choice="solar_eclipse")
    eclipse_day(t)


def eclipse_seed() -> int:
    """A seed whose step-21 draw after ``first_night`` is the solar eclipse (random
    events; every draw is seeded, so the same seed replays the same game)."""
    for seed in range(400):
        game = new_game("island", seed, {"random_events": True})
        for name in CAST:
            game.join(name)
        game.assign(CAST)
        game.start()
        game.execute(Command("event", choice="bunker"))
        for actor, action, target in (("Ann", "check", "Cid"), ("Bob", "eat", "Eve"),
                                      ("Dee", "witch_kill", "Fay"),
                                      ("Cid", "hamster_kill", "Gus")):
            game.execute(Command(action, by=actor, target=target))
        for name in CAST:
            if name != "Jon":
                game.execute(Command("vote", by=name, target="Jon"))
        game.advance()
        game.advance()
        if memory.today_event(game.state) == "solar_eclipse":
            return seed
    raise AssertionError("no seed draws the eclipse")  # pragma: no cover


def test_an_eclipse_drawn_at_random_hides_every_cause(env: Env) -> None:
    """With random events the eclipse is drawn at step 21, after the night's deaths were
    announced (step 20): their causes must already give no role away."""
    t = table(env, eclipse_seed(), random_events=True)
    first_night(t)
    assert memory.today_event(t.game().state) == "solar_eclipse"
    eclipse_day(t)


def test_the_roles_of_a_normal_night_are_shown_with_the_days_event(env: Env) -> None:
    """The other side of the ruling: without an eclipse the night's roles are shown the
    next morning, each once, and a later eclipse does not pretend to hide them."""
    t = table(env, 3, random_events=False)
    first_night(t)
    env.service.gm(t.game_id, "event", choice="rage")
    env.service.gm(t.game_id, "event", choice="solar_eclipse")
    state = t.game().state
    shown = [a.text for a in state.announcements if a.text.msgid == "{name} was {role}."]
    assert sorted(str(s.params["name"]) for s in shown) == ["Cid", "Eve", "Fay", "Gus", "Jon"]
    roles = {p["name"]: p["role"] for p in t.game().view(None)["players"]}
    assert all(roles[name] == CAST[name] for name in NIGHT_DEAD)


# -- random play: the texts never name a role the public view hides ---------------------------
def gm_eclipse(game: Game, data: st.DataObject) -> None:
    """The GM makes today a solar eclipse (I5), at a random moment of the day."""
    if game.state.phase.kind == "day":
        game.execute(Command("event", choice="solar_eclipse"))


def assert_texts_keep_hidden_roles(game: Game, viewer: str) -> None:
    state = game.state
    if state.ended or viewer != next(iter(state.players)):
        return  # public texts: once per resolution
    public = {p["name"]: p["role"] for p in game.view(None)["players"]}
    hidden = [name for name, role in public.items()
              if role is None and not state.players[name].alive]
    if not hidden:
        return
    lines = [localize(a.text, "en") for a in state.announcements]
    lines += newspaper(state, gettext_for("en")).splitlines()
    for name in hidden:
        role = state.players[name].role or ""
        for line in lines:
            if re.search(rf"\b{name}\b", line):
                assert revealing(line, role, "en") is None, (name, role, line)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games(), data=st.data())
def test_random_games_with_eclipses_never_name_a_hidden_role(game: Game,
                                                             data: st.DataObject) -> None:
    play_checking_views(game, data, 120, all_commands, assert_texts_keep_hidden_roles,
                        extra=(gm_eclipse,))

"""The status post from data (``status_post:``, C16.1): Changelings' rule file writes the
Python plugin's post byte for byte, in every language, at many points of many games."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from nightfall.engine import Command, Game
from nightfall.engine import events as ev
from nightfall.i18n import SUPPORTED_LOCALES, gettext_for
from nightfall.rulefile.load import RuleFileError, parse_source
from nightfall.rulefile.ruleset import compile_rules, shipped
from nightfall.rulesets import get_ruleset
from nightfall.rulesets.changelings.status_post import status_post
from nightfall.scenario import load_scenario
from nightfall.scenario.model import ExpectStep
from nightfall.scenario.runner import _run_command, build_game
from nightfall.sim.bots import RulesInfo, make_bot
from nightfall.sim.play import replay_game
from nightfall.sim.setup import Setup

SCENARIOS = sorted((Path(__file__).parents[1] / "scenarios" / "changelings").glob("*.yaml"))
DATA = shipped("changelings-data")
PYTHON = get_ruleset("changelings")


def _factory(kind: str, name: str, rules: RulesInfo, rng: Any) -> Any:
    """Both games' bots play the Changelings playbook (chosen by the rule set's id)."""
    return make_bot(kind, name, replace(rules, ruleset="changelings"), rng)


def _setup(ruleset_id: str, seed: int) -> Setup:
    players = 6 + seed % 20
    roles = PYTHON.roles_for(players) if seed % 3 else PYTHON.presets()["canterlot-15"].roles
    options = {"first_day_banishment": seed % 4 == 1, "raven_vote_persists": seed % 5 == 2}
    return Setup("diff", ruleset_id, tuple(roles), options)


def _played(path: Path) -> Game:
    """A scenario's game on the data rule set, up to its end or its first refusal."""
    loaded = load_scenario(path)
    game = build_game(loaded, DATA)
    for number, step in enumerate(loaded.steps, start=1):
        if not isinstance(step, ExpectStep) and _run_command(game, step, number) is not None:
            break
    return game


GETTEXTS = {locale: gettext_for(locale) for locale in SUPPORTED_LOCALES}


def _compare_along(events: list[Any], every: int) -> tuple[int, set[str]]:
    """Fold the log into both rule sets and compare the posts every ``every`` events and
    at the end; returns how many posts were compared and the kinds of lines seen."""
    python = Game.from_events(PYTHON, events[:1])
    data = Game.from_events(DATA, events[:1])
    compared, seen = 0, set()
    assert DATA.status_post is not None
    for index, event in enumerate(events[1:], start=1):
        python._record(event)
        data._record(event)
        if index % every == 0 or index == len(events) - 1:
            for locale, gettext in GETTEXTS.items():
                expected = status_post(python.state, gettext)
                assert DATA.status_post.render(data.state, gettext) == expected, (index, locale)
                compared += 1
                if locale == "en":
                    seen |= {line.split(" ", 1)[0] for line in expected.splitlines() if line}
                    seen |= {"dash"} if " — " in expected else set()
                    seen |= {"until"} if "(until" in expected else set()
    return compared, seen


@pytest.mark.parametrize("seed", range(40))
def test_the_post_of_seeded_bot_games_is_the_python_plugins(seed: int) -> None:
    """The bots' players have no descriptions: every other one gets one (a post's
    hardest line: "Ann: shy baker — Pony, in love")."""
    kind = "heuristic" if seed % 2 else "random"
    game = replay_game(_setup("changelings-data", seed), seed, kind, bot_factory=_factory)
    events = [
        ev.PlayerJoined(e.player, f"shy baker {i} - ♂" if i % 2 else "")
        if isinstance(e, ev.PlayerJoined)
        else e
        for i, e in enumerate(game.events)
    ]
    compared, seen = _compare_along(events, 9)
    assert compared > 3 * len(SUPPORTED_LOCALES)
    # the end of the game, revealed roles after a description, and a deadline were compared
    assert {"The", "dash"} <= seen


@pytest.mark.parametrize("path", SCENARIOS[::5], ids=[p.stem for p in SCENARIOS[::5]])
def test_the_post_along_scenarios_is_the_python_plugins(path: Path) -> None:
    """Scenario games have descriptions, deadlines and the rarer states (a tie-break
    wait, a leader's succession, a lover's departure)."""
    game = _played(path)
    compared, _ = _compare_along(list(game.events), 3)
    assert compared >= len(SUPPORTED_LOCALES)


def test_the_post_with_clock_deadlines_is_the_python_plugins() -> None:
    """A game on the clock (the seed's: the deadline line under the running round, in the
    game's time zone, moved by the GM's extension), compared at every deadline."""
    berlin = ZoneInfo("Europe/Berlin")
    roster = (
        ("Gwyn", "ungeschickter Bäcker - ♂ Einhorn", "pony"),
        ("appleblack", "übermüdeter Hobbyklempner", "researcher"),
        ("Fluttershy87", "ernste Wache", "changeling"),
        ("Asteria", "schüchterne Sternschnuppen-Liebhaberin - ♀", "love_potion"),
        ("Daylight", "netter Magieforscher - ♂ Einhorn", "pony"),
        ("Manic Moon", "Barkeeper - Dämonenpegasus", "liar"),
        ("Mochi", "treue Seele - ♂", "pinkie_sense"),
    )
    games = [Game.new(rules, 7, {"early_close": False}, "de") for rules in (PYTHON, DATA)]
    for game in games:
        for name, description, _ in roster:
            game.join(name, description)
        game.assign({name: role for name, _, role in roster})
        game.start(at=datetime(2012, 12, 20, 20, tzinfo=berlin))
    python, data = games
    assert DATA.status_post is not None
    compared = 0
    for hours in range(2, 24 * 8, 5):
        for game in games:
            game.tick(datetime(2012, 12, 20, 20, tzinfo=berlin) + timedelta(hours=hours))
            if hours == 52 and not game.state.ended:
                game.execute(Command("extend", minutes=90))
        for locale, gettext in GETTEXTS.items():
            expected = status_post(python.state, gettext)
            assert DATA.status_post.render(data.state, gettext) == expected, (hours, locale)
            compared += "(until" in status_post(python.state, GETTEXTS["en"])
    assert compared > 20


CLASSIC_BYTES = (
    Path(__file__).parents[2] / "src" / "nightfall" / "rulefile" / "sets" / "classic.yaml"
).read_bytes()


@pytest.mark.parametrize(
    ("old", "new", "key", "message"),
    [
        (
            b"    - blank: true\n",
            b"    - {blank: true, line: [{text: post_over}]}\n",
            "status_post.show.3",
            "exactly one of rounds, line, players, blank: true (it has line, blank)",
        ),
        (
            b"until: {text: post_until}",
            b"until: {text: post_untill}",
            "status_post.show.0.rounds.until.text",
            "unknown text 'post_untill'",
        ),
        (
            b'        in: "alive()"',
            b'        in: "len(alive())"',
            "status_post.show.5.players.in",
            "list[player] is needed",
        ),
        (
            b'{value: "role(p)", sep: " \xe2\x80\x94 "}',
            b'{value: "rol(p)", sep: " \xe2\x80\x94 "}',
            "status_post.show.8.players.parts.1.value",
            "rol",
        ),
        (
            b"        running: post_running\n",
            b'        running: post_running\n        layout: "{title} {when}"\n',
            "status_post.show.0.rounds.layout",
            "not when",
        ),
        (
            b"text: post_mayor, params: {name: leader}",
            b"text: post_mayor",
            "status_post.show.1.line.0.text",
            "needs the parameters name",
        ),
    ],
)
def test_the_checker_refuses_a_broken_status_post_by_key_and_line(
    old: bytes, new: bytes, key: str, message: str
) -> None:
    assert CLASSIC_BYTES.count(old) == 1, old
    data = CLASSIC_BYTES.replace(old, new)
    with pytest.raises(RuleFileError) as caught:
        compile_rules(parse_source(data, "broken.yaml"), register_terms=False)
    found = [p for p in caught.value.problems if ".".join(map(str, p.path)) == key]
    assert found and message in found[0].message, caught.value.problems
    assert found[0].line is not None and found[0].line > data[: data.index(b"status_post:")].count(
        b"\n"
    )

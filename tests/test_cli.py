"""The ``nightfall`` command as users run it: a real subprocess, real files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCENARIOS = Path(__file__).parent / "scenarios" / "changelings"
GOOD = SCENARIOS / "C7.1-changelings-abduct.yaml"


def nightfall(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "nightfall.cli", *args],
        capture_output=True, text=True, timeout=120, check=False,
    )


def test_a_passing_scenario_exits_0_and_prints_the_json_shape() -> None:
    result = nightfall("scenario", "run", str(GOOD), "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["ok"] is True and report["failures"] == []
    assert set(report["state"]) == {"phase", "alive", "left", "winner", "leader", "roles",
                                    "statuses", "items", "votes", "notices"}
    assert report["state"]["left"] == {"Cid": {"cause": "abducted", "phase": "night 1"}}


def test_a_failing_expectation_exits_1_and_names_step_key_expected_actual(
    tmp_path: Path,
) -> None:
    text = GOOD.read_text().replace("left: {Cid: abducted}", "left: {Cid: banished}")
    path = tmp_path / "wrong.yaml"
    path.write_text(text)
    result = nightfall("scenario", "run", str(path), "--json")
    assert result.returncode == 1
    failure = json.loads(result.stdout)["failures"][0]
    assert failure["key"] == "left.Cid"
    assert (failure["expected"], failure["actual"]) == ("banished", "abducted")
    plain = nightfall("scenario", "run", str(path))
    assert plain.returncode == 1 and "left.Cid" in plain.stdout


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("ruleset: changelings\nplayers: [\n", "not valid YAML (line"),
        ("- just\n- a list\n", "must be a mapping"),
        ("ruleset: changelings\nplayers:\n  - {name: Ann, role: wizard}\n",
         "key 'players[0].role' (line 3): unknown role 'wizard'"),
        ("ruleset: changelings\nplayers:\n  - {name: Ann, role: pony}\nsteps:\n"
         "  - {do: vote, by: Ann, taget: Ann}\n", "key 'steps[0].taget' (line 5)"),
        ("ruleset: changelings\nplayers:\n  - {name: Ann, role: pony}\nsteps:\n"
         "  - {do: vote, by: Zed, target: Ann}\n", "key 'steps[0].by' (line 5): no player"),
        ("ruleset: changelings\nplayers:\n  - {name: Ann, role: pony}\nsteps:\n"
         "  - {do: fly, by: Ann}\n", "unknown command 'fly'"),
        ("ruleset: chess\nplayers:\n  - {name: Ann, role: pony}\n", "key 'ruleset'"),
        ("ruleset: changelings\noptions: {speed: 3}\nplayers:\n  - {name: Ann, role: pony}\n",
         "unknown option 'speed'"),
        ("ruleset: changelings\nlocale: fr\nplayers:\n  - {name: Ann, role: pony}\n",
         "key 'locale' (line 2): unknown locale 'fr' (known: de, en, ru)"),
        ("ruleset: changelings\noptions: {timezone: Mars/Base}\nplayers:\n"
         "  - {name: Ann, role: pony}\n", "key 'options': Unknown time zone Mars/Base"),
        ("ruleset: changelings\nplayers:\n  - {name: Ann, role: pony}\n"
         "  - {name: Ann, role: pony}\n", "duplicate name"),
        ("ruleset: changelings\nplayers:\n  - {name: Ann, role: pony}\nsteps:\n"
         "  - {expect: {phase: day 1}, do: advance}\n", "exactly one of the keys"),
    ],
)
def test_an_invalid_file_exits_2_naming_the_key(
    tmp_path: Path, content: str, expected: str
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(content)
    result = nightfall("scenario", "run", str(path))
    assert result.returncode == 2
    assert expected in result.stderr, result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_a_missing_file_exits_2(tmp_path: Path) -> None:
    result = nightfall("scenario", "run", str(tmp_path / "nope.yaml"), "--json")
    assert result.returncode == 2
    assert "cannot read" in json.loads(result.stdout)["error"]


@pytest.mark.parametrize(("locale", "words"), [
    ("de", ["Anmeldephase... finished", "Erste Tagphase und Anführerwahl... finished",
            "wurde zum Anführer gewählt"]),
    ("en", ["Sign-up phase... finished", "First day phase and leader election... finished",
            "was elected leader"]),
])
def test_the_demo_plays_a_whole_game(locale: str, words: list[str]) -> None:
    result = nightfall("demo", "--locale", locale)
    assert result.returncode == 0, result.stderr
    for word in words:
        assert word in result.stdout
    assert "appleblack:" in result.stdout and "VanillaGod:" in result.stdout
    assert "{" not in result.stdout  # every placeholder filled


def test_the_demo_refuses_an_unknown_locale() -> None:
    result = nightfall("demo", "--locale", "xx")
    assert result.returncode == 2 and "choose one of" in result.stderr

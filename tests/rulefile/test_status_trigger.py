"""Triggers on a status: effects run right after the file's effects set or clear it; a
trigger that sets its own status again (through others too) is a cycle the checker
refuses."""

from __future__ import annotations

from pathlib import Path

import pytest

from nightfall.rulefile.load import RuleFileError, parse_source
from nightfall.rulefile.ruleset import SHIPPED, compile_rules
from nightfall.scenario import load_scenario, run_scenario

TEXT = SHIPPED["changelings"].read_text(encoding="utf-8")
SCENARIO = (Path(__file__).parents[1] / "scenarios" / "changelings"
            / "C6.1-idiot-banished-becomes-voiceless.yaml")


def _with(trigger: str) -> bytes:
    anchor = "# C2.4, C8.3, C5.4, C14: what follows a departure, at once\n"
    assert anchor in TEXT
    return TEXT.replace(anchor, trigger + anchor).encode()


def test_a_status_trigger_runs_after_the_status_changes() -> None:
    rules = compile_rules(parse_source(_with(
        "on_status:\n"
        "  voiceless:\n"
        "    - if: present\n"
        "      then: [{notify: player, kind: voice_lost}]\n"), "trigger.yaml"))
    result = run_scenario(load_scenario(SCENARIO), rules)
    assert result.ok  # the scenario holds as before: the trigger only adds a notice
    assert result.state["notices"]["Dee"] == [{"kind": "voice_lost"}]


def test_a_status_trigger_cycle_is_refused() -> None:
    with pytest.raises(RuleFileError) as caught:
        compile_rules(parse_source(_with(
            "on_status:\n"
            "  voiceless:\n"
            "    - {status: leader, of: player}\n"
            "  leader:\n"
            "    - {status: voiceless, of: player}\n"), "cycle.yaml"))
    problems = caught.value.problems
    assert [p.key for p in problems] == ["on_status.voiceless", "on_status.leader"]
    assert "sets 'voiceless' again (a cycle)" in problems[0].message
    assert problems[0].line is not None

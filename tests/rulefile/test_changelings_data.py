"""Changelings is a rule file (``rulefile/sets/changelings.yaml``): every game records the
file it is played with, the file cites only rules of the restatement and orders the night
by C15, and an explanation naming no text is refused by key and line. Its scenarios run in
tests/test_scenarios.py; that it plays the deleted Python plugin's games is
tests/rulefile/test_frozen_plugin.py's."""

from __future__ import annotations

from pathlib import Path

import pytest

from nightfall.engine import Game, SetupError
from nightfall.rulefile.ruleset import shipped

SCENARIOS = sorted((Path(__file__).parents[1] / "scenarios" / "changelings").glob("*.yaml"))
DATA = shipped("changelings")


def test_all_changelings_scenarios_are_here() -> None:
    assert len(SCENARIOS) == 205


def test_a_game_records_the_rule_file_it_is_played_with() -> None:
    game = Game.new(DATA, 1)
    options = game.state.options
    assert options["rules_file"] == f"nightfall-rules/1:sha256:{DATA.source.sha256}"
    with pytest.raises(SetupError):
        Game.new(DATA, 1, {"rules_file": "nightfall-rules/1:sha256:0000"})


def test_the_presets_are_the_deal_of_their_player_counts() -> None:
    """C1.2: village-8, town-12 and city-20 are the deal's roles for their counts; the
    seed's roster is C16.3's."""
    presets = DATA.presets()
    assert list(presets) == ["canterlot-15", "village-8", "town-12", "city-20"]
    for name, count in (("village-8", 8), ("town-12", 12), ("city-20", 20)):
        assert tuple(presets[name].roles) == tuple(DATA.roles_for(count)), name
    assert presets["canterlot-15"].roles.count("pony") == 7
    assert DATA.leader(Game.new(DATA, 1).state) is None


def test_the_file_cites_only_rules_of_the_restatement_and_orders_the_night_by_c15() -> None:
    """docs/rules/changelings.md is checked against the file: every rule the file cites
    is a rule (or section) of the restatement, and night 2 resolves in the order of C15
    (steps C15.1 to C15.11)."""
    import re

    doc = (Path(__file__).parents[2] / "docs" / "rules" / "changelings.md").read_text(
        encoding="utf-8")
    known = set(re.findall(r"\*\*(C[0-9.]+)\*\*", doc)) | set(re.findall(r"^## (C\d+) ", doc,
                                                                          re.MULTILINE))
    assert "the code labels them C15.1–C15.11" in doc
    known |= {f"C15.{i}" for i in range(1, 12)}
    file = DATA.file
    cited = {r.rule for r in file.roles.values()} | {a.rule for a in file.abilities.values()}
    cited |= {s.rule for s in file.steps.values()} | {v.rule for v in file.victory}
    cited |= {f.rule for f in file.facts.values()}
    assert cited - known == set()
    night = file.schedule.stages["night/2"].steps
    assert [file.steps[str(s)].rule for s in night] == [f"C15.{i}" for i in range(1, 12)]


def test_every_ability_is_explained_under_its_form() -> None:
    """Every ability but the engine's ``post`` (the thread's own form) says what it does."""
    from nightfall.web.explain import action_explanation

    for action in DATA.file.abilities:
        assert bool(action_explanation(DATA, action)) == (action != "post"), action
    assert action_explanation(DATA, "elect") == (
        "Whom you want as the leader; the most votes at the deadline win (C5.1).")


def test_an_explanation_that_names_no_text_is_refused_by_key_and_line() -> None:
    from nightfall.rulefile.load import RuleFileError, parse_source
    from nightfall.rulefile.ruleset import compile_rules

    data = DATA.source.data.replace(b"explain: explain_elect", b"explain: explain_elekt")
    with pytest.raises(RuleFileError) as caught:
        compile_rules(parse_source(data), register_terms=False)
    (problem,) = caught.value.problems
    assert problem.key == "abilities.elect.explain" and problem.message == (
        "unknown text 'explain_elekt'")
    assert problem.line == data[:data.index(b"explain_elekt")].count(b"\n") + 1

"""``nightfall rules check``: each kind of error in a broken rule file is named with its
key and line, exit 2; a valid file exits 0 with a summary. The broken files are the
shipped Changelings file with one thing broken, as a GM would break it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nightfall.cli.app import app
from nightfall.rulefile.load import RuleFileError, parse_source
from nightfall.rulefile.ruleset import SHIPPED, compile_rules, shipped

GOOD = SHIPPED["changelings"]
TEXT = GOOD.read_text(encoding="utf-8")


def broken(tmp_path: Path, old: str, new: str, *, count: int = 1) -> Path:
    assert TEXT.count(old) >= count, old
    path = tmp_path / "broken.yaml"
    path.write_text(TEXT.replace(old, new, count), encoding="utf-8")
    return path


def line_of(path: Path, needle: str) -> int:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(needle)


def check(path: Path) -> tuple[int, list[dict[str, object]]]:
    result = CliRunner().invoke(app, ["rules", "check", str(path), "--json"])
    report = json.loads(result.stdout)
    return result.exit_code, report.get("errors", [])


def test_the_shipped_file_is_valid_and_the_command_says_what_it_holds() -> None:
    result = subprocess.run([sys.executable, "-m", "nightfall.cli", "rules", "check",
                             str(GOOD), "--games", "6"],
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    assert "valid nightfall-rules/1 rule set 'changelings': 14 roles" in result.stdout
    assert "bot games: 6 played, 6 ended, 0 crashed, 0 never ended" in result.stdout


def test_an_unknown_name_in_an_expression(tmp_path: Path) -> None:
    path = broken(tmp_path, "has(actor, 'voiceless')", "has(actor, 'voiceles')")
    code, errors = check(path)
    assert code == 2
    assert errors[0]["key"] == "abilities.elect.checks[1].if"
    assert errors[0]["line"] == line_of(path, "'voiceles'")
    assert "unknown status 'voiceles'" in str(errors[0]["message"])


def test_an_unknown_function_and_an_unknown_role(tmp_path: Path) -> None:
    path = broken(tmp_path, 'who: [researcher]', 'who: [reseacher]')
    code, errors = check(path)
    assert code == 2
    assert errors[0]["key"] == "abilities.investigate.who[0]"
    assert errors[0]["line"] == line_of(path, "reseacher")


def test_a_wrong_type(tmp_path: Path) -> None:
    path = broken(tmp_path, '{if: "len(alive()) == 0", faction: draw',
                  '{if: "len(alive())", faction: draw')
    code, errors = check(path)
    assert code == 2
    assert errors[0]["key"] == "victory[0].if"
    assert errors[0]["line"] == line_of(path, '{if: "len(alive())", faction: draw')
    assert "is an int, a bool is needed" in str(errors[0]["message"])


def test_a_misspelt_key_is_not_ignored(tmp_path: Path) -> None:
    path = broken(tmp_path, "    targets: 2\n", "    tragets: 2\n")
    code, errors = check(path)
    assert code == 2
    assert errors[0]["key"] == "abilities.love.tragets"
    assert errors[0]["line"] == line_of(path, "tragets: 2")


def test_a_step_that_reads_a_fact_before_the_step_that_writes_it(tmp_path: Path) -> None:
    text = TEXT.replace('disguise: {key: "c.disguise:", per_player: true, type: role,',
                        'disguise: {key: "c.disguise:", per_player: true, type: role, '
                        'lasts: resolution,')
    text = text.replace("steps: [liar, researcher, shield,", "steps: [researcher, liar, shield,")
    path = tmp_path / "order.yaml"
    path.write_text(text, encoding="utf-8")
    code, errors = check(path)
    assert code == 2
    assert errors[0]["key"] == "steps.researcher.reads"
    assert "step 'researcher' reads 'disguise' before step 'liar' writes it" in str(
        errors[0]["message"])
    assert errors[0]["line"] == line_of(path, "reads: [disguise]")


def test_a_step_must_declare_what_it_reads(tmp_path: Path) -> None:
    path = broken(tmp_path, "    title: \"Researcher's investigation\"\n    reads: [disguise]\n",
                  "    title: \"Researcher's investigation\"\n")
    code, errors = check(path)
    assert code == 2
    assert errors[0]["key"] == "steps.researcher.reads"
    assert "reads disguise but does not declare it" in str(errors[0]["message"])


def test_an_unreachable_ability(tmp_path: Path) -> None:
    path = broken(tmp_path, "night_stage_2: \"phase.kind == 'night' and phase.stage == 2\"",
                  "night_stage_2: \"phase.kind == 'night' and phase.stage == 3\"")
    code, errors = check(path)
    assert code == 2
    assert errors[0]["key"] == "abilities.pinkie_save.when"
    assert "unreachable" in str(errors[0]["message"])


def test_a_trigger_cycle(tmp_path: Path) -> None:
    path = broken(tmp_path, "      - {leave: target, cause: \"'banished'\"}\n",
                  "      - {leave: target, cause: \"'banished'\"}\n"
                  "      - {call: banish, with: {target: target}}\n")
    code, errors = check(path)
    assert code == 2
    assert errors[0]["key"] == "procedures.banish"
    assert "calls itself" in str(errors[0]["message"])
    assert errors[0]["line"] == line_of(path, "  banish:  # C3.4")


def test_a_text_missing_in_a_declared_language(tmp_path: Path) -> None:
    path = broken(tmp_path, '  nobody_left: "Nobody left the game last night."',
                  '  nobody_left: "Nobody at all left the game last night."')
    code, errors = check(path)
    assert code == 2
    assert errors[0]["key"] == "texts.nobody_left"
    assert "no de translation" in str(errors[0]["message"])
    assert errors[0]["line"] == line_of(path, "Nobody at all left")


def test_an_unknown_text_and_a_missing_parameter(tmp_path: Path) -> None:
    path = broken(tmp_path, "then: [{trace: nobody_voted_leader}]",
                  "then: [{trace: nobody_voted_leaders}]")
    code, errors = check(path)
    assert code == 2 and "unknown text 'nobody_voted_leaders'" in str(errors[0]["message"])
    path = broken(tmp_path, "{announce: elected_leader, params: {name: chosen}}",
                  "{announce: elected_leader}")
    code, errors = check(path)
    assert code == 2 and "needs the parameters name" in str(errors[0]["message"])


def test_an_unregistered_hook(tmp_path: Path) -> None:
    path = broken(tmp_path, "max_players: 60\n", "max_players: 60\nhooks:\n  plural: "
                                                 "{version: 1}\n")
    code, errors = check(path)
    assert code == 2
    assert errors[0]["key"] == "hooks.plural"
    assert errors[0]["line"] == line_of(path, "plural:")


def test_not_yaml(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("format: nightfall-rules/1\nroles: [a\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["rules", "check", str(path)])
    assert result.exit_code == 2
    assert "not valid YAML" in result.stderr


def test_every_error_is_reported_not_only_the_first(tmp_path: Path) -> None:
    text = TEXT.replace("has(actor, 'voiceless')", "has(actor, 'voiceles')", 2)
    with pytest.raises(RuleFileError) as caught:
        compile_rules(parse_source(text.encode(), "two.yaml"))
    keys = [p.key for p in caught.value.problems]
    assert keys == ["abilities.elect.checks[1].if", "abilities.vote.checks[1].if"]


def test_a_file_may_title_a_name_another_rule_set_titles_otherwise(tmp_path: Path) -> None:
    """Issue 20: a rule file names its own terms. Retitling the role Changelings itself
    shows as "Pony" is no error: the file's titles live in the scope of its hash, and the
    shipped file's pages still say "Pony"."""
    shipped("changelings")  # registers its names
    from nightfall.engine.text import Term, TermNames

    path = broken(tmp_path, 'title: "Pony", text: role_pony', 'title: "Little pony", '
                                                              'text: role_pony')
    path.write_text(path.read_text(encoding="utf-8").replace(
        "languages: [de, en]", "languages: [en]", 1), encoding="utf-8")
    code, errors = check(path)
    assert (code, errors) == (0, [])
    rules = compile_rules(parse_source(path.read_bytes(), "little.yaml"))
    pony = Term("role", "pony")
    with TermNames.scoped(rules.term_scope):
        assert TermNames.msgid(pony) == "Little pony"
    assert TermNames.msgid(pony) == "Pony"


def test_a_stage_after_which_play_may_go_nowhere(tmp_path: Path) -> None:
    path = broken(tmp_path, "        - {go: night/1}\n    day/2:",
                  "        - {go: night/1, if: \"not skipping\"}\n    day/2:")
    code, errors = check(path)
    assert code == 2
    assert errors[0]["key"] == "schedule.stages.day/1.next"
    assert "play must go on somewhere" in str(errors[0]["message"])

"""``nightfall rules check`` on the ``rules:`` section (docs/rules-format.md, "The rules
section") and on titles without a translation in a declared language: each refusal of a
small broken file names its exact key and line, exit 2.

The small file uses the ids and titles of the shipped classic file (``werwolf-classic``),
whose translations the catalogs hold; the broken variants add terms of their own, which a
refused file never registers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nightfall.cli.app import app

SMALL = """\
format: nightfall-rules/1
id: test-hamlet
title: "Werwolf (classic)"
languages: [en, de]

options:
  early_close:
    default: true
    title: "A night stage, and the wait for a last shot or a successor, ends as soon as
      every awaited move is in (K2.3)"
factions:
  village: {title: "the village"}
  werewolves: {title: "the werewolves"}
roles:
  villager: {faction: village, rule: K1.1, special: false, title: "Villager"}
  werewolf: {faction: werewolves, rule: K1.1, special: false, title: "Werewolf"}
statuses:
  mayor: {title: "mayor", public: true}
causes:
  lynched: {title: "lynched"}
draws:
  pack_tie: "tie in the pack's choice"
slots:
  kill: "abduct or replace"

schedule:
  first: day/1
  windows:
    by_day: "phase.kind == 'day'"
  stages:
    day/1:
      kind: day
      label: "day {number}"
      deadline: {at: "19:30", days: 1}
      steps: [lynching]
      next: [{go: day/1, number: "phase.number + 1"}]

abilities:
  vote: {rule: K3.1, title: "vote", slot: vote, when: by_day}
steps:
  lynching:
    rule: K3.2
    title: "The lynch"
    do:
      - let: {top: "first(alive())"}
      - if: "top != none"
        then: [{leave: top, cause: "'lynched'"}]
victory:
  - {if: "len([p for p in alive() if faction(p) == 'werewolves']) == 0", faction: village,
     winners: "[]"}
presets:
  small-6:
    roles: [werewolf, villager, villager, villager, villager, villager]
    description: "Six players: one werewolf, the seer, the witch and the hunter."

rules:
  K1.1: {by: [factions, roles]}
  K3.1: {by: [abilities.vote]}
  K3.2: {ruling: true, by: [steps.lynching, "victory[0]"]}
  K0.1: {not_mechanic: "forum etiquette: no quoting of private messages"}
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "hamlet.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def broken(tmp_path: Path, old: str, new: str) -> Path:
    assert SMALL.count(old) == 1, old
    return write(tmp_path, SMALL.replace(old, new))


def line_of(path: Path, needle: str, nth: int = 1) -> int:
    found = [number for number, line in
             enumerate(path.read_text(encoding="utf-8").splitlines(), start=1) if needle in line]
    assert len(found) >= nth, needle
    return found[nth - 1]


def check(path: Path) -> tuple[int, list[dict[str, object]]]:
    result = CliRunner().invoke(app, ["rules", "check", str(path), "--json"])
    report = json.loads(result.stdout)
    return result.exit_code, report.get("errors", [])


def test_the_small_file_is_valid(tmp_path: Path) -> None:
    code, errors = check(write(tmp_path, SMALL))
    assert (code, errors) == (0, [])


def test_the_section_is_optional(tmp_path: Path) -> None:
    """A GM's own file need not list its rules; then its ``rule:`` keys cite anything."""
    text = SMALL[:SMALL.index("rules:\n")].replace("rule: K3.1", "rule: house-7")
    code, errors = check(write(tmp_path, text))
    assert (code, errors) == (0, [])


def test_a_by_path_that_names_nothing(tmp_path: Path) -> None:
    path = broken(tmp_path, "K3.1: {by: [abilities.vote]}", "K3.1: {by: [abilities.voet]}")
    code, errors = check(path)
    assert code == 2
    assert errors == [{"key": "rules.K3.1.by[0]", "line": line_of(path, "abilities.voet"),
                       "message": "'abilities.voet' names nothing in this file: no 'voet' "
                                  "under 'abilities'"}]


def test_a_by_path_past_the_end_of_a_list(tmp_path: Path) -> None:
    path = broken(tmp_path, '"victory[0]"', '"victory[1]"')
    code, errors = check(path)
    assert code == 2
    assert errors == [{"key": "rules.K3.2.by[1]", "line": line_of(path, "victory[1]"),
                       "message": "'victory[1]' names nothing in this file: no '1' under "
                                  "'victory'"}]


def test_a_by_path_into_a_step_and_a_definition_is_found(tmp_path: Path) -> None:
    """Paths go as deep as the file: a stage's steps, a step's effect, a check; a
    definition is named without its parameters."""
    path = broken(tmp_path, "K3.1: {by: [abilities.vote]}",
                  "K3.1: {by: [schedule.stages.day/1.steps.0, steps.lynching.do.1.then,\n"
                  "              abilities.vote.slot, define.wolf]}")
    text = path.read_text(encoding="utf-8").replace(
        "schedule:\n", 'define:\n  "wolf(p: player)": "faction(p) == \'werewolves\'"\n\n'
                       "schedule:\n")
    code, errors = check(write(tmp_path, text))
    assert (code, errors) == (0, [])
    text = text.replace("steps.lynching.do.1.then", "steps.lynching.do.2.then")
    code, errors = check(write(tmp_path, text))
    assert code == 2 and [e["key"] for e in errors] == ["rules.K3.1.by[1]"]


def test_a_by_path_into_the_rules_section_itself(tmp_path: Path) -> None:
    path = broken(tmp_path, "K3.1: {by: [abilities.vote]}", "K3.1: {by: [rules.K1.1]}")
    code, errors = check(path)
    assert code == 2
    assert errors == [{"key": "rules.K3.1.by[0]", "line": line_of(path, "rules.K1.1"),
                       "message": "'rules.K1.1' is the rules section itself, not a key that "
                                  "plays a rule"}]


def test_a_number_listed_twice(tmp_path: Path) -> None:
    path = broken(tmp_path, "  K3.1: {by: [abilities.vote]}\n",
                  "  K3.1: {by: [abilities.vote]}\n  K3.1: {by: [steps.lynching]}\n")
    code, errors = check(path)
    assert code == 2
    first, second = line_of(path, "K3.1:"), line_of(path, "K3.1:", 2)
    assert errors == [{"key": "rules.K3.1", "line": second,
                       "message": f"rule 'K3.1' is listed twice (first at line {first})"}]


@pytest.mark.parametrize(("entry", "has"), [
    ("{ruling: true}", "neither"),
    ('{by: [abilities.vote], not_mechanic: "the forum does it"}', "both"),
])
def test_an_entry_needs_by_or_not_mechanic(tmp_path: Path, entry: str, has: str) -> None:
    path = broken(tmp_path, "K3.1: {by: [abilities.vote]}", f"K3.1: {entry}")
    code, errors = check(path)
    assert code == 2
    assert errors == [{"key": "rules.K3.1", "line": line_of(path, "K3.1:"),
                       "message": f"rule 'K3.1' needs either 'by' (the key paths of this "
                                  f"file that implement it) or 'not_mechanic' (why no key "
                                  f"does): it has {has}"}]


def test_a_cited_rule_the_section_does_not_list(tmp_path: Path) -> None:
    path = broken(tmp_path, "rule: K3.2\n", "rule: K9.9\n")
    code, errors = check(path)
    assert code == 2
    assert errors == [{"key": "steps.lynching.rule", "line": line_of(path, "rule: K9.9"),
                       "message": "rule 'K9.9' is not listed in the rules section"}]


def test_a_cited_chapter_or_item_of_a_listed_rule_is_covered(tmp_path: Path) -> None:
    """A role's ``rule: K1`` (the chapter of K1.1) and a step's ``rule: K3.2.1`` (an item
    of K3.2) need no entries of their own."""
    text = SMALL.replace("villager: {faction: village, rule: K1.1",
                         "villager: {faction: village, rule: K1").replace(
        "rule: K3.2\n", "rule: K3.2.1\n")
    code, errors = check(write(tmp_path, text))
    assert (code, errors) == (0, [])


UNTRANSLATED = "of the glen, untranslated"

#: (inserted after, the inserted line, the key of its title) for every kind of name
TITLES = [
    ('  werewolves: {title: "the werewolves"}\n',
     f'  hermits: {{title: "the hermits {UNTRANSLATED}"}}\n', "factions.hermits.title"),
    ('  werewolf: {faction: werewolves, rule: K1.1, special: false, title: "Werewolf"}\n',
     f'  hermit: {{faction: village, rule: K1.1, title: "Hermit {UNTRANSLATED}"}}\n',
     "roles.hermit.title"),
    ('  mayor: {title: "mayor", public: true}\n',
     f'  hermit: {{title: "hermit {UNTRANSLATED}"}}\n', "statuses.hermit.title"),
    ('  lynched: {title: "lynched"}\n',
     f'  wandered: {{title: "wandered off {UNTRANSLATED}"}}\n', "causes.wandered.title"),
    ('  pack_tie: "tie in the pack\'s choice"\n',
     f'  glen: "the lot {UNTRANSLATED}"\n', "draws.glen"),
    ('  kill: "abduct or replace"\n',
     f'  glen: "the slot {UNTRANSLATED}"\n', "slots.glen"),
    ("options:\n", f'  glen: {{default: 1, title: "Size {UNTRANSLATED}"}}\n',
     "options.glen.title"),
    ('  vote: {rule: K3.1, title: "vote", slot: vote, when: by_day}\n',
     f'  ponder: {{rule: K3.1, title: "ponder {UNTRANSLATED}", when: by_day, '
     f'targets: 0}}\n', "abilities.ponder.title"),
    ("steps:\n", f'  musing: {{rule: K3.2, title: "Musing {UNTRANSLATED}", '
              f'do: []}}\n', "steps.musing.title"),
    ("presets:\n", f'  pair: {{roles: [werewolf, villager], description: '
                f'"Two {UNTRANSLATED}"}}\n', "presets.pair.description"),
]


@pytest.mark.parametrize(("after", "inserted", "key"), TITLES,
                         ids=[key.split(".")[0] for _, _, key in TITLES])
def test_a_title_without_a_translation_in_a_declared_language(
        tmp_path: Path, after: str, inserted: str, key: str) -> None:
    """``languages: [en, de]``: every name the pages show needs its German translation;
    the file's other names have one."""
    path = broken(tmp_path, after, after + inserted)
    code, errors = check(path)
    assert code == 2
    title = inserted.split('"')[1]
    assert errors == [{"key": key, "line": line_of(path, UNTRANSLATED),
                       "message": f"no de translation of {title!r}"}]


def test_the_title_of_the_file_without_a_translation(tmp_path: Path) -> None:
    path = broken(tmp_path, 'title: "Werwolf (classic)"', 'title: "The hamlet"')
    code, errors = check(path)
    assert code == 2
    assert errors == [{"key": "title", "line": line_of(path, "The hamlet"),
                       "message": "no de translation of 'The hamlet'"}]


def test_english_only_needs_no_translation(tmp_path: Path) -> None:
    after, inserted, _ = TITLES[0]
    text = SMALL.replace(after, after + inserted).replace("languages: [en, de]",
                                                          "languages: [en]")
    code, errors = check(write(tmp_path, text))
    assert (code, errors) == (0, [])


def test_a_key_with_dots_in_its_name_is_matched_whole(tmp_path: Path) -> None:
    """``presets.small.6`` names the preset ``small.6`` (the longest key that matches)."""
    text = SMALL.replace("  small-6:\n", "  small.6:\n").replace(
        "K3.1: {by: [abilities.vote]}", "K3.1: {by: [abilities.vote, presets.small.6.roles.5]}")
    code, errors = check(write(tmp_path, text))
    assert (code, errors) == (0, [])
    code, errors = check(write(tmp_path, text.replace("roles.5]", "roles.6]")))
    assert code == 2
    assert [(e["key"], e["message"]) for e in errors] == [
        ("rules.K3.1.by[1]", "'presets.small.6.roles.6' names nothing in this file: no '6' "
                             "under 'presets.small.6.roles'")]

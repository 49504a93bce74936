"""``forum_votes:`` of a rule file (docs/rules-format.md, "Forum votes") is checked like
the rest of the file: a pattern that is no regular expression or has no ``name`` group,
an unknown time zone, a deadline that is not HH:MM, a section that names no vote form,
a misspelt key — each refused by ``nightfall rules check`` with its key and line, exit 2,
and shown to a GM in his language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nightfall.cli.app import app
from nightfall.i18n import gettext_for
from nightfall.rulefile.messages import checker_text
from nightfall.rulefile.ruleset import SHIPPED

GOOD = SHIPPED["changelings"]
TEXT = GOOD.read_text(encoding="utf-8")
SECTION = """forum_votes:
  red: true
  timezone: Europe/Berlin
  deadline: "19:30"
"""


def broken(tmp_path: Path, new: str) -> Path:
    assert TEXT.count(SECTION) == 1
    path = tmp_path / "broken.yaml"
    path.write_text(TEXT.replace(SECTION, new), encoding="utf-8")
    return path


def line_of(path: Path, needle: str) -> int:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(needle)


def check(path: Path) -> tuple[int, list[dict[str, object]]]:
    result = CliRunner().invoke(app, ["rules", "check", str(path), "--json"])
    return result.exit_code, json.loads(result.stdout).get("errors", [])


@pytest.mark.parametrize(("section", "key", "needle", "message"), [
    ('forum_votes:\n  patterns:\n    - regex: "[b](?P<name>.+"\n  timezone: Europe/Berlin\n'
     '  deadline: "19:30"\n', "forum_votes.patterns[0].regex", "(?P<name>.+",
     "not a regular expression: "),
    ('forum_votes:\n  patterns:\n    - {regex: "vote: (.+)", strict: true}\n'
     '  timezone: Europe/Berlin\n  deadline: "19:30"\n', "forum_votes.patterns[0].regex",
     "vote: (.+)", "needs a group named 'name'"),
    ('forum_votes:\n  red: true\n  timezone: Europe/Bern\n  deadline: "19:30"\n',
     "forum_votes.timezone", "Europe/Bern", "unknown time zone 'Europe/Bern'"),
    ('forum_votes:\n  red: true\n  timezone: Europe/Berlin\n  deadline: "7 pm"\n',
     "forum_votes.deadline", "7 pm", "a time is HH:MM"),
    ('forum_votes:\n  timezone: Europe/Berlin\n  deadline: "19:30"\n',
     "forum_votes", "forum_votes:", "need red: true or at least one pattern"),
    ('forum_votes:\n  red: true\n  timezone: Europe/Berlin\n  deadlien: "19:30"\n',
     "forum_votes.deadlien", "deadlien", "Extra inputs are not permitted"),
])
def test_a_broken_section_is_refused_with_key_and_line(
        tmp_path: Path, section: str, key: str, needle: str, message: str) -> None:
    path = broken(tmp_path, section)
    code, errors = check(path)
    assert code == 2
    assert [(e["key"], e["line"]) for e in errors] == [(key, line_of(path, needle))]
    assert message in str(errors[0]["message"])


def test_the_checker_messages_are_translated(tmp_path: Path) -> None:
    """The web shows a GM the checker's sentence in his language (rulefile/messages.py)."""
    path = broken(tmp_path, 'forum_votes:\n  red: true\n  timezone: Mars/Olympus\n'
                            '  deadline: "19:30"\n')
    _, errors = check(path)
    text = checker_text(str(errors[0]["message"]))
    assert text.msgid == "unknown time zone {name}"
    assert gettext_for("de")(text.msgid) == "unbekannte Zeitzone {name}"
    assert gettext_for("ru")(text.msgid) == "неизвестный часовой пояс {name}"


def test_the_shipped_files_pass_with_their_section() -> None:
    for path in SHIPPED.values():
        code, errors = check(path)
        assert (code, errors) == (0, [])

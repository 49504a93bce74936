"""Every hand-built fixture thread, counted through the command line, gives exactly the
count in the JSON beside it (and reports exactly the listed bad input)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from forumkit import FIXTURES
from typer.testing import CliRunner

from nightfall.cli.app import app

CASES = sorted(FIXTURES.glob("*.expected.json"))


def _page(expected: Path) -> Path:
    stem = expected.name.removesuffix(".expected.json")
    (page,) = [p for p in FIXTURES.glob(f"{stem}.*") if not p.name.endswith(".expected.json")]
    return page


def test_every_format_has_a_fixture() -> None:
    formats = {_page(case).suffix for case in CASES}
    assert formats == {".html", ".json", ".jsonl", ".bbcode"}
    assert len(CASES) >= 10


@pytest.mark.parametrize("expected_file", CASES, ids=lambda p: p.name.split(".")[0])
def test_fixture_count(expected_file: Path) -> None:
    expected = json.loads(expected_file.read_text(encoding="utf-8"))
    page = _page(expected_file)
    result = CliRunner().invoke(app, ["votecount", str(page), *expected["args"], "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == expected["count"]
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == len(expected["warnings"])
    for wanted, line in zip(expected["warnings"], warnings, strict=True):
        assert f"{page}: {wanted}" in line


@pytest.mark.parametrize("expected_file", CASES, ids=lambda p: p.name.split(".")[0])
def test_fixture_bbcode_post(expected_file: Path) -> None:
    expected = json.loads(expected_file.read_text(encoding="utf-8"))
    result = CliRunner().invoke(app, ["votecount", str(_page(expected_file)), *expected["args"],
                                      "--locale", "en"])
    assert result.exit_code == 0, result.output
    post = result.stdout
    assert post.startswith("[b]Vote count[/b]")
    for target, number in expected["count"]["tally"].items():
        assert f"[b]{target}[/b] ({number}): " in post
    for entry in expected["count"]["invalid"]:
        assert f"(post {entry['post']}," in post
    assert f"[b]Not voting[/b] ({len(expected['count']['not_voting'])})" in post

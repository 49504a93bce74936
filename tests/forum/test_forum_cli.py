"""The ``nightfall votecount`` command: exit codes, the JSON shape, bad input reported with
file and post while the rest is counted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from forumkit import FIXTURES
from typer.testing import CliRunner

from nightfall.cli.app import app

PHPBB = FIXTURES / "phpbb3_day2.html"
PLAYERS = ["--players", "Anna Bell,Bob,Dan_the_Man,Dana,Jörg,Zoë K"]


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["votecount", *args])
    return result.exit_code, result.stdout, result.stderr


def test_json_shape_is_the_contract() -> None:
    code, out, _ = _run(str(PHPBB), *PLAYERS, "--json")
    assert code == 0
    data = json.loads(out)
    assert list(data) == ["votes", "tally", "not_voting", "invalid", "unresolved"]
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in data["votes"].items())
    assert all(isinstance(v, int) for v in data["tally"].values())
    assert all(set(item) == {"post", "author", "reason"} for item in data["invalid"])
    assert all(set(item) == {"post", "author", "text", "candidates"}
               for item in data["unresolved"])
    assert out.count("\n") == 1


def test_several_pages_in_any_order_and_overlapping() -> None:
    one = _run(str(PHPBB), *PLAYERS, "--json")
    again = _run(str(FIXTURES / "notes.txt"), str(PHPBB), str(PHPBB), *PLAYERS, "--json")
    assert again[0] == 0 and json.loads(again[1]) == json.loads(one[1])
    assert "notes.txt: unknown format" in again[2]


def test_mixed_formats_in_one_count(tmp_path: Path) -> None:
    extra = tmp_path / "late.jsonl"
    extra.write_text('{"id": "x1", "author": "Jörg", "time": "2012-12-24 19:00", '
                     '"content": "[color=red]Dana[/color]"}\n', encoding="utf-8")
    code, out, _ = _run(str(extra), str(PHPBB), *PLAYERS, "--deadline", "2012-12-24 19:30",
                        "--json")
    assert code == 0 and json.loads(out)["votes"]["Jörg"] == "Dana"


def test_exit_2_when_no_page_can_be_read(tmp_path: Path) -> None:
    missing = tmp_path / "missing.html"
    code, out, err = _run(str(FIXTURES / "notes.txt"), str(missing), "--players", "Ann",
                          "--locale", "en")
    assert code == 2 and out == ""
    assert "notes.txt: unknown format" in err
    assert "missing.html: cannot read" in err
    assert "error: no page could be read" in err


def test_truncated_page_is_reported_and_the_rest_counted() -> None:
    code, out, err = _run(str(FIXTURES / "phpbb32_truncated.html"), "--players", "Ann,Bob,Cy",
                          "--json")
    assert code == 0
    assert "phpbb32_truncated.html: post p204: the page is truncated" in err
    assert json.loads(out)["votes"] == {"Ann": "Bob", "Bob": "Cy"}


@pytest.mark.parametrize(
    "args",
    [
        ["--ruleset", "poker"],
        ["--tz", "Mars/Olympus"],
        ["--deadline", "soon"],
        ["--since", "31.02.2012 10:00"],
        ["--alias", "nonsense"],
        ["--alias", "Zed=Zeddy"],
        ["--players", " , "],
        ["--lovers", "Bob"],
        ["--voiceless", "Zed"],
        ["--vote-pattern", "no group"],
        ["--vote-pattern", "(unclosed"],
        ["--since", "2012-12-24 20:00", "--deadline", "2012-12-24 19:30"],
    ],
)
def test_bad_options_exit_2(args: list[str]) -> None:
    base = ["--players", "Anna Bell,Bob"] if "--players" not in args else []
    code, _, _ = _run(str(PHPBB), *base, *args)
    assert code == 2


def test_players_are_required() -> None:
    assert _run(str(PHPBB))[0] == 2


def test_bbcode_post_by_default() -> None:
    code, out, _ = _run(str(PHPBB), *PLAYERS, "--deadline", "2012-12-24 19:30",
                        "--since", "2012-12-23 20:00", "--locale", "en")
    assert code == 0
    assert out.startswith("[b]Vote count[/b] — Changelings, votes from 23.12.2012 20:00 until "
                          "24.12.2012 19:30 (Europe/Berlin)")
    assert "[b]Bob[/b] (3): Anna Bell, Dana, Zoë K" in out
    assert "[b]Not voting[/b] (1): Jörg" in out
    assert 'Anna Bell (post p5007): "Da" — did you mean Dan_the_Man or Dana?' in out


def test_deadline_as_a_date_uses_the_ruleset_time_and_zone() -> None:
    code, out, _ = _run(str(FIXTURES / "island_day3.bbcode"), "--players",
                        "Аня,Борис,Вера,Глеб", "--ruleset", "island", "--deadline",
                        "2012-12-24", "--locale", "en")
    assert code == 0 and "until 24.12.2012 21:00 (Europe/Moscow)" in out


def test_as_a_subprocess() -> None:
    result = subprocess.run(
        [sys.executable, "-c", "from nightfall.cli.app import main; main()", "votecount",
         str(PHPBB), *PLAYERS, "--json"], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["tally"]["Bob"] == 4  # no deadline: Jörg's late vote too
    missing = subprocess.run(
        [sys.executable, "-c", "from nightfall.cli.app import main; main()", "votecount",
         "/nonexistent/page.html", "--players", "Ann"], capture_output=True, text=True,
        check=False)
    assert missing.returncode == 2 and "/nonexistent/page.html" in missing.stderr

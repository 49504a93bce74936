"""Hostile scenario files (issue 18): a 100,001-digit seed, lists nested 20,000 deep,
``/dev/zero`` and an oversized file are invalid files — exit 2 with a one-line message
naming the file, in a real ``nightfall scenario run`` subprocess, never a traceback
(exit 1, or memory running out)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from nightfall.scenario import ScenarioError
from nightfall.scenario.loader import MAX_SCENARIO_BYTES, parse_scenario

SHORT = """ruleset: changelings
seed: 1
players:
  - {name: Ann, role: pony}
  - {name: Bob, role: queen}
steps: []
"""

HOSTILE = {
    "a 100,001-digit seed": SHORT.replace("seed: 1", "seed: " + "9" * 100_001),
    "a seed past 64 bits": SHORT.replace("seed: 1", f"seed: {2**64}"),
    "a negative seed": SHORT.replace("seed: 1", "seed: -1"),
    "lists nested 20,000 deep": SHORT + "title: " + "[" * 20_000 + "]" * 20_000 + "\n",
    "mappings nested 20,000 deep": SHORT + "title: " + "{a: " * 20_000 + "1"
    + "}" * 20_000 + "\n",
}


@pytest.mark.parametrize("source", HOSTILE.values(), ids=list(HOSTILE))
def test_hostile_sources_are_invalid_files(source: str) -> None:
    with pytest.raises(ScenarioError) as refused:
        parse_scenario(source, "hostile.yaml")
    message = str(refused.value)
    assert message.startswith("hostile.yaml") and "\n" not in message
    assert len(message) < 300  # the 100,001 digits are not echoed back


def run(*paths: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "nightfall.cli", "scenario", "run", *paths,
                           "--json"], capture_output=True, text=True, timeout=120)


def test_the_command_reports_each_hostile_file_and_exits_2(tmp_path: Path) -> None:
    paths = []
    for index, source in enumerate(HOSTILE.values()):
        path = tmp_path / f"hostile{index}.yaml"
        path.write_text(source, encoding="utf-8")
        paths.append(str(path))
    big = tmp_path / "big.yaml"
    big.write_text(SHORT + "# " + "x" * MAX_SCENARIO_BYTES + "\n", encoding="utf-8")
    paths.append(str(big))
    if os.path.exists("/dev/zero"):
        paths.append("/dev/zero")
    done = run(*paths)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(lines) == len(paths)
    for path, line in zip(paths, lines, strict=True):
        assert line["ok"] is False and line["error"].startswith(path), line
    assert "larger than 1 MB" in lines[-1]["error"]

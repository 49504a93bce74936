"""Hypothesis against the scenario reader and runner: garbled YAML, cut and spliced real
scenario files, and real documents with parts replaced by values of the wrong shape. Each
input either runs (a result, exit 0 or 1) or is refused as an invalid file (exit 2) with
a one-line message that names the file and the key or line; never another exception.
One subprocess test checks the same through the ``nightfall scenario run`` command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nightfall.scenario import ScenarioError
from nightfall.scenario.loader import parse_scenario
from nightfall.scenario.runner import run_scenario

NAME = "fuzz.yaml"
SCENARIOS = sorted((Path(__file__).parent.parent / "scenarios").rglob("*.yaml"))
#: a few short real files of each rule set (short: each example runs the whole game)
SOURCES = [p.read_text(encoding="utf-8") for p in sorted(SCENARIOS, key=lambda p: (
    p.stat().st_size, p.name))[:12]]
SETTINGS = settings(max_examples=120, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))
YAML_PIECES = [":", ": ", "- ", "-", "[", "]", "{", "}", ",", "\n", "\n  ", "\t", "&a ", "*a",
               "!!python/object:os.system ", "!!binary ", "? ", "|", ">", "'", '"', "#",
               "---\n", "...\n", "%YAML 1.1\n", "<<: *a\n", "~", "null", "yes", "1e999",
               "\x00", "\ufeff", "é", "players:", "steps:", "do:", "expect:", "ruleset:"]


def outcome(source: str) -> str:
    """``ok``/``failed`` if the file ran, ``invalid`` if it was refused (checked here)."""
    try:
        result = run_scenario(parse_scenario(source, NAME))
    except ScenarioError as error:
        message = str(error)
        assert message.startswith(f"{NAME}: "), message
        assert "\n" not in message.strip(), message
        assert ("key '" in message or "line " in message or "mapping" in message), message
        return "invalid"
    json.dumps(result.to_json(), default=str)
    return "ok" if result.ok else "failed"


@SETTINGS
@given(st.text(max_size=300))
def test_random_text(source: str) -> None:
    outcome(source)


@SETTINGS
@given(st.sampled_from(SOURCES), st.integers(min_value=0), st.integers(0, 200),
       st.lists(st.sampled_from(YAML_PIECES) | st.text(max_size=5), max_size=6))
def test_cut_and_spliced_real_files(source: str, start: int, length: int,
                                    inserted: list[str]) -> None:
    start %= len(source) + 1
    outcome(source[:start] + "".join(inserted) + source[start + length:])


def test_a_key_with_a_line_break_is_named_on_one_line() -> None:
    """Found by the splicing test: ``---\n`` spliced into a step made a key with a line
    break, which the message repeated as it was (two lines)."""
    source = ("ruleset: changelings\nplayers:\n  - {name: Ann, role: pony}\nsteps:\n"
              '  - {do: advance, "x\\ny": 1}\n')
    assert outcome(source) == "invalid"


_leaves = (st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats()
           | st.text(max_size=12) | st.sampled_from(["Ann", "pony", "day 1", "advance"]))
_values = st.recursive(_leaves, lambda inner: st.lists(inner, max_size=3)
                       | st.dictionaries(st.text(max_size=8) | st.sampled_from(
                           ["do", "by", "target", "gm", "expect", "name", "role", "phase"]),
                           inner, max_size=3), max_leaves=8)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _paths(inner, (*prefix, index))
    return found


@SETTINGS
@given(st.sampled_from(SOURCES), st.data())
def test_real_documents_with_parts_of_the_wrong_shape(source: str, data: st.DataObject) -> None:
    document = yaml.safe_load(source)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_paths(document)))
        replacement = data.draw(_values)
        if not path:
            document = replacement
            continue
        parent = document
        for part in path[:-1]:
            parent = parent[part]
        if data.draw(st.booleans()) and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = replacement
    outcome(yaml.safe_dump(document, allow_unicode=True, sort_keys=False))


def test_the_command_refuses_garbled_files_with_exit_2(tmp_path: Path) -> None:
    files = {
        "tabs.yaml": "ruleset: changelings\nplayers:\n\t- {name: Ann}\n",
        "wrong.yaml": "ruleset: changelings\nseed: many\nplayers: [{name: Ann, role: pony}]\n",
        "binary.yaml": "\x00\x01ruleset",
        "list.yaml": "- 1\n- 2\n",
        "step.yaml": "ruleset: changelings\nplayers: [{name: Ann, role: pony}]\n"
                     "steps:\n  - {do: vote, by: Ann, target: [1, 2]}\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "latin1.yaml").write_bytes("name: Jörg\n".encode("latin-1"))
    paths = sorted(tmp_path.iterdir())
    command = [sys.executable, "-m", "nightfall.cli", "scenario", "run", *map(str, paths)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr + done.stdout
    lines = done.stderr.splitlines()
    assert len(lines) == len(paths), lines
    for path, line in zip(paths, lines, strict=True):
        assert line.startswith(f"invalid: {path}: "), line
        assert any(word in line for word in ("key '", "line ", "mapping", "cannot read")), line

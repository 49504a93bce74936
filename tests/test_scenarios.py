"""Every scenario file under tests/scenarios runs and all its expectations hold."""

from __future__ import annotations

from pathlib import Path

import pytest

import nightfall.engine.ruleset
from nightfall.rulefile.ruleset import SHIPPED
from nightfall.scenario import run_file

SCENARIOS = sorted((Path(__file__).parent / "scenarios").rglob("*.yaml"))
# The optional mypyc build (./test runs this file again against it) compiles the engine and
# the Python rule sets, not the rule-file interpreter, whose classes cannot inherit from
# compiled ones: scenarios of a shipped rule file run on the interpreted engine only.
COMPILED = not nightfall.engine.ruleset.__file__.endswith(".py")


def _rule_file_scenario(path: Path) -> bool:
    import yaml

    try:
        return yaml.safe_load(path.read_text(encoding="utf-8")).get("ruleset") in SHIPPED
    except (yaml.YAMLError, AttributeError):
        return False  # a broken file is the runner's to report


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    if COMPILED and _rule_file_scenario(path):
        pytest.skip("rule-file interpreter is not part of the compiled build")
    result = run_file(path)
    assert result.ok, "\n".join(
        f"step {f['step']} {f['key']}: expected {f['expected']!r}, got {f['actual']!r}"
        for f in result.failures
    )

"""Every scenario file under tests/scenarios runs and all its expectations hold.

``./test`` runs this file again against the optional mypyc build, which compiles the
engine, the Python rule sets and the rule-file interpreter (``scripts/build_compiled.sh``):
the scenarios of the shipped rule files run on both builds."""

from __future__ import annotations

from pathlib import Path

import pytest

from nightfall.scenario import run_file

SCENARIOS = sorted((Path(__file__).parent / "scenarios").rglob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    result = run_file(path)
    assert result.ok, "\n".join(
        f"step {f['step']} {f['key']}: expected {f['expected']!r}, got {f['actual']!r}"
        for f in result.failures
    )

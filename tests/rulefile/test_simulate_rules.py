"""``nightfall simulate --rules FILE``: the simulator plays a rule file; Changelings from
its file gives the plugin's report (random bots read only the legal lists)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from nightfall.rulefile.ruleset import SHIPPED


def simulate(tmp_path: Path, name: str, *args: str) -> dict[str, object]:
    out = tmp_path / f"{name}.json"
    result = subprocess.run(
        [sys.executable, "-m", "nightfall.cli", "simulate", *args, "--games", "12",
         "--bots", "random", "--jobs", "1", "--quiet", "--json", str(out)],
        capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    report: dict[str, object] = json.loads(out.read_text(encoding="utf-8"))
    return report


def test_the_shipped_file_by_rules_plays_as_the_rule_set_of_its_id(tmp_path: Path) -> None:
    """``--rules changelings.yaml`` (the file read and checked from its path) plays the
    games ``--ruleset changelings`` plays."""
    data = simulate(tmp_path, "data", "--rules", str(SHIPPED["changelings"]))
    python = simulate(tmp_path, "python", "--ruleset", "changelings")
    data_setup, python_setup = data["setups"][0], python["setups"][0]  # type: ignore[index]
    assert data_setup["setup"]["ruleset"] == "changelings"
    assert data_setup["factions"] == python_setup["factions"]
    assert data_setup["roles"] == python_setup["roles"]


def test_a_broken_rule_file_is_refused_by_key_and_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(SHIPPED["changelings"].read_text(encoding="utf-8").replace(
        "    targets: 2\n", "    tragets: 2\n"), encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "nightfall.cli", "simulate", "--rules",
                             str(path), "--games", "2", "--quiet"],
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 2
    line = path.read_text(encoding="utf-8").splitlines().index("    tragets: 2") + 1
    assert f"key 'abilities.love.tragets' (line {line})" in result.stderr

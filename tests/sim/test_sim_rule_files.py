"""A rule file reaches every simulator worker (issue 20): its setups carry the file
(``sim/rulefiles.py``), so a spawned or forkserver worker, which inherits nothing of the
parent's registry, plays the same games as this process; the report is the same for any
start method and number of jobs, and names the file's hash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nightfall.cli.app import app
from nightfall.rulefile.ruleset import load_rules, registered
from nightfall.sim.backends import LocalBackend
from nightfall.sim.report import build_report, deterministic_part
from nightfall.sim.rulefiles import RuleFileRef, compiled
from nightfall.sim.runner import run_setups
from nightfall.sim.setup import Setup
from rulekit import HOUSE_CLASSIC_ID as HOUSE_ID
from rulekit import house_classic_file as house_file


def house_setups(path: Path) -> list[Setup]:
    rules = load_rules(path)
    ref = RuleFileRef.of(rules, str(path))
    return [Setup(name, rules.id, tuple(preset.roles), dict(preset.options), name, ref)
            for name, preset in rules.presets().items()]


def _report(setups: list[Setup], backend: LocalBackend, bots: str) -> str:
    runs = run_setups(setups, 8, {"*": bots}, 3, backend=backend)
    report = build_report(runs, games=8, seed=3, bots={"*": bots})
    return json.dumps(deterministic_part(report), sort_keys=True)


@pytest.mark.parametrize("start_method", ["spawn", "forkserver"])
def test_spawned_workers_play_the_rule_file(tmp_path: Path, start_method: str) -> None:
    setups = house_setups(house_file(tmp_path))
    one = _report(setups, LocalBackend(1), "heuristic")
    assert _report(setups, LocalBackend(2, start_method), "heuristic") == one
    described = json.loads(one)["setups"][0]["setup"]
    assert described["ruleset"] == HOUSE_ID
    assert described["rule_file"] == f"sha256:{setups[0].rule_file.sha256}"  # type: ignore[union-attr]


def test_a_file_is_compiled_once_per_process_and_checked_against_its_hash(
        tmp_path: Path) -> None:
    ref = house_setups(house_file(tmp_path))[0].rule_file
    assert ref is not None
    assert compiled(ref) is compiled(ref)
    assert registered(HOUSE_ID) is compiled(ref)
    with pytest.raises(ValueError, match="has the hash"):
        compiled(RuleFileRef("0" * 64, ref.data, "forged.yaml"))


def test_cli_rule_file_on_spawned_workers_and_its_command_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--rules FILE`` with two spawned workers gives the one-job report, and the
    report's command line names the file, not the id inside it."""
    path = house_file(tmp_path)
    reports = []
    for jobs in ("1", "2"):
        if jobs == "2":  # the local backend as on a platform without fork
            monkeypatch.setattr("nightfall.sim.backends.multiprocessing.get_all_start_methods",
                                lambda: ["spawn"])
        out = tmp_path / f"{jobs}.json"
        result = CliRunner().invoke(app, [
            "simulate", "--rules", str(path), "--games", "6", "--seed", "2", "--jobs", jobs,
            "--quiet", "--ablate", "--json", str(out)])
        assert result.exit_code == 0, result.output
        reports.append(json.loads(out.read_text(encoding="utf-8")))
    assert deterministic_part(reports[0]) == deterministic_part(reports[1])
    command = reports[0]["command"]
    assert f"--rules {path}" in command and "--ruleset" not in command
    assert reports[0]["role_effects"]["method"] == "ablation"


def test_sweep_takes_a_rule_file(tmp_path: Path) -> None:
    path = house_file(tmp_path)
    out = tmp_path / "sweep"
    result = CliRunner().invoke(app, [
        "sweep", "--rules", str(path), "--vary", "seer=0,1", "--games", "4", "--jobs", "1",
        "--quiet", "--out", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    assert f"--rules {path}" in report["command"] and "--ruleset" not in report["command"]
    assert [v["setup"]["ruleset"] for v in report["variants"]] == [HOUSE_ID, HOUSE_ID]
    assert report["base"]["rule_file"] == report["variants"][0]["setup"]["rule_file"]

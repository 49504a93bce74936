"""``nightfall simulate`` plays on the compiled (mypyc) build when it is there and
matches the sources, and says which build ran (issue 19)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nightfall.cli.app import app
from nightfall.sim.build import compiled_problem, find_compiled, source_tree
from nightfall.sim.report import deterministic_part

ROOT = Path(__file__).resolve().parents[2]


def _fake_checkout(tmp: Path) -> Path:
    """A checkout with the real sources and a 'compiled' copy of them (a marker file
    where the engine's shared library would be)."""
    shutil.copytree(ROOT / "src" / "nightfall", tmp / "src" / "nightfall",
                    ignore=shutil.ignore_patterns("__pycache__"))
    compiled = tmp / "build" / "compiled"
    shutil.copytree(tmp / "src" / "nightfall", compiled / "nightfall")
    (compiled / "nightfall" / "engine" / "game.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    return tmp


def test_a_build_is_used_only_while_it_matches_the_sources(tmp_path: Path) -> None:
    root = _fake_checkout(tmp_path)
    found = find_compiled(root)
    assert found is not None and found.present and found.usable
    rules = root / "src" / "nightfall" / "rulesets" / "island" / "abilities.py"
    rules.write_text(rules.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    stale = find_compiled(root)
    assert stale is not None and not stale.usable
    assert stale.stale == ("rulesets/island/abilities.py",)
    shutil.rmtree(root / "build")
    absent = find_compiled(root)
    assert absent is not None and not absent.present and not absent.usable


def test_the_benchmarks_refuse_a_build_that_is_not_the_sources(tmp_path: Path) -> None:
    root = _fake_checkout(tmp_path)
    assert compiled_problem(root) is None
    missing = compiled_problem(root, "forum/dom_scan")  # only the engine's marker is there
    assert missing is not None and "no compiled forum/dom_scan" in missing
    dates = root / "src" / "nightfall" / "forum" / "dates.py"
    dates.write_text(dates.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    stale = compiled_problem(root)
    assert stale is not None and "stale (forum/dates.py changed)" in stale


def test_simulate_says_which_build_ran(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    result = CliRunner().invoke(app, [
        "simulate", "--preset", "village-8", "--games", "2", "--jobs", "1", "--bots",
        "random", "--build", "interpreted", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "Build: interpreted (as asked)." in result.output
    assert json.loads(out.read_text(encoding="utf-8"))["timing"]["build"] == "interpreted"
    # inside another program (this test's runner) it never starts itself again
    refused = CliRunner().invoke(app, [
        "simulate", "--preset", "village-8", "--games", "2", "--jobs", "1", "--build",
        "compiled", "--locale", "de"])
    assert refused.exit_code == 2
    assert "kompilierten Build" in refused.output


@pytest.mark.skipif(source_tree() is None or not (found := find_compiled()) or not found.usable,
                    reason="no compiled build matching the sources (scripts/build_compiled.sh)")
def test_simulate_runs_the_compiled_build_with_the_same_results(tmp_path: Path) -> None:
    reports = {}
    for build in ("auto", "interpreted"):
        out = tmp_path / f"{build}.json"
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
        env.pop("NIGHTFALL_COMPILED", None)
        done = subprocess.run(
            [sys.executable, "-m", "nightfall.cli", "simulate", "--preset", "village-8",
             "--games", "6", "--jobs", "2", "--seed", "3", "--build", build, "--json",
             str(out)], env=env, capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode == 0, done.stderr
        reports[build] = json.loads(out.read_text(encoding="utf-8"))
    assert reports["auto"]["timing"]["build"] == "compiled"
    assert reports["interpreted"]["timing"]["build"] == "interpreted"
    assert deterministic_part(reports["auto"]) == deterministic_part(reports["interpreted"])


@pytest.mark.skipif(source_tree() is None or not (found := find_compiled()) or not found.usable,
                    reason="no compiled build matching the sources (scripts/build_compiled.sh)")
def test_a_rule_file_plays_on_the_compiled_build_with_the_same_results(
        tmp_path: Path) -> None:
    """The rule-file interpreter is in the compiled build (issue 20): ``--rules FILE``
    starts itself again on a usable compiled build, as a plugin's run does, and its report
    is the interpreted one's (it crashed there while rulefile/ was interpreted: its
    classes cannot subclass compiled ones)."""
    from nightfall.rulefile.ruleset import SHIPPED

    reports = {}
    for build in ("auto", "interpreted"):
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
        env.pop("NIGHTFALL_COMPILED", None)
        out = tmp_path / f"{build}.json"
        done = subprocess.run(
            [sys.executable, "-m", "nightfall.cli", "simulate", "--rules",
             str(SHIPPED["werwolf-classic"]), "--games", "4", "--jobs", "1", "--seed", "5",
             "--build", build, "--json", str(out)],
            env=env, capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode == 0, done.stderr
        reports[build] = json.loads(out.read_text(encoding="utf-8"))
    assert reports["auto"]["timing"]["build"] == "compiled"
    assert reports["interpreted"]["timing"]["build"] == "interpreted"
    assert deterministic_part(reports["auto"]) == deterministic_part(reports["interpreted"])

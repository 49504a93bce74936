"""The Dask backend against the local one: a real Dask ``LocalCluster`` started here (two
worker processes), the same chunks, the same report byte for byte."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from distributed import LocalCluster
from typer.testing import CliRunner

import nightfall
from nightfall.cli.app import app
from nightfall.sim.backends import BackendError, DaskBackend, LocalBackend, make_backend
from nightfall.sim.report import build_report, deterministic_part
from nightfall.sim.runner import run_setups
from nightfall.sim.setup import Setup, preset_setup


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR) as started:
        yield started


def _setups() -> list[Setup]:
    return [preset_setup("changelings", "village-8"), preset_setup("island", "cove-7")]


def _report(backend: DaskBackend | LocalBackend, bots: str, seed: int) -> str:
    runs = run_setups(_setups(), 7, {"*": bots}, seed, backend=backend)
    report = build_report(runs, games=7, seed=seed, bots={"*": bots})
    return json.dumps(deterministic_part(report), sort_keys=False)


def test_dask_gives_the_local_report_for_the_same_seed(cluster: LocalCluster) -> None:
    address = cluster.scheduler_address
    with DaskBackend(address) as dask:
        assert dask.workers == 2  # counted from the scheduler, not from --jobs
        for bots, seed in (("heuristic", 5), ("random", 11)):
            local = _report(LocalBackend(1), bots, seed)
            assert _report(dask, bots, seed) == local
            assert json.loads(local)["setups"][0]["games"] == 7
        assert _report(dask, "heuristic", 6) != _report(dask, "heuristic", 5)


def test_cli_simulate_on_a_cluster_writes_the_local_report(cluster: LocalCluster,
                                                           tmp_path: Path) -> None:
    reports: list[dict[str, Any]] = []
    for extra in (["--backend", "local", "--jobs", "1"],
                  ["--backend", "dask", "--cluster", cluster.scheduler_address]):
        out = tmp_path / f"{extra[1]}.json"
        result = CliRunner().invoke(app, [
            "simulate", "--preset", "village-8", "--games", "6", "--seed", "4", "--quiet",
            "--ablate", "--json", str(out), *extra])
        assert result.exit_code == 0, result.output
        reports.append(json.loads(out.read_text(encoding="utf-8")))
    local, dask = reports
    assert dask["timing"]["backend"] == "dask" and local["timing"]["backend"] == "local"
    assert dask["timing"]["workers"] == 2
    assert deterministic_part(dask) == deterministic_part(local)
    assert "--backend" not in dask["command"]  # the same command reproduces either


def test_a_cluster_address_needs_the_dask_backend() -> None:
    result = CliRunner().invoke(app, ["simulate", "--games", "1", "--cluster",
                                      "tcp://127.0.0.1:8786"])
    assert result.exit_code == 2
    assert "needs --backend dask" in result.output
    result = CliRunner().invoke(app, ["simulate", "--games", "1", "--backend", "ray"])
    assert result.exit_code == 2 and "choose one of local, dask" in result.output
    with pytest.raises(BackendError, match="needs --backend dask"):
        make_backend("local", 1, "tcp://127.0.0.1:8786")


def test_an_unreachable_scheduler_is_a_clear_error() -> None:
    backend = DaskBackend("tcp://127.0.0.1:9", connect_timeout=1.0)
    with pytest.raises(BackendError, match=r"cannot reach the Dask scheduler at tcp://127"):
        backend.open()


def test_workers_running_other_code_are_refused(tmp_path: Path) -> None:
    """A real worker process whose Nightfall differs by one comment: the run is refused
    before a game is played, naming the worker."""
    copy = tmp_path / "src" / "nightfall"
    shutil.copytree(Path(nightfall.__file__).parent, copy,
                    ignore=shutil.ignore_patterns("__pycache__"))
    seeds = copy / "sim" / "seeds.py"
    seeds.write_text(seeds.read_text(encoding="utf-8") + "# another version\n",
                     encoding="utf-8")
    with LocalCluster(n_workers=0, processes=True, host="127.0.0.1",
                      dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR) as scheduler:
        worker = subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", scheduler.scheduler_address,
             "--nthreads", "1", "--no-dashboard", "--host", "127.0.0.1", "--name", "old"],
            env={**os.environ, "PYTHONPATH": str(copy.parent)},
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            with pytest.raises(BackendError, match="run other Nightfall code"):
                DaskBackend(scheduler.scheduler_address, connect_timeout=30).open()
        finally:
            worker.terminate()
            worker.wait(timeout=30)


def test_dask_workers_play_a_rule_file_they_were_never_given(cluster: LocalCluster,
                                                             tmp_path: Path) -> None:
    """``--rules FILE`` on a cluster whose workers started before the file existed: the
    work units carry it (issue 20), and the report is the local one."""
    from rulekit import HOUSE_CLASSIC_ID, house_classic_file

    path = house_classic_file(tmp_path)
    reports: list[dict[str, Any]] = []
    for extra in (["--backend", "local", "--jobs", "1"],
                  ["--backend", "dask", "--cluster", cluster.scheduler_address]):
        out = tmp_path / f"{extra[1]}.json"
        result = CliRunner().invoke(app, [
            "simulate", "--rules", str(path), "--games", "6", "--seed", "4", "--quiet",
            "--json", str(out), *extra])
        assert result.exit_code == 0, result.output
        reports.append(json.loads(out.read_text(encoding="utf-8")))
    local, dask = reports
    assert dask["timing"]["backend"] == "dask"
    assert local["setups"][0]["setup"]["ruleset"] == HOUSE_CLASSIC_ID
    assert deterministic_part(dask) == deterministic_part(local)
    assert f"--rules {path}" in dask["command"]

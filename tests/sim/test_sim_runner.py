"""The runner: the same seed gives the same report whatever the number of processes."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from nightfall.cli.app import app
from nightfall.rulesets import RULESET_IDS
from nightfall.sim.report import build_report, deterministic_part
from nightfall.sim.runner import run_setups
from nightfall.sim.setup import preset_setup


def _report(jobs: int, bots: str, seed: int) -> dict[str, object]:
    setups = [preset_setup("changelings", "village-8"), preset_setup("changelings", "town-12")]
    if "island" in RULESET_IDS:
        setups.append(preset_setup("island", "cove-7"))
    runs = run_setups(setups, 6, {"*": bots}, seed, jobs)
    return deterministic_part(build_report(runs, games=6, seed=seed, bots={"*": bots}))


def test_same_seed_same_report_for_one_and_two_jobs() -> None:
    for bots in ("heuristic", "random"):
        one = _report(1, bots, 5)
        two = _report(2, bots, 5)
        assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)
    assert _report(1, "heuristic", 6) != _report(1, "heuristic", 5)


def test_cli_writes_json_and_html(tmp_path: Path) -> None:
    out, page, text = tmp_path / "r.json", tmp_path / "r.html", tmp_path / "r.md"
    result = CliRunner().invoke(app, [
        "simulate", "--preset", "village-8", "--preset", "town-12", "--games", "3",
        "--jobs", "1", "--seed", "2", "--json", str(out), "--html", str(page),
        "--markdown", str(text)])
    assert result.exit_code == 0, result.output
    assert "Win rate by faction" in result.output and "Effect of each role" in result.output
    report = json.loads(out.read_text(encoding="utf-8"))
    assert [s["setup"]["name"] for s in report["setups"]] == ["village-8", "town-12"]
    assert sum(f["count"] for f in report["setups"][0]["factions"]) == 3
    assert report["role_effects"]["method"] == "across setups"
    assert "--seed 2" in report["command"]
    html = page.read_text(encoding="utf-8")
    assert html.count("data:image/png;base64,") >= 5 and "village-8" in html
    markdown = text.read_text(encoding="utf-8")
    assert "### village-8 (8 players)" in markdown and "| faction | wins |" in markdown


def test_cli_compare_and_ablate(tmp_path: Path) -> None:
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text("ruleset: changelings\npreset: village-8\n", encoding="utf-8")
    b.write_text("name: with raven\nruleset: changelings\npreset: village-8\n"
                 "add: [black_raven]\nremove: [pony]\n", encoding="utf-8")
    out = tmp_path / "c.json"
    result = CliRunner().invoke(app, [
        "simulate", "--compare", str(a), str(b), "--games", "3", "--jobs", "1", "--quiet",
        "--json", str(out)])
    assert result.exit_code == 0, result.output
    comparison = json.loads(out.read_text(encoding="utf-8"))["comparison"]
    assert (comparison["a"], comparison["b"]) == ("a", "with raven")
    # the side-by-side table, written to a pipe or file, is not cut at 80 columns
    table = CliRunner().invoke(app, [
        "simulate", "--compare", str(a), str(b), "--games", "3", "--jobs", "1"]).output
    assert "with raven" in table and "changelings" in table and "…" not in table
    result = CliRunner().invoke(app, [
        "simulate", "--preset", "village-8", "--games", "2", "--jobs", "1", "--quiet",
        "--ablate", "--json", str(out)])
    assert result.exit_code == 0, result.output
    effects = json.loads(out.read_text(encoding="utf-8"))["role_effects"]
    assert effects["method"] == "ablation"
    assert {row["role"] for row in effects["roles"]} == {"queen", "researcher", "shield",
                                                        "pinkie_sense"}
    result = CliRunner().invoke(app, ["simulate", "--preset", "nowhere", "--games", "1"])
    assert result.exit_code != 0


def test_the_report_does_not_depend_on_the_order_of_the_chunks() -> None:
    """Workers finish in any order: ties in the rankings (causes, roles) must come out the
    same whichever chunk was merged first."""
    from nightfall.sim.play import play_game
    from nightfall.sim.runner import SetupRun
    from nightfall.sim.seeds import game_seed
    from nightfall.sim.tally import Tally

    setup = preset_setup("changelings", "village-8")
    games = [Tally() for _ in range(8)]
    for index, tally in enumerate(games):
        tally.add(play_game(setup, game_seed(3, index), "heuristic", index=index))
    reports = []
    for order in (games, games[::-1], games[1::2] + games[::2]):
        merged = Tally()
        for tally in order:
            merged.merge(tally)
        run = SetupRun(setup, merged, {"*": "heuristic"}, 3)
        reports.append(json.dumps(deterministic_part(build_report(
            [run], games=8, seed=3, bots={"*": "heuristic"})), sort_keys=False))
    assert reports[0] == reports[1] == reports[2]

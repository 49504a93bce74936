"""``nightfall sweep``: the variants a ``--vary`` spec makes (both rule sets), the report's
intervals, the plot file, reproducibility (also on a Dask cluster), and clear errors."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from nightfall.cli.app import app
from nightfall.sim.setup import preset_setup
from nightfall.sim.sweep import VaryError, parse_vary, variants


def _counts(spec: str, ruleset: str, preset: str | None) -> list[dict[str, int]]:
    base = preset_setup(ruleset, preset) if preset else None
    return [setup.role_counts() for setup in variants(parse_vary(spec), ruleset, base)]


def test_changelings_seats_replace_ponies_and_keep_the_player_count() -> None:
    base = preset_setup("changelings", "canterlot-15").role_counts()
    made = _counts("changelings=2,3,5", "changelings", "canterlot-15")
    assert [(c.get("changeling", 0), c["pony"]) for c in made] == [(0, 8), (1, 7), (3, 5)]
    assert all(sum(c.values()) == 15 and c["queen"] == c["liar"] == 1 for c in made)
    assert made[1] == base
    # "evil" is the rule set's main evil faction: changelings here, the mafia on the island
    assert _counts("evil=2,3,5", "changelings", "canterlot-15") == made
    island = _counts("evil=1,3", "island", "cove-7")
    assert [(c["werewolf"], c["passenger"]) for c in island] == [(1, 3), (3, 1)]
    assert _counts("mafia=1,3", "island", "cove-7") == island


def test_role_with_and_without_and_role_counts() -> None:
    with_, without = _counts("role=shield:with,without", "changelings", "canterlot-15")
    assert (with_["shield"], with_["pony"]) == (1, 6)
    assert "shield" not in without and without["pony"] == 7
    # a changeling-side role is swapped with its faction's plain role, like --ablate
    with_, without = _counts("role=liar:with,without", "changelings", "village-8")
    assert (with_.get("changeling", 0), with_["liar"]) == (0, 1)
    assert (without["changeling"], without.get("liar", 0)) == (1, 0)
    # the hamster's faction has no plain role: a passenger takes his seat
    with_, without = _counts("role=hamster:with,without", "island", "island-12")
    assert with_ == preset_setup("island", "island-12").role_counts()
    assert "hamster" not in without and without["passenger"] == 1
    made = _counts("hamster=0,1", "island", "archipelago-20")
    assert [(c.get("hamster", 0), c["passenger"]) for c in made] == [(0, 8), (1, 7)]


def test_presets_players_and_options() -> None:
    setups = variants(parse_vary("preset=cove-7,island-12"), "island", None)
    assert [s.name for s in setups] == ["cove-7", "island-12"]
    setups = variants(parse_vary("players=8,12"), "changelings", None)
    assert [s.players for s in setups] == [8, 12]
    base = preset_setup("island", "cove-7")
    setups = variants(parse_vary("option=items_per_player:0,2"), "island", base)
    assert [s.options["items_per_player"] for s in setups] == [0, 2]
    setups = variants(parse_vary("option=first_day_banishment:true,false"), "changelings",
                      preset_setup("changelings", "village-8"))
    assert [s.options["first_day_banishment"] for s in setups] == [True, False]


@pytest.mark.parametrize(("spec", "ruleset", "preset", "message"), [
    ("changelings", "changelings", "village-8", "write KEY=VALUE1,VALUE2"),
    ("changelings=2", "changelings", "village-8", "at least two values"),
    ("changelings=2,2", "changelings", "village-8", "given twice"),
    ("changelings=2,x", "changelings", "village-8", "'x' is not a whole number"),
    ("changelings=1,2", "changelings", "canterlot-15", "2 changelings seat(s) with special"),
    ("changelings=2,9", "changelings", "village-8", "no pony left"),
    ("ponies=2,3", "changelings", "village-8", "ponies is the village"),
    ("dragons=2,3", "changelings", "village-8", "unknown parameter 'dragons'"),
    ("role=shield:maybe,with", "changelings", "village-8", "with and without"),
    ("role=pony:with,without", "changelings", "village-8", "pony is a plain role"),
    ("role=wizard:with,without", "island", "cove-7", "no role 'wizard'"),
    ("option=early_close:maybe,true", "changelings", "village-8", "takes a bool"),
    ("option=fog:true,false", "island", "cove-7", "no option 'fog'"),
    ("preset=cove-7,atlantis", "island", None, "no preset atlantis"),
])
def test_invalid_specs_say_what_is_wrong(spec: str, ruleset: str, preset: str | None,
                                         message: str) -> None:
    base = preset_setup(ruleset, preset) if preset else None
    with pytest.raises(VaryError) as caught:
        variants(parse_vary(spec), ruleset, base)
    assert message in str(caught.value)


def _sweep(tmp_path: Path, name: str, *extra: str, seed: int = 3) -> tuple[
        dict[str, Any], Path]:
    out = tmp_path / name
    result = CliRunner().invoke(app, [
        "sweep", "--vary", "changelings=2,3,4", "--preset", "village-8", "--games", "8",
        "--seed", str(seed), "--out", str(out), *extra])
    assert result.exit_code == 0, result.output
    report = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    return report, out


def test_sweep_reports_each_variant_with_intervals_and_one_plot(tmp_path: Path) -> None:
    report, out = _sweep(tmp_path, "a", "--jobs", "1")
    assert [v["value"] for v in report["variants"]] == ["2", "3", "4"]
    assert [v["setup"]["roles"].get("changeling", 0) for v in report["variants"]] == [1, 2, 3]
    assert report["factions"][:2] == ["ponies", "changelings"]
    for variant in report["variants"]:
        assert variant["games"] == 8
        assert sum(f["count"] for f in variant["factions"]) + variant["unfinished"] == 8
        for faction in variant["factions"]:
            low, high = faction["ci95"]
            assert 0.0 <= low <= faction["rate"] <= high <= 1.0 and low < high
            assert faction["rate"] == faction["count"] / 8
    png = (out / "sweep.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    import matplotlib.image

    assert matplotlib.image.imread(out / "sweep.png").shape[2] in (3, 4)
    assert sorted(p.name for p in out.iterdir()) == ["sweep.json", "sweep.md", "sweep.png"]
    markdown = (out / "sweep.md").read_text(encoding="utf-8")
    assert "| changelings | players | ponies (95% CI)" in markdown
    assert "![win rate by faction vs changelings (seats)](sweep.png)" in markdown

    # reproducible: the same seed gives the same report and the same picture (any --jobs)
    again, out2 = _sweep(tmp_path, "b", "--jobs", "2")
    del report["timing"], again["timing"]
    assert again == report
    assert (out2 / "sweep.png").read_bytes() == png
    other, _ = _sweep(tmp_path, "c", "--jobs", "1", seed=4)
    del other["timing"]
    assert other != report


def test_sweep_on_island_with_an_svg_plot_and_on_a_dask_cluster(tmp_path: Path) -> None:
    reports = []
    for backend in ("local", "dask"):
        out = tmp_path / backend
        result = CliRunner().invoke(app, [
            "sweep", "--ruleset", "island", "--preset", "cove-7", "--vary",
            "role=seer:with,without", "--games", "6", "--seed", "9", "--quiet",
            "--backend", backend, "--jobs", "2", "--plot-format", "svg", "--out", str(out)])
        assert result.exit_code == 0, result.output
        root = ET.parse(out / "sweep.svg").getroot()
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        reports.append(json.loads((out / "sweep.json").read_text(encoding="utf-8")))
    local, dask = reports
    assert dask["timing"]["backend"] == "dask" and dask["timing"]["cluster"] == "local cluster"
    del local["timing"], dask["timing"]
    assert dask == local
    assert [v["setup"]["name"] for v in local["variants"]] == ["cove-7 with seer",
                                                               "cove-7 without seer"]
    assert local["factions"][:2] == ["peaceful", "mafia"]
    assert ((tmp_path / "local" / "sweep.svg").read_bytes()
            == (tmp_path / "dask" / "sweep.svg").read_bytes())


@pytest.mark.parametrize(("args", "message"), [
    (["--vary", "changelings=two,three"], "'two' is not a whole number"),
    (["--vary", "nonsense"], "write KEY=VALUE1,VALUE2"),
    (["--vary", "preset=village-8,town-12", "--preset", "city-20"], "leave out --preset"),
    (["--vary", "changelings=2,3", "--plot-format", "gif"], "choose one of png, svg"),
])
def test_an_invalid_sweep_exits_2_with_a_message(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, ["sweep", "--games", "1", *args],
                                env={"COLUMNS": "300"})
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output and isinstance(result.exception, SystemExit)

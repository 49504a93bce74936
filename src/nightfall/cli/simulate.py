"""``nightfall simulate``: bots play a setup many times; balance report (issue 7)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console


def simulate(
    ruleset: Annotated[str, typer.Option(help="Rule set: changelings or island.")
                       ] = "changelings",
    preset: Annotated[
        list[str] | None,
        typer.Option(help="Preset to play (repeatable; 'all': every preset of the rule set). "
                          "Default: canterlot-15 for changelings, island-12 for island."),
    ] = None,
    setup: Annotated[
        list[Path] | None,
        typer.Option(help="A setup file (YAML, see docs/balance.md); repeatable."),
    ] = None,
    compare: Annotated[
        tuple[Path, Path] | None,
        typer.Option(help="Two setup files to put side by side: --compare A.yaml B.yaml."),
    ] = None,
    games: Annotated[int, typer.Option(min=1, help="Games per setup.")] = 1000,
    bots: Annotated[
        str,
        typer.Option(help="random or heuristic; per faction e.g. 'changelings=random,"
                          "heuristic' (the last is the default)."),
    ] = "heuristic",
    jobs: Annotated[int | None, typer.Option(min=1, help="Worker processes (default: "
                                                         "the number of cores).")] = None,
    seed: Annotated[int, typer.Option(help="Master seed: the same seed gives the same "
                                           "report for any --jobs.")] = 1,
    ablate: Annotated[
        bool,
        typer.Option("--ablate", help="Role effects by ablation: also play the setup with "
                                      "each special role replaced by its faction's plain "
                                      "role."),
    ] = False,
    max_stages: Annotated[int, typer.Option(min=1, help="Stop a game after this many "
                                                        "stages (counted unfinished).")] = 400,
    json_file: Annotated[Path | None, typer.Option("--json", help="Write the report as "
                                                                  "JSON.")] = None,
    html_file: Annotated[Path | None, typer.Option("--html", help="Write an HTML report "
                                                                  "with plots.")] = None,
    markdown_file: Annotated[Path | None, typer.Option("--markdown", help="Write the "
                                                         "tables as Markdown.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar, no tables.")
                     ] = False,
) -> None:
    """Let bots play a setup many times and report win rates (95% Wilson intervals),
    survival per role, game lengths, causes of departure and the effect of each role."""
    from nightfall.sim.bots import parse_bots
    from nightfall.sim.report import ablation_setups, build_report, print_report
    from nightfall.sim.runner import default_jobs, run_setups
    from nightfall.sim.setup import Setup, SetupError, load_setup, preset_ids, preset_setup

    console = Console(highlight=False)
    try:
        kinds = parse_bots(bots)
        setups: list[Setup] = []
        comparison: tuple[int, int] | None = None
        if compare is not None:
            setups += [load_setup(compare[0]), load_setup(compare[1])]
            comparison = (0, 1)
        setups += [load_setup(path) for path in setup or ()]
        wanted = list(preset or ())
        if not setups and not wanted:
            wanted = ["canterlot-15" if ruleset == "changelings" else "island-12"]
        for name in wanted:
            names = preset_ids(ruleset) if name == "all" else [name]
            setups += [preset_setup(ruleset, n) for n in names]
    except (SetupError, ValueError) as error:
        raise typer.BadParameter(str(error)) from error
    if ablate and len(setups) != 1:
        raise typer.BadParameter("--ablate needs exactly one setup", param_hint="--ablate")
    jobs = jobs or default_jobs()
    progress = not quiet
    err = Console(stderr=True)
    runs = run_setups(setups, games, kinds, seed, jobs, max_stages=max_stages,
                      progress=progress, console=err)
    ablation = None
    if ablate:
        variants = ablation_setups(setups[0])
        played = run_setups(list(variants.values()), games, kinds, seed, jobs,
                            max_stages=max_stages, progress=progress, console=err)
        ablation = dict(zip(variants, played, strict=True))
    command = _command(ruleset, preset, setup, compare, games, bots, seed, ablate, max_stages)
    report = build_report(runs, games=games, seed=seed, bots=kinds, command=command,
                          comparison=comparison, ablation=ablation, max_stages=max_stages)
    if not quiet:
        print_report(report, console)
    if json_file is not None:
        json_file.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n",
                             encoding="utf-8")
    if markdown_file is not None:
        from nightfall.sim.report import markdown_report

        markdown_file.write_text(markdown_report(report), encoding="utf-8")
    if html_file is not None:
        from nightfall.sim.html import render_html

        html_file.write_text(render_html(report), encoding="utf-8")


def _command(ruleset: str, preset: list[str] | None, setup: list[Path] | None,
             compare: tuple[Path, Path] | None, games: int, bots: str, seed: int,
             ablate: bool, max_stages: int) -> str:
    """The command line that reproduces the report (any --jobs gives the same)."""
    words = ["nightfall", "simulate", "--ruleset", ruleset]
    for name in preset or ():
        words += ["--preset", name]
    for path in setup or ():
        words += ["--setup", str(path)]
    if compare is not None:
        words += ["--compare", str(compare[0]), str(compare[1])]
    words += ["--games", str(games), "--bots", bots, "--seed", str(seed)]
    if ablate:
        words.append("--ablate")
    if max_stages != 400:
        words += ["--max-stages", str(max_stages)]
    return shlex.join(words)

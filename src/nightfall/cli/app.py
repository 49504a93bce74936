"""The ``nightfall`` command: ``demo`` and ``scenario run``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from nightfall.i18n import SUPPORTED_LOCALES, gettext_for, localize

app = typer.Typer(help="Nightfall: a game master for play-by-post social-deduction games.",
                  no_args_is_help=True, add_completion=False)
scenario_app = typer.Typer(help="Run rule scenarios (YAML).", no_args_is_help=True)
app.add_typer(scenario_app, name="scenario")


@app.command()
def demo(
    locale: Annotated[str, typer.Option(help="Language of the texts: de or en.")] = "de",
    seed: Annotated[int, typer.Option(help="Seed of the deal and the scripted moves.")] = 2012,
) -> None:
    """Play a complete seeded game of the seed's 15-player Changelings setup (C16.3)."""
    from nightfall.demo import play_demo
    from nightfall.rulesets.changelings.status_post import status_post

    if locale not in SUPPORTED_LOCALES:
        choices = ", ".join(SUPPORTED_LOCALES)
        raise typer.BadParameter(f"choose one of {choices}", param_hint="--locale")
    console = Console(soft_wrap=True, highlight=False)
    game = play_demo(seed, locale)
    current = None
    for announcement in game.state.announcements:
        if announcement.phase != current:
            current = announcement.phase
            console.rule(f"[bold]{current}")
        console.print(localize(announcement.text, locale))
    console.rule("[bold]Status")
    console.print(status_post(game.state, gettext_for(locale)), markup=False)


@scenario_app.command("run")
def scenario_run(
    files: Annotated[list[Path], typer.Argument(help="Scenario files (YAML).")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object per file.")
    ] = False,
) -> None:
    """Run scenario files; exit 0 if every expectation holds, 1 if one fails, 2 if a file is
    invalid."""
    from nightfall.scenario import ScenarioError, run_file

    console = Console(soft_wrap=True, highlight=False, stderr=False)
    worst = 0
    for path in files:
        try:
            result = run_file(path)
        except ScenarioError as error:
            worst = 2
            if as_json:
                print(json.dumps({"ok": False, "error": str(error), "failures": [], "state": {}},
                                 ensure_ascii=False))
            else:
                errors = Console(stderr=True, soft_wrap=True, highlight=False)
                errors.print("[red]invalid:[/red] ", end="")
                errors.print(str(error), markup=False)
            continue
        worst = max(worst, result.exit_code)
        if as_json:
            print(json.dumps(result.to_json(), ensure_ascii=False, default=str))
            continue
        if result.ok:
            console.print(f"[green]ok[/green]   {path}")
        else:
            console.print(f"[red]FAIL[/red] {path}")
            for failure in result.failures:
                console.print(
                    f"     step {failure['step']} {failure['key']}: expected "
                    f"{failure['expected']!r}, got {failure['actual']!r}", markup=False
                )
    raise typer.Exit(worst)


def main() -> None:
    app()

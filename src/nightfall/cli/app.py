"""The ``nightfall`` command: ``demo`` and ``scenario run``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

import nightfall.cli.game_forum  # noqa: F401  (registers `game forum`)
from nightfall.cli.game import game_app
from nightfall.cli.notify import deliver
from nightfall.cli.rules import rules_app
from nightfall.cli.serve import serve
from nightfall.cli.simulate import simulate, sweep
from nightfall.cli.votecount import votecount
from nightfall.engine.text import render_phase
from nightfall.i18n import SUPPORTED_LOCALES, gettext_for, localize

app = typer.Typer(help="Nightfall: a game master for play-by-post social-deduction games.",
                  no_args_is_help=True, add_completion=False, rich_markup_mode="markdown")
scenario_app = typer.Typer(help="Run rule scenarios (YAML).", no_args_is_help=True,
                          rich_markup_mode="markdown")
app.add_typer(scenario_app, name="scenario")
app.add_typer(game_app, name="game")
app.add_typer(rules_app, name="rules")
app.command("votecount")(votecount)
app.command("simulate")(simulate)
app.command("sweep")(sweep)
app.command("serve")(serve)
app.command("deliver")(deliver)


@app.command()
def demo(
    locale: Annotated[
        str | None,
        typer.Option(help="Language of the texts: de, en or ru (default: de for changelings, "
                          "ru for island)."),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the deal and the scripted moves.")
                    ] = None,
    ruleset: Annotated[str, typer.Option(help="Rule set: changelings or island.")
                       ] = "changelings",
) -> None:
    """Play a complete seeded game: the seed's 15-player Changelings setup (C16.3), or a
    12-player Island of Fear game with its newspaper (I3.2)."""
    if ruleset not in ("changelings", "island"):
        raise typer.BadParameter("choose changelings or island", param_hint="--ruleset")
    locale = locale or ("ru" if ruleset == "island" else "de")
    if locale not in SUPPORTED_LOCALES:
        choices = ", ".join(SUPPORTED_LOCALES)
        raise typer.BadParameter(f"choose one of {choices}", param_hint="--locale")
    console = Console(soft_wrap=True, highlight=False)
    if ruleset == "island":
        from nightfall.demo_island import play_island_demo
        from nightfall.rulesets.island.newspaper import newspaper

        game = play_island_demo(2024 if seed is None else seed, locale)
        final = newspaper(game.state, gettext_for(locale))
    else:
        from nightfall.demo import play_demo
        from nightfall.rulefile.status_post import status_post_of

        game = play_demo(2012 if seed is None else seed, locale)
        post = status_post_of(game.ruleset)  # the Changelings file's (C16.1)
        assert post is not None
        final = post.render(game.state, gettext_for(locale))
    current = None
    for announcement in game.state.announcements:
        if announcement.phase != current:
            current = announcement.phase
            console.rule(render_phase(current, gettext_for(locale)))
        console.print(localize(announcement.text, locale))
    console.rule("Status")
    console.print(final, markup=False)


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

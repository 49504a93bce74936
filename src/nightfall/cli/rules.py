"""``nightfall rules check FILE``: validate a rule file before any game is played with it.

Every error names its key path and line; exit 2 when there is one, 0 with a short
summary when the file is valid. ``--games N`` then plays N seeded games of random bots
with the rule set (the simulator) and reports the deals that crash or never end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

rules_app = typer.Typer(help="Check rule files (docs/rules-format.md).", no_args_is_help=True,
                        rich_markup_mode="markdown")


@rules_app.command("check")
def check(
    file: Annotated[Path, typer.Argument(help="The rule file (YAML, nightfall-rules/1).")],
    games: Annotated[int, typer.Option(
        help="Then play this many seeded games of random bots with it (0: none).")] = 0,
    max_stages: Annotated[int, typer.Option(
        help="A bot game still running after this many stages never ends.")] = 200,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    locale: Annotated[str, typer.Option(
        help="Language of the error messages: en (default), de or ru.")] = "en",
) -> None:
    """Validate a rule file: unknown names, wrong types, reads before writes, unreachable
    abilities, trigger cycles, missing texts in a declared language. Exit 0: valid;
    1: the bot games found a crash or a game that never ends; 2: the file is invalid."""
    from nightfall.engine.text import render
    from nightfall.i18n import SUPPORTED_LOCALES, gettext_for
    from nightfall.rulefile.load import RuleFileError
    from nightfall.rulefile.messages import checker_text
    from nightfall.rulefile.ruleset import load_rules

    if locale not in SUPPORTED_LOCALES:
        raise typer.BadParameter(f"choose one of {', '.join(SUPPORTED_LOCALES)}",
                                 param_hint="--locale")
    gettext = gettext_for(locale)

    def said(message: str) -> str:
        """The checker's English sentence, in ``--locale`` (rulefile/messages.py)."""
        return message if locale == "en" else render(checker_text(message), gettext)

    out = Console(soft_wrap=True, highlight=False)
    try:
        rules = load_rules(file)
    except RuleFileError as error:
        if as_json:
            print(json.dumps({"ok": False, "errors": [
                {"key": p.key, "line": p.line, "message": said(p.message)}
                for p in error.problems]}, ensure_ascii=False))
        else:
            err = Console(stderr=True, soft_wrap=True, highlight=False)
            for problem in error.problems:
                line = f":{problem.line}" if problem.line else ""
                err.print(f"{file}{line}: key '{problem.key}': {said(problem.message)}",
                          markup=False)
            err.print(f"{len(error.problems)} error(s)", markup=False)
        raise typer.Exit(2) from None
    file_model = rules.file
    summary: dict[str, Any] = {
        "ok": True, "id": rules.id, "format": file_model.format, "sha256": rules.source.sha256,
        "roles": len(file_model.roles), "abilities": len(file_model.abilities),
        "stages": len(file_model.schedule.stages), "steps": len(file_model.steps),
        "procedures": len(file_model.procedures), "hooks": sorted(file_model.hooks),
        "texts": len(file_model.texts), "languages": list(file_model.languages),
    }
    worst = 0
    if games > 0:
        found = bot_run(rules, games, max_stages)
        summary["games"] = found
        worst = 1 if found["crashed"] or found["endless"] else 0
    if as_json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        out.print(f"{file}: valid {file_model.format} rule set '{rules.id}': "
                  f"{summary['roles']} roles, {summary['abilities']} abilities, "
                  f"{summary['stages']} stages, {summary['steps']} steps, "
                  f"{summary['procedures']} procedures, {len(file_model.hooks)} hooks; "
                  f"sha256 {rules.source.sha256[:16]}…", markup=False)
        if games > 0:
            result = summary["games"]
            out.print(f"bot games: {result['played']} played, {result['ended']} ended, "
                      f"{len(result['crashed'])} crashed, {len(result['endless'])} never "
                      f"ended", markup=False)
            for seed, players, problem in result["crashed"][:10]:
                out.print(f"  seed {seed}, {players} players: {problem}", markup=False)
            for seed, players in result["endless"][:10]:
                out.print(f"  seed {seed}, {players} players: still running after "
                          f"{max_stages} stages", markup=False)
    raise typer.Exit(worst)


def bot_run(rules: Any, games: int, max_stages: int) -> dict[str, Any]:
    """Play ``games`` seeded games of random bots, deals by the file's ``deal`` over its
    player range (or its presets); report crashes and games that never end."""
    from nightfall.rulefile.ruleset import register
    from nightfall.sim.play import UNFINISHED, play_game
    from nightfall.sim.setup import Setup

    register(rules)
    deals: list[tuple[str, ...]] = []
    deal = rules.file.deal
    if deal is not None:
        deals = [rules.roles_for(n) for n in range(deal.min_players, deal.max_players + 1)]
    deals += [tuple(p.roles) for p in rules.presets().values()]
    crashed: list[tuple[int, int, str]] = []
    endless: list[tuple[int, int]] = []
    ended = 0
    for seed in range(games):
        roles = deals[seed % len(deals)] if deals else ()
        try:
            result = play_game(Setup("check", rules.id, roles), seed, "random",
                               max_stages=max_stages)
        except Exception as error:  # a crash is what the run looks for
            crashed.append((seed, len(roles), f"{type(error).__name__}: {error}"))
            continue
        if result.winner == UNFINISHED:
            endless.append((seed, len(roles)))
        else:
            ended += 1
    return {"played": games, "ended": ended, "crashed": crashed, "endless": endless}

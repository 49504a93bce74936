"""``nightfall simulate``: bots play a setup many times; balance report (issue 7).
``nightfall sweep``: one setup parameter over a list of values (issue 8). Both run on this
machine's cores or on a Dask cluster (``--backend dask``) with the same results.

``--locale de|en|ru`` (as for ``nightfall demo`` and ``nightfall game``) sets the language
of the errors and of the report's headings and labels; JSON keys and the ids of roles,
factions and causes stay as they are (a data contract, and what setup files take). A bad
input exits 2 with ``error: …`` in that language, a cluster that cannot be used exits 1.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from nightfall.engine.text import N_
from nightfall.i18n import SUPPORTED_LOCALES, gettext_for

if TYPE_CHECKING:
    from nightfall.sim.backends import Backend
    from nightfall.sim.errors import SimError

EXIT_FAILED, EXIT_USAGE = 1, 2

_BACKEND_HELP = ("Where the games are played: local (worker processes here) or dask (a Dask "
                 "cluster: --cluster ADDRESS, or a local cluster of --jobs workers). The same "
                 "seed gives the same report on either.")
_CLUSTER_HELP = "Address of a Dask scheduler, e.g. tcp://host:8786 (with --backend dask)."
_LOCALE_HELP = "Language of the messages and the report's headings: de, en or ru."
_BUILD_HELP = ("Which engine plays: auto (the compiled build of scripts/build_compiled.sh "
               "when it is there and matches the sources, else the interpreted one), "
               "compiled or interpreted. Same results either way.")
_BUILDS = ("auto", "compiled", "interpreted")


def _report_console() -> Console:
    """Where the report's tables go: as wide as the terminal, and 160 columns when the
    output is a file or a pipe (Rich's 80 would cut the columns of a comparison)."""
    console = Console(highlight=False)
    return console if console.is_terminal else Console(highlight=False, width=160)


def _check_locale(locale: str) -> None:
    """Before anything else: every later message is in this language."""
    if locale not in SUPPORTED_LOCALES:
        raise typer.BadParameter(f"choose one of {', '.join(SUPPORTED_LOCALES)}",
                                 param_hint="--locale")


def _fail(message: str, locale: str, option: str | None = None,
          code: int = EXIT_USAGE) -> NoReturn:
    """``error: [--option: ]message`` on stderr in ``locale``, then exit ``code``."""
    errors = Console(stderr=True, soft_wrap=True, highlight=False)
    prefix = _say(N_("error:"), locale)
    where = f"{option}: " if option else ""
    errors.print(f"[red]{escape(prefix)}[/red] {escape(where + message)}")
    raise typer.Exit(code)


def _say(msgid: str, locale: str, **params: object) -> str:
    """``msgid`` (marked with ``N_``) in ``locale``, its ``{placeholders}`` filled."""
    return gettext_for(locale)(msgid).format(**params)


def _refuse(error: SimError, locale: str, option: str | None = None) -> NoReturn:
    _fail(error.localized(locale), locale, option)


def _parse_bots(spec: str, locale: str) -> dict[str, str]:
    """``--bots``, or exit 2 saying why in the user's language."""
    from nightfall.sim.botspec import BotSpecError, parse_bots

    try:
        return parse_bots(spec)
    except BotSpecError as error:
        _refuse(error, locale, "--bots")


def simulate(
    ruleset: Annotated[str, typer.Option(help="Rule set: changelings or island.")
                       ] = "changelings",
    rules: Annotated[Path | None, typer.Option(
        "--rules", help="A rule file (docs/rules-format.md) to play instead of --ruleset; "
                        "its first preset unless --preset or --setup says otherwise.")] = None,
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
    backend: Annotated[str, typer.Option(help=_BACKEND_HELP)] = "local",
    cluster: Annotated[str | None, typer.Option(help=_CLUSTER_HELP)] = None,
    locale: Annotated[str, typer.Option(help=_LOCALE_HELP)] = "en",
    build: Annotated[str, typer.Option(help=_BUILD_HELP)] = "auto",
) -> None:
    """Let bots play a setup many times and report win rates (95% Wilson intervals),
    survival per role, game lengths, causes of departure and the effect of each role."""
    from nightfall.sim.report import ablation_setups, build_report, print_report
    from nightfall.sim.rulefiles import with_rule_file
    from nightfall.sim.runner import default_jobs, run_setups
    from nightfall.sim.setup import Setup, SetupError, load_setup, preset_ids, preset_setup

    _check_locale(locale)
    _check_backend(backend, cluster, locale)
    # a rule file plays on either build: its interpreter (rulefile/) is in the compiled
    # build too (scripts/build_compiled.sh), so the same file gives the same report
    ran = _choose_build(build, locale, quiet)

    console = _report_console()
    kinds = _parse_bots(bots, locale)
    first_preset = _first_preset(ruleset)
    rule_file = None
    if rules is not None:
        rule_file = _rule_file(rules, locale)
        ruleset, first_preset = rule_file[0].id, rule_file[2]
    try:
        setups: list[Setup] = []
        comparison: tuple[int, int] | None = None
        if compare is not None:
            setups += [load_setup(compare[0]), load_setup(compare[1])]
            comparison = (0, 1)
        setups += [load_setup(path) for path in setup or ()]
        wanted = list(preset or ())
        if not setups and not wanted:
            wanted = [first_preset]
        for name in wanted:
            if rules is not None:
                setups += _file_setups(ruleset, name, locale)
                continue
            names = preset_ids(ruleset) if name == "all" else [name]
            setups += [preset_setup(ruleset, n) for n in names]
    except SetupError as error:
        _refuse(error, locale)
    if rule_file is not None:  # every setup of the file's variant carries the file
        setups = with_rule_file(setups, rule_file[0], rule_file[1])
    if ablate and len(setups) != 1:
        _fail(_say(N_("--ablate needs exactly one setup"), locale), locale, "--ablate")
    jobs = jobs or default_jobs()
    progress = not quiet
    err = Console(stderr=True)
    ablation = None
    with _open_backend(backend, cluster, jobs, locale) as engine:
        runs = run_setups(setups, games, kinds, seed, jobs, max_stages=max_stages,
                          progress=progress, console=err, backend=engine)
        if ablate:
            variants = ablation_setups(setups[0])
            played = run_setups(list(variants.values()), games, kinds, seed, jobs,
                                max_stages=max_stages, progress=progress, console=err,
                                backend=engine)
            ablation = dict(zip(variants, played, strict=True))
    command = _command(ruleset, preset, setup, compare, games, bots, seed, ablate, max_stages,
                       rules)
    report = build_report(runs, games=games, seed=seed, bots=kinds, command=command,
                          comparison=comparison, ablation=ablation, max_stages=max_stages)
    report["timing"].update(_describe(engine))
    report["timing"]["build"] = ran
    if not quiet:
        print_report(report, console, locale)
    if json_file is not None:
        json_file.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n",
                             encoding="utf-8")
    if markdown_file is not None:
        from nightfall.sim.report import markdown_report

        markdown_file.write_text(markdown_report(report, locale=locale), encoding="utf-8")
    if html_file is not None:
        from nightfall.sim.html import render_html

        html_file.write_text(render_html(report, locale), encoding="utf-8")


def _first_preset(ruleset: str) -> str:
    """The preset played when none is named: Island's original setup, else a rule file's
    first preset (Changelings' is its original 15, canterlot-15, C16.3)."""
    if ruleset == "island":
        return "island-12"
    from nightfall.rulefile.ruleset import registered

    found = registered(ruleset)
    return next(iter(found.presets()), "") if found is not None else ""


def _rule_file(path: Path, locale: str) -> tuple[Any, Any, str]:
    """``--rules``: the file checked (exit 2 with its first error by key and line) and
    known by its id in this process; its rule set, the reference every work unit of its
    setups carries (so spawned and Dask workers play it too: ``sim/rulefiles.py``), and
    its first preset."""
    from nightfall.rulefile.load import RuleFileError
    from nightfall.rulefile.ruleset import load_rules
    from nightfall.sim.rulefiles import RuleFileRef, remember

    try:
        loaded = load_rules(path)
    except RuleFileError as error:
        _fail(f"{path}: {error.problems[0]}", locale, "--rules")
    remember(loaded)
    presets = list(loaded.presets())
    if not presets:
        _fail(f"{path}: the rule file has no preset; give --setup", locale, "--rules")
    return loaded, RuleFileRef.of(loaded, str(path)), presets[0]


def _file_setups(ruleset: str, name: str, locale: str) -> list[Any]:
    """The setups of a registered rule file's preset ``name`` (``all``: every preset)."""
    from nightfall.rulesets import get_ruleset
    from nightfall.sim.setup import Setup

    presets = get_ruleset(ruleset).presets()
    names = list(presets) if name == "all" else [name]
    for wanted in names:
        if wanted not in presets:
            _fail(f"{ruleset} has no preset {wanted!r} (known: {', '.join(presets)})", locale,
                  "--preset")
    return [Setup(n, ruleset, tuple(presets[n].roles), dict(presets[n].options), n)
            for n in names]


def _command(ruleset: str, preset: list[str] | None, setup: list[Path] | None,
             compare: tuple[Path, Path] | None, games: int, bots: str, seed: int,
             ablate: bool, max_stages: int, rules: Path | None = None) -> str:
    """The command line that reproduces the report (any --jobs or --backend gives the
    same); a rule file's run names the file (``--rules FILE``), not the id inside it."""
    words = ["nightfall", "simulate"]
    words += ["--rules", str(rules)] if rules is not None else ["--ruleset", ruleset]
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


# -- the build ----------------------------------------------------------------------------
def _choose_build(build: str, locale: str, quiet: bool) -> str:
    """The engine build this run plays with (``compiled`` or ``interpreted``), said on
    stderr. With ``auto`` or ``compiled``, a usable compiled build starts this command
    again on it (``nightfall.sim.build``); that needs the command to be this process's
    own command line, not a call from inside another program (a test's runner)."""
    from nightfall.sim import build as builds

    if build not in _BUILDS:
        _fail(_say(N_("choose one of {choices}"), locale, choices=", ".join(_BUILDS)),
              locale, "--build")
    say = Console(stderr=True, highlight=False, soft_wrap=True)
    if builds.running_compiled():
        if not quiet:
            say.print(escape(_say(N_("Build: compiled (mypyc)."), locale)))
        return "compiled"
    found = builds.find_compiled() if build != "interpreted" else None
    own_command = sys.argv[1:2] == ["simulate"] and not os.environ.get(builds.COMPILED_ENV)
    if found is not None and found.usable and own_command:
        builds.reexec_compiled(found, sys.argv[1:])
    if build == "compiled":
        _fail(_say(N_("no compiled build that matches the sources here: run "
                      "scripts/build_compiled.sh"), locale), locale, "--build")
    if not quiet:
        if build == "interpreted":
            message = _say(N_("Build: interpreted (as asked)."), locale)
        elif found is not None and found.present and found.stale:
            message = _say(N_("Build: interpreted; the compiled build in {path} does not "
                              "match the sources ({modules}): run scripts/build_compiled.sh "
                              "again."), locale, path=found.path,
                           modules=", ".join(found.stale[:3]))
        else:
            message = _say(N_("Build: interpreted; the compiled build "
                              "(scripts/build_compiled.sh) plays about twice as fast."),
                           locale)
        say.print(escape(message))
    return "interpreted"


# -- backends -----------------------------------------------------------------------------
def _check_backend(backend: str, cluster: str | None, locale: str) -> None:
    """Usage errors first, before any game is played (exit 2)."""
    from nightfall.sim.backends import BACKENDS

    if backend not in BACKENDS:
        _fail(_say(N_("choose one of {choices}"), locale, choices=", ".join(BACKENDS)),
              locale, "--backend")
    if cluster is not None and backend != "dask":
        _fail(_say(N_("a cluster address needs --backend dask"), locale), locale,
              "--cluster")


def _open_backend(backend: str, cluster: str | None, jobs: int, locale: str) -> Backend:
    """The backend, opened (a Dask cluster reached or started); exit 1 with the reason if
    it cannot be (an address may hold [brackets], IPv6: the message is escaped)."""
    from nightfall.sim.backends import BackendError, make_backend

    try:
        engine = make_backend(backend, jobs, cluster)
        engine.open()
    except BackendError as error:
        _fail(error.localized(locale), locale, code=EXIT_FAILED)
    return engine


def _describe(engine: Backend) -> dict[str, object]:
    from nightfall.sim.backends import describe

    return describe(engine)


# -- nightfall sweep ----------------------------------------------------------------------
def sweep(
    vary: Annotated[str, typer.Option(
        help="The parameter and its values: changelings=2,3,4 (a faction's seats; "
             "evil=… for the rule set's main evil faction), shield=0,1,2 (a role's "
             "copies), role=shield:with,without, option=NAME:true,false, "
             "preset=village-8,town-12 or players=8,12,16. See docs/balance.md.")],
    ruleset: Annotated[str | None, typer.Option(
        help="Rule set: changelings or island (default: the setup file's, else "
             "changelings).")] = None,
    rules: Annotated[Path | None, typer.Option(
        "--rules", help="A rule file (docs/rules-format.md) to vary instead of --ruleset; "
                        "its first preset unless --preset or --setup says otherwise.")
    ] = None,
    preset: Annotated[str | None, typer.Option(
        help="The base setup that the variation changes (default: canterlot-15 for "
             "changelings, island-12 for island).")] = None,
    setup: Annotated[Path | None, typer.Option(
        help="A setup file (YAML) as the base setup instead of a preset.")] = None,
    games: Annotated[int, typer.Option(min=1, help="Games per variant.")] = 500,
    bots: Annotated[str, typer.Option(help="random or heuristic, or per faction as for "
                                           "simulate.")] = "heuristic",
    jobs: Annotated[int | None, typer.Option(min=1, help="Worker processes or local "
                                                         "cluster workers (default: the "
                                                         "number of cores).")] = None,
    seed: Annotated[int, typer.Option(help="Master seed: every variant plays game i with "
                                           "the same seed.")] = 1,
    backend: Annotated[str, typer.Option(help=_BACKEND_HELP)] = "local",
    cluster: Annotated[str | None, typer.Option(help=_CLUSTER_HELP)] = None,
    max_stages: Annotated[int, typer.Option(min=1, help="Stop a game after this many "
                                                        "stages (counted unfinished).")] = 400,
    out: Annotated[Path | None, typer.Option(
        help="Write sweep.json, sweep.md and the plot (sweep.png or .svg) into this "
             "folder.")] = None,
    plot_format: Annotated[str, typer.Option(help="png or svg.")] = "png",
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar, no table.")
                     ] = False,
    locale: Annotated[str, typer.Option(help=_LOCALE_HELP)] = "en",
) -> None:
    """Vary one setup parameter over a list of values and report each faction's win rate
    per variant (95% Wilson intervals) as a table, JSON and one plot."""
    from nightfall.rulefile.ruleset import registered
    from nightfall.rulesets import RULESET_IDS
    from nightfall.sim.rulefiles import with_rule_file
    from nightfall.sim.runner import default_jobs, run_setups
    from nightfall.sim.setup import Setup, SetupError, load_setup, preset_setup
    from nightfall.sim.sweep import (
        PLOT_FORMATS,
        VaryError,
        build_sweep,
        markdown_sweep,
        parse_vary,
        plot_sweep,
        print_sweep,
        variants,
    )

    _check_locale(locale)
    _check_backend(backend, cluster, locale)
    if plot_format not in PLOT_FORMATS:
        _fail(_say(N_("choose one of {choices}"), locale, choices=", ".join(PLOT_FORMATS)),
              locale, "--plot-format")
    if preset is not None and setup is not None:
        _fail(_say(N_("give --preset or --setup, not both"), locale), locale, "--setup")
    try:
        variation = parse_vary(vary)
    except VaryError as error:
        _refuse(error, locale, "--vary")
    kinds = _parse_bots(bots, locale)
    rule_file = _rule_file(rules, locale) if rules is not None else None
    try:
        base: Setup | None = load_setup(setup) if setup is not None else None
        ruleset_id = (rule_file[0].id if rule_file is not None else ruleset) or (
            base.ruleset if base is not None else "changelings")
        if ruleset_id not in RULESET_IDS and registered(ruleset_id) is None:
            raise SetupError(N_("unknown rule set {ruleset} (known: {known})"),
                             ruleset=repr(ruleset_id), known=", ".join(RULESET_IDS))
        if base is None and variation.key not in ("preset", "players"):
            base = preset_setup(ruleset_id, preset or _first_preset(ruleset_id))
        elif variation.key in ("preset", "players") and (preset or setup):
            raise VaryError(N_("{spec} makes every setup itself; leave out --preset and "
                               "--setup"), spec=repr(variation.spec))
        setups = variants(variation, ruleset_id, base)
        if rule_file is not None:  # every variant carries the file to its workers
            setups = with_rule_file(setups, rule_file[0], rule_file[1])
            base = with_rule_file([base], *rule_file[:2])[0] if base is not None else None
    except VaryError as error:
        _refuse(error, locale, "--vary")
    except SetupError as error:
        _refuse(error, locale)
    jobs = jobs or default_jobs()
    with _open_backend(backend, cluster, jobs, locale) as engine:
        runs = run_setups(setups, games, kinds, seed, jobs, max_stages=max_stages,
                          progress=not quiet, console=Console(stderr=True), backend=engine)
    words = ["nightfall", "sweep", "--vary", vary]
    words += ["--rules", str(rules)] if rules is not None else ["--ruleset", ruleset_id]
    if preset is not None:
        words += ["--preset", preset]
    if setup is not None:
        words += ["--setup", str(setup)]
    words += ["--games", str(games), "--bots", bots, "--seed", str(seed)]
    if max_stages != 400:
        words += ["--max-stages", str(max_stages)]
    report = build_sweep(variation, variation.values, runs, ruleset=ruleset_id, games=games,
                         seed=seed, bots=kinds, base=base, command=shlex.join(words),
                         max_stages=max_stages)
    report["timing"].update(_describe(engine))
    if not quiet:
        print_sweep(report, _report_console(), locale)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        plot = plot_sweep(report, out / f"sweep.{plot_format}", locale=locale)
        (out / "sweep.json").write_text(json.dumps(report, indent=1, ensure_ascii=False)
                                        + "\n", encoding="utf-8")
        (out / "sweep.md").write_text(markdown_sweep(report, plot.name, locale),
                                      encoding="utf-8")
        if not quiet:
            files = f"{out / 'sweep.json'}, {out / 'sweep.md'}, {plot}"
            Console(stderr=True, highlight=False).print(
                _say(N_("wrote {files}"), locale, files=files), markup=False)

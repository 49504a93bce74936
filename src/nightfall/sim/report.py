"""Reports: the data (JSON-ready dicts) and their terminal rendering (Rich tables).

``build_report`` turns the tallies of a run into one dict: per setup the win rate of each
faction with its 95% Wilson interval, survival and win rate per role, the distribution of
game lengths, the causes of departure; across setups the effect of each role (the win
rate of its faction in games with the role against games without it); for two setups
side by side (``--compare``) the differences with Newcombe's interval.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from rich.console import Console, JustifyMethod
from rich.markup import escape
from rich.table import Table

from nightfall.engine.text import N_, Term, TermNames
from nightfall.i18n import gettext_for
from nightfall.rulesets import get_ruleset
from nightfall.sim.play import UNFINISHED
from nightfall.sim.runner import SetupRun
from nightfall.sim.setup import Setup
from nightfall.sim.stats import difference_interval, distribution_summary, wilson_interval
from nightfall.sim.tally import Tally

FORMAT = 1
Gettext = Callable[[str], str]


PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def _ranked(counts: Mapping[str, int]) -> dict[str, int]:
    """Most frequent first, ties by name: the same order however the counts were merged
    (``Counter.most_common`` keeps insertion order among ties, which depends on the order
    in which the workers finished)."""
    return dict(sorted(counts.items(), key=lambda item: (-item[1], str(item[0]))))


def _rate(successes: int, trials: int) -> dict[str, Any]:
    low, high = wilson_interval(successes, trials)
    return {"count": successes, "of": trials, "rate": successes / trials if trials else 0.0,
            "ci95": [low, high]}


def factions_of(setup: Setup) -> list[str]:
    return list(get_ruleset(setup.ruleset).factions)


def setup_report(run: SetupRun) -> dict[str, Any]:
    setup, tally = run.setup, run.tally
    ruleset = get_ruleset(setup.ruleset)
    games = tally.games
    outcomes = [f for f in ruleset.factions if tally.wins.get(f) or f in
                {ruleset.faction_of(r) for r in setup.roles}]
    outcomes += sorted(f for f in tally.wins if f not in outcomes)
    factions = [{"faction": f, **_rate(tally.wins.get(f, 0), games)} for f in outcomes]
    roles = []
    for role in sorted(tally.role_players, key=lambda r: (_order(ruleset, r), r)):
        seats = tally.role_players[role]
        roles.append({
            "role": role, "faction": ruleset.faction_of(role), "seats": seats,
            "per_game": seats / games if games else 0.0,
            "survival": _rate(tally.role_survived[role], seats),
            "won": _rate(tally.role_won[role], seats),
        })
    departures = sum(tally.causes.values())
    causes = []
    for cause, count in _ranked(tally.causes).items():
        by_role = _ranked({key.split("|", 1)[1]: n for key, n in tally.cause_role.items()
                           if key.split("|", 1)[0] == cause})
        by_phase = dict(sorted((key.split("|", 1)[1], n) for key, n in
                               tally.cause_phase.items() if key.split("|", 1)[0] == cause))
        causes.append({
            "cause": cause, "count": count, "share": count / departures if departures else 0.0,
            "per_game": count / games if games else 0.0, "by_phase": by_phase,
            "roles": by_role,
        })
    return {
        "setup": setup.describe(),
        "games": games,
        "unfinished": tally.wins.get(UNFINISHED, 0),
        "factions": factions,
        "roles": roles,
        "length": {
            "unit": "number of the day or night the game ended in",
            "histogram": {str(k): tally.length[k] for k in sorted(tally.length)},
            "summary": distribution_summary(tally.length),
            "ended_in": dict(sorted(tally.ended_in.items())),
        },
        "departures": {
            "total": departures, "per_game": departures / games if games else 0.0,
            "causes": causes, "first": _ranked(tally.first_departure),
        },
        "play": {
            "stages_per_game": tally.stages / games if games else 0.0,
            "commands_per_game": tally.commands / games if games else 0.0,
            "rejected": tally.rejected,
            "rejections": _ranked(tally.rejections),
        },
        "tally": tally.to_data(),
    }


def _order(ruleset: Any, role: str) -> int:
    roles = list(ruleset.roles)
    return roles.index(role) if role in roles else len(roles)


def role_effects(runs: Sequence[SetupRun]) -> list[dict[str, Any]]:
    """Per role: its faction's win rate in the games whose setup has the role, against
    the games whose setup has not (pooled over the setups of the run; one rule set)."""
    if len({run.setup.ruleset for run in runs}) != 1 or len(runs) < 2:
        return []
    ruleset = get_ruleset(runs[0].setup.ruleset)
    every = sorted({role for run in runs for role in run.setup.roles},
                   key=lambda r: (_order(ruleset, r), r))
    effects = []
    for role in every:
        faction = ruleset.faction_of(role) or ""
        having = [run for run in runs if role in run.setup.roles]
        lacking = [run for run in runs if role not in run.setup.roles]
        if not lacking:
            continue
        wins_with = sum(run.tally.wins.get(faction, 0) for run in having)
        games_with = sum(run.tally.games for run in having)
        wins_without = sum(run.tally.wins.get(faction, 0) for run in lacking)
        games_without = sum(run.tally.games for run in lacking)
        diff, low, high = difference_interval(wins_with, games_with, wins_without,
                                              games_without)
        effects.append({
            "role": role, "faction": faction,
            "with": {**_rate(wins_with, games_with),
                     "setups": [run.setup.name for run in having]},
            "without": {**_rate(wins_without, games_without),
                        "setups": [run.setup.name for run in lacking]},
            "difference": diff, "difference_ci95": [low, high],
        })
    return effects


def ablation_effects(base: SetupRun, variants: Mapping[str, SetupRun]) -> list[dict[str, Any]]:
    """Per role: the base setup against the same setup with one copy of the role replaced
    by its faction's plain role (``variants``: role -> run)."""
    ruleset = get_ruleset(base.setup.ruleset)
    effects = []
    for role, run in variants.items():
        faction = ruleset.faction_of(role) or ""
        w, n = base.tally.wins.get(faction, 0), base.tally.games
        w2, n2 = run.tally.wins.get(faction, 0), run.tally.games
        diff, low, high = difference_interval(w, n, w2, n2)
        effects.append({
            "role": role, "faction": faction,
            "with": {**_rate(w, n), "setups": [base.setup.name]},
            "without": {**_rate(w2, n2), "setups": [run.setup.name]},
            "difference": diff, "difference_ci95": [low, high],
        })
    return effects


def compare(a: SetupRun, b: SetupRun) -> dict[str, Any]:
    """Two setups side by side: each faction's win rate and the difference (A − B)."""
    factions: list[str] = []
    for run in (a, b):
        for faction in (*factions_of(run.setup), *sorted(run.tally.wins)):
            if faction not in factions and (a.tally.wins.get(faction) or b.tally.wins.get(
                    faction)):
                factions.append(faction)
    rows = []
    for faction in factions:
        wa, wb = a.tally.wins.get(faction, 0), b.tally.wins.get(faction, 0)
        diff, low, high = difference_interval(wa, a.tally.games, wb, b.tally.games)
        rows.append({"faction": faction, "a": _rate(wa, a.tally.games),
                     "b": _rate(wb, b.tally.games), "difference": diff,
                     "difference_ci95": [low, high]})
    return {"a": a.setup.name, "b": b.setup.name, "factions": rows,
            "length": {"a": distribution_summary(a.tally.length),
                       "b": distribution_summary(b.tally.length)}}


def build_report(
    runs: Sequence[SetupRun],
    *,
    games: int,
    seed: int,
    bots: Mapping[str, str],
    command: str = "",
    comparison: tuple[int, int] | None = None,
    ablation: Mapping[str, SetupRun] | None = None,
    max_stages: int | None = None,
) -> dict[str, Any]:
    """The whole report of a run (deterministic for a seed, except ``timing``)."""
    report: dict[str, Any] = {
        "format": FORMAT,
        "command": command,
        "seed": seed,
        "games": games,
        "bots": dict(bots),
        "max_stages": max_stages,
        "setups": [setup_report(run) for run in runs],
        "role_effects": {
            "method": "ablation" if ablation else "across setups",
            "roles": ablation_effects(runs[0], ablation) if ablation else role_effects(runs),
        },
    }
    if comparison is not None:
        report["comparison"] = compare(runs[comparison[0]], runs[comparison[1]])
    cpu = sum(run.cpu_seconds for run in runs)
    played = sum(run.tally.games for run in (*runs, *(ablation or {}).values()))
    wall = sum(run.extra.get("wall_seconds", 0.0) for run in runs) + sum(
        run.extra.get("wall_seconds", 0.0) for run in (ablation or {}).values())
    report["timing"] = {
        "jobs": int(runs[0].extra.get("jobs", 1)) if runs else 1,
        "wall_seconds": wall,
        "cpu_seconds": cpu + sum(run.cpu_seconds for run in (ablation or {}).values()),
        "games_per_second": played / wall if wall else 0.0,
    }
    return report


def deterministic_part(report: Mapping[str, Any]) -> dict[str, Any]:
    """The report without its timing (what a seed fixes)."""
    return {key: value for key, value in report.items() if key != "timing"}


# -- terminal ---------------------------------------------------------------------------
#: how the role effects were measured (the JSON keeps the English words)
METHODS = {"ablation": N_("ablation"), "across setups": N_("across setups")}


def _pct(rate: Mapping[str, Any]) -> str:
    return f"{100 * rate['rate']:5.1f}%"


def _ci(rate: Mapping[str, Any]) -> str:
    low, high = rate["ci95"]
    return f"{100 * low:4.1f}–{100 * high:4.1f}%"


def _points(value: float) -> str:
    return f"{100 * value:+.1f} pt"


def _interval(values: Sequence[float], _: Gettext) -> str:
    low, high = values
    return _("{low} to {high}").format(low=f"{100 * low:+.1f}", high=f"{100 * high:+.1f}")


def _table(title: str, columns: Sequence[tuple[str, JustifyMethod]]) -> Table:
    """A table whose columns are (heading, justification)."""
    table = Table(title=title, title_justify="left")
    for heading, justify in columns:
        table.add_column(heading, justify=justify)
    return table


def _bots(report: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" if k != "*" else v for k, v in report["bots"].items())


def print_report(report: Mapping[str, Any], console: Console, locale: str = "en") -> None:
    """The report as Rich tables; headings and labels in ``locale`` (the ids of roles,
    factions and causes stay: they are what setup files and ``--vary`` take)."""
    _ = gettext_for(locale)
    line = _("{games} games per setup, bots {bots}, seed {seed}").format(
        games=report["games"], bots=_bots(report), seed=report["seed"])
    title = _("Nightfall simulation")
    console.print(f"[bold]{escape(title)}[/bold]: {escape(line)}")
    for entry in report["setups"]:
        with TermNames.scoped(term_scope(entry["setup"])):
            print_setup(entry, console, locale)
    effects = report.get("role_effects") or {}
    # the role effects compare the setups of one rule set: named as the first one's file
    scope = next((s for s in (term_scope(e["setup"]) for e in report["setups"]) if s), None)
    with TermNames.scoped(scope):
        if effects.get("roles"):
            print_role_effects(effects, console, locale)
    if "comparison" in report:
        print_comparison(report["comparison"], console, locale)
    timing = report.get("timing") or {}
    if timing:
        line = _("{seconds} s with {jobs} job(s), {rate} games/s").format(
            seconds=f"{timing['wall_seconds']:.1f}", jobs=timing["jobs"],
            rate=f"{timing['games_per_second']:.1f}")
        console.print(f"[dim]{escape(line)}[/dim]")


def term_scope(setup: Mapping[str, Any]) -> str | None:
    """The scope of term names of a described setup (``Setup.describe``): its rule file's
    (``rules:<sha256>``, as ``DataRuleset.term_scope``), so a report names the roles of a
    GM's file as the file titles them (issue 20); ``None``: the global table."""
    ref = setup.get("rule_file")
    return f"rules:{ref.removeprefix('sha256:')}" if isinstance(ref, str) else None


def named(domain: str, term_id: str | None, _: Callable[[str], str],
          with_id: bool = True) -> str:
    """A role's (faction's, cause's) name in the report's language — "Drama Queen
    (drama_queen)", not the bare id; the id stays beside it, as setup files and
    ``--vary`` take it (issue 18). An id no rule set names is shown as it is."""
    if not term_id:
        return ""
    msgid = TermNames.known(Term(domain, term_id))
    if msgid is None:
        return term_id
    name = _(msgid)
    return f"{name} ({term_id})" if with_id and name != term_id else name


def reason_text(msgid: str, _: Callable[[str], str]) -> str:
    """A rejection's reason in the report's language, its placeholders (which differ from
    command to command) shown as "…"."""
    return PLACEHOLDER.sub("…", _(msgid))


def print_setup(entry: Mapping[str, Any], console: Console, locale: str = "en") -> None:
    _ = gettext_for(locale)
    setup = entry["setup"]
    get_ruleset(setup["ruleset"])  # registers its term names
    roles = ", ".join(f"{n}× {named('role', r, _)}" if n > 1 else named("role", r, _)
                      for r, n in setup["roles"].items())
    console.rule(escape(_("{name} ({ruleset}, {players} players)").format(
        name=setup["name"], ruleset=setup["ruleset"], players=setup["players"])))
    console.print(_("roles: {roles}").format(roles=roles), highlight=False, markup=False)
    if setup["options"]:
        console.print(_("options: {options}").format(options=setup["options"]),
                      highlight=False, markup=False)
    table = _table(_("Win rate by faction"), [
        (_("faction"), "left"), (_("wins"), "right"), (_("rate"), "right"),
        (_("95% CI (Wilson)"), "right")])
    for row in entry["factions"]:
        table.add_row(named("faction", row["faction"], _), str(row["count"]),
                      _pct(row), _ci(row))
    console.print(table)
    table = _table(_("Roles"), [
        (_("role"), "left"), (_("faction"), "left"), (_("seats"), "right"),
        (_("survived"), "right"), (_("95% CI"), "right"), (_("won"), "right")])
    for row in entry["roles"]:
        table.add_row(named("role", row["role"], _), named("faction", row["faction"], _),
                      str(row["seats"]), _pct(row["survival"]), _ci(row["survival"]),
                      _pct(row["won"]))
    console.print(table)
    length = entry["length"]
    summary = length["summary"]
    text = _("(day/night number at the end): mean {mean}, median {median}, 10–90% {p10}–{p90}, "
             "range {low}–{high}; ended by {ended}").format(
        mean=f"{summary['mean']:.2f}", median=f"{summary['median']:.0f}",
        p10=f"{summary['p10']:.0f}", p90=f"{summary['p90']:.0f}",
        low=f"{summary['min']:.0f}", high=f"{summary['max']:.0f}",
        ended=", ".join(f"{k} {v}" for k, v in length["ended_in"].items()))
    title = _("Game length")
    console.print(f"[bold]{escape(title)}[/bold] {escape(text)}")
    top = max(length["histogram"].values(), default=1)
    for value, count in length["histogram"].items():
        bar = "█" * max(1, round(30 * count / top)) if count else ""
        console.print(f"  {value:>3} {bar} {count}", highlight=False)
    table = _table(_("Departures ({count} per game)").format(
        count=f"{entry['departures']['per_game']:.2f}"), [
        (_("cause"), "left"), (_("count"), "right"), (_("share"), "right"),
        (_("per game"), "right"), (_("by phase"), "left"), (_("most often"), "left")])
    for row in entry["departures"]["causes"]:
        phases = ", ".join(f"{k} {v}" for k, v in row["by_phase"].items())
        roles = ", ".join(f"{named('role', k, _, False)} {v}"
                          for k, v in list(row["roles"].items())[:3])
        table.add_row(named("cause", row["cause"], _, False), str(row["count"]),
                      f"{100 * row['share']:.1f}%",
                      f"{row['per_game']:.2f}", phases, roles)
    console.print(table)
    if entry["unfinished"]:
        text = _("{count} game(s) stopped unfinished").format(count=entry["unfinished"])
        console.print(f"[yellow]{escape(text)}[/yellow]")
    play = entry["play"]
    text = _("{stages} stages and {commands} commands per game; {rejected} bot commands "
             "rejected").format(stages=f"{play['stages_per_game']:.1f}",
                                commands=f"{play['commands_per_game']:.1f}",
                                rejected=play["rejected"])
    console.print(f"[dim]{escape(text)}[/dim]")
    reasons = play.get("rejections") or {}
    if reasons:
        title = _("Why bot commands were rejected")
        console.print(f"[dim]{escape(title)}:[/dim]")
        for msgid, count in reasons.items():
            console.print(f"[dim]  {count}× {escape(reason_text(msgid, _))}[/dim]",
                          highlight=False)


def print_role_effects(effects: Mapping[str, Any], console: Console,
                       locale: str = "en") -> None:
    _ = gettext_for(locale)
    method = _(METHODS.get(effects["method"], effects["method"]))
    table = _table(_("Effect of each role ({method}): its faction's win rate").format(
        method=method), [
        (_("role"), "left"), (_("faction"), "left"), (_("with"), "right"),
        (_("without"), "right"), (_("difference"), "right"), (_("95% CI"), "right")])
    for row in effects["roles"]:
        table.add_row(named("role", row["role"], _), named("faction", row["faction"], _),
                      _pct(row["with"]), _pct(row["without"]),
                      _points(row["difference"]), _interval(row["difference_ci95"], _))
    console.print(table)


def print_comparison(comparison: Mapping[str, Any], console: Console,
                     locale: str = "en") -> None:
    _ = gettext_for(locale)
    table = _table(f"A = {comparison['a']}  vs  B = {comparison['b']}", [
        (_("faction"), "left"), ("A", "right"), (_("A 95% CI"), "right"), ("B", "right"),
        (_("B 95% CI"), "right"), ("A − B", "right"), (_("95% CI"), "right")])
    for row in comparison["factions"]:
        table.add_row(row["faction"], _pct(row["a"]), _ci(row["a"]), _pct(row["b"]),
                      _ci(row["b"]), _points(row["difference"]),
                      _interval(row["difference_ci95"], _))
    console.print(table)
    la, lb = comparison["length"]["a"], comparison["length"]["b"]
    console.print(_("game length: A mean {a_mean} (median {a_median}), B mean {b_mean} "
                    "(median {b_median})").format(
        a_mean=f"{la['mean']:.2f}", a_median=f"{la['median']:.0f}",
        b_mean=f"{lb['mean']:.2f}", b_median=f"{lb['median']:.0f}"), markup=False)


def plain_role(setup: Setup, role: str) -> str | None:
    """The faction's plain role (not special) that replaces ``role`` in an ablation."""
    ruleset = get_ruleset(setup.ruleset)
    faction = ruleset.faction_of(role)
    for candidate in ruleset.roles.values():
        if candidate.faction == faction and not candidate.special and candidate.id != role:
            return str(candidate.id)
    return None


def ablation_setups(setup: Setup) -> dict[str, Setup]:
    """For each special role of ``setup``: the setup with one copy of it replaced by its
    faction's plain role (roles without a plain counterpart are left out)."""
    ruleset = get_ruleset(setup.ruleset)
    variants: dict[str, Setup] = {}
    for role in dict.fromkeys(setup.roles):
        if not ruleset.roles[role].special:
            continue
        plain = plain_role(setup, role)
        if plain is None:
            continue
        roles = list(setup.roles)
        roles[roles.index(role)] = plain
        # replace(): a rule file's variant keeps its file (sim/rulefiles.py)
        variants[role] = replace(setup, name=f"{setup.name} without {role}",
                                 roles=tuple(roles), options=dict(setup.options), preset=None)
    return variants


__all__ = ["Tally", "ablation_setups", "build_report", "deterministic_part", "print_report"]


# -- Markdown (docs/balance.md) -----------------------------------------------------------
def _md_table(head: Sequence[str], rows: Sequence[Sequence[Any]], right: int = 1) -> str:
    align = ["---" if i < right else "---:" for i in range(len(head))]
    lines = ["| " + " | ".join(head) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def markdown_report(report: Mapping[str, Any], heading: str = "###", locale: str = "en") -> str:
    """The report as Markdown sections (tables only; the plots are in the HTML), headings
    and labels in ``locale``."""
    _ = gettext_for(locale)
    out: list[str] = []
    for entry in report["setups"]:
        setup = entry["setup"]
        roles = ", ".join(f"{n}× {r}" if n > 1 else r for r, n in setup["roles"].items())
        out.append(heading + " " + _("{name} ({players} players)").format(
            name=setup["name"], players=setup["players"]) + "\n")
        if entry["unfinished"]:
            line = _("Roles: {roles}. {games} games, {unfinished} unfinished.")
        else:
            line = _("Roles: {roles}. {games} games.")
        out.append(line.format(roles=roles, games=entry["games"],
                               unfinished=entry["unfinished"]) + "\n")
        out.append(_md_table([_("faction"), _("wins"), _("win rate"), _("95% CI (Wilson)")], [
            [f["faction"], f["count"], _pct(f).strip(), _ci(f)] for f in entry["factions"]]))
        out.append("")
        out.append(_md_table([_("role"), _("faction"), _("seats"), _("survived"), _("95% CI"),
                              _("won")], [
            [r["role"], r["faction"] or "", r["seats"], _pct(r["survival"]).strip(),
             _ci(r["survival"]), _pct(r["won"]).strip()] for r in entry["roles"]], right=2))
        out.append("")
        s = entry["length"]["summary"]
        histogram = ", ".join(f"{k}: {v}" for k, v in entry["length"]["histogram"].items())
        ended = ", ".join(f"{k} {v}" for k, v in entry["length"]["ended_in"].items())
        out.append(_("Game length (the number of the day or night it ended in): mean {mean}, "
                     "median {median}, 10–90% {p10}–{p90}, range {low}–{high}; ended by "
                     "{ended}. Distribution: {histogram}.").format(
            mean=f"{s['mean']:.2f}", median=f"{s['median']:.0f}", p10=f"{s['p10']:.0f}",
            p90=f"{s['p90']:.0f}", low=f"{s['min']:.0f}", high=f"{s['max']:.0f}",
            ended=ended, histogram=histogram) + "\n")
        out.append(_md_table([_("cause of departure"), _("count"), _("share"), _("per game"),
                              _("roles most often")], [
            [c["cause"], c["count"], f"{100 * c['share']:.1f}%", f"{c['per_game']:.2f}",
             ", ".join(f"{k} {v}" for k, v in list(c["roles"].items())[:3])]
            for c in entry["departures"]["causes"]], right=1))
        out.append("")
    effects = report.get("role_effects") or {}
    if effects.get("roles"):
        method = _(METHODS.get(effects["method"], effects["method"]))
        out.append(heading + " " + _("Effect of each role ({method})").format(method=method)
                   + "\n")
        out.append(_("The win rate of the role's own faction in games whose setup has the role "
                     "against games whose setup has not (Newcombe 95% interval of the "
                     "difference).") + "\n")
        games = _("{rate} ({games} games)")
        out.append(_md_table([_("role"), _("faction"), _("with"), _("without"),
                              _("difference"), _("95% CI")], [
            [r["role"], r["faction"],
             games.format(rate=_pct(r["with"]).strip(), games=r["with"]["of"]),
             games.format(rate=_pct(r["without"]).strip(), games=r["without"]["of"]),
             _points(r["difference"]), _interval(r["difference_ci95"], _)]
            for r in effects["roles"]], right=2))
        out.append("")
    if "comparison" in report:
        comparison = report["comparison"]
        out.append(f"{heading} A = {comparison['a']} vs B = {comparison['b']}\n")
        out.append(_md_table([_("faction"), "A", "B", "A − B", _("95% CI")], [
            [r["faction"], f"{_pct(r['a']).strip()} ({_ci(r['a'])})",
             f"{_pct(r['b']).strip()} ({_ci(r['b'])})", _points(r["difference"]),
             _interval(r["difference_ci95"], _)]
            for r in comparison["factions"]]))
        out.append("")
    return "\n".join(out)

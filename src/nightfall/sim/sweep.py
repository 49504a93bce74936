"""Sweeps: one setup parameter over a list of values, one setup per value (a variant), each
played the same number of games with the same master seed; win rate per faction and
variant with its 95% Wilson interval, as a table, JSON and one plot.

A variation is written ``KEY=VALUES`` (``nightfall sweep --vary …``):

- ``preset=village-8,town-12``: the rule set's presets;
- ``players=8,12,16``: the rule set's default roles for each player count;
- ``FACTION=2,3,4`` (e.g. ``changelings=``, ``mafia=``) or ``evil=2,3,4``: the number of
  seats of that faction (``evil``: the largest faction other than the village that has a
  plain role), by putting in or taking out copies of its plain role in exchange for the
  village's plain role (pony, passenger); the player count stays;
- ``ROLE=0,1,2`` (e.g. ``shield=``, ``hamster=``): the number of copies of a role, in
  exchange for the village's plain role;
- ``role=ROLE:with,without``: the setup with the role, and with every copy of it replaced
  by the plain role of its faction (by the village's plain role where its faction has
  none), as ``--ablate`` does;
- ``option=NAME:true,false``: a rule-set option.

The village is the faction with the most seats in the base setup. Every variant of a sweep
plays game ``i`` with the same seed (common random numbers), which makes the differences
between variants less noisy than independent runs would.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from nightfall.engine.text import N_
from nightfall.i18n import gettext_for
from nightfall.rulesets import get_ruleset
from nightfall.sim.errors import SimError
from nightfall.sim.play import UNFINISHED
from nightfall.sim.runner import SetupRun
from nightfall.sim.setup import Setup, SetupError, preset_ids, preset_setup, setup_from_data
from nightfall.sim.stats import distribution_summary, wilson_interval

FORMAT = 1
PLOT_FORMATS = ("png", "svg")
_SPEC = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*=\s*(.*?)\s*$", re.DOTALL)


class VaryError(SimError, ValueError):
    """A ``--vary`` spec that cannot be turned into setups; ``reason`` says why in any
    language."""


@dataclass(frozen=True)
class Variation:
    """A parsed ``--vary`` spec."""

    spec: str
    key: str
    #: the role or option name of ``role=NAME:…`` and ``option=NAME:…``
    name: str | None
    values: tuple[str, ...]

    @property
    def label(self) -> str:
        """The plot's x axis."""
        if self.key == "role":
            return f"role {self.name}"
        if self.key == "option":
            return f"option {self.name}"
        if self.key in ("preset", "players"):
            return self.key
        return f"{self.key} (seats)"


def parse_vary(spec: str) -> Variation:
    """``KEY=V1,V2`` or ``role|option=NAME:V1,V2`` (see the module docstring)."""
    match = _SPEC.match(spec)
    if not match:
        raise VaryError(N_("{spec}: write KEY=VALUE1,VALUE2,… (e.g. changelings=2,3,4, "
                           "role=shield:with,without, preset=village-8,town-12)"),
                        spec=repr(spec))
    key, rest = match.group(1).lower(), match.group(2)
    name: str | None = None
    if key in ("role", "option"):
        if ":" not in rest:
            example = "role=shield:with,without" if key == "role" else \
                "option=first_day_banishment:true,false"
            raise VaryError(N_("{spec}: write {key}=NAME:VALUE1,VALUE2 (e.g. {example})"),
                            spec=repr(spec), key=key, example=example)
        name, rest = (part.strip() for part in rest.split(":", 1))
        if not name:
            raise VaryError(N_("{spec}: the name after {key}= is missing before ':'"),
                            spec=repr(spec), key=key)
    values = tuple(part.strip() for part in rest.split(","))
    if not rest or any(not value for value in values):
        raise VaryError(N_("{spec}: give a comma-separated list of values without empty "
                           "ones"), spec=repr(spec))
    duplicates = sorted({value for value in values if values.count(value) > 1})
    if duplicates:
        raise VaryError(N_("{spec}: value(s) given twice: {values}"), spec=repr(spec),
                        values=", ".join(duplicates))
    if len(values) < 2:
        raise VaryError(N_("{spec}: a sweep needs at least two values"), spec=repr(spec))
    return Variation(spec, key, name, values)


def variants(variation: Variation, ruleset_id: str, base: Setup | None) -> list[Setup]:
    """One setup per value of ``variation`` (``base``: the setup the others change; not
    used by ``preset=`` and ``players=``)."""
    try:
        ruleset = get_ruleset(ruleset_id)
    except KeyError as error:
        raise VaryError(N_("unknown rule set {ruleset}"), ruleset=repr(ruleset_id)) from error
    key = variation.key
    if key == "preset":
        known = preset_ids(ruleset_id)
        unknown = [value for value in variation.values if value not in known]
        if unknown:
            raise VaryError(N_("{ruleset} has no preset {preset} (known: {known})"),
                            ruleset=ruleset_id, preset=", ".join(unknown),
                            known=", ".join(known))
        return [preset_setup(ruleset_id, value) for value in variation.values]
    if key == "players":
        counts = [_count(variation, value, 1) for value in variation.values]
        return [_setup({"name": f"{n} players", "ruleset": ruleset_id, "players": n})
                for n in counts]
    if base is None:
        raise VaryError(N_("{spec} changes a base setup: give --preset or --setup"),
                        spec=repr(variation.spec))
    if base.ruleset != ruleset_id:
        raise VaryError(N_("the base setup is a {base} setup, not {ruleset}"),
                        base=base.ruleset, ruleset=ruleset_id)
    if key == "option":
        return _option_variants(variation, ruleset, base)
    if key == "role":
        return _role_variants(variation, ruleset, base)
    return _count_variants(variation, ruleset, base)


# -- building the variants ----------------------------------------------------------------
def _setup(data: Mapping[str, Any]) -> Setup:
    try:
        return setup_from_data(data)
    except SetupError as error:
        raise VaryError(N_("{name}: {error}"), name=str(data.get("name")),
                        error=error.reason) from error


def _with_roles(base: Setup, name: str, roles: Sequence[str],
                options: Mapping[str, Any] | None = None) -> Setup:
    return _setup({"name": name, "ruleset": base.ruleset, "roles": list(roles),
                   "options": dict(base.options if options is None else options)})


def _count(variation: Variation, value: str, least: int) -> int:
    try:
        number = int(value)
    except ValueError:
        number = -1
    if number < least:
        raise VaryError(N_("{spec}: {value} is not a whole number >= {least}"),
                        spec=repr(variation.spec), value=repr(value), least=least)
    return number


def _plain_role(ruleset: Any, faction: str) -> str | None:
    for role in ruleset.roles.values():
        if role.faction == faction and not role.special:
            return str(role.id)
    return None


def _village(ruleset: Any, base: Setup) -> tuple[str, str | None]:
    """The faction with the most seats in ``base`` and its plain role."""
    seats: dict[str, int] = {}
    for role in base.roles:
        faction = ruleset.faction_of(role)
        seats[faction] = seats.get(faction, 0) + 1
    order = list(ruleset.factions)
    faction = max(seats, key=lambda f: (seats[f], -order.index(f)))
    return faction, _plain_role(ruleset, faction)


def _evil(ruleset: Any, base: Setup, village: str) -> str:
    """The largest faction besides the village that has a plain role (changelings, mafia)."""
    candidates = [f for f in ruleset.factions
                  if f != village and _plain_role(ruleset, f) is not None]
    if not candidates:
        raise VaryError(N_("{ruleset} has no faction besides {village} with a plain role"),
                        ruleset=base.ruleset, village=village)
    seats = {f: sum(ruleset.faction_of(r) == f for r in base.roles) for f in candidates}
    return str(max(candidates, key=lambda f: (seats[f], -candidates.index(f))))


def _exchange(base: Setup, role: str, wanted: int, filler: str | None,
              what: str) -> list[str]:
    """``base``'s roles with ``wanted`` copies of ``role``, the difference taken from or
    given to ``filler`` (the village's plain role)."""
    roles = list(base.roles)
    have = roles.count(role)
    if filler is None:
        raise VaryError(N_("{setup}: the village has no plain role to exchange for {role}"),
                        setup=base.name, role=role)
    for _ in range(have - wanted):  # fewer: the role's seats go to the village
        roles[roles.index(role)] = filler
    for _ in range(wanted - have):
        if filler not in roles:
            raise VaryError(N_("{setup} has no {filler} left to turn into a {role} for "
                               "{what}; start from a setup with more of them (another "
                               "--preset or --setup)"),
                            setup=base.name, filler=filler, role=role, what=what)
        roles[len(roles) - 1 - roles[::-1].index(filler)] = role
    return roles


def _count_variants(variation: Variation, ruleset: Any, base: Setup) -> list[Setup]:
    key = variation.key
    village, filler = _village(ruleset, base)
    factions = list(ruleset.factions)
    if key == "evil":
        key = _evil(ruleset, base, village)
    if key in factions:
        if key == village:
            raise VaryError(N_("{spec}: {faction} is the village of {setup} (the faction "
                               "whose plain role fills the seats); vary another faction or "
                               "a role"),
                            spec=repr(variation.spec), faction=key, setup=base.name)
        plain = _plain_role(ruleset, key)
        if plain is None:
            raise VaryError(N_("{spec}: {faction} has no plain role to add or remove; vary "
                               "one of its roles instead (e.g. ROLE=0,1)"),
                            spec=repr(variation.spec), faction=key)
        fixed = sum(1 for role in base.roles if ruleset.faction_of(role) == key
                    and role != plain)
        out = []
        for value in variation.values:
            seats = _count(variation, value, 0)
            if seats < fixed:
                raise VaryError(N_("{spec}: {setup} has {fixed} {faction} seat(s) with "
                                   "special roles; {seats} is too few"),
                                spec=repr(variation.spec), setup=base.name, fixed=fixed,
                                faction=key, seats=seats)
            roles = _exchange(base, plain, seats - fixed, filler, f"{key}={seats}")
            out.append(_with_roles(base, f"{base.name}, {key}={seats}", roles))
        return out
    if key in ruleset.roles:
        if key == filler:
            raise VaryError(N_("{spec}: {role} is the plain role that fills the seats; vary "
                               "another role or a faction"),
                            spec=repr(variation.spec), role=key)
        out = []
        for value in variation.values:
            copies = _count(variation, value, 0)
            roles = _exchange(base, key, copies, filler, f"{key}={copies}")
            out.append(_with_roles(base, f"{base.name}, {key}={copies}", roles))
        return out
    seated = [f for f in factions if any(r.faction == f for r in ruleset.roles.values())]
    keys = ["preset", "players", "role", "option", "evil", *seated]
    raise VaryError(N_("{spec}: unknown parameter {key}; vary one of {keys} or a role of "
                       "{ruleset} ({roles})"),
                    spec=repr(variation.spec), key=repr(variation.key), keys=", ".join(keys),
                    ruleset=base.ruleset, roles=", ".join(ruleset.roles))


def _role_variants(variation: Variation, ruleset: Any, base: Setup) -> list[Setup]:
    role = str(variation.name)
    if role not in ruleset.roles:
        raise VaryError(N_("{spec}: {ruleset} has no role {role} (roles: {roles})"),
                        spec=repr(variation.spec), ruleset=base.ruleset, role=repr(role),
                        roles=", ".join(ruleset.roles))
    bad = [value for value in variation.values if value not in ("with", "without")]
    if bad:
        raise VaryError(N_("{spec}: the values of role= are with and without, not {bad}"),
                        spec=repr(variation.spec), bad=", ".join(bad))
    if not ruleset.roles[role].special:
        raise VaryError(N_("{spec}: {role} is a plain role, which no setup is with or "
                           "without; vary a special role, or the seats of a faction"),
                        spec=repr(variation.spec), role=role)
    _, filler = _village(ruleset, base)
    plain = _plain_role(ruleset, ruleset.faction_of(role))
    out = []
    for value in variation.values:
        roles = list(base.roles)
        if value == "with" and role not in roles:
            swap = plain if plain is not None and plain in roles else filler
            if swap is None or swap not in roles:
                raise VaryError(N_("{setup} has no plain role that {role} could replace"),
                                setup=base.name, role=role)
            roles[len(roles) - 1 - roles[::-1].index(swap)] = role
        if value == "without":
            swap = plain if plain is not None else filler
            if swap is None:
                raise VaryError(N_("{setup}: nothing can take the place of {role}"),
                                setup=base.name, role=role)
            roles = [swap if r == role else r for r in roles]
        out.append(_with_roles(base, f"{base.name} {value} {role}", roles))
    return out


def _option_variants(variation: Variation, ruleset: Any, base: Setup) -> list[Setup]:
    name = str(variation.name)
    defaults: Mapping[str, Any] = ruleset.default_options
    if name not in defaults:
        raise VaryError(N_("{spec}: {ruleset} has no option {option} (options: {options})"),
                        spec=repr(variation.spec), ruleset=base.ruleset, option=repr(name),
                        options=", ".join(defaults))
    default = defaults[name]
    out = []
    for text in variation.values:
        value: Any = text
        if not isinstance(default, str):
            try:
                value = yaml.safe_load(text)
            except yaml.YAMLError:
                value = None
            wanted = type(default)
            if type(value) is not wanted and not (wanted is float and type(value) is int):
                raise VaryError(N_("{spec}: {option} takes a {kind} (like {example}), not "
                                   "{value}"),
                                spec=repr(variation.spec), option=name, kind=wanted.__name__,
                                example=repr(default), value=repr(text))
        options = {**base.options, name: value}
        out.append(_with_roles(base, f"{base.name}, {name}={text}", base.roles, options))
    return out


# -- the report ---------------------------------------------------------------------------
def _rate(successes: int, trials: int) -> dict[str, Any]:
    low, high = wilson_interval(successes, trials)
    return {"count": successes, "of": trials, "rate": successes / trials if trials else 0.0,
            "ci95": [low, high]}


def sweep_factions(ruleset_id: str, runs: Sequence[SetupRun]) -> list[str]:
    """The factions to show: every faction that is seated or won somewhere in the sweep,
    in the rule set's order, then any other outcome (``unfinished``)."""
    ruleset = get_ruleset(ruleset_id)
    seated = {ruleset.faction_of(role) for run in runs for role in run.setup.roles}
    won = {faction for run in runs for faction, n in run.tally.wins.items() if n}
    shown = [f for f in ruleset.factions if f in seated or f in won]
    return shown + sorted(f for f in won if f not in shown)


def build_sweep(variation: Variation, values: Sequence[str], runs: Sequence[SetupRun], *,
                ruleset: str, games: int, seed: int, bots: Mapping[str, str],
                base: Setup | None = None, command: str = "",
                max_stages: int | None = None) -> dict[str, Any]:
    """The sweep as JSON-ready data (deterministic for a seed, except ``timing``)."""
    factions = sweep_factions(ruleset, runs)
    rows = []
    for value, run in zip(values, runs, strict=True):
        tally = run.tally
        rows.append({
            "value": value,
            "setup": run.setup.describe(),
            "games": tally.games,
            "unfinished": tally.wins.get(UNFINISHED, 0),
            "factions": [{"faction": f, **_rate(tally.wins.get(f, 0), tally.games)}
                         for f in factions],
            "length": distribution_summary(tally.length),
        })
    wall = sum(run.extra.get("wall_seconds", 0.0) for run in runs)
    played = sum(run.tally.games for run in runs)
    return {
        "format": FORMAT,
        "kind": "sweep",
        "command": command,
        "ruleset": ruleset,
        "seed": seed,
        "games": games,
        "bots": dict(bots),
        "max_stages": max_stages,
        "vary": {"spec": variation.spec, "key": variation.key, "name": variation.name,
                 "label": variation.label, "values": list(values)},
        "base": base.describe() if base is not None and variation.key not in (
            "preset", "players") else None,
        "factions": factions,
        "variants": rows,
        "timing": {
            "jobs": int(runs[0].extra.get("jobs", 1)) if runs else 1,
            "wall_seconds": wall,
            "cpu_seconds": sum(run.cpu_seconds for run in runs),
            "games_per_second": played / wall if wall else 0.0,
        },
    }


def _pct(rate: Mapping[str, Any]) -> str:
    return f"{100 * rate['rate']:.1f}%"


def _ci(rate: Mapping[str, Any]) -> str:
    low, high = rate["ci95"]
    return f"{100 * low:.1f}–{100 * high:.1f}"


def _roles(setup: Mapping[str, Any]) -> str:
    return ", ".join(f"{n}× {r}" if n > 1 else r for r, n in setup["roles"].items())


def vary_label(vary: Mapping[str, Any], locale: str = "en") -> str:
    """The plot's x axis in ``locale`` (the JSON keeps :attr:`Variation.label`, English)."""
    _ = gettext_for(locale)
    key, name = vary["key"], vary.get("name")
    if key == "role":
        return _("role {name}").format(name=name)
    if key == "option":
        return _("option {name}").format(name=name)
    if key == "preset":
        return _("preset")
    if key == "players":
        return _("players")
    return _("{key} (seats)").format(key=key)


def print_sweep(report: Mapping[str, Any], console: Console, locale: str = "en") -> None:
    """The sweep as one Rich table, headings and labels in ``locale``."""
    _ = gettext_for(locale)
    vary = report["vary"]
    bots = ", ".join(f"{k}={v}" if k != "*" else v for k, v in report["bots"].items())
    line = _("{games} games per variant, bots {bots}, seed {seed}").format(
        games=report["games"], bots=bots, seed=report["seed"])
    title = _("Nightfall sweep")
    console.print(f"[bold]{escape(title)}[/bold] {escape(vary['spec'])}: "
                  f"{escape(line)}")
    # one row per variant and faction: fits a terminal however many factions there are
    table = Table(title=_("Win rate by faction vs {label}").format(
        label=vary_label(vary, locale)), title_justify="left")
    table.add_column(vary["key"], justify="left")
    table.add_column(_("players"), justify="right")
    table.add_column(_("faction"), justify="left")
    for column in (_("wins"), _("rate"), _("95% CI (Wilson)"), _("length")):
        table.add_column(column, justify="right")
    for row in report["variants"]:
        for number, rate in enumerate(row["factions"]):
            first = number == 0
            table.add_row(row["value"] if first else "",
                          str(row["setup"]["players"]) if first else "", rate["faction"],
                          str(rate["count"]), _pct(rate), _ci(rate) + "%",
                          f"{row['length']['median']:.0f}" if first else "",
                          end_section=number == len(row["factions"]) - 1)
    console.print(table)
    note = _("length: the median number of the day or night a game ended in")
    console.print(f"[dim]{escape(note)}[/dim]")
    for row in report["variants"]:
        text = f"{row['value']}: {_roles(row['setup'])}"
        if row["unfinished"]:
            text += "; " + _("{count} unfinished").format(count=row["unfinished"])
        console.print(f"[dim]{escape(text)}[/dim]", highlight=False)
    timing = report.get("timing") or {}
    if timing:
        line = _("{seconds} s on {backend} with {workers} worker(s), {rate} games/s").format(
            seconds=f"{timing['wall_seconds']:.1f}", backend=timing.get("backend", "local"),
            workers=timing["jobs"], rate=f"{timing['games_per_second']:.1f}")
        console.print(f"[dim]{escape(line)}[/dim]")


def markdown_sweep(report: Mapping[str, Any], plot: str | None = None,
                   locale: str = "en") -> str:
    """The sweep's table as Markdown (for docs/balance.md), with the plot if given;
    headings in ``locale``."""
    _ = gettext_for(locale)
    vary = report["vary"]
    head = [vary["key"], _("players"),
            *(_("{faction} (95% CI)").format(faction=f) for f in report["factions"]),
            _("median length"), _("roles")]
    lines = ["| " + " | ".join(head) + " |",
             "| " + " | ".join(["---", *["---:"] * (len(head) - 2), "---"]) + " |"]
    for row in report["variants"]:
        cells = [f"{_pct(f)} ({_ci(f)})" for f in row["factions"]]
        lines.append("| " + " | ".join([
            row["value"], str(row["setup"]["players"]), *cells,
            f"{row['length']['median']:.0f}", _roles(row["setup"])]) + " |")
    text = (f"`{report['command']}`\n\n" if report.get("command") else "") + "\n".join(lines)
    if plot:
        alt = _("win rate by faction vs {label}").format(label=vary_label(vary, locale))
        text += f"\n\n![{alt}]({plot})"
    return text + "\n"


def plot_sweep(report: Mapping[str, Any], path: Path | str, fmt: str | None = None,
               locale: str = "en") -> Path:
    """One plot: each faction's win rate against the variant, with its 95% interval as
    error bars; PNG or SVG (from ``fmt`` or the file's suffix), labels in ``locale``. Same
    data, same bytes."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    _ = gettext_for(locale)
    path = Path(path)
    fmt = (fmt or path.suffix.lstrip(".") or "png").lower()
    if fmt not in PLOT_FORMATS:
        raise VaryError(N_("plot format {format}: choose one of {choices}"),
                        format=repr(fmt), choices=", ".join(PLOT_FORMATS))
    vary, rows, factions = report["vary"], report["variants"], report["factions"]
    label = vary_label(vary, locale)
    palette = ("#4c78a8", "#e45756", "#54a24b", "#b279a2", "#f58518", "#72b7b2", "#999999")
    with plt.rc_context({"svg.hashsalt": "nightfall-sweep", "svg.fonttype": "none"}):
        figure, axes = plt.subplots(figsize=(max(6.0, 1.1 * len(rows) + 3), 4.2))
        spread = 0.08 * (len(factions) - 1)
        for number, faction in enumerate(factions):
            rates = [row["factions"][number] for row in rows]
            if not any(r["count"] for r in rates):
                continue
            offset = (number * 0.08 - spread / 2) if len(factions) > 1 else 0.0
            xs = [index + offset for index in range(len(rows))]
            ys = [100 * r["rate"] for r in rates]
            below = [max(0.0, 100 * (r["rate"] - r["ci95"][0])) for r in rates]
            above = [max(0.0, 100 * (r["ci95"][1] - r["rate"])) for r in rates]
            axes.errorbar(xs, ys, yerr=[below, above], marker="o", capsize=4, linewidth=1.5,
                          color=palette[number % len(palette)], label=faction)
        axes.set_xticks(range(len(rows)), [row["value"] for row in rows])
        axes.set_xlabel(label)
        axes.set_ylabel(_("win rate (%)"))
        axes.set_ylim(-3, 103)  # points at 0% and 100% stay whole
        axes.set_yticks(range(0, 101, 20))
        axes.grid(axis="y", alpha=0.3)
        base = f"{report['base']['name']}, " if report.get("base") else ""
        title = _("Win rate by faction vs {label}").format(label=label)
        subtitle = _("{ruleset} rules, {games} games per variant, seed {seed}, 95% Wilson "
                     "intervals").format(ruleset=report["ruleset"], games=report["games"],
                                         seed=report["seed"])
        axes.set_title(f"{title}\n{base}{subtitle}", fontsize=10)
        axes.legend(loc="best", fontsize=9)
        figure.tight_layout()
        metadata: dict[str, Any] = {"Date": None} if fmt == "svg" else {}
        figure.savefig(path, format=fmt, dpi=100, metadata=metadata)
        plt.close(figure)
    return path


def deterministic_sweep(report: Mapping[str, Any]) -> dict[str, Any]:
    """The sweep without its timing (what a seed fixes)."""
    return {key: value for key, value in report.items() if key != "timing"}

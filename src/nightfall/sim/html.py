"""The HTML report: one self-contained page, tables plus plots (matplotlib, Agg backend,
embedded as PNG data URIs)."""

from __future__ import annotations

import base64
import io
from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from nightfall.i18n import gettext_for

Gettext = Callable[[str], str]

_STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem auto;
max-width:1100px;color:#222;padding:0 1rem}
h1{font-size:1.6rem}h2{border-bottom:2px solid #ccc;padding-bottom:.2rem;margin-top:2.5rem}
table{border-collapse:collapse;margin:.8rem 0}th,td{padding:.25rem .7rem;
border-bottom:1px solid #e4e4e4;text-align:right}th{background:#f4f4f4}
td:first-child,th:first-child{text-align:left}.plots img{max-width:100%;margin:.5rem 0}
.meta{color:#555}code{background:#f4f4f4;padding:0 .3rem}
"""


def _png(figure: Figure) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    plt.close(figure)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _img(figure: Figure, alt: str) -> str:
    return f'<img alt="{escape(alt)}" src="{_png(figure)}">'


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _ci(rate: Mapping[str, Any]) -> str:
    low, high = rate["ci95"]
    return f"{100 * low:.1f}–{100 * high:.1f}%"


def _table(head: Sequence[str], rows: Sequence[Sequence[Any]],
           text: Sequence[int] = (0,)) -> str:
    """An HTML table; the columns at the indices ``text`` are left-aligned."""
    left = [i in text for i in range(len(head))]
    style = ' style="text-align:left"'
    cells = "".join(f"<th{style if is_text else ''}>{escape(str(h))}</th>" for h, is_text in zip(
        head, left, strict=True))
    body = "".join(
        "<tr>" + "".join(f"<td{style if is_text else ''}>{escape(str(c))}</td>"
                         for c, is_text in zip(row, left, strict=True)) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>"


_PALETTE = ("#4c78a8", "#e45756", "#54a24b", "#b279a2", "#f58518", "#72b7b2")


def _colours(factions: Sequence[str], order: Sequence[str]) -> list[str]:
    """One colour per faction (the order of the win-rate table), the same on every plot."""
    known = list(order)
    return [_PALETTE[known.index(f) % len(_PALETTE)] if f in known else "#999999"
            for f in factions]


def _rate_bars(labels: Sequence[str], rates: Sequence[Mapping[str, Any]], title: str,
               horizontal: bool = False, colours: Sequence[str] | None = None) -> Figure:
    values = [r["rate"] * 100 for r in rates]
    low = [max(0.0, (r["rate"] - r["ci95"][0]) * 100) for r in rates]
    high = [max(0.0, (r["ci95"][1] - r["rate"]) * 100) for r in rates]
    figure, axes = plt.subplots(figsize=(7, max(2.5, 0.35 * len(labels) + 1) if horizontal
                                         else 3.2))
    if horizontal:
        axes.barh(labels, values, xerr=[low, high], color=list(colours or ["#4c78a8"]),
                  capsize=3)
        axes.invert_yaxis()
        axes.set_xlim(0, 100)
        axes.set_xlabel("%")
    else:
        axes.bar(labels, values, yerr=[low, high], color=list(colours or ["#4c78a8"]),
                 capsize=4)
        axes.set_ylim(0, 100)
        axes.set_ylabel("%")
    axes.set_title(title)
    axes.grid(axis="x" if horizontal else "y", alpha=0.3)
    return figure


def _length_plot(histogram: Mapping[str, int], title: str, _: Gettext) -> Figure:
    figure, axes = plt.subplots(figsize=(7, 3))
    keys = sorted(int(k) for k in histogram)
    axes.bar(keys, [histogram[str(k)] for k in keys], color="#72b7b2")
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel(_("day/night number at the end"))
    axes.set_ylabel(_("games"))
    axes.set_title(title)
    axes.grid(axis="y", alpha=0.3)
    return figure


def _causes_plot(causes: Sequence[Mapping[str, Any]], title: str, _: Gettext) -> Figure:
    figure, axes = plt.subplots(figsize=(7, max(2.2, 0.4 * len(causes) + 1)))
    labels = [c["cause"] for c in causes]
    axes.barh(labels, [c["per_game"] for c in causes], color="#f58518")
    axes.invert_yaxis()
    axes.set_xlabel(_("departures per game"))
    axes.set_title(title)
    axes.grid(axis="x", alpha=0.3)
    return figure


def _difference_plot(rows: Sequence[Mapping[str, Any]], labels: Sequence[str], title: str,
                     _: Gettext) -> Figure:
    figure, axes = plt.subplots(figsize=(7, max(2.2, 0.4 * len(rows) + 1)))
    values = [r["difference"] * 100 for r in rows]
    low = [max(0.0, (r["difference"] - r["difference_ci95"][0]) * 100) for r in rows]
    high = [max(0.0, (r["difference_ci95"][1] - r["difference"]) * 100) for r in rows]
    colours = ["#54a24b" if v >= 0 else "#e45756" for v in values]
    axes.barh(labels, values, xerr=[low, high], color=colours, capsize=3)
    axes.axvline(0, color="#333", linewidth=0.8)
    axes.invert_yaxis()
    axes.set_xlabel(_("percentage points"))
    axes.set_title(title)
    axes.grid(axis="x", alpha=0.3)
    return figure


def _heading(level: int, text: str) -> str:
    return f"<h{level}>{escape(text)}</h{level}>"


def _interval(values: Sequence[float], _: Gettext) -> str:
    low, high = values
    return _("{low} to {high}").format(low=f"{100 * low:+.1f}", high=f"{100 * high:+.1f}")


def _setup_section(entry: Mapping[str, Any], _: Gettext) -> str:
    setup = entry["setup"]
    name = setup["name"]
    roles = ", ".join(f"{n}× {r}" if n > 1 else r for r, n in setup["roles"].items())
    meta = _("{ruleset}, {players} players, {games} games. Roles: {roles}").format(
        ruleset=setup["ruleset"], players=setup["players"], games=entry["games"], roles=roles)
    options = _("Options:")
    parts = [f"<h2>{escape(name)}</h2>",
             f"<p class=meta>{escape(meta)}"
             + (f". {escape(options)} <code>{escape(str(setup['options']))}</code>"
                if setup["options"] else "") + "</p>"]
    factions = entry["factions"]
    parts.append(_heading(3, _("Win rate by faction")))
    parts.append(_table([_("faction"), _("wins"), _("rate"), _("95% CI (Wilson)")],
                        [[f["faction"], f["count"], _pct(f["rate"]), _ci(f)] for f in factions]))
    order = [f["faction"] for f in factions]
    plots = [_img(_rate_bars(order, factions,
                             _("{name}: win rate (95% CI)").format(name=name),
                             colours=_colours(order, order)), _("win rates"))]
    parts.append(_heading(3, _("Roles")))
    parts.append(_table(
        [_("role"), _("faction"), _("seats"), _("survived"), _("95% CI"), _("won")],
        [[r["role"], r["faction"] or "", r["seats"], _pct(r["survival"]["rate"]),
          _ci(r["survival"]), _pct(r["won"]["rate"])] for r in entry["roles"]], text=(0, 1)))
    plots.append(_img(_rate_bars([r["role"] for r in entry["roles"]],
                                 [r["survival"] for r in entry["roles"]],
                                 _("{name}: survival to the end per role (95% CI)").format(
                                     name=name),
                                 horizontal=True,
                                 colours=_colours([r["faction"] or "" for r in entry["roles"]],
                                                  order)), _("survival per role")))
    summary = entry["length"]["summary"]
    parts.append(_heading(3, _("Game length")))
    text = _("mean {mean}, median {median}, 10–90% {p10}–{p90}, range {low}–{high} (the "
             "number of the day or night the game ended in)").format(
        mean=f"{summary['mean']:.2f}", median=f"{summary['median']:.0f}",
        p10=f"{summary['p10']:.0f}", p90=f"{summary['p90']:.0f}",
        low=f"{summary['min']:.0f}", high=f"{summary['max']:.0f}")
    parts.append(f"<p>{escape(text)}</p>")
    plots.append(_img(_length_plot(entry["length"]["histogram"],
                                   _("{name}: game length").format(name=name), _),
                      _("game length")))
    causes = entry["departures"]["causes"]
    parts.append(_heading(3, _("Causes of departure")))
    parts.append(_table(
        [_("cause"), _("count"), _("share"), _("per game"), _("roles most often")],
        [[c["cause"], c["count"], _pct(c["share"]), f"{c['per_game']:.2f}",
          ", ".join(f"{k} {v}" for k, v in list(c["roles"].items())[:3])] for c in causes],
        text=(0, 4)))
    if causes:
        plots.append(_img(_causes_plot(causes, _("{name}: departures per game").format(
            name=name), _), _("departures")))
    parts.append('<div class="plots">' + "".join(plots) + "</div>")
    return "".join(parts)


def render_html(report: Mapping[str, Any], locale: str = "en") -> str:
    """The report as one HTML page, headings, labels and plot titles in ``locale`` (the
    ids of roles, factions and causes stay)."""
    from nightfall.sim.report import METHODS

    _ = gettext_for(locale)
    bots = ", ".join(f"{k}={v}" if k != "*" else v for k, v in report["bots"].items())
    title = _("Nightfall balance report")
    command = _("Command:")
    meta = _("{games} games per setup, bots {bots}, seed {seed}.").format(
        games=report["games"], bots=bots, seed=report["seed"])
    body = [
        f"<h1>{escape(title)}</h1>",
        f"<p class=meta>{escape(meta)}" + (
            f" {escape(command)} <code>{escape(report['command'])}</code>"
            if report.get("command") else "") + "</p>",
    ]
    if "comparison" in report:
        comparison = report["comparison"]
        rows = comparison["factions"]
        heading = _("Comparison: A = {a}, B = {b}").format(a=comparison["a"],
                                                           b=comparison["b"])
        body.append(_heading(2, heading))
        body.append(_table(
            [_("faction"), "A", _("A 95% CI"), "B", _("B 95% CI"), "A − B",
             _("95% CI (Newcombe)")],
            [[r["faction"], _pct(r["a"]["rate"]), _ci(r["a"]), _pct(r["b"]["rate"]),
              _ci(r["b"]), f"{100 * r['difference']:+.1f} pt",
              _interval(r["difference_ci95"], _)] for r in rows]))
        body.append('<div class="plots">' + _img(_difference_plot(
            rows, [r["faction"] for r in rows], _("win rate A − B (95% CI)"), _), "A − B")
            + "</div>")
    effects = report.get("role_effects") or {}
    if effects.get("roles"):
        rows = effects["roles"]
        method = _(METHODS.get(effects["method"], effects["method"]))
        heading = _("Effect of each role ({method})").format(method=method)
        body.append(_heading(2, heading))
        body.append("<p>" + escape(_("The win rate of the role's faction in games with the "
                                     "role against games without it.")) + "</p>")
        body.append(_table(
            [_("role"), _("faction"), _("with"), _("without"), _("difference"), _("95% CI")],
            [[r["role"], r["faction"], _pct(r["with"]["rate"]), _pct(r["without"]["rate"]),
              f"{100 * r['difference']:+.1f} pt", _interval(r["difference_ci95"], _)]
             for r in rows], text=(0, 1)))
        body.append('<div class="plots">' + _img(_difference_plot(
            rows, [f"{r['role']} ({r['faction']})" for r in rows],
            _("effect on the own faction's win rate"), _), _("role effects")) + "</div>")
    for entry in report["setups"]:
        body.append(_setup_section(entry, _))
    timing = report.get("timing") or {}
    if timing:
        line = _("{seconds} s with {jobs} job(s), {rate} games/s").format(
            seconds=f"{timing['wall_seconds']:.1f}", jobs=timing["jobs"],
            rate=f"{timing['games_per_second']:.1f}")
        body.append(f"<p class=meta>{escape(line)}.</p>")
    return (f"<!DOCTYPE html><html lang={escape(locale)}><head><meta charset=utf-8>"
            f"<title>{escape(title)}</title>"
            f"<style>{_STYLE}</style></head><body>{''.join(body)}</body></html>\n")

"""The status post in the seed's format (C16.1).

    Anmeldephase... finished
    Erste Tagphase und Anführerwahl... finished
    Sechste Nachtphase... running
    (bis zum 24.12.12 um 20:00)

    appleblack: übermüdeter Hobbyklempner Forscher

Rendering needs a ``gettext`` function (see :mod:`nightfall.i18n`); it does no I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from zoneinfo import ZoneInfo

from nightfall.engine import N_, GameState, Term
from nightfall.engine.phase import DAY, ENDED, NIGHT, SETUP, SIGNUP
from nightfall.engine.text import TermNames
from nightfall.rulesets.changelings.roles import LOVER, PUBLIC_STATUSES

Gettext = Callable[[str], str]

ORDINALS = (
    N_("First"), N_("Second"), N_("Third"), N_("Fourth"), N_("Fifth"), N_("Sixth"),
    N_("Seventh"), N_("Eighth"), N_("Ninth"), N_("Tenth"), N_("Eleventh"), N_("Twelfth"),
    N_("Thirteenth"), N_("Fourteenth"), N_("Fifteenth"), N_("Sixteenth"),
    N_("Seventeenth"), N_("Eighteenth"), N_("Nineteenth"), N_("Twentieth"),
)


def ordinal(number: int, _: Gettext) -> str:
    return _(ORDINALS[number - 1]) if 1 <= number <= len(ORDINALS) else f"{number}."


def phase_title(kind: str, number: int, _: Gettext) -> str:
    if kind == SIGNUP:
        return _("Sign-up phase")
    if kind == SETUP:
        return _("Role assignment")
    if kind == DAY and number == 1:
        return _("{ordinal} day phase and leader election").format(ordinal=ordinal(1, _))
    if kind == DAY:
        return _("{ordinal} day phase").format(ordinal=ordinal(number, _))
    return _("{ordinal} night phase").format(ordinal=ordinal(number, _))


def status_post(state: GameState, _: Gettext) -> str:
    lines: list[str] = []
    rounds: list[tuple[str, int]] = []
    for record in state.history:
        if record.kind == ENDED:
            continue
        key = (record.kind, record.number)
        if key not in rounds:
            rounds.append(key)
    current = state.phase.round
    for kind, number in rounds:
        running = (kind, number) == current and kind in (DAY, NIGHT, SIGNUP, SETUP)
        lines.append(
            phase_title(kind, number, _) + "... " + (_("running") if running else _("finished"))
        )
        if running and state.deadline is not None:
            local = state.deadline.astimezone(ZoneInfo(str(state.options.get("timezone"))))
            lines.append(
                _("(until {date} at {time})").format(
                    date=local.strftime("%d.%m.%y"), time=local.strftime("%H:%M")
                )
            )
    if state.ended:
        lines.append(
            _("The game is over: {winner} won.").format(
                winner=_(TermNames.msgid(Term("faction", state.winner or "draw")))
            )
        )
    lines.append("")
    for player in sorted(state.players.values(), key=lambda p: p.name.casefold()):
        lines.append(_roster_line(state, player.name, _))
    return "\n".join(lines)


def _roster_line(state: GameState, name: str, _: Gettext) -> str:
    """``name: description — Role, statuses`` (C16.1). The dash keeps a revealed role
    apart from the player's own words ("übermüdeter Hobbyklempner — Drama Queen, verliebt",
    not "… Hobbyklempner Drama Queen"); a player with nothing to show is his bare name
    (not "Ann:" with nothing after it)."""
    player = state.players[name]
    revealed = state.ended or not player.alive
    role = _(TermNames.msgid(Term("role", player.role))) if revealed and player.role else ""
    statuses = [
        _(TermNames.msgid(Term("status", s)))
        for s in sorted(player.statuses)
        if s in PUBLIC_STATUSES or (s == LOVER and revealed)
    ]
    if not player.alive and player.left_cause:
        statuses.append(_(TermNames.msgid(Term("cause", player.left_cause))))
    shown = player.description
    if role:
        shown = f"{shown} — {role}" if shown else role
    if statuses:
        shown = f"{shown}, {', '.join(statuses)}" if shown else ", ".join(statuses)
    return f"{name}: {shown}" if shown else name

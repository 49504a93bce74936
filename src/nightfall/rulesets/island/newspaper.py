"""The newspaper (I3.2): the daily public post of the Island of Fear.

It lists the players in the seating order with their status, revealed roles and public
items; the items activated (who, on whom); the lynch table of the last vote with every
correction; the night's deaths; the spirit's question and answer; and the day's event.
Rendering needs a ``gettext`` function (see :mod:`nightfall.i18n`); it does no I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from nightfall.engine import GameState, Term
from nightfall.engine.phase import known_zone
from nightfall.engine.text import TermNames, render_value
from nightfall.rulesets.island import memory
from nightfall.rulesets.island.departures import BY_ECLIPSE, public_cause, role_hiding
from nightfall.rulesets.island.happenings import DESCRIPTIONS
from nightfall.rulesets.island.items import SHEEP_SKIN, is_public
from nightfall.rulesets.island.roles import LYNCHED, NIGHT_CAUSES, PUBLIC_STATUSES
from nightfall.rulesets.island.seating import seating
from nightfall.rulesets.island.view import role_public

Gettext = Callable[[str], str]


def term(domain: str, term_id: str, _: Gettext) -> str:
    return _(TermNames.msgid(Term(domain, term_id)))


def _lost_reason(reason: str, _: Gettext) -> str:
    if reason == "gone":
        return _("the target is no longer in the game")
    if reason == "palms_bloom":
        return term("event", "palms_bloom", _)
    if reason in ("silenced", "shocked"):
        return term("status", reason, _)
    return term("item", reason, _)


def _vote_line(owner: str, votes: list[dict[str, Any]], fear: bool, _: Gettext) -> str:
    """One voter's row of the lynch table: where each of his votes went and why. A lost
    vote says where it was cast and whom it counts for (I6.3: the voter, or the authority
    who took it; under fear nobody), so that "Ann → Ann" never stands unexplained."""
    parts = []
    for vote in votes:
        target = str(vote["target"])
        notes = []
        if vote.get("kind") == "megaphone":
            notes.append(term("item", "megaphone", _))
        if vote.get("taken_by"):
            notes.append(_("taken by the authority {name}").format(name=vote["taken_by"]))
        if vote.get("lost"):
            notes.append(_lost_note(vote, fear, _))
        elif not vote.get("cast") and not vote.get("taken_by"):
            notes.append(_("did not vote"))
        parts.append(f"{target} ({', '.join(notes)})" if notes else target)
    return f"{owner} → " + "; ".join(parts)


def _lost_note(vote: dict[str, Any], fear: bool, _: Gettext) -> str:
    reason = _lost_reason(str(vote["lost"]), _)
    caster = str(vote.get("taken_by") or vote["owner"])
    meant = vote.get("meant")
    if fear:
        counts = _("under fear it counts for nobody")
    else:
        counts = _("it counts for {name}").format(name=caster)
    if vote.get("cast") and meant and meant != caster:
        return _("the vote for {target} is lost: {reason}; {counts}").format(
            target=meant, reason=reason, counts=counts)
    return _("no valid vote: {reason}; {counts}").format(reason=reason, counts=counts)


def newspaper(state: GameState, _: Gettext) -> str:
    lines: list[str] = []
    report = memory.mapping(state, memory.REPORT)
    number = state.phase.number
    if state.ended:
        lines.append(_("The Island Newspaper — the game is over: {winner} won.").format(
            winner=term("faction", state.winner or "draw", _)))
    else:
        lines.append(_("The Island Newspaper — day {number}").format(number=number))
    event = memory.today_event(state)
    if event is not None and not state.ended:
        # times in the game's zone, named (a newspaper is pasted into the forum)
        until = render_value(memory.midday(state), _, known_zone(state.options.get("timezone")))
        description = _(DESCRIPTIONS[event]).format(
            name=state.flags.get(memory.PICK_ME) or "—", until=until)
        lines.append(_("Today's event: {event}").format(event=term("event", event, _))
                     + " — " + description)
    lines += ["", _("Players in their seating order:")]
    for index, name in enumerate(seating(state), start=1):
        lines.append(f"{index}. " + _player_line(state, name, _))
    activations = memory.activations(state)
    if activations:
        lines += ["", _("Activated items:")]
        for act in activations:
            item = term("item", str(act["item"]), _)
            if act.get("target") and act["item"] == SHEEP_SKIN:
                text = _("day {day}: the {item} of {name} passed the lynch to {target}")
            elif act.get("target"):
                text = _("day {day}: {name} used the {item} on {target}")
            else:
                text = _("day {day}: {name} used the {item}")
            lines.append("- " + text.format(day=act["day"], name=act["user"], item=item,
                                            target=act.get("target")))
    if report.get("votes") is not None:
        lines += _lynch_table(state, report, _)
        lines += _night(state, int(report.get("day") or 0), _)
    spirit = report.get("spirit") if report.get("day") != number or state.ended else None
    spirit = spirit or (memory.spirit(state) if state.phase.stage == 2 else None)
    today = memory.spirit(state) if state.phase.stage == 1 and not state.ended else None
    lines += _spirit_lines(spirit or {}, _) + _spirit_lines(today or {}, _, public_only=True)
    return "\n".join(lines)


def _spirit_lines(spirit: Any, _: Gettext, public_only: bool = False) -> list[str]:
    """I5 spirit: the asker the players chose, every refused question with its reason,
    and the question with its asker and answer (``public_only``: the morning's paper,
    before 13:00, names only the choice and the refusals, which are public at once)."""
    lines: list[str] = []
    if spirit.get("chosen"):
        lines.append(_("The players chose {name} to ask the spirit.").format(
            name=spirit["chosen"]))
    for refused in spirit.get("refused") or ():
        lines.append(_("The spirit refused the question of {name} (“{text}”): {reason}"
                       ).format(name=refused.get("asker"), text=refused.get("text"),
                                reason=refused.get("reason")))
    if spirit.get("text") and not public_only:
        lines.append(_("The spirit was asked by {name}: “{text}” — the answer: {answer}."
                       ).format(name=spirit.get("asker"), text=spirit.get("text"),
                                answer=term("answer", str(spirit["answer"]), _)
                                if spirit.get("answer") else _("not yet given")))
    return ["", *lines] if lines else []


def _player_line(state: GameState, name: str, _: Gettext) -> str:
    p = state.players[name]
    parts = [name]
    if p.alive:
        status = _("alive")
    else:
        status = term("cause", public_cause(state, name) or "modkill", _)
        if p.left_phase:
            status += " (" + _("day {number}").format(number=p.left_phase.split(" ")[1]) + ")"
    details = [status]
    if role_public(state, name) and p.role:
        details.append(term("role", p.role, _))
    elif not p.alive and role_hiding(state, name) == BY_ECLIPSE:
        details.append(_("role hidden by the solar eclipse"))
    elif not p.alive:
        details.append(_("role to be revealed with the day's event"))
    details += [term("status", s, _) for s in sorted(p.statuses)
                if s in PUBLIC_STATUSES and (p.alive or state.ended)]
    items = [term("item", i.id, _) + (" (" + _("used") + ")" if i.used else "")
             for i in p.items if state.ended or is_public(i.id, i.used)]
    if items:
        details.append(_("items: {items}").format(items=", ".join(items)))
    return parts[0] + " — " + ", ".join(details)


def _lynch_table(state: GameState, report: dict[str, Any], _: Gettext) -> list[str]:
    day = report.get("day")
    lines = ["", _("The vote of day {day}:").format(day=day)]
    owners: dict[str, list[dict[str, Any]]] = {}
    for vote in report.get("votes") or []:
        owners.setdefault(str(vote["owner"]), []).append(dict(vote))
    for owner, votes in owners.items():
        lines.append(_vote_line(owner, votes, bool(report.get("fear")), _))
    tally = dict(report.get("tally") or {})
    ranked = sorted(tally.items(), key=lambda kv: (-int(kv[1]), seating(state).index(kv[0])
                                                   if kv[0] in seating(state) else 0))
    lines.append(_("Tally: {tally}").format(
        tally=", ".join(f"{name} {count}" for name, count in ranked if count)))
    if report.get("fear_leader"):
        lines.append(_("Leader elected under fear: {name}").format(name=report["fear_leader"]))
    lynched = [n for n in report.get("lynched") or []
               if not state.is_alive(n) and state.players[n].left_cause == LYNCHED]
    if lynched:
        lines.append(_("Lynched: {names}").format(names=", ".join(lynched)))
    else:
        lines.append(_("Nobody was lynched."))
    return lines


def _night(state: GameState, day: int, _: Gettext) -> list[str]:
    dead = [p for p in seating(state)
            if not state.players[p].alive and state.players[p].left_cause in NIGHT_CAUSES
            and state.players[p].left_phase == f"day {day}"]
    lines = ["", _("The night after day {day}:").format(day=day)]
    if not dead:
        lines.append(_("Nobody died in the night."))
    for name in dead:
        lines.append(f"- {name}: " + term("cause", public_cause(state, name) or "", _))
    return lines

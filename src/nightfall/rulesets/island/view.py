"""What each player may know (the projection) and what each may do (legal commands).

A player sees his own role, items, statuses, notices and submissions; the roles of the
dead (unless a solar eclipse hides them, I5) and of a revealed authority (I2.4); the
passive items of everyone and the activatable items once used (I4); public statuses; the
last lynch table; and, in the werewolves' team, the team and its ``eat`` submissions.
Votes of the running day are secret until the tally (they are sent to the GM, I6.2).
The GM's view sees everything.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from nightfall.engine import Command, GameState, Rejected
from nightfall.engine.text import to_data
from nightfall.rulesets.island import memory
from nightfall.rulesets.island.abilities import ABILITIES, check_actor, validate
from nightfall.rulesets.island.departures import role_hidden
from nightfall.rulesets.island.happenings import FULL_MOON
from nightfall.rulesets.island.items import ON_PLAYER, is_public, used_items
from nightfall.rulesets.island.roles import PUBLIC_STATUSES, REVEALED, is_mafia
from nightfall.rulesets.island.seating import seating
from nightfall.rulesets.island.voting import vote_count


def role_public(state: GameState, player: str) -> bool:
    p = state.players[player]
    if state.ended:
        return True
    if REVEALED in p.statuses:
        return True
    return not p.alive and not role_hidden(state, player)


def project(state: GameState, viewer: str | None, gm: bool = False) -> dict[str, Any]:
    me = state.players.get(viewer) if viewer is not None else None
    over = state.ended or gm
    in_team = me is not None and is_mafia(me.role)
    players = []
    for name in seating(state):
        p = state.players[name]
        own = me is not None and name == me.name
        known = over or own or role_public(state, name) or (in_team and is_mafia(p.role))
        players.append({
            "name": name,
            "seat": seating(state).index(name),
            "description": p.description,
            "alive": p.alive,
            "left": {"cause": p.left_cause, "phase": p.left_phase} if not p.alive else None,
            "role": p.role if known else None,
            "statuses": sorted(s for s in p.statuses if over or own or s in PUBLIC_STATUSES),
            "items": [
                {"id": i.id, "used": i.used}
                for i in p.items if over or own or is_public(i.id, i.used)
            ],
        })
    report = memory.mapping(state, memory.REPORT)
    spirit = memory.spirit(state)
    view: dict[str, Any] = {
        "ruleset": state.ruleset,
        "phase": state.phase_label,
        "deadline": to_data(state.deadline),
        "event": memory.today_event(state),
        "players": players,
        "last_votes": dict(state.last_votes),
        "lynch_table": report.get("votes", []),
        "activations": memory.activations(state),
        "spirit": spirit if spirit and (state.phase.stage == 2 or over) else None,
        "announcements": [
            {"phase": a.phase, "text": to_data(a.text)} for a in state.announcements
        ],
        "thread": [{"player": p.player, "phase": p.phase, "text": p.text} for p in state.thread],
        "winner": state.winner,
        "winners": list(state.winners),
    }
    if me is not None:
        view["me"] = {
            "name": me.name,
            "role": me.role,
            "alive": me.alive,
            "statuses": sorted(me.statuses),
            "items": [{"id": i.id, "used": i.used} for i in me.items],
            "votes": vote_count(state, me.name) if me.alive else 0,
            "notices": [dict(n) for n in state.notices.get(me.name, [])],
            "submissions": {
                slot: {"action": s.action, "targets": list(s.targets), "choice": s.choice,
                       "text": s.text}
                for (player, slot), s in state.submissions.items()
                if player == me.name
            },
            "team": [p for p in seating(state) if in_team and is_mafia(state.players[p].role)],
        }
        if in_team:
            view["me"]["team_submissions"] = {
                s.player: list(s.targets) for s in state.submissions_in("eat")
            }
    if over:
        view["traces"] = [
            {"phase": t.phase, "number": t.number, "step": t.step, "rule": t.rule,
             "lines": to_data(t.lines)}
            for t in state.traces
        ]
        view["notices"] = {p: [dict(n) for n in ns] for p, ns in state.notices.items()}
        view["flags"] = {k: v for k, v in state.flags.items() if k.startswith("i.")}
    return view


def _candidates(state: GameState, player: str, action: str) -> list[Command]:
    alive = [p for p in seating(state) if state.is_alive(p)]
    me = state.players[player]
    if action == "vote":
        found = [Command("vote", by=player, target=t) for t in alive]
        if vote_count(state, player) >= 2:
            found += [Command("vote", by=player, targets=pair)
                      for pair in combinations(alive, 2)]
        return found
    if action == "eat":
        found = [Command("eat", by=player, target=t) for t in alive]
        if state.flags.get(memory.EVENT) == FULL_MOON:
            found += [Command("eat", by=player, targets=pair)
                      for pair in combinations(alive, 2)]
        return found
    if action == "swap_items":
        return [Command(action, by=player, targets=pair) for pair in combinations(alive, 2)]
    if action == "recharge":
        return [Command(action, by=player, target=t) for t in alive if used_items(state, t)]
    if action == "use_item":
        usable = sorted({i.id for i in me.items if i.id in ON_PLAYER and not i.used})
        return [Command(action, by=player, target=t, choice=item)
                for item in usable for t in alive]
    if action in ("spirit_ask", "post"):
        return [Command(action, by=player, text="?")] if action == "spirit_ask" else []
    ability = ABILITIES[action]
    if ability.targets == 0:
        return [Command(action, by=player)]
    return [Command(action, by=player, target=t) for t in alive]


def legal_commands(state: GameState, player: str) -> list[Command]:
    """Every command ``player`` could submit now (the same door for bots and people)."""
    if state.ended or player not in state.players:
        return []
    found: list[Command] = []
    for ability in ABILITIES.values():
        try:
            check_actor(state, ability, Command(ability.action, by=player))
        except Rejected:
            continue
        for command in _candidates(state, player, ability.action):
            try:
                validate(state, command)
            except Rejected:
                continue
            found.append(command)
    return found

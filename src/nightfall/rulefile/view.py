"""What a player of a data rule set may know: the projection built from the file's
``view`` (who sees whose role and statuses, the public vote slots, the viewer's own
extra fields), in the shape the pages read for every rule set."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from nightfall.engine import GameState
from nightfall.engine.state import public_record
from nightfall.engine.text import to_data
from nightfall.rulesets.common.view import (
    all_notices,
    departure,
    own_notices,
    own_submissions,
    trace,
)

if TYPE_CHECKING:
    from nightfall.rulefile.ruleset import DataRuleset


def _notes(env: dict[str, Any], lines: list[Any]) -> list[Any]:
    """The sentences of a viewer's notes, in order (a line with ``for``: one per item,
    bound in one copy of the environment)."""
    found = []
    for var, over, cond, text in lines:
        if var is None:
            if cond.run(env):
                found.append(text(env))
            continue
        inner = dict(env)
        for value in over.run(env) or ():
            inner[var] = value
            if cond.run(inner):
                found.append(text(inner))
    return found


def project(rules: DataRuleset, state: GameState, viewer: str | None, gm: bool = False
            ) -> dict[str, Any]:
    me = state.players.get(viewer) if viewer is not None else None
    over = state.ended or gm
    players = []
    # one environment for every player and status (``p`` and ``s`` set afresh for each;
    # an expression reads only its own names and changes nothing)
    env = rules.env(state, viewer=viewer)
    role_seen, status_seen = rules.role_seen.run, rules.status_seen.run
    public = rules.public_statuses
    split = rules.role_seen_split
    gate: bool | None = None  # the viewer's terms of ``role_seen``, asked once if needed
    for p in state.players.values():
        own = me is not None and p.name == me.name
        env["p"] = p.name
        if over or own or not p.alive:
            role_known = True
        elif split is None:
            role_known = bool(role_seen(env))
        else:
            if gate is None:
                gate = bool(split[0](env))
            role_known = gate and bool(split[1](env))
        statuses = []
        for s in p.statuses:
            if over or own or s in public:
                statuses.append(s)
            else:
                env["s"] = s
                if status_seen(env):
                    statuses.append(s)
        statuses.sort()
        players.append({"name": p.name, "seat": p.seat, "description": p.description,
                        "alive": p.alive, "left": departure(p),
                        "role": p.role if role_known else None, "statuses": statuses})
    announcements, thread = public_record(state)
    votes: dict[str, dict[str, str | None]] = {s: {} for s in rules.file.view.public_slots}
    for (_, slot), submission in state.submissions.items():
        if slot in votes:
            votes[slot][submission.player] = submission.target
    view: dict[str, Any] = {
        "ruleset": state.ruleset, "phase": state.phase_label,
        "deadline": to_data(state.deadline), "players": players,
        "leader": rules.leader(state), "votes": votes, "last_votes": dict(state.last_votes),
        "announcements": announcements, "thread": thread, "winner": state.winner,
        "winners": list(state.winners),
    }
    if me is not None:
        env = rules.env(state, viewer=me.name)
        view["me"] = {
            "name": me.name, "role": me.role, "alive": me.alive,
            "statuses": sorted(me.statuses), "notices": own_notices(state, me.name),
            "submissions": own_submissions(state, me.name),
        }
        for key, (expr, condition) in rules.me_fields.items():
            if condition is None or condition.run(env):
                view["me"][key] = to_data(expr.run(env))
        for key, (shown, lines) in rules.notes.items():
            if shown.run(env):
                view["me"][key] = [to_data(text) for text in _notes(env, lines)]
    if over:
        view["traces"] = trace(state)
        view["notices"] = all_notices(state)
    return view

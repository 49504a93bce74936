"""What each player may know (the projection) and what each may do (legal commands).

Hidden information is sacred: a player sees his own role, statuses, notices and
submissions; the roles of players who left (revealed, C2.4); public statuses (leader,
voiceless); the public votes; and, if he is a changeling, his team (C1.7). Nothing else
until the game ends. The GM's view (``player=None`` with ``gm=True``) sees everything.
"""

from __future__ import annotations

from typing import Any

from nightfall.engine import N_, Command, GameState, Term, Text
from nightfall.engine.phase import NIGHT
from nightfall.engine.state import PLAYERS, PlayerState, derived, public_record
from nightfall.engine.text import to_data
from nightfall.rulesets.changelings import memory, night
from nightfall.rulesets.changelings.abilities import BOOK
from nightfall.rulesets.changelings.awaiting import current_leader
from nightfall.rulesets.changelings.roles import (
    CHANGELING_ROLES,
    LIAR,
    LOVER,
    PUBLIC_STATUSES,
    is_changeling_side,
)
from nightfall.rulesets.common.view import (
    all_notices,
    departure,
    own_notices,
    trace,
)

PUBLIC_SLOTS = ("elect", "vote")
#: the slot of the changelings' shared choice of a victim (abduct or replace, C7.1)
KILL = "kill"


def project(state: GameState, viewer: str | None, gm: bool = False) -> dict[str, Any]:
    me = state.players.get(viewer) if viewer is not None else None
    over = state.ended or gm
    in_team = me is not None and me.role in CHANGELING_ROLES
    partner = memory.partner_of(state, me.name) if me is not None else None
    seats, team = _seats(state)
    if over:
        players = [_entry(state, p, me, over, in_team) for p in state.players.values()]
    else:
        # most players look to the viewer as they look to everybody: their public entry,
        # shared (see _public_entries); only his own, his team's and his lover's differ
        players = list(_public_entries(state))
        if me is not None:
            players[seats[me.name]] = _entry(state, me, me, over, in_team)
            if partner is not None and partner in seats:
                players[seats[partner]] = _entry(state, state.players[partner], me, over,
                                                 in_team)
            if in_team:
                for name in team:
                    if name != me.name and name != partner:
                        players[seats[name]] = _entry(state, state.players[name], me, over,
                                                      in_team)
    announcements, thread = public_record(state)
    votes, mine, kills = _votes_and_own(state, me.name if me is not None else None, in_team)
    view: dict[str, Any] = {
        "ruleset": state.ruleset,
        "phase": state.phase_label,
        "deadline": to_data(state.deadline),
        "players": players,
        "leader": current_leader(state),
        "votes": votes,
        "last_votes": dict(state.last_votes),
        "announcements": announcements,
        "thread": thread,
        "winner": state.winner,
        "winners": list(state.winners),
    }
    if me is not None:
        view["me"] = {
            "name": me.name,
            "role": me.role,
            "alive": me.alive,
            "statuses": sorted(me.statuses),
            "notices": own_notices(state, me.name),
            "submissions": mine,
            "partner": partner,
            "team": list(team) if in_team else [],
            "disguise": state.flags.get(memory.disguise_key(me.name)) if me.role == LIAR else None,
        }
        if in_team:
            view["me"]["team_submissions"] = kills
            view["me"]["move_notes"] = [to_data(t) for t in team_plan(state, me.name)]
    if over:
        view["traces"] = trace(state)
        view["notices"] = all_notices(state)
    return view


def _entry(state: GameState, p: PlayerState, me: PlayerState | None, over: bool,
           in_team: bool) -> dict[str, Any]:
    """How player ``p`` appears in the view of ``me`` (``None``: the public view)."""
    own = me is not None and p.name == me.name
    role_known = over or own or not p.alive or (in_team and is_changeling_side(p.role))
    if over or own:
        statuses = sorted(p.statuses)  # all of them (the filter below passes each)
    else:
        statuses = sorted(
            s
            for s in p.statuses
            if s in PUBLIC_STATUSES or (s == LOVER and not p.alive)
            or (s == LOVER and me is not None and memory.partner_of(state, me.name) == p.name)
        )
    return {
        "name": p.name,
        "seat": p.seat,
        "description": p.description,
        "alive": p.alive,
        "left": departure(p),
        "role": p.role if role_known else None,
        "statuses": statuses,
    }


def _votes_and_own(state: GameState, viewer: str | None, in_team: bool = False
                   ) -> tuple[dict[str, dict[str, str | None]], dict[str, dict[str, Any]],
                              dict[str, dict[str, Any]]]:
    """The running votes by public slot, each in the order given; the viewer's own
    standing submissions (as ``common.view.own_submissions`` gives them, for him alone);
    and, for a changeling (``in_team``), his team's choices of a victim (C1.7), in one
    pass over the submissions: every view asks for the first two."""
    votes: dict[str, dict[str, str | None]] = {slot: {} for slot in PUBLIC_SLOTS}
    mine: dict[str, dict[str, Any]] = {}
    kills: dict[str, dict[str, Any]] = {}
    for (owner, slot), submission in state.submissions.items():
        found = votes.get(slot)
        if found is not None:
            found[submission.player] = submission.target
        if owner == viewer:
            mine[slot] = {"action": submission.action, "targets": list(submission.targets),
                          "choice": submission.choice, "text": submission.text}
        if in_team and slot == KILL:
            kills[submission.player] = {"action": submission.action,
                                        "target": submission.target}
    return votes, mine, kills


def _public_entries(state: GameState) -> list[dict[str, Any]]:
    """Every player's entry as the public sees him, in seating order: what most entries
    of every player's view are. Worked out once while no player changes (kept in
    ``state.memo``) and shared by the views, like their announcements: views are read,
    never written."""
    kept = state.memo.get(_PUBLIC)
    mark = state.stamp[PLAYERS]
    if kept is not None and kept[0] == mark:
        entries: list[dict[str, Any]] = kept[1]
        return entries
    entries = [_entry(state, p, None, False, False) for p in state.players.values()]
    if kept is not None and len(kept[1]) == len(entries):
        # an entry that reads as before is the very object of before: most events that
        # change the players change one or two entries, and a reader that remembers
        # what it read (the bots' minds) skips an entry it has seen by its identity
        entries = [old if old == new else new for old, new in zip(kept[1], entries,
                                                                  strict=True)]
    state.memo[_PUBLIC] = (mark, entries)
    return entries


_PUBLIC = "c.view.public"


def _seats(state: GameState) -> tuple[dict[str, int], list[str]]:
    """Each player's seat in the views' list of players (the order of
    ``state.players``), and the changelings' names sorted (a changeling's team, C1.7):
    what every view of the stage asks, worked out once while no player changes (kept in
    ``state.memo``, read, never written)."""
    entry = state.memo.get(_SEATS)  # ``derived`` inlined: asked by every view
    if entry is not None and entry[0] == state.stamp[PLAYERS]:
        kept: tuple[dict[str, int], list[str]] = entry[1]
        return kept
    seats: tuple[dict[str, int], list[str]] = derived(state, _SEATS, (PLAYERS,), lambda s: (
        {name: seat for seat, name in enumerate(s.players)},
        sorted(p.name for p in s.players.values() if p.role in CHANGELING_ROLES)))
    return seats


_SEATS = "c.view.seats"


def team_plan(state: GameState, viewer: str) -> list[Text]:
    """C7.1, C7.2: what the changeling ``viewer``'s page says about his team's choices
    while they may still choose (night stage 1): whom the others named, and whether his
    own choice, or any other, leaves the team disagreeing, so that nobody is taken; in
    stage 2, that they did not agree. It reads only the team's choices, which every
    changeling sees anyway (C1.7)."""
    phase = state.phase
    me = state.players[viewer]
    if phase.kind != NIGHT or not me.alive:
        return []
    if phase.stage != 1:
        # stage 1 has closed (perhaps early, on the last changeling's choice, C2.3): say
        # so if their choices differed — only that reason, which the team's own choices
        # gave; a shield or a secret lover stays unexplained (C7.3)
        if state.flags.get(memory.ATTACK_REASON) == "disagreement":
            return [Text(N_("Your team did not agree: nobody is abducted or replaced "
                            "tonight (C7.1, C7.2)."))]
        return []
    mine: tuple[str, str | None] | None = None
    groups: dict[tuple[str, str | None], list[str]] = {}
    for sub in night.team_choices(state):
        if sub.player == viewer:
            mine = (sub.action, sub.target)
        else:
            groups.setdefault((sub.action, sub.target), []).append(sub.player)
    if not groups:
        return []
    if len(groups) > 1:
        lines = [Text(N_("{names} chose {action} → {target}."), _choice(names, plan))
                 for plan, names in groups.items()]
        return [*lines, Text(N_("Your team disagrees: as it stands, nobody is abducted or "
                                "replaced tonight. Every changeling who chooses must make "
                                "the same choice (C7.1, C7.2)."))]
    (plan, names), = groups.items()
    if mine is None:
        return [Text(N_("{names} chose {action} → {target}: if you choose anything else, "
                        "nobody is abducted or replaced tonight (C7.1, C7.2)."),
                     _choice(names, plan))]
    if mine == plan:
        return [Text(N_("Your team agrees: {action} → {target} (C7.1)."), _choice([], plan))]
    return [Text(N_("{names} chose {action} → {target}, you chose {my_action} → "
                    "{my_target}: as it stands, nobody is abducted or replaced tonight "
                    "(C7.1, C7.2)."),
                 {**_choice(names, plan), "my_action": Term("action", mine[0]),
                  "my_target": mine[1]})]


def _choice(names: list[str], plan: tuple[str, str | None]) -> dict[str, Any]:
    return {"names": tuple(names), "action": Term("action", plan[0]), "target": plan[1]}


def legal_commands(state: GameState, player: str) -> list[Command]:
    """Every command ``player`` could submit now (the same door for bots and people):
    exactly what the command path accepts, by the same checks (``abilities.py``)."""
    if state.ended:
        return []
    return BOOK.legal_commands(state, player, alive_pool(state))


def alive_pool(state: GameState) -> list[str]:
    """The players still in the game, in seating order (every list's targets): worked
    out once while no player changes, shared (read, never written)."""
    entry = state.memo.get(_ALIVE)  # ``derived`` inlined: asked by every list
    if entry is not None and entry[0] == state.stamp[PLAYERS]:
        kept: list[str] = entry[1]
        return kept
    alive: list[str] = derived(state, _ALIVE, (PLAYERS,), GameState.alive)
    return alive


_ALIVE = "c.alive"

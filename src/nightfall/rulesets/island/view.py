"""What each player may know (the projection) and what each may do (legal commands).

A player sees his own role, items, statuses, notices and submissions; the roles of the
dead (unless a solar eclipse hides them, I5) and of a revealed authority (I2.4); the
passive items of everyone and the activatable items once used (I4); public statuses; the
last lynch table; and, in the werewolves' team, the team and its ``eat`` submissions.
Votes of the running day are secret until the tally (they are sent to the GM, I6.2).
The GM's view sees everything.
"""

from __future__ import annotations

from typing import Any

from nightfall.engine import Command, GameState
from nightfall.engine.state import FLAGS, PHASE, PLAYERS, PlayerState, derived, public_record
from nightfall.engine.text import to_data
from nightfall.rulesets.common.view import (
    all_notices,
    departure,
    own_notices,
    own_submissions,
    trace,
)
from nightfall.rulesets.island import memory, spirit
from nightfall.rulesets.island.abilities import BOOK
from nightfall.rulesets.island.departures import public_cause, role_hidden
from nightfall.rulesets.island.items import is_public
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
    # seats and the team: one memo read per view (a viewer's page only)
    seats, mafia = _seats(state) if me is not None else _NO_SEATS
    if over:
        players = [_entry(state, name, seat, me, over, in_team)
                   for seat, name in enumerate(seating(state))]
    else:
        # most players look to the viewer as they look to everybody: their public entry,
        # shared (see _public_entries); only his own and, in the team, his team's differ
        players = list(_public_entries(state))
        if me is not None:
            # the viewer's own entry and, in the team, his team's (himself among them)
            for name in mafia if in_team else (me.name,):
                seat = seats.get(name)
                if seat is not None:
                    players[seat] = _entry(state, name, seat, me, over, in_team)
    # the last tally's report (``memory.mapping`` without its copy: only its votes,
    # the very list, are shown)
    report = state.flags.get(memory.REPORT) or {}
    announcements, thread = public_record(state)
    view: dict[str, Any] = {
        "ruleset": state.ruleset,
        "phase": state.phase_label,
        "deadline": to_data(state.deadline),
        "event": memory.today_event(state),
        "players": players,
        "last_votes": dict(state.last_votes),
        "lynch_table": report.get("votes", []),
        "activations": memory.activations(state),
        "spirit": spirit.public(state, over),
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
            "items": [{"id": i.id, "used": i.used} for i in me.items],
            "votes": vote_count(state, me.name) if me.alive else 0,
            "notices": own_notices(state, me.name),
            "submissions": own_submissions(state, me.name),
            "team": list(mafia) if in_team else [],
        }
        if in_team:
            view["me"]["team_submissions"] = {
                s.player: list(s.targets) for s in state.submissions_in("eat")
            }
    if over:
        view["traces"] = trace(state)
        view["notices"] = all_notices(state)
        view["flags"] = {k: v for k, v in state.flags.items() if k.startswith("i.")}
    return view


def _entry(state: GameState, name: str, seat: int, me: PlayerState | None, over: bool,
           in_team: bool) -> dict[str, Any]:
    """How ``name`` (at ``seat``) appears in the view of ``me`` (``None``: the public)."""
    p = state.players[name]
    own = me is not None and name == me.name
    known = over or own or role_public(state, name) or (in_team and is_mafia(p.role))
    everything = over or own  # every status and item shown (the filters pass each)
    return {
        "name": name,
        "seat": seat,
        "description": p.description,
        "alive": p.alive,
        "left": _left(state, name, over),
        "role": p.role if known else None,
        "statuses": sorted(p.statuses) if everything else sorted(
            s for s in p.statuses if s in PUBLIC_STATUSES),
        "items": [
            {"id": i.id, "used": i.used}
            for i in p.items if everything or is_public(i.id, i.used)
        ],
    }


def _public_entries(state: GameState) -> list[dict[str, Any]]:
    """Every player's entry as the public sees him, in seating order: most entries of
    every player's view. Kept in ``state.memo`` while the players, the phase and the
    flags (the seating, the day's event, the roles shown) are unchanged, and shared by
    the views like their announcements: views are read, never written."""
    stamp = state.stamp
    mark = (stamp[PLAYERS], stamp[PHASE], stamp[FLAGS])
    kept = state.memo.get(_PUBLIC)
    if kept is not None and kept[0] == mark:
        entries: list[dict[str, Any]] = kept[1]
        return entries
    entries = [_entry(state, name, seat, None, False, False)
               for seat, name in enumerate(seating(state))]
    if kept is not None and len(kept[1]) == len(entries):
        # an entry that reads as before is the very object of before: a reader that
        # remembers what it read (the bots' minds) skips an entry it has seen by its
        # identity, and most changes of the parts read here change no entry or one
        entries = [old if old == new else new for old, new in zip(kept[1], entries,
                                                                  strict=True)]
    state.memo[_PUBLIC] = (mark, entries)
    return entries


_PUBLIC = "i.view.public"


def _seats(state: GameState) -> tuple[dict[str, int], list[str]]:
    """Each player's seat (his place in :func:`seating`, the order of every view's
    players) and the mafia's names in seating order (the team a werewolf or the
    half-blood sees, I1.1): asked by every view, worked out once while the players and
    the flags (the seating is one) are unchanged (kept in ``state.memo``, read, never
    written)."""
    seats: tuple[dict[str, int], list[str]] = derived(
        state, "i.view.seats", (PLAYERS, FLAGS), lambda s: _seats_of(s, seating(s)))
    return seats


_NO_SEATS: tuple[dict[str, int], list[str]] = ({}, [])


def _seats_of(state: GameState, order: list[str]) -> tuple[dict[str, int], list[str]]:
    return ({name: seat for seat, name in enumerate(order)},
            [name for name in order if is_mafia(state.players[name].role)])


def _left(state: GameState, name: str, over: bool) -> dict[str, Any] | None:
    """How ``name`` left, with the cause everybody may read (I5 solar eclipse [R])."""
    left = departure(state.players[name])
    if left is not None and not over:
        left["cause"] = public_cause(state, name)
    return left


def legal_commands(state: GameState, player: str) -> list[Command]:
    """Every command ``player`` could submit now (the same door for bots and people):
    exactly what the command path accepts, by the same checks (``abilities.py``)."""
    if state.ended:
        return []
    return BOOK.legal_commands(state, player, _alive_seated(state))


def _alive_seated(state: GameState) -> list[str]:
    """The players still in the game in seating order, the listing order of every
    player's list: worked out once while no player changes and no flag (the seating is
    one) does."""
    alive: list[str] = derived(state, "i.alive_seated", (PLAYERS, FLAGS),
                               lambda s: [p for p in seating(s) if s.is_alive(p)])
    return alive

"""The day: leader election (C5.1), the banishment vote (C3), the tie-break (C5.3),
the village idiot (C6.1, C3.6), as ordered steps with a trace."""

from __future__ import annotations

from collections import Counter

from nightfall.engine import N_, Context, GameState, Step, Term, declare_steps
from nightfall.engine.events import StatusChanged, SubmissionWithdrawn, VotesCounted
from nightfall.rulesets.changelings import memory
from nightfall.rulesets.changelings.abilities import current_leader
from nightfall.rulesets.changelings.departures import resolve_pending_succession
from nightfall.rulesets.changelings.roles import (
    BANISHED,
    LEADER,
    VILLAGE_IDIOT,
    VOICELESS,
)


def step_succession(ctx: Context) -> None:
    """C5.4: a leader who left without naming a successor: chance decides now."""
    resolve_pending_succession(ctx)


def step_election(ctx: Context) -> None:
    """C5.1: day 1 elects the leader by plurality; ties and empty days by chance."""
    state = ctx.state
    if state.phase.number != 1:
        return
    ballots = valid_ballots(state, "elect")
    tally = Counter(ballots.values())
    ctx.emit(VotesCounted(state.phase_label, "elect", dict(tally), ballots))
    if tally:
        top = max(tally.values())
        tied = [p for p in state.alive() if tally.get(p) == top]
    else:
        tied = state.alive()
        ctx.trace(N_("Nobody voted for a leader: chance picks among all players (C5.1)."))
    if not tied:
        return
    if len(tied) == 1:
        leader = tied[0]
        ctx.trace(N_("{name} is elected leader with {count} votes (C5.1)."), name=leader,
                  count=tally.get(leader, 0))
    else:
        leader = ctx.draw("leader_election", tied)
        ctx.trace(N_("Tie between {names}: chance picks {name} (C5.1)."), names=tuple(tied),
                  name=leader)
    ctx.emit(StatusChanged(leader, LEADER, True))
    ctx.announce(N_("{name} was elected leader."), name=leader)


def valid_ballots(state: GameState, slot: str) -> dict[str, str]:
    """C3.2: votes by or for players no longer in the game, by voiceless players, and a
    lover's vote for the partner are invalid."""
    ballots: dict[str, str] = {}
    for sub in state.submissions_in(slot):
        voter, target = sub.player, sub.target
        if target is None or not state.is_alive(voter) or not state.is_alive(target):
            continue
        if VOICELESS in state.players[voter].statuses:
            continue
        if slot == "vote" and memory.partner_of(state, voter) == target:
            continue
        ballots[voter] = target
    return ballots


def banishment_day(state: GameState) -> bool:
    """C2.2: no banishment on day 1 unless the option ``first_day_banishment`` is on."""
    return state.phase.number > 1 or bool(state.options.get("first_day_banishment"))


def step_tally(ctx: Context) -> None:
    """C3.3, C3.4, C5.3: count the votes; settle a tie or let the day wait for it."""
    state = ctx.state
    if not banishment_day(state):
        return
    ballots = valid_ballots(state, "vote")
    tally = Counter(ballots.values())
    rumours = [r for r in memory.names(state, memory.RUMOURS) if state.is_alive(r)]
    for target in rumours:
        tally[target] += 1
    ctx.emit(VotesCounted(state.phase_label, "vote", dict(tally), ballots))
    if rumours:
        ctx.trace(N_("Rumour votes from the black raven's letter: {names} (C3.3)."),
                  names=tuple(rumours))
    if not ballots:
        ctx.trace(N_("Nobody cast a valid vote: nobody is banished (C3.3)."))
        ctx.announce(N_("No valid vote was cast today. Nobody is banished."))
        return
    top = max(tally.values())
    tied = [p for p in state.alive() if tally.get(p) == top]
    ctx.trace(N_("Most votes ({count}): {names} (C3.4)."), count=top, names=tuple(tied))
    if len(tied) == 1:
        banish(ctx, tied[0])
        return
    leader = current_leader(state)
    standing = state.submission(leader, "tiebreak") if leader else None
    if standing is not None and standing.target in tied:
        ctx.trace(N_("The leader {leader} decided in advance: {name} (C5.3)."), leader=leader,
                  name=standing.target)
        banish(ctx, standing.target)
    elif leader is not None:
        ctx.trace(N_("The day waits for the leader {leader} to break the tie (C5.3)."),
                  leader=leader)
        ctx.flag(memory.TIED, tied)
        if standing is not None:
            ctx.emit(SubmissionWithdrawn(leader, "tiebreak"))
        ctx.announce(N_("The vote is tied between {names}. The leader {leader} decides."),
                     names=tuple(tied), leader=leader)
    else:
        chosen = ctx.draw("tiebreak", tied)
        ctx.trace(N_("No leader: chance breaks the tie: {name} (C5.3)."), name=chosen)
        banish(ctx, chosen)


def step_tiebreak(ctx: Context) -> None:
    """C5.3 (day N/2): the leader's choice among the tied, else chance."""
    state = ctx.state
    tied = [p for p in memory.names(state, memory.TIED) if state.is_alive(p)]
    ctx.flag(memory.TIED, None)
    if not tied:
        ctx.trace(N_("Nobody of the tied players is left: nobody is banished."))
        return
    leader = current_leader(state)
    choice = state.submission(leader, "tiebreak") if leader else None
    if choice is not None and choice.target in tied:
        ctx.trace(N_("The leader {leader} chooses {name} (C5.3)."), leader=leader,
                  name=choice.target)
        banish(ctx, choice.target)
    else:
        chosen = ctx.draw("tiebreak", tied)
        ctx.trace(N_("The leader made no valid choice: chance picks {name} (C5.3)."),
                  name=chosen)
        banish(ctx, chosen)


def banish(ctx: Context, target: str) -> None:
    """C3.4, C3.5, C3.6, C6.1: banish the target, unless he is the village idiot. C5.5: a
    leader who banishes himself by his own tie-break leaves like anyone else, so the
    succession of C5.4 follows (``departures.on_departure``)."""
    state = ctx.state
    player = state.players[target]
    if player.role == VILLAGE_IDIOT:
        if VOICELESS in player.statuses:
            ctx.trace(N_("{name}, the voiceless village idiot, stays: nobody is banished "
                         "(C3.6)."), name=target)
            ctx.announce(N_("The ponies chose {name} again, but the village idiot is "
                            "harmless. Nobody is banished."), name=target)
            return
        ctx.emit(StatusChanged(target, VOICELESS, True))
        ctx.trace(N_("{name} is the village idiot: he stays but loses his vote; nobody is "
                     "banished (C6.1)."), name=target)
        ctx.announce(N_("The ponies chose {name} — but before the banishment they see he is "
                        "only the village idiot. {name} stays, without a vote. Nobody is "
                        "banished today."), name=target, role=Term("role", VILLAGE_IDIOT))
        return
    ctx.trace(N_("{name} is banished (C3.4)."), name=target)
    ctx.leave(target, BANISHED)


DAY_STEPS: tuple[Step, ...] = declare_steps(
    Step(1, "succession", "C5.4", step_succession, N_("Leader's successor")),
    Step(2, "election", "C5.1", step_election, N_("Leader election")),
    Step(3, "tally", "C3.3", step_tally, N_("Vote count and banishment")),
)

TIEBREAK_STEPS: tuple[Step, ...] = declare_steps(
    Step(1, "succession", "C5.4", step_succession, N_("Leader's successor")),
    Step(2, "tiebreak", "C5.3", step_tiebreak, N_("Leader's tie-break")),
)

#: C5.4: a succession still open at a night deadline is decided then (run before the
#: night's own steps, only while one is pending).
NIGHT_SUCCESSION_STEPS: tuple[Step, ...] = declare_steps(
    Step(0, "succession", "C5.4", step_succession, N_("Leader's successor")),
)

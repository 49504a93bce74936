"""What follows a departure, at once and in the same step (C15 [R]): the role is
revealed (C2.4), the lover leaves with a broken heart (C8.3), the leader's successor
takes over (C5.4), and a drama queen's chase becomes due (C14).

Standing choices (C5.3, C5.4, C14.1) stay in force until they are spent or can no
longer take effect; then they are withdrawn, so that what a player's page and the GM's
dashboard show as "your current choice" is always a choice that still counts [R]. The
rules already ignore a choice naming a player who has left; withdrawing it changes no
outcome, only what people see (and it lets the chooser name someone else)."""

from __future__ import annotations

from nightfall.engine import N_, Context, Term
from nightfall.engine.events import StatusChanged, SubmissionWithdrawn
from nightfall.rulesets.changelings import memory
from nightfall.rulesets.changelings.roles import (
    ABDUCTED,
    BANISHED,
    DRAMA_QUEEN,
    HEARTBREAK,
    LEADER,
)

_LEFT = {
    BANISHED: N_("{name} was banished. {name} was {role}."),
    ABDUCTED: N_("{name} was abducted by the changelings. {name} was {role}."),
    HEARTBREAK: N_("{name} left the game with a broken heart. {name} was {role}."),
    "chased": N_("{name} was chased away by a prank of the pinkie sense. {name} was {role}."),
    "drama": N_("{name} ran away from the drama queen and was never seen again. {name} was "
                "{role}."),
    "modkill": N_("{name} was removed by the game master. {name} was {role}."),
}


def on_departure(ctx: Context, player: str, cause: str) -> None:
    state = ctx.state
    role = state.players[player].role or ""
    ctx.announce(_LEFT.get(cause, _LEFT["modkill"]), name=player, role=Term("role", role),
                 cause=Term("cause", cause))
    _void_choices_naming(ctx, player)
    if role == DRAMA_QUEEN and cause in (ABDUCTED, BANISHED):  # C14.1, C14.2
        due = memory.names(state, memory.DRAMA_DUE)
        ctx.flag(memory.DRAMA_DUE, [*due, player])
        ctx.trace(N_("{name} is the drama queen: her chase follows at night step 6 (C14.3)."),
                  name=player)
    if LEADER in state.players[player].statuses:
        leader_left(ctx, player)
    partner = memory.partner_of(state, player)
    if partner is not None and state.is_alive(partner):  # C8.3 [R]: every departure
        ctx.trace(N_("{name} cannot live without {partner} and leaves too (C8.3)."),
                  name=partner, partner=player)
        ctx.leave(partner, HEARTBREAK)


def _void_choices_naming(ctx: Context, player: str) -> None:
    """[R] Another player's standing choice that names ``player`` can never take effect
    now (C5.3, C5.4, C14.3): it lapses at once."""
    for sub in [s for s in ctx.state.submissions.values()
                if s.standing and s.player != player and player in s.targets]:
        ctx.emit(SubmissionWithdrawn(sub.player, sub.slot))
        ctx.trace(N_("The standing choice of {actor} named {name}, who has left: it lapses."),
                  actor=sub.player, name=player)


def leader_left(ctx: Context, leader: str) -> None:
    """C5.4: a successor named in advance takes over at once; otherwise the departed
    leader may still name one (C2.7) until the next deadline, when chance decides. His
    tie-break (C5.3) is the leader's, not his: it lapses [R]."""
    state = ctx.state
    if state.submission(leader, "tiebreak") is not None:
        ctx.emit(SubmissionWithdrawn(leader, "tiebreak"))
    choice = state.submission(leader, "successor")
    if choice is not None and state.is_alive(choice.target):
        install_leader(ctx, choice.target or "", leader)
    else:
        ctx.flag(memory.SUCCESSION, leader)
        ctx.trace(N_("The leader {name} left without a successor; he may still name one "
                     "until the next deadline (C5.4)."), name=leader)


def install_leader(ctx: Context, successor: str, former: str) -> None:
    """The successor takes over (C5.4); the former leader's choice of successor is spent."""
    ctx.flag(memory.SUCCESSION, None)
    if ctx.state.submission(former, "successor") is not None:
        ctx.emit(SubmissionWithdrawn(former, "successor"))
    ctx.emit(StatusChanged(successor, LEADER, True))
    ctx.trace(N_("{name} succeeds {former} as leader (C5.4)."), name=successor, former=former)
    ctx.announce(N_("{name} is the new leader, succeeding {former}."), name=successor,
                 former=former)


def resolve_pending_succession(ctx: Context) -> None:
    """At a deadline: a still-open succession is decided by chance (C5.4)."""
    state = ctx.state
    former = state.flags.get(memory.SUCCESSION)
    if former is None:
        return
    alive = state.alive()
    if not alive:
        ctx.flag(memory.SUCCESSION, None)
        return
    choice = state.submission(str(former), "successor")
    if choice is not None and state.is_alive(choice.target):
        install_leader(ctx, choice.target or "", str(former))
        return
    successor = ctx.draw("succession", alive)
    ctx.trace(N_("{former} named no successor: chance picks {name} (C5.4)."),
              former=former, name=successor)
    install_leader(ctx, successor, str(former))

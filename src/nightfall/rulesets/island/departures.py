"""What follows a departure at once: the announcement, the role revealed unless a solar
eclipse hides it (I5), and the half-blood turning werewolf (I1.3)."""

from __future__ import annotations

from nightfall.engine import N_, Context, GameState, Term
from nightfall.engine.events import RoleAssigned
from nightfall.rulesets.island import memory
from nightfall.rulesets.island.happenings import SOLAR_ECLIPSE
from nightfall.rulesets.island.roles import (
    EATEN,
    HALF_BLOOD,
    HAMSTER_KILL,
    LYNCHED,
    MODKILL,
    NIGHT_CAUSES,
    NIGHT_DEATH,
    ROLE_REVEALING_CAUSES,
    SEER_CHECK,
    WEREWOLF,
    WITCH_KILL,
)
from nightfall.rulesets.island.seating import seating

_LEFT = {
    LYNCHED: N_("{name} was lynched."),
    EATEN: N_("{name} was eaten by the werewolves."),
    WITCH_KILL: N_("{name} was killed by the witch."),
    HAMSTER_KILL: N_("{name} was killed by the mutant hamster."),
    # I5 [R]: only the hamster dies of the seer's look, so the public reads "in the night"
    SEER_CHECK: N_("{name} died in the night."),
    MODKILL: N_("{name} left the island."),
}


#: why a dead player's role is not public yet (``role_hiding``)
BY_ECLIPSE = "eclipse"
UNTIL_MORNING = "morning"


def role_hiding(state: GameState, player: str) -> str | None:
    """Why the role of the dead ``player`` is not public, if it is not (I5 solar eclipse):
    ``BY_ECLIPSE`` for a player lynched on an eclipse day or killed in the night before
    one, until the game ends; ``UNTIL_MORNING`` for a night death whose role is yet to be
    announced with the next day's event [R] (in the evening of the death, and while the
    GM has yet to set the day's event). A role announced once stays public, even if the
    GM sets an eclipse afterwards (``daytime.reveal_night_dead``)."""
    p = state.players[player]
    if state.ended or p.alive or p.left_phase is None:
        return None
    day = int(p.left_phase.split(" ")[1])
    if p.left_cause == LYNCHED:
        return BY_ECLIPSE if memory.event_on(state, day) == SOLAR_ECLIPSE else None
    if p.left_cause not in NIGHT_CAUSES or player in memory.names(state, memory.SHOWN):
        return None
    morning = memory.event_on(state, day + 1)
    if morning == SOLAR_ECLIPSE:
        return BY_ECLIPSE
    if state.phase.number <= day or (state.phase.number == day + 1 and morning is None):
        return UNTIL_MORNING
    return None


def role_hidden(state: GameState, player: str) -> bool:
    """Whether the dead ``player``'s role is kept from the players (``role_hiding``)."""
    return role_hiding(state, player) is not None


def public_cause(state: GameState, player: str) -> str | None:
    """The cause of ``player``'s departure as everybody may read it (I5 solar eclipse
    [R]): a cause only one role can suffer (the seer's look kills only the hamster) reads
    "died in the night" until the game ends, since it is announced at step 20, before
    step 21 draws whether the next day is an eclipse; the role itself is shown next
    morning unless the eclipse hides it. Every other cause names the killer or nothing:
    ``eaten`` (any islander but the mafia), ``witch``, ``hamster``, ``lynched``,
    ``modkill``."""
    cause = state.players[player].left_cause
    if cause in ROLE_REVEALING_CAUSES and not state.ended:
        return NIGHT_DEATH
    return cause


def on_departure(ctx: Context, player: str, cause: str) -> None:
    state = ctx.state
    role = state.players[player].role or ""
    ctx.announce(_LEFT.get(cause, _LEFT[MODKILL]), name=player)
    if cause not in NIGHT_CAUSES and not role_hidden(state, player):
        # the night's dead are revealed with the next day's event (daytime.start_day)
        ctx.announce(N_("{name} was {role}."), name=player, role=Term("role", role))
    if role == WEREWOLF:
        convert_half_bloods(ctx)


def convert_half_bloods(ctx: Context) -> None:
    """I1.3: when the last werewolf dies, every living half-blood becomes a werewolf."""
    state = ctx.state
    if any(state.players[p].role == WEREWOLF for p in state.alive()):
        return
    for name in seating(state):
        if state.is_alive(name) and state.players[name].role == HALF_BLOOD:
            ctx.emit(RoleAssigned(name, WEREWOLF))
            ctx.notify(name, "became_werewolf")
            ctx.trace(N_("The last werewolf is dead: the half-blood {name} becomes a werewolf "
                         "(I1.3)."), name=name)

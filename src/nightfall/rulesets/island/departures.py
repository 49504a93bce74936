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
    SEER_CHECK: N_("{name}'s brain could not stand the seer's look: {name} died."),
    MODKILL: N_("{name} left the island."),
}


def role_hidden(state: GameState, player: str) -> bool:
    """I5 solar eclipse: the role of a player lynched on an eclipse day, or killed in the
    night before one, stays hidden until the game ends."""
    p = state.players[player]
    if state.ended or p.alive or p.left_phase is None:
        return False
    day = int(p.left_phase.split(" ")[1])
    if p.left_cause == LYNCHED:
        return memory.event_on(state, day) == SOLAR_ECLIPSE
    if p.left_cause in NIGHT_CAUSES:
        return memory.event_on(state, day + 1) == SOLAR_ECLIPSE or (
            day == state.phase.number and state.phase.stage != 1
        )
    return False


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

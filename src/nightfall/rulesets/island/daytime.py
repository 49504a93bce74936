"""The day around the vote: the day's event (I5), stage 1 at 13:00 (I7 stage 1), the
items used by day (shocker, love note), and step 21 (tomorrow's event)."""

from __future__ import annotations

from nightfall.engine import N_, Context, Step, Term, declare_steps
from nightfall.engine.events import ItemGiven, ItemTaken, StatusChanged, SubmissionWithdrawn
from nightfall.rulesets.island import effects, memory, spirit
from nightfall.rulesets.island.happenings import (
    BUNKER,
    DESCRIPTIONS,
    EVENT_IDS,
    EXCHANGE,
    MAGNETIC_STORM,
    MYSTIC_LIGHT,
    PICK_ME,
    SOLAR_ECLIPSE,
    SPIRIT,
    TSUNAMI,
)
from nightfall.rulesets.island.items import (
    ITEM_IDS,
    LOVE_NOTE,
    SHOCKER,
    holds,
    items_work,
    used_items,
)
from nightfall.rulesets.island.roles import DAY_STATUSES, IMMUNE, NIGHT_CAUSES, SHOCKED, SILENCED
from nightfall.rulesets.island.seating import seating


# -- the start of a day ----------------------------------------------------------------------
def start_day(ctx: Context) -> None:
    """A new game day (22:00): yesterday's day statuses end, last night's silence begins
    (I2.7), the day's event is announced (I5) and last night's dead are revealed."""
    state = ctx.state
    number = state.phase.number
    for player in state.players.values():
        for status in sorted(player.statuses & DAY_STATUSES):
            ctx.emit(StatusChanged(player.name, status, False))
    for key in (memory.EVENT, memory.PICK_ME, memory.SPIRIT, memory.VIOLATIONS,
                memory.DETECTIONS, memory.OVERRULED, memory.LOVE_NOTES):
        ctx.flag(key, None)
    ctx.announce(N_("Day {number} begins on the island."), number=number)
    for name in memory.names(state, memory.SILENCE_NEXT):
        if state.is_alive(name):
            ctx.emit(StatusChanged(name, SILENCED, True))
            ctx.announce(N_("{name} was visited by the maniac and is silenced today."),
                         name=name)
    ctx.flag(memory.SILENCE_NEXT, None)
    event = state.flags.get(memory.NEXT_EVENT)
    ctx.flag(memory.NEXT_EVENT, None)
    if event is None and state.options.get("random_events"):
        event = ctx.draw("event", list(EVENT_IDS))
    if event is not None:
        start_event(ctx, str(event))  # it shows last night's dead, unless an eclipse
    # without an event (random_events off) the GM sets it: the roles wait for it, or
    # for 13:00 (step_event_results), so that his eclipse can still hide them (I5 [R])


def reveal_night_dead(ctx: Context, day: int) -> None:
    """I2/I3.2: the roles of the night's dead are shown with the day's event, unless it is
    a solar eclipse (I5). Each one shown is remembered: shown once, never again, and an
    eclipse the GM sets later that day does not pretend to hide it
    (``departures.role_hidden`` [R])."""
    state = ctx.state
    if memory.today_event(state) == SOLAR_ECLIPSE:
        return
    shown = memory.names(state, memory.SHOWN)
    for player in seating(state):
        p = state.players[player]
        if (not p.alive and p.left_cause in NIGHT_CAUSES and p.left_phase == f"day {day}"
                and player not in shown):
            ctx.announce(N_("{name} was {role}."), name=player, role=Term("role", p.role or ""))
            shown.append(player)
    ctx.flag(memory.SHOWN, shown or None)


def start_event(ctx: Context, event: str, chosen: str | None = None) -> None:
    """I5: today's event begins: announced, and tsunami and pick me! act at once [R]."""
    state = ctx.state
    ctx.flag(memory.EVENT, event)
    history = memory.mapping(state, memory.EVENT_HISTORY)
    history[str(state.phase.number)] = event
    ctx.flag(memory.EVENT_HISTORY, history)
    if event == PICK_ME:
        alive = [p for p in seating(state) if state.is_alive(p)]
        if chosen is None or not state.is_alive(chosen):
            chosen = ctx.draw("pick_me", alive) if alive else None
        if chosen is not None:
            ctx.flag(memory.PICK_ME, chosen)
            ctx.emit(StatusChanged(chosen, IMMUNE, True))
    ctx.announce(N_("Today's event: {event}"), event=Term("event", event))
    ctx.announce(DESCRIPTIONS[event], name=chosen, until=memory.midday(state))
    if event == TSUNAMI:
        tsunami(ctx)
    if state.phase.number > 1:  # I5 [R]: last night's dead, unless the eclipse hides them
        reveal_night_dead(ctx, state.phase.number - 1)


def tsunami(ctx: Context) -> None:
    """I5 tsunami: every living player's items are collected and dealt again at random."""
    state = ctx.state
    alive = [p for p in seating(state) if state.is_alive(p)]
    counts = {p: len(state.players[p].items) for p in alive}
    pool: list[tuple[str, bool]] = []
    for player in alive:
        pool += effects.take_all(ctx, player)
    for player in alive:
        for _ in range(counts[player]):
            item = ctx.draw("tsunami:" + player, [i for i, _ in pool])
            index = next(n for n, (i, _) in enumerate(pool) if i == item)
            _, used = pool.pop(index)
            ctx.emit(ItemGiven(player, item, used))


# -- items used by day -----------------------------------------------------------------------
#: the items used by day, in the order they take effect, with their submission slots
_DAY_ITEM_SLOTS = tuple((item, "item:" + item) for item in (SHOCKER, LOVE_NOTE))


def activate_day_items(ctx: Context) -> None:
    """I7 stage 1 step 2 / stage 2 step 1: shockers and love notes used so far take effect
    and become public (I4)."""
    state = ctx.state
    submissions = state.submissions  # (read directly: two slots of every seat, twice a day)
    for player in seating(state):
        for item, slot in _DAY_ITEM_SLOTS:
            sub = submissions.get((player, slot))
            if sub is None:
                continue
            ctx.emit(SubmissionWithdrawn(player, slot))
            target = sub.target
            if not state.is_alive(player) or target is None or not state.is_alive(target):
                ctx.trace(N_("{name}'s {item} finds no living target."), name=player,
                          item=Term("item", item))
                continue
            if not items_work(state) or not holds(state, player, item, unused=True):
                ctx.trace(N_("{name}'s {item} does not work."), name=player,
                          item=Term("item", item))
                continue
            effects.activate(ctx, player, item, target)
            if item == SHOCKER:
                ctx.emit(StatusChanged(target, SHOCKED, True))
                ctx.trace(N_("{name} shocks {target}: no vote and no word today (I4)."),
                          name=player, target=target)
            else:
                notes = [list(n) for n in memory.love_notes(state)]
                ctx.flag(memory.LOVE_NOTES, [*notes, [player, target]])
                ctx.trace(N_("{name} sends {target} a love note: no votes between them "
                             "today (I4)."), name=player, target=target)


# -- stage 1 (13:00) -------------------------------------------------------------------------
def step_event_results(ctx: Context) -> None:
    """Stage 1 step 1: bunker, exchange, mystic light, pick me!, spirit, magnetic storm.
    A day without an event shows last night's dead now, at the latest (I5 [R])."""
    event = memory.today_event(ctx.state)
    if event is None and ctx.state.phase.number > 1:
        reveal_night_dead(ctx, ctx.state.phase.number - 1)
    if event == BUNKER:
        _bunker(ctx)
    elif event == EXCHANGE:
        _exchange(ctx)
    elif event == MYSTIC_LIGHT:
        _mystic_light(ctx)
    elif event == PICK_ME:
        _pick_me(ctx)
    elif event == SPIRIT:
        _spirit(ctx)
    elif event == MAGNETIC_STORM:
        ctx.trace(N_("Magnetic storm: no item works until tomorrow morning (I5)."))


def _bunker(ctx: Context) -> None:
    state = ctx.state
    for player in seating(state):
        sub = state.submission(player, "bunker")
        held = state.players[player].items
        if sub is None or not state.is_alive(player) or not held:
            continue
        old = sub.choice if sub.choice and holds(state, player, sub.choice) else held[0].id
        in_play = {i.id for p in state.alive() for i in state.players[p].items}
        pool = [i for i in ITEM_IDS if i not in in_play] or [i for i in ITEM_IDS if i != old]
        new = ctx.draw("bunker:" + player, pool)
        ctx.emit(ItemTaken(player, old))
        ctx.emit(ItemGiven(player, new))
        ctx.trace(N_("{name} swaps {item} in the bunker for {new} (I5)."), name=player,
                  item=Term("item", old), new=Term("item", new))
        ctx.announce(N_("{name} swapped his item in the bunker."), name=player)


def _exchange(ctx: Context) -> None:
    state = ctx.state
    done: set[str] = set()
    for player in seating(state):
        sub = state.submission(player, "exchange")
        if sub is None or player in done or not state.is_alive(player):
            continue
        partner = sub.target
        answer = state.submission(partner, "exchange") if partner else None
        if partner is None or partner in done or answer is None or answer.target != player:
            ctx.trace(N_("{name} offers an exchange to {target}, who does not agree."),
                      name=player, target=partner)
            continue
        if not state.is_alive(partner):
            continue
        effects.swap_holdings(ctx, player, partner, recharge_used=True)
        done.update((player, partner))
        ctx.trace(N_("{name} and {target} exchange their items (I5)."), name=player,
                  target=partner)
        ctx.announce(N_("{name} and {target} exchanged their items."), name=player,
                     target=partner)


def _mystic_light(ctx: Context) -> None:
    state = ctx.state
    for player in seating(state):
        sub = state.submission(player, "mystic")
        if sub is None or not state.is_alive(player):
            continue
        used = used_items(state, player)
        item = sub.choice if sub.choice in used else (used[0] if used else None)
        if item is None:
            continue
        effects.recharge(ctx, player, item)
        ctx.trace(N_("{name} recharges the {item} in the mystic light (I5)."), name=player,
                  item=Term("item", item))
        ctx.announce(N_("{name} recharged an item in the mystic light."), name=player)


def _pick_me(ctx: Context) -> None:
    state = ctx.state
    chosen = state.flags.get(memory.PICK_ME)
    if chosen is None:
        return
    sub = state.submission(str(chosen), "pick_me")
    if sub is None or not state.is_alive(sub.target) or not state.is_alive(str(chosen)):
        ctx.trace(N_("{name} names no partner (I5)."), name=chosen)
        return
    partner = sub.target or ""
    ctx.emit(StatusChanged(partner, IMMUNE, True))
    ctx.trace(N_("{name} names {target} as partner: both are immune to the lynch today "
                 "(I5)."), name=chosen, target=partner)
    ctx.announce(N_("{name} chose {target}: both are immune to the lynch today."),
                 name=chosen, target=partner)


def _spirit(ctx: Context) -> None:
    """I5 spirit: the day's question, its asker and the answer are published (spirit.py)."""
    spirit.publish(ctx)


def step_day_items(ctx: Context) -> None:
    """Stage 1 step 2: shockers and love notes used until 13:00."""
    activate_day_items(ctx)


def step_next_event(ctx: Context) -> None:
    """Step 21: tomorrow's event is drawn and announced in the newspaper (I5)."""
    state = ctx.state
    if not state.options.get("random_events"):
        ctx.trace(N_("No event is drawn at random in this game (option random_events)."))
        return
    event = ctx.draw("event", list(EVENT_IDS))
    ctx.flag(memory.NEXT_EVENT, event)
    ctx.trace(N_("Tomorrow's event: {event}."), event=Term("event", event))


STAGE_ONE_STEPS: tuple[Step, ...] = declare_steps(
    Step(1, "event_results", "I7.1.1", step_event_results, N_("Results of the day's event")),
    Step(2, "day_items", "I7.1.2", step_day_items, N_("Item results so far (shocker, love note)")),
)

(NEXT_EVENT_STEP,) = declare_steps(
    Step(21, "next_event", "I7.2.21", step_next_event, N_("Next day's event")))

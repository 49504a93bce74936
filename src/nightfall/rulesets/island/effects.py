"""Small building blocks the steps share: using up an item and making it public (I4),
moving items between players, and the pending deaths of the night (I7 steps 8–20)."""

from __future__ import annotations

from nightfall.engine import N_, Context, Term
from nightfall.engine.events import ItemGiven, ItemTaken, ItemUsedChanged
from nightfall.rulesets.island import memory
from nightfall.rulesets.island.items import SHEEP_SKIN


def day_number(ctx: Context) -> int:
    return ctx.state.phase.number


def activate(ctx: Context, user: str, item: str, target: str | None = None) -> None:
    """I4: an activatable item is used up and from now on public: who, and on whom."""
    ctx.emit(ItemUsedChanged(user, item, True))
    log = memory.activations(ctx.state)
    log.append({"day": day_number(ctx), "item": item, "user": user, "target": target})
    ctx.flag(memory.ACTIVATIONS, log)
    if target is None:
        ctx.announce(N_("{name} used the {item}."), name=user, item=Term("item", item))
    elif item == SHEEP_SKIN:  # worn, not played on somebody: it hands the lynch on
        ctx.announce(N_("The {item} of {name} works: {target} is lynched in his place."),
                     name=user, item=Term("item", item), target=target)
    else:
        ctx.announce(N_("{name} used the {item} on {target}."), name=user,
                     item=Term("item", item), target=target)


def recharge(ctx: Context, player: str, item: str) -> None:
    ctx.emit(ItemUsedChanged(player, item, False))


def take_all(ctx: Context, player: str) -> list[tuple[str, bool]]:
    """Take every item from ``player``; returns (item, used) pairs."""
    taken = [(i.id, i.used) for i in ctx.state.players[player].items]
    for item, _ in taken:
        ctx.emit(ItemTaken(player, item))
    return taken


def give(ctx: Context, player: str, items: list[tuple[str, bool]]) -> None:
    for item, used in items:
        ctx.emit(ItemGiven(player, item, used))


def swap_holdings(ctx: Context, a: str, b: str, *, recharge_used: bool = False) -> None:
    """Exchange everything ``a`` and ``b`` hold (I2.6 sleepwalker, I5 exchange)."""
    from_a, from_b = take_all(ctx, a), take_all(ctx, b)
    if recharge_used:  # I5 exchange: used items are recharged by the swap
        from_a = [(item, False) for item, _ in from_a]
        from_b = [(item, False) for item, _ in from_b]
    give(ctx, a, from_b)
    give(ctx, b, from_a)

"""Guests of the thread: the dead and outside observers, where the rule set lets them post.

Some rule sets keep the thread for the living (Changelings C2.7: a departed player posts
no more); others let the dead and outsiders chat in it (Island I6.7: «тематический
флуд», no hints, marked as coming from the dead or an observer). The core knows no rule
set by name: a rule set declares its guests in :attr:`Ruleset.thread_guests` and says
when the thread is closed to them (:meth:`Ruleset.guest_thread_closed`).

A *dead* guest is a player of the game; his rule set's own ``post`` accepts him and marks
the post (``Posted.voice = "dead"``), so that his legal commands list the post like any
other. An *observer* is no player: the GM admits him by name (the GM act ``admit``, an
:class:`~nightfall.engine.events.ObserverAdmitted`), after which his ``post`` is handled
here and marked ``"observer"``. An observer never votes or acts; he sees the public view.
His link is the adapters' business (the store keeps its hash like a player's).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from nightfall.engine import events as ev
from nightfall.engine.commands import Command
from nightfall.engine.errors import Rejected
from nightfall.engine.names import name_keys
from nightfall.engine.text import N_

if TYPE_CHECKING:
    from nightfall.engine.game import Context
    from nightfall.engine.state import GameState

#: the voices a rule set may admit besides the living players (``Ruleset.thread_guests``)
DEAD, OBSERVER = "dead", "observer"
#: the GM act that lets an outsider in as an observer (``target``: his name)
ADMIT = "admit"
#: the longest post and the longest observer's name (the web's limits, kept here too)
TEXT_LIMIT, NAME_LIMIT = 10_000, 40


def name_taken(state: GameState, name: str) -> bool:
    """Is ``name`` (or a look-alike) a player's or an observer's already?"""
    keys = name_keys(name)  # the UTS #39 skeletons (engine/names.py)
    return any(keys & name_keys(other) for other in (*state.players, *state.observers))


def admit(ctx: Context, command: Command) -> None:
    """The GM act ``admit``: let ``command.target`` into the thread as an observer.

    Refused (nothing changed) where the rule set admits no observers, for a name without a
    letter or digit, a name too long, or one a player or another observer has already."""
    state = ctx.state
    if OBSERVER not in ctx.ruleset.thread_guests:
        raise Rejected(N_("This game's rules let no observers into the thread."))
    name = (command.target or "").strip()
    if not name:
        raise Rejected(N_("An observer needs a name."))
    if len(name) > NAME_LIMIT or not name.isprintable():
        raise Rejected(N_("A name has at most {limit} printable characters."), limit=NAME_LIMIT)
    if not any(c.isalnum() for c in name):
        raise Rejected(N_("A name needs at least one letter or digit."))
    if name_taken(state, name):
        raise Rejected(N_("The name {name} is already taken."), name=name)
    ctx.emit(ev.GmActed(ADMIT, name))
    ctx.emit(ev.ObserverAdmitted(name))


def observer_acts(ctx: Context, command: Command) -> None:
    """A command by an observer: a post in the thread, marked as his, if the rule set
    keeps the thread open to guests now; anything else is refused (he never plays)."""
    state = ctx.state
    if command.action != "post":
        raise Rejected(N_("An observer only posts in the thread; he never votes or acts."))
    if OBSERVER not in ctx.ruleset.thread_guests:
        raise Rejected(N_("This game's rules let no observers into the thread."))
    closed = ctx.ruleset.guest_thread_closed(state)
    if closed is not None:
        raise Rejected(closed.msgid, **dict(closed.params))
    text = (command.text or "").strip()
    if not text:
        raise Rejected(N_("A post needs some text."))
    if len(text) > TEXT_LIMIT:
        raise Rejected(N_("The text is too long (at most {limit} characters)."),
                       limit=TEXT_LIMIT)
    ctx.emit(ev.Posted(command.by or "", state.phase_label, text, OBSERVER))


def observer_view(public: dict[str, Any], name: str) -> dict[str, Any]:
    """What an observer may know: the public view, nothing more, and his own name."""
    return {**public, "observer": {"name": name}}

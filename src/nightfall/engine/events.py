"""Events: the only thing the log stores. The game state is the fold of its events.

Events are frozen dataclasses named in the past tense. They are generic: no event names
a role. Rule-set-specific memory (a once-per-game ability used, last night's shield
target, a pending abduction) is kept in :class:`FlagSet` events under namespaced keys.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from nightfall.engine.pickling import by_fields, restore
from nightfall.engine.text import Text


@dataclass(frozen=True, slots=True)
class Event:
    """Base class; ``type_name`` identifies the event in serialised logs.

    The name comes from :data:`TYPE_NAMES`, a registry by class, not from a class
    attribute: mypyc (``scripts/build_compiled.sh``) turns a ``ClassVar`` on a dataclass
    into a field, and the events are compiled with the engine. Events pickle through
    their constructor (``engine/pickling.py``), as the state's records do: the state keeps
    its ``StepTraced`` events, and a compiled frozen dataclass refuses field-by-field
    unpickling."""

    @property
    def type_name(self) -> str:
        return TYPE_NAMES[type(self)]

    def __reduce__(self) -> tuple[Any, ...]:
        return by_fields(self)

    def __setstate__(self, state: Any) -> None:
        restore(self, state)  # pickles written before events were compiled


@dataclass(frozen=True, slots=True)
class GameCreated(Event):
    ruleset: str
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    locale: str = "en"


@dataclass(frozen=True, slots=True)
class PlayerJoined(Event):
    player: str
    description: str = ""


@dataclass(frozen=True, slots=True)
class PlayerWithdrew(Event):
    player: str


@dataclass(frozen=True, slots=True)
class RoleAssigned(Event):
    player: str
    role: str


@dataclass(frozen=True, slots=True)
class StatusChanged(Event):
    player: str
    status: str
    present: bool


@dataclass(frozen=True, slots=True)
class ItemGiven(Event):
    """A player receives an item (dealt, swapped, exchanged); ``used`` as it arrives."""

    player: str
    item: str
    used: bool = False


@dataclass(frozen=True, slots=True)
class ItemTaken(Event):
    """A player loses an item (swapped away, collected)."""

    player: str
    item: str


@dataclass(frozen=True, slots=True)
class ItemUsedChanged(Event):
    """An item is used up (``used=True``) or recharged (``used=False``)."""

    player: str
    item: str
    used: bool


@dataclass(frozen=True, slots=True)
class PlayerLeft(Event):
    player: str
    cause: str
    phase: str


@dataclass(frozen=True, slots=True)
class PhaseStarted(Event):
    kind: str
    number: int
    stage: int
    label: str
    at: datetime | None = None
    deadline: datetime | None = None


@dataclass(frozen=True, slots=True)
class DeadlineChanged(Event):
    deadline: datetime | None


@dataclass(frozen=True, slots=True)
class Submitted(Event):
    """A player's input for the current round (a vote, a night action, a choice)."""

    player: str
    action: str
    slot: str
    targets: tuple[str, ...] = ()
    choice: str | None = None
    text: str | None = None
    standing: bool = False


@dataclass(frozen=True, slots=True)
class SubmissionWithdrawn(Event):
    player: str
    slot: str


@dataclass(frozen=True, slots=True)
class Posted(Event):
    """A post in the public game thread. ``voice`` marks a post that does not come from a
    living player, where the rule set lets such guests post (``Ruleset.thread_guests``):
    ``"dead"`` (a departed player) or ``"observer"`` (an outsider the GM let in)."""

    player: str
    phase: str
    text: str
    voice: str | None = None


@dataclass(frozen=True, slots=True)
class GmPosted(Event):
    """A post of the game master in the public thread (a story post, a reminder): in the
    thread in order with the players' posts, marked as the game master's."""

    phase: str
    text: str


@dataclass(frozen=True, slots=True)
class ObserverAdmitted(Event):
    """The GM let an outsider into the thread as an observer (``engine/guests.py``): he
    may post, marked as an observer, where the rule set admits observers; he never plays."""

    name: str


@dataclass(frozen=True, slots=True)
class RandomDrawn(Event):
    """One draw of the seeded RNG: ``chosen`` out of ``population`` (draw ``index``)."""

    purpose: str
    index: int
    population: tuple[str, ...]
    chosen: str


@dataclass(frozen=True, slots=True)
class FlagSet(Event):
    key: str
    value: Any


@dataclass(frozen=True, slots=True)
class NoticeSent(Event):
    """A private notice to one player; ``notice`` is structured (``kind`` plus fields)."""

    player: str
    notice: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Announced(Event):
    """A public announcement by the game master."""

    phase: str
    text: Text


@dataclass(frozen=True, slots=True)
class VotesCounted(Event):
    """The corrected tally of a closed vote (``ballot`` e.g. ``elect`` or ``vote``)."""

    phase: str
    ballot: str
    tally: dict[str, int]
    ballots: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class StepTraced(Event):
    """What one resolution step did and why, in order (the resolution trace)."""

    phase: str
    number: int
    step: str
    rule: str
    lines: tuple[Text, ...]


@dataclass(frozen=True, slots=True)
class StageClosed(Event):
    """A stage's deadline passed (or the GM closed or skipped it): its resolution follows.

    The phase boundary that ``undo`` returns to."""

    phase: str
    skipped: bool = False


@dataclass(frozen=True, slots=True)
class RolledBack(Event):
    """The GM undid everything from log position ``to_seq`` on (an audit trail: the
    undone events stay in the log, the state is folded as if they never happened)."""

    to_seq: int
    phase: str


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    winner: str
    winners: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GmActed(Event):
    """Audit record of a game-master act (extend, skip, modkill, ...)."""

    action: str
    target: str | None = None
    detail: str | None = None


#: the stored name of each event type (the ``type`` column of the log; never rename one)
TYPE_NAMES: dict[type[Event], str] = {
    cls: cls.__name__
    for cls in (
        GameCreated, PlayerJoined, PlayerWithdrew, RoleAssigned, StatusChanged, ItemGiven,
        ItemTaken, ItemUsedChanged, PlayerLeft,
        PhaseStarted, DeadlineChanged, Submitted, SubmissionWithdrawn, Posted, RandomDrawn, FlagSet,
        NoticeSent, Announced, VotesCounted, StepTraced, StageClosed, RolledBack, GameEnded,
        GmActed, GmPosted, ObserverAdmitted,
    )
}
EVENT_TYPES: dict[str, type[Event]] = {name: cls for cls, name in TYPE_NAMES.items()}

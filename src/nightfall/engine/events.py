"""Events: the only thing the log stores. The game state is the fold of its events.

Events are slotted dataclasses named in the past tense. They are generic: no event names
a role. Rule-set-specific memory (a once-per-game ability used, last night's shield
target, a pending abduction) is kept in :class:`FlagSet` events under namespaced keys.

**Events are immutable by contract**, not by ``frozen=True``: a game builds hundreds of
them (a frozen dataclass's ``__init__`` sets every field through
``object.__setattr__``, about five times the cost of a plain slotted one, and that was a
fifth of a simulated game). Nothing may assign to an event's field, nor change a dict or
list an event holds (the fold copies what the state keeps and may change:
``engine/state.py``). ``tests/test_event_immutability.py`` plays the scenarios and
simulated games with a guard that refuses every assignment to an event after its
construction and checks every event of the log against what it was when it was
recorded. They hash and compare by their fields as before (``unsafe_hash``: the hash of
the frozen classes).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from nightfall.engine.pickling import by_fields, restore
from nightfall.engine.text import Text


@dataclass(slots=True, unsafe_hash=True)
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


@dataclass(slots=True, unsafe_hash=True)
class GameCreated(Event):
    ruleset: str
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    locale: str = "en"


@dataclass(slots=True, unsafe_hash=True, init=False)
class PlayerJoined(Event):
    player: str
    description: str = ""

    # own __init__, compiled by mypyc (tests/test_record_inits.py)
    def __init__(self, player: str, description: str = "") -> None:
        self.player = player
        self.description = description


@dataclass(slots=True, unsafe_hash=True)
class PlayerWithdrew(Event):
    player: str


@dataclass(slots=True, unsafe_hash=True, init=False)
class RoleAssigned(Event):
    player: str
    role: str

    # own __init__, compiled by mypyc (tests/test_record_inits.py)
    def __init__(self, player: str, role: str) -> None:
        self.player = player
        self.role = role


@dataclass(slots=True, unsafe_hash=True)
class StatusChanged(Event):
    player: str
    status: str
    present: bool


@dataclass(slots=True, unsafe_hash=True, init=False)
class ItemGiven(Event):
    """A player receives an item (dealt, swapped, exchanged); ``used`` as it arrives."""

    player: str
    item: str
    used: bool = False

    # own __init__, compiled by mypyc (tests/test_record_inits.py)
    def __init__(self, player: str, item: str, used: bool = False) -> None:
        self.player = player
        self.item = item
        self.used = used


@dataclass(slots=True, unsafe_hash=True)
class ItemTaken(Event):
    """A player loses an item (swapped away, collected)."""

    player: str
    item: str


@dataclass(slots=True, unsafe_hash=True)
class ItemUsedChanged(Event):
    """An item is used up (``used=True``) or recharged (``used=False``)."""

    player: str
    item: str
    used: bool


@dataclass(slots=True, unsafe_hash=True, init=False)
class PlayerLeft(Event):
    player: str
    cause: str
    phase: str

    # own __init__, compiled by mypyc (tests/test_record_inits.py)
    def __init__(self, player: str, cause: str, phase: str) -> None:
        self.player = player
        self.cause = cause
        self.phase = phase


@dataclass(slots=True, unsafe_hash=True, init=False)
class PhaseStarted(Event):
    kind: str
    number: int
    stage: int
    label: str
    at: datetime | None = None
    deadline: datetime | None = None

    # own __init__, compiled by mypyc (tests/test_record_inits.py)
    def __init__(self, kind: str, number: int, stage: int, label: str,
                 at: datetime | None = None, deadline: datetime | None = None) -> None:
        self.kind = kind
        self.number = number
        self.stage = stage
        self.label = label
        self.at = at
        self.deadline = deadline


@dataclass(slots=True, unsafe_hash=True)
class DeadlineChanged(Event):
    deadline: datetime | None


@dataclass(slots=True, unsafe_hash=True, init=False)
class Submitted(Event):
    """A player's input for the current round (a vote, a night action, a choice)."""

    player: str
    action: str
    slot: str
    targets: tuple[str, ...] = ()
    choice: str | None = None
    text: str | None = None
    standing: bool = False

    # own __init__, compiled by mypyc (tests/test_record_inits.py)
    def __init__(self, player: str, action: str, slot: str, targets: tuple[str, ...] = (),
                 choice: str | None = None, text: str | None = None,
                 standing: bool = False) -> None:
        self.player = player
        self.action = action
        self.slot = slot
        self.targets = targets
        self.choice = choice
        self.text = text
        self.standing = standing


@dataclass(slots=True, unsafe_hash=True)
class SubmissionWithdrawn(Event):
    player: str
    slot: str


@dataclass(slots=True, unsafe_hash=True)
class Posted(Event):
    """A post in the public game thread. ``voice`` marks a post that does not come from a
    living player, where the rule set lets such guests post (``Ruleset.thread_guests``):
    ``"dead"`` (a departed player) or ``"observer"`` (an outsider the GM let in)."""

    player: str
    phase: str
    text: str
    voice: str | None = None


@dataclass(slots=True, unsafe_hash=True)
class GmPosted(Event):
    """A post of the game master in the public thread (a story post, a reminder): in the
    thread in order with the players' posts, marked as the game master's."""

    phase: str
    text: str


@dataclass(slots=True, unsafe_hash=True)
class ObserverAdmitted(Event):
    """The GM let an outsider into the thread as an observer (``engine/guests.py``): he
    may post, marked as an observer, where the rule set admits observers; he never plays."""

    name: str


@dataclass(slots=True, unsafe_hash=True, init=False)
class RandomDrawn(Event):
    """One draw of the seeded RNG: ``chosen`` out of ``population`` (draw ``index``)."""

    purpose: str
    index: int
    population: tuple[str, ...]
    chosen: str

    # own __init__, compiled by mypyc (tests/test_record_inits.py)
    def __init__(self, purpose: str, index: int, population: tuple[str, ...],
                 chosen: str) -> None:
        self.purpose = purpose
        self.index = index
        self.population = population
        self.chosen = chosen


@dataclass(slots=True, unsafe_hash=True, init=False)
class FlagSet(Event):
    key: str
    value: Any

    # own __init__, compiled by mypyc (tests/test_record_inits.py)
    def __init__(self, key: str, value: Any) -> None:
        self.key = key
        self.value = value


@dataclass(slots=True, unsafe_hash=True, init=False)
class NoticeSent(Event):
    """A private notice to one player; ``notice`` is structured (``kind`` plus fields)."""

    player: str
    notice: dict[str, Any]

    # own __init__, compiled by mypyc (tests/test_record_inits.py)
    def __init__(self, player: str, notice: dict[str, Any]) -> None:
        self.player = player
        self.notice = notice


@dataclass(slots=True, unsafe_hash=True, init=False)
class Announced(Event):
    """A public announcement by the game master."""

    phase: str
    text: Text

    # own __init__, compiled by mypyc (tests/test_record_inits.py)
    def __init__(self, phase: str, text: Text) -> None:
        self.phase = phase
        self.text = text


@dataclass(slots=True, unsafe_hash=True)
class VotesCounted(Event):
    """The corrected tally of a closed vote (``ballot`` e.g. ``elect`` or ``vote``)."""

    phase: str
    ballot: str
    tally: dict[str, int]
    ballots: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True, unsafe_hash=True)
class StepTraced(Event):
    """What one resolution step did and why, in order (the resolution trace)."""

    phase: str
    number: int
    step: str
    rule: str
    lines: tuple[Text, ...]


@dataclass(slots=True, unsafe_hash=True, init=False)
class StageClosed(Event):
    """A stage's deadline passed (or the GM closed or skipped it): its resolution follows.

    The phase boundary that ``undo`` returns to."""

    phase: str
    skipped: bool = False

    # own __init__, compiled by mypyc (tests/test_record_inits.py)
    def __init__(self, phase: str, skipped: bool = False) -> None:
        self.phase = phase
        self.skipped = skipped


@dataclass(slots=True, unsafe_hash=True)
class RolledBack(Event):
    """The GM undid everything from log position ``to_seq`` on (an audit trail: the
    undone events stay in the log, the state is folded as if they never happened)."""

    to_seq: int
    phase: str


@dataclass(slots=True, unsafe_hash=True)
class GameEnded(Event):
    winner: str
    winners: tuple[str, ...] = ()


@dataclass(slots=True, unsafe_hash=True)
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

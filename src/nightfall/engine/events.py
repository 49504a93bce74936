"""Events: the only thing the log stores. The game state is the fold of its events.

Events are frozen dataclasses named in the past tense. They are generic: no event names
a role. Rule-set-specific memory (a once-per-game ability used, last night's shield
target, a pending abduction) is kept in :class:`FlagSet` events under namespaced keys.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar

from nightfall.engine.text import Text


@dataclass(frozen=True, slots=True)
class Event:
    """Base class; ``type_name`` identifies the event in serialised logs."""

    type_name: ClassVar[str] = "Event"


@dataclass(frozen=True, slots=True)
class GameCreated(Event):
    type_name: ClassVar[str] = "GameCreated"
    ruleset: str
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    locale: str = "en"


@dataclass(frozen=True, slots=True)
class PlayerJoined(Event):
    type_name: ClassVar[str] = "PlayerJoined"
    player: str
    description: str = ""


@dataclass(frozen=True, slots=True)
class PlayerWithdrew(Event):
    type_name: ClassVar[str] = "PlayerWithdrew"
    player: str


@dataclass(frozen=True, slots=True)
class RoleAssigned(Event):
    type_name: ClassVar[str] = "RoleAssigned"
    player: str
    role: str


@dataclass(frozen=True, slots=True)
class StatusChanged(Event):
    type_name: ClassVar[str] = "StatusChanged"
    player: str
    status: str
    present: bool


@dataclass(frozen=True, slots=True)
class ItemGiven(Event):
    """A player receives an item (dealt, swapped, exchanged); ``used`` as it arrives."""

    type_name: ClassVar[str] = "ItemGiven"
    player: str
    item: str
    used: bool = False


@dataclass(frozen=True, slots=True)
class ItemTaken(Event):
    """A player loses an item (swapped away, collected)."""

    type_name: ClassVar[str] = "ItemTaken"
    player: str
    item: str


@dataclass(frozen=True, slots=True)
class ItemUsedChanged(Event):
    """An item is used up (``used=True``) or recharged (``used=False``)."""

    type_name: ClassVar[str] = "ItemUsedChanged"
    player: str
    item: str
    used: bool


@dataclass(frozen=True, slots=True)
class PlayerLeft(Event):
    type_name: ClassVar[str] = "PlayerLeft"
    player: str
    cause: str
    phase: str


@dataclass(frozen=True, slots=True)
class PhaseStarted(Event):
    type_name: ClassVar[str] = "PhaseStarted"
    kind: str
    number: int
    stage: int
    label: str
    at: datetime | None = None
    deadline: datetime | None = None


@dataclass(frozen=True, slots=True)
class DeadlineChanged(Event):
    type_name: ClassVar[str] = "DeadlineChanged"
    deadline: datetime | None


@dataclass(frozen=True, slots=True)
class Submitted(Event):
    """A player's input for the current round (a vote, a night action, a choice)."""

    type_name: ClassVar[str] = "Submitted"
    player: str
    action: str
    slot: str
    targets: tuple[str, ...] = ()
    choice: str | None = None
    text: str | None = None
    standing: bool = False


@dataclass(frozen=True, slots=True)
class SubmissionWithdrawn(Event):
    type_name: ClassVar[str] = "SubmissionWithdrawn"
    player: str
    slot: str


@dataclass(frozen=True, slots=True)
class Posted(Event):
    """A post in the public game thread."""

    type_name: ClassVar[str] = "Posted"
    player: str
    phase: str
    text: str


@dataclass(frozen=True, slots=True)
class RandomDrawn(Event):
    """One draw of the seeded RNG: ``chosen`` out of ``population`` (draw ``index``)."""

    type_name: ClassVar[str] = "RandomDrawn"
    purpose: str
    index: int
    population: tuple[str, ...]
    chosen: str


@dataclass(frozen=True, slots=True)
class FlagSet(Event):
    type_name: ClassVar[str] = "FlagSet"
    key: str
    value: Any


@dataclass(frozen=True, slots=True)
class NoticeSent(Event):
    """A private notice to one player; ``notice`` is structured (``kind`` plus fields)."""

    type_name: ClassVar[str] = "NoticeSent"
    player: str
    notice: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Announced(Event):
    """A public announcement by the game master."""

    type_name: ClassVar[str] = "Announced"
    phase: str
    text: Text


@dataclass(frozen=True, slots=True)
class VotesCounted(Event):
    """The corrected tally of a closed vote (``ballot`` e.g. ``elect`` or ``vote``)."""

    type_name: ClassVar[str] = "VotesCounted"
    phase: str
    ballot: str
    tally: dict[str, int]
    ballots: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class StepTraced(Event):
    """What one resolution step did and why, in order (the resolution trace)."""

    type_name: ClassVar[str] = "StepTraced"
    phase: str
    number: int
    step: str
    rule: str
    lines: tuple[Text, ...]


@dataclass(frozen=True, slots=True)
class StageClosed(Event):
    """A stage's deadline passed (or the GM closed or skipped it): its resolution follows.

    The phase boundary that ``undo`` returns to."""

    type_name: ClassVar[str] = "StageClosed"
    phase: str
    skipped: bool = False


@dataclass(frozen=True, slots=True)
class RolledBack(Event):
    """The GM undid everything from log position ``to_seq`` on (an audit trail: the
    undone events stay in the log, the state is folded as if they never happened)."""

    type_name: ClassVar[str] = "RolledBack"
    to_seq: int
    phase: str


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    type_name: ClassVar[str] = "GameEnded"
    winner: str
    winners: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GmActed(Event):
    """Audit record of a game-master act (extend, skip, modkill, ...)."""

    type_name: ClassVar[str] = "GmActed"
    action: str
    target: str | None = None
    detail: str | None = None


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type_name: cls
    for cls in (
        GameCreated, PlayerJoined, PlayerWithdrew, RoleAssigned, StatusChanged, ItemGiven,
        ItemTaken, ItemUsedChanged, PlayerLeft,
        PhaseStarted, DeadlineChanged, Submitted, SubmissionWithdrawn, Posted, RandomDrawn, FlagSet,
        NoticeSent, Announced, VotesCounted, StepTraced, StageClosed, RolledBack, GameEnded,
        GmActed,
    )
}

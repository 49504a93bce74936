"""The game state and the fold that builds it from events.

The state is a plain mutable record that only :func:`apply` changes, one event at a
time. Replaying a log into a fresh :class:`GameState` reproduces it exactly, which the
property tests check by comparing with ``==``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any

from nightfall.engine import events as ev
from nightfall.engine.caches import keep
from nightfall.engine.phase import ENDED, SIGNUP, Phase
from nightfall.engine.pickling import by_fields, restore
from nightfall.engine.text import Text, to_data


@dataclass(frozen=True, slots=True, init=False)
class Item:
    """An item in a player's hands and whether it is used up (needs a recharge)."""

    id: str
    used: bool = False

    # own __init__, compiled by mypyc (tests/test_record_inits.py)
    def __init__(self, id: str, used: bool = False) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "used", used)

    def __reduce__(self) -> tuple[Any, ...]:
        return by_fields(self)

    def __setstate__(self, state: Any) -> None:
        restore(self, state)


@dataclass
class PlayerState:
    name: str
    seat: int
    description: str = ""
    role: str | None = None
    statuses: set[str] = field(default_factory=set)
    items: list[Item] = field(default_factory=list)
    alive: bool = True
    left_cause: str | None = None
    left_phase: str | None = None


@dataclass(frozen=True, slots=True, init=False)
class Submission:
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
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "action", action)
        object.__setattr__(self, "slot", slot)
        object.__setattr__(self, "targets", targets)
        object.__setattr__(self, "choice", choice)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "standing", standing)

    @property
    def target(self) -> str | None:
        return self.targets[0] if self.targets else None

    def __reduce__(self) -> tuple[Any, ...]:
        return by_fields(self)

    def __setstate__(self, state: Any) -> None:
        restore(self, state)


@dataclass(frozen=True, slots=True, init=False)
class PhaseRecord:
    """One entry of the phase history shown in the status post."""

    kind: str
    number: int
    stage: int
    label: str
    at: datetime | None
    deadline: datetime | None

    # own __init__, compiled by mypyc (tests/test_record_inits.py)
    def __init__(self, kind: str, number: int, stage: int, label: str, at: datetime | None,
                 deadline: datetime | None) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "number", number)
        object.__setattr__(self, "stage", stage)
        object.__setattr__(self, "label", label)
        object.__setattr__(self, "at", at)
        object.__setattr__(self, "deadline", deadline)

    def __reduce__(self) -> tuple[Any, ...]:
        return by_fields(self)

    def __setstate__(self, state: Any) -> None:
        restore(self, state)


@dataclass(frozen=True, slots=True, init=False)
class Announcement:
    phase: str
    text: Text

    # own __init__, compiled by mypyc (tests/test_record_inits.py)
    def __init__(self, phase: str, text: Text) -> None:
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "text", text)

    def __reduce__(self) -> tuple[Any, ...]:
        return by_fields(self)

    def __setstate__(self, state: Any) -> None:
        restore(self, state)


@dataclass(frozen=True, slots=True)
class Post:
    """A post in the thread; ``player`` is ``None`` for the game master's (``GmPosted``).
    ``voice`` marks a guest's post: ``"dead"`` or ``"observer"`` (``Posted.voice``)."""

    player: str | None
    phase: str
    text: str
    voice: str | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        return by_fields(self)

    def __setstate__(self, state: Any) -> None:
        restore(self, state)


#: The parts of the state that derived data (the legal lists' caches, rule-set memos; see
#: :func:`derived`) can depend on. Every event bumps the counter of each part it changes
#: (:data:`EVENT_PARTS`), so a cached value keyed by the counters of the parts it read is
#: valid exactly as long as they are unchanged.
PLAYERS = 0  #: who plays, roles, statuses, items, who left
PHASE = 1  #: the phase, its label, deadline and history; the options (set once)
SUBMISSIONS = 2  #: the inputs of the round
FLAGS = 3  #: the rule set's flags
RECORD = 4  #: what was said and counted: thread, announcements, notices, tallies, traces,
#: the winner, the draws
PARTS = (PLAYERS, PHASE, SUBMISSIONS, FLAGS, RECORD)
#: the parts each event changes; an event type missing here changes all of them
EVENT_PARTS: dict[type[ev.Event], tuple[int, ...]] = {
    ev.PlayerJoined: (PLAYERS, RECORD), ev.PlayerWithdrew: (PLAYERS, RECORD),
    ev.RoleAssigned: (PLAYERS,), ev.StatusChanged: (PLAYERS,), ev.ItemGiven: (PLAYERS,),
    ev.ItemTaken: (PLAYERS,), ev.ItemUsedChanged: (PLAYERS,), ev.PlayerLeft: (PLAYERS,),
    ev.PhaseStarted: (PHASE, SUBMISSIONS), ev.DeadlineChanged: (PHASE,),
    ev.Submitted: (SUBMISSIONS,), ev.SubmissionWithdrawn: (SUBMISSIONS,),
    ev.FlagSet: (FLAGS,), ev.Posted: (RECORD,), ev.GmPosted: (RECORD,),
    ev.RandomDrawn: (RECORD,), ev.NoticeSent: (RECORD,), ev.Announced: (RECORD,),
    ev.VotesCounted: (RECORD,), ev.StepTraced: (RECORD,), ev.GameEnded: (RECORD,),
    ev.StageClosed: (), ev.GmActed: (),
}


@dataclass
class GameState:
    ruleset: str = ""
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    locale: str = "en"
    players: dict[str, PlayerState] = field(default_factory=dict)
    phase: Phase = field(default_factory=lambda: Phase(SIGNUP))
    phase_label: str = SIGNUP
    phase_at: datetime | None = None
    deadline: datetime | None = None
    history: list[PhaseRecord] = field(default_factory=list)
    submissions: dict[tuple[str, str], Submission] = field(default_factory=dict)
    flags: dict[str, Any] = field(default_factory=dict)
    notices: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    announcements: list[Announcement] = field(default_factory=list)
    thread: list[Post] = field(default_factory=list)
    #: outsiders the GM let into the thread (``ObserverAdmitted``), in the order admitted
    observers: list[str] = field(default_factory=list)
    last_votes: dict[str, int] = field(default_factory=dict)
    last_ballots: dict[str, str] = field(default_factory=dict)
    traces: list[ev.StepTraced] = field(default_factory=list)
    winner: str | None = None
    winners: tuple[str, ...] = ()
    draws: int = 0
    #: data derived from the fields above that projections keep between calls (see
    #: :func:`public_record`); never folded, compared, copied or pickled
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    #: per part of the state (:data:`PARTS`), how often an event changed it: the keys of
    #: the caches in ``memo``; like ``memo`` never compared, copied or pickled (a state
    #: that is unpickled or rebuilt starts with both empty)
    stamp: list[int] = field(default_factory=lambda: [0] * len(PARTS), compare=False,
                             repr=False)

    def __getstate__(self) -> dict[str, Any]:
        # by the declared fields, not ``__dict__``: a compiled build has no ``__dict__``
        return {f.name: getattr(self, f.name) for f in fields(self)
                if f.name not in ("memo", "stamp")}

    def __setstate__(self, data: dict[str, Any]) -> None:
        for name, value in data.items():
            setattr(self, name, value)
        if "observers" not in data:  # a snapshot pickled before observers existed
            self.observers = []
        self.memo = {}
        self.stamp = [0] * len(PARTS)

    # -- read helpers used by rule sets -------------------------------------------------
    @property
    def ended(self) -> bool:
        return self.phase.kind == ENDED

    def alive(self) -> list[str]:
        """Names of the players still in the game, in seating order."""
        return [p.name for p in self.players.values() if p.alive]

    def is_alive(self, name: str | None) -> bool:
        player = self.players.get(name) if name is not None else None
        return player is not None and player.alive

    def role_of(self, name: str) -> str | None:
        return self.players[name].role

    def has_status(self, name: str, status: str) -> bool:
        return status in self.players[name].statuses

    def with_status(self, status: str, alive_only: bool = True) -> list[str]:
        return [
            p.name
            for p in self.players.values()
            if status in p.statuses and (p.alive or not alive_only)
        ]

    def submission(self, player: str, slot: str) -> Submission | None:
        return self.submissions.get((player, slot))

    def submissions_in(self, slot: str) -> list[Submission]:
        return [s for (_, s_slot), s in self.submissions.items() if s_slot == slot]


def public_record(state: GameState) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The announcements and the thread posts as plain data, for every projection.

    Every player's view shows them all, and bots ask for a view on every turn: converting
    the whole history each time made views quadratic in the game's length. Both lists only
    grow (an undo or a rollback builds a new state), so each entry is converted once and
    kept in ``state.memo``; the lists returned are new, their entries shared (views are
    read, never written). The memo's lists are replaced, never extended in place: a
    server shares one loaded game between the threads that read it, and two of them
    extending the same list at once would have doubled entries.
    """
    memo = state.memo
    announcements: list[dict[str, Any]] = memo.get("announcements", [])
    if len(announcements) < len(state.announcements):
        announcements = announcements + [
            {"phase": a.phase, "text": to_data(a.text)}
            for a in state.announcements[len(announcements):]]
        memo["announcements"] = announcements
    thread: list[dict[str, Any]] = memo.get("thread", [])
    if len(thread) < len(state.thread):
        thread = thread + [_post_data(p) for p in state.thread[len(thread):]]
        memo["thread"] = thread
    return list(announcements), list(thread)


def _post_data(post: Post) -> dict[str, Any]:
    """A thread post as data: the game master's has no player and says ``"gm": True``."""
    data: dict[str, Any] = {"player": post.player, "phase": post.phase, "text": post.text}
    if post.player is None:
        data["gm"] = True
    if post.voice is not None:
        data["voice"] = post.voice
    return data


Applier = Callable[[GameState, Any], None]
_APPLIERS: dict[type[ev.Event], Applier] = {}


def _applies(event_type: type[ev.Event]) -> Callable[[Applier], Applier]:
    def register(fn: Applier) -> Applier:
        _APPLIERS[event_type] = fn
        return fn

    return register


@_applies(ev.GameCreated)
def _created(state: GameState, e: ev.GameCreated) -> None:
    state.ruleset, state.seed, state.locale = e.ruleset, e.seed, e.locale
    state.options = dict(e.options)


@_applies(ev.PlayerJoined)
def _joined(state: GameState, e: ev.PlayerJoined) -> None:
    state.players[e.player] = PlayerState(e.player, len(state.players), e.description)
    state.notices.setdefault(e.player, [])


@_applies(ev.PlayerWithdrew)
def _withdrew(state: GameState, e: ev.PlayerWithdrew) -> None:
    del state.players[e.player]
    state.notices.pop(e.player, None)
    for seat, player in enumerate(state.players.values()):
        player.seat = seat


@_applies(ev.RoleAssigned)
def _role(state: GameState, e: ev.RoleAssigned) -> None:
    state.players[e.player].role = e.role


@_applies(ev.StatusChanged)
def _status(state: GameState, e: ev.StatusChanged) -> None:
    statuses = state.players[e.player].statuses
    if e.present:
        statuses.add(e.status)
    else:
        statuses.discard(e.status)


@_applies(ev.ItemGiven)
def _item_given(state: GameState, e: ev.ItemGiven) -> None:
    state.players[e.player].items.append(Item(e.item, e.used))


@_applies(ev.ItemTaken)
def _item_taken(state: GameState, e: ev.ItemTaken) -> None:
    items = state.players[e.player].items
    for index, item in enumerate(items):
        if item.id == e.item:
            del items[index]
            return


@_applies(ev.ItemUsedChanged)
def _item_used(state: GameState, e: ev.ItemUsedChanged) -> None:
    items = state.players[e.player].items
    for index, item in enumerate(items):
        if item.id == e.item:
            items[index] = Item(item.id, e.used)
            return


@_applies(ev.PlayerLeft)
def _left(state: GameState, e: ev.PlayerLeft) -> None:
    player = state.players[e.player]
    player.alive, player.left_cause, player.left_phase = False, e.cause, e.phase


#: how many shared records the fold keeps per kind before it starts again (names and
#: dates differ from game to game: stay bounded)
_SHARED_LIMIT = 50_000
#: the phases and phase records folded so far, by their fields (frozen, so shared; see
#: ``_SUBMISSIONS``): every game of a simulation starts the same phases
_PHASES: dict[tuple[Any, ...], tuple[Phase, PhaseRecord]] = {}


@_applies(ev.PhaseStarted)
def _phase(state: GameState, e: ev.PhaseStarted) -> None:
    key = (e.kind, e.number, e.stage, e.label, e.at, e.deadline)
    found = _PHASES.get(key)
    if found is None:
        found = keep(_PHASES, key, (Phase(e.kind, e.number, e.stage), PhaseRecord(*key)),
                     _SHARED_LIMIT)
    new, record = found
    if new.round != state.phase.round:
        state.submissions = {k: s for k, s in state.submissions.items() if s.standing}
    state.phase, state.phase_label = new, e.label
    state.phase_at, state.deadline = e.at, e.deadline
    state.history.append(record)


@_applies(ev.DeadlineChanged)
def _deadline(state: GameState, e: ev.DeadlineChanged) -> None:
    state.deadline = e.deadline
    if state.history:
        last = state.history[-1]
        state.history[-1] = PhaseRecord(
            last.kind, last.number, last.stage, last.label, last.at, e.deadline
        )


#: the submissions folded so far, by their fields: a frozen record is safe to share, and
#: building one costs several times looking it up (seven ``object.__setattr__`` calls;
#: the simulator folds the same few hundred over and over)
_SUBMISSIONS: dict[tuple[Any, ...], Submission] = {}


@_applies(ev.Submitted)
def _submitted(state: GameState, e: ev.Submitted) -> None:
    key = (e.player, e.action, e.slot, e.targets, e.choice, e.text, e.standing)
    try:
        submission = _SUBMISSIONS.get(key)
    except TypeError:  # a field that does not hash (not from the engine): built as before
        state.submissions[(e.player, e.slot)] = Submission(*key)
        return
    if submission is None:
        submission = keep(_SUBMISSIONS, key, Submission(*key), _SHARED_LIMIT)
    state.submissions[(e.player, e.slot)] = submission


@_applies(ev.SubmissionWithdrawn)
def _withdrawn(state: GameState, e: ev.SubmissionWithdrawn) -> None:
    state.submissions.pop((e.player, e.slot), None)


@_applies(ev.Posted)
def _posted(state: GameState, e: ev.Posted) -> None:
    state.thread.append(Post(e.player, e.phase, e.text, e.voice))


@_applies(ev.ObserverAdmitted)
def _observer(state: GameState, e: ev.ObserverAdmitted) -> None:
    state.observers.append(e.name)


@_applies(ev.GmPosted)
def _gm_posted(state: GameState, e: ev.GmPosted) -> None:
    state.thread.append(Post(None, e.phase, e.text))


@_applies(ev.RandomDrawn)
def _drawn(state: GameState, e: ev.RandomDrawn) -> None:
    state.draws = e.index + 1


@_applies(ev.FlagSet)
def _flag(state: GameState, e: ev.FlagSet) -> None:
    if e.value is None:
        state.flags.pop(e.key, None)
    else:
        state.flags[e.key] = e.value


@_applies(ev.NoticeSent)
def _notice(state: GameState, e: ev.NoticeSent) -> None:
    state.notices.setdefault(e.player, []).append(dict(e.notice))


@_applies(ev.Announced)
def _announced(state: GameState, e: ev.Announced) -> None:
    state.announcements.append(Announcement(e.phase, e.text))


@_applies(ev.VotesCounted)
def _counted(state: GameState, e: ev.VotesCounted) -> None:
    state.last_votes, state.last_ballots = dict(e.tally), dict(e.ballots)


@_applies(ev.StepTraced)
def _traced(state: GameState, e: ev.StepTraced) -> None:
    state.traces.append(e)


@_applies(ev.GameEnded)
def _ended(state: GameState, e: ev.GameEnded) -> None:
    state.winner, state.winners = e.winner, e.winners


@_applies(ev.StageClosed)
def _stage_closed(state: GameState, e: ev.StageClosed) -> None:
    """A marker for undo; the resolution's own events carry its effects."""


@_applies(ev.RolledBack)
def _rolled_back(state: GameState, e: ev.RolledBack) -> None:
    raise ValueError("RolledBack is folded by Game, which holds the history it needs")


@_applies(ev.GmActed)
def _gm(state: GameState, e: ev.GmActed) -> None:
    """GM acts are audit records; their effects come as separate events."""


#: event type -> its fold function (``Game._record`` calls it directly: one call less per event)
APPLIERS: Mapping[type[ev.Event], Applier] = _APPLIERS
#: event type -> (its fold function, the parts of the state it changes): what
#: ``Game._record`` looks up once per event
FOLDS: Mapping[type[ev.Event], tuple[Applier, tuple[int, ...]]] = {
    kind: (fn, EVENT_PARTS.get(kind, PARTS)) for kind, fn in _APPLIERS.items()}


def apply(state: GameState, event: ev.Event) -> None:
    """Fold one event into ``state`` (in place)."""
    _APPLIERS[type(event)](state, event)
    stamp = state.stamp
    for part in EVENT_PARTS.get(type(event), PARTS):
        stamp[part] += 1


def derived(state: GameState, key: Any, parts: Sequence[int],
            compute: Callable[[GameState], Any]) -> Any:
    """``compute(state)``, kept in ``state.memo`` under ``key`` until an event changes one
    of ``parts`` (the parts of the state ``compute`` reads; all of :data:`PARTS` when in
    doubt). Several players' legal lists in one stage ask the same questions (who leads,
    what the stage awaits); this answers each once. The memo entry is replaced whole, so
    threads sharing a loaded game never see half of one."""
    stamp = state.stamp
    # one part (most questions): its counter itself is the mark, no tuple built
    mark: Any = stamp[parts[0]] if len(parts) == 1 else tuple(map(stamp.__getitem__, parts))
    entry = state.memo.get(key)
    if entry is not None and entry[0] == mark:
        return entry[1]
    value = compute(state)
    state.memo[key] = (mark, value)
    return value


def fold(events: Iterable[ev.Event]) -> GameState:
    """Build a state from scratch out of a log."""
    state = GameState()
    for event in events:
        apply(state, event)
    return state

"""What the pages show, built from a game and its log (no HTML here).

The log is read with the undo rule applied: a ``RolledBack(to_seq)`` event removes every
event from ``to_seq`` on, exactly as :class:`nightfall.engine.Game` folds it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from nightfall.engine import Game, Rejected, Ruleset, Text
from nightfall.engine import events as ev
from nightfall.engine.talk import GM_MESSAGE, notice_text
from nightfall.engine.text import N_

LogEntry = tuple[int, datetime, ev.Event]


def effective(log: Sequence[LogEntry]) -> list[LogEntry]:
    """The events that count after every undo, in order."""
    kept: list[LogEntry] = []
    for entry in log:
        event = entry[2]
        if isinstance(event, ev.RolledBack):
            kept = [e for e in kept if e[0] < event.to_seq]
            continue
        kept.append(entry)
    return kept


@dataclass
class ThreadEntry:
    kind: str  # post, gm (the game master's post), vote, unvote, announcement, phase
    seq: int
    at: datetime
    phase: str
    player: str | None = None
    text: str = ""
    message: Text | None = None
    action: str | None = None
    targets: tuple[str, ...] = ()
    latest: bool = True
    number: int = 0
    """The entry's place in the thread (1, 2, …): what pages and live updates count by.
    Never the log's seq, whose gaps would count the hidden events in between."""
    #: a guest's post (I6.7): ``"dead"`` or ``"observer"``; ``None`` for a living player's
    voice: str | None = None


def thread(log: Sequence[LogEntry], public_slots: frozenset[str]) -> list[ThreadEntry]:
    """The public thread: posts, the public votes (highlighted; the last one counts), the
    game master's posts and announcements, and a marker where each phase begins."""
    entries: list[ThreadEntry] = []
    phase = "signup"
    for seq, at, event in effective(log):
        if isinstance(event, ev.PhaseStarted):
            phase = event.label
            if event.kind in ("day", "night", "ended"):
                entries.append(ThreadEntry("phase", seq, at, phase))
        elif isinstance(event, ev.Posted):
            entries.append(ThreadEntry("post", seq, at, event.phase, event.player, event.text,
                                       voice=event.voice))
        elif isinstance(event, ev.GmPosted):
            entries.append(ThreadEntry("gm", seq, at, event.phase, text=event.text))
        elif isinstance(event, ev.Announced):
            entries.append(ThreadEntry("announcement", seq, at, event.phase, message=event.text))
        elif (isinstance(event, ev.Submitted) and event.slot in public_slots
              and event.action != "pass"):
            entries.append(ThreadEntry("vote", seq, at, phase, event.player,
                                       action=event.action, targets=event.targets))
        elif isinstance(event, ev.SubmissionWithdrawn) and event.slot in public_slots:
            entries.append(ThreadEntry("unvote", seq, at, phase, event.player, action="unvote"))
    for number, entry in enumerate(entries, start=1):
        entry.number = number
    seen: set[tuple[str | None, str]] = set()
    for entry in reversed(entries):
        if entry.kind in ("vote", "unvote"):
            key = (entry.player, entry.phase)
            entry.latest = key not in seen
            seen.add(key)
    return entries


#: entries on one page of the thread (a day of a busy game has a few hundred)
THREAD_PAGE_SIZE = 50


@dataclass(frozen=True)
class ThreadPage:
    """One page of the thread: pages are numbered from the oldest (1) to the newest."""

    entries: list[ThreadEntry]
    number: int
    count: int
    total: int
    """How many entries the whole thread has."""

    @property
    def newest(self) -> bool:
        return self.number == self.count

    @property
    def after(self) -> int:
        """The number of the page's last entry: live updates append what comes after."""
        return self.entries[-1].number if self.entries else 0


def page_number(raw: object) -> int | None:
    """The page asked for in a query (``?page=3``); ``None`` (the newest) for anything
    that is not a page number — a link is never an error."""
    if isinstance(raw, str) and raw.isdigit() and len(raw) <= 9:
        return int(raw)
    return None


def page_slice(total: int, number: int | None, size: int = THREAD_PAGE_SIZE
               ) -> tuple[slice, int, int]:
    """Which of ``total`` items page ``number`` holds, the page's number and how many
    pages there are (``None`` or past the end: the newest; before the start: the first).
    The newest page is full from the end, so the oldest is the one that may be short."""
    count = max(1, -(-total // size))
    chosen = count if number is None else min(max(number, 1), count)
    end = total - (count - chosen) * size
    return slice(max(end - size, 0), end), chosen, count


def thread_page(entries: Sequence[ThreadEntry], number: int | None,
                size: int = THREAD_PAGE_SIZE) -> ThreadPage:
    """Page ``number`` of the thread's ``entries`` (see :func:`page_slice`)."""
    part, chosen, count = page_slice(len(entries), number, size)
    return ThreadPage(list(entries[part]), chosen, count, len(entries))


def paged_view(view: dict[str, Any], number: int | None, total: int | None = None,
               sliced: bool = False) -> dict[str, Any]:
    """A view (as data) with only page ``number`` of its ``thread``, and ``thread_page``
    saying which: the API's answer stays the same size however long the game runs.
    ``sliced``: the view's thread already is that page of a thread of ``total`` entries."""
    thread = view.get("thread")
    if not isinstance(thread, list):
        return view
    total = len(thread) if total is None else total
    part, chosen, count = page_slice(total, number)
    return {**view, "thread": thread if sliced else thread[part],
            "thread_page": {"number": chosen, "count": count, "size": THREAD_PAGE_SIZE,
                            "total": total}}


def thread_since(entries: Sequence[ThreadEntry], after: int
                 ) -> tuple[list[ThreadEntry], list[ThreadEntry]]:
    """What a reader who has the thread up to entry number ``after`` is missing: the new
    entries, and his entries whose vote a new one replaced (now shown as superseded)."""
    new = [e for e in entries if e.number > after]
    replaced_keys = {(e.player, e.phase) for e in new if e.kind in ("vote", "unvote")}
    last_before: dict[tuple[str | None, str], ThreadEntry] = {}
    for entry in entries:
        if entry.number <= after and entry.kind in ("vote", "unvote"):
            last_before[(entry.player, entry.phase)] = entry
    replaced = [entry for key, entry in last_before.items() if key in replaced_keys]
    return new, replaced


#: what each public vote is about, as the tally's heading and a vote's line in the thread
#: ("Erdbeere votes to banish Honig", not "Erdbeere votes: vote → Honig")
VOTE_TITLES = {"elect": N_("Votes for leader"), "vote": N_("Votes to banish")}
VOTE_LINES = {"elect": N_("{name} votes for {targets} as leader."),
              "vote": N_("{name} votes to banish {targets}.")}
VOTE_LINE = N_("{name} votes: {action} → {targets}")


def tally(ballots: Mapping[str, str]) -> list[tuple[str, list[str]]]:
    """The current votes by target, most votes first: each target with who votes for him,
    so a reader sees the standing at a glance instead of counting names."""
    by_target: dict[str, list[str]] = {}
    for voter, target in ballots.items():
        by_target.setdefault(target, []).append(voter)
    return sorted(by_target.items(), key=lambda item: (-len(item[1]), item[0]))


@dataclass
class NoticeLine:
    """One private notice; ``gm_text`` is the game master's message as he wrote it (shown
    with the thread's markup rules), ``None`` for a notice of the rules."""

    phase: str
    at: datetime
    text: Text
    gm_text: str | None = None


def notice_line(phase: str, at: datetime, ruleset: Ruleset, notice: Mapping[str, Any]
                ) -> NoticeLine:
    gm_text = str(notice.get("text", "")) if notice.get("kind") == GM_MESSAGE else None
    return NoticeLine(phase, at, notice_text(ruleset, notice), gm_text)


def notices(log: Sequence[LogEntry], ruleset: Ruleset, player: str) -> list[NoticeLine]:
    """Every private notice ``player`` received, with the phase it came in."""
    found: list[NoticeLine] = []
    phase = "signup"
    for _, at, event in effective(log):
        if isinstance(event, ev.PhaseStarted):
            phase = event.label
        elif isinstance(event, ev.NoticeSent) and event.player == player:
            found.append(notice_line(phase, at, ruleset, event.notice))
    return found


@dataclass
class GmMessage:
    phase: str
    at: datetime
    player: str
    text: str


def gm_messages(log: Sequence[LogEntry]) -> list[GmMessage]:
    """The game master's private messages (``tell``), newest first: the GM's record of
    what he wrote to whom (his dashboard)."""
    found: list[GmMessage] = []
    phase = "signup"
    for _, at, event in effective(log):
        if isinstance(event, ev.PhaseStarted):
            phase = event.label
        elif isinstance(event, ev.NoticeSent) and event.notice.get("kind") == GM_MESSAGE:
            found.append(GmMessage(phase, at, event.player, str(event.notice.get("text", ""))))
    return found[::-1]


def all_notices(log: Sequence[LogEntry], ruleset: Ruleset) -> dict[str, list[NoticeLine]]:
    found: dict[str, list[NoticeLine]] = {}
    phase = "signup"
    for _, at, event in effective(log):
        if isinstance(event, ev.PhaseStarted):
            phase = event.label
        elif isinstance(event, ev.NoticeSent):
            found.setdefault(event.player, []).append(
                notice_line(phase, at, ruleset, event.notice))
    return found


def public_slots(game: Game) -> frozenset[str]:
    """The submission slots the rule set shows to everybody (the public votes)."""
    votes = game.view(None).get("votes")
    return frozenset(votes) if isinstance(votes, dict) else frozenset()


def gm_view(game: Game) -> dict[str, Any]:
    view = getattr(game.ruleset, "gm_view", None)
    return view(game.state) if callable(view) else game.view(None)


@dataclass
class Preview:
    steps: list[ev.StepTraced] = field(default_factory=list)
    announcements: list[Text] = field(default_factory=list)
    next_phase: str | None = None
    error: Text | None = None


def preview(game: Game, now: datetime) -> Preview:
    """The resolution the current stage would get if it closed now — run on a copy of
    the game in memory and thrown away; nothing is stored."""
    copy = game.copy()
    try:
        produced = copy.advance(now)
    except Rejected as error:
        return Preview(error=error.reason)
    return Preview(
        [e for e in produced if isinstance(e, ev.StepTraced)],
        [e.text for e in produced if isinstance(e, ev.Announced)],
        copy.state.phase_label,
    )


@dataclass
class PlayerRow:
    name: str
    description: str
    role: str | None
    alive: bool
    statuses: list[str]
    items: list[tuple[str, bool]]
    left: str | None
    submitted: list[tuple[str, str, tuple[str, ...], str | None, str | None]]
    awaited: list[str]
    could: list[str]


def dashboard_rows(game: Game) -> list[PlayerRow]:
    """Per player: role, state, what he has submitted for the current phase, what the
    stage still waits for from him, and what else he could still do."""
    state = game.state
    awaiting = game.ruleset.awaiting_inputs(state) if state.phase.is_play() else None
    rows = []
    for name, player in state.players.items():
        subs = [(slot, s.action, s.targets, s.choice, s.text)
                for (p, slot), s in sorted(state.submissions.items()) if p == name]
        awaited = sorted(slot for p, slot in (awaiting or set()) if p == name)
        could: list[str] = []
        if state.phase.is_play():
            for command in game.legal_commands(name):
                if command.action not in ("post", "pass", "unvote") and command.action not in could:
                    could.append(command.action)
        rows.append(PlayerRow(
            name, player.description, player.role, player.alive, sorted(player.statuses),
            [(i.id, i.used) for i in player.items], player.left_cause, subs, awaited, could))
    return rows

"""A game linked to its forum thread: the thread read by its address, counted at each
vote deadline (and whenever the GM asks), the clear votes submitted by themselves.

**The deadline.** :class:`ForumLinks` is a :class:`~nightfall.service.games.DeadlineHook`
of the game service. When the deadline of a stage in which votes are taken passes
(Changelings: the day's vote stop at 19:30, C2.5; Island: the day's vote, I6), the
scheduler's tick transaction — which holds the game's row (``FOR UPDATE SKIP LOCKED`` on
PostgreSQL), so one process decides for all — finds no count for this deadline, inserts
one as the claim (``forum_counts``, unique per game and ``<stage>@<deadline>``) and keeps
the stage open. After the pass the claiming process reads the thread (no transaction is
open while it fetches), counts the window (the stage's start to its deadline) under the
game's rules and state (players, who departed, who is voiceless), and stores the count
with every page it read. With auto-submit the clear votes then go into the game in one
transaction, each at its post's time, so the engine judges them as if cast in time
(C3.2: a lover's vote for the partner is refused there). Then the stage closes on the
same tick.

**What waits for the GM.** A vote whose name is ambiguous or unknown is never guessed:
its voter's vote is not submitted, and the stage stays open for the link's review time
(30 minutes by default: Changelings' result comes at 20:00, C2.5) or until the GM closes
it, so he can count again with aliases and submit. Without auto-submit every deadline
waits so for the GM. A read that fails (a login page, a timeout, a thread too big …)
changes nothing; with auto-submit the game goes on without forum votes and a GM post in
the thread says so. A read whose process died is abandoned after ``claim_timeout``.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import Connection

from nightfall.engine import Command, Game, Rejected
from nightfall.engine import events as ev
from nightfall.engine.text import N_, Text
from nightfall.forum import CastVote, PlayerListError, count_votes, render_bbcode, zone
from nightfall.forum.count import Reason, VoteCount
from nightfall.forum.fetch import (
    CachedPage,
    Credentials,
    FetchError,
    Limits,
    read_thread,
)
from nightfall.forum.reading import PageRead, ThreadRead, changes
from nightfall.i18n import localize
from nightfall.service.games import GameService
from nightfall.service.votecount import GameCount, game_count, submit_votes
from nightfall.store.forum import (
    ABANDONED,
    COUNTED,
    FAILED,
    READING,
    CachedRow,
    CountRow,
    ForumStore,
)

VOTE_ACTIONS = frozenset({"vote", "elect"})
#: how long a page load trusts that a running read still holds the stage
HOLD_GLANCE = timedelta(seconds=5)
UNRESOLVED = frozenset({Reason.UNKNOWN_NAME, Reason.AMBIGUOUS_NAME})


class LinkError(ValueError):
    """The link cannot be made as given; nothing was changed."""

    def __init__(self, msgid: str, **params: Any) -> None:
        super().__init__(msgid)
        self.text = Text(msgid, params)


@dataclass(frozen=True, slots=True)
class ForumLink:
    game_id: str
    url: str
    credentials: Credentials
    auto_submit: bool
    review_minutes: int

    @property
    def cookie_names(self) -> list[str]:
        """What may be shown of the cookies: their names, never their values."""
        return [name for name, _ in self.credentials.cookies]

    @property
    def header_names(self) -> list[str]:
        return [name for name, _ in self.credentials.headers]


# -- Text as JSON (with the moments it names) -------------------------------------------------
def text_to_json(text: Text) -> dict[str, Any]:
    def value(item: Any) -> Any:
        if isinstance(item, datetime):
            return {"$time": item.isoformat()}
        if isinstance(item, tuple | list):
            return [value(v) for v in item]
        return item if isinstance(item, str | int | float | bool) or item is None \
            else str(item)

    return {"msgid": text.msgid, "params": {k: value(v) for k, v in text.params.items()}}


def text_from_json(data: Mapping[str, Any]) -> Text:
    def value(item: Any) -> Any:
        if isinstance(item, dict) and "$time" in item:
            return datetime.fromisoformat(str(item["$time"]))
        if isinstance(item, list):
            return tuple(value(v) for v in item)
        return item

    return Text(str(data.get("msgid", "")),
                {k: value(v) for k, v in dict(data.get("params") or {}).items()})


@dataclass(slots=True)
class ForumCount:
    """A stored count as the GM page and the command line show it."""

    id: int
    automatic: bool
    phase: str
    deadline: datetime | None
    status: str
    url: str
    started_at: datetime
    finished_at: datetime | None
    error: Text | None = None
    tally: list[tuple[str, int, list[str]]] = field(default_factory=list)
    not_voting: list[str] = field(default_factory=list)
    invalid: list[dict[str, Any]] = field(default_factory=list)
    unresolved: list[dict[str, Any]] = field(default_factory=list)
    votes: list[CastVote] = field(default_factory=list)
    post: str = ""
    contract: dict[str, Any] = field(default_factory=dict)
    """The count as the command line's JSON contract."""
    pages: list[PageRead] = field(default_factory=list)
    notes: list[Text] = field(default_factory=list)
    issues: list[str] = field(default_factory=list)
    submitted: list[dict[str, Any]] = field(default_factory=list)
    """Per vote handed to the game: voter, target, post, ``outcome`` (``submitted``,
    ``unchanged``, ``refused``, ``held``) and the engine's ``reason`` (a Text)."""
    waiting: bool = False
    """Whether the stage waits for the GM (names to decide, or no auto-submit)."""
    announced: bool = False

    @classmethod
    def of(cls, row: CountRow) -> ForumCount:
        shown = cls(row.id, row.automatic, row.phase, row.deadline, row.status, row.url,
                    row.started_at, row.finished_at)
        result = row.result or {}
        if result.get("error"):
            shown.error = text_from_json(result["error"])
        shown.tally = [(str(t), int(n), [str(v) for v in voters])
                       for t, n, voters in result.get("tally", [])]
        shown.not_voting = [str(p) for p in result.get("not_voting", [])]
        shown.invalid = list(result.get("invalid", []))
        shown.unresolved = list(result.get("unresolved", []))
        shown.votes = [CastVote(v, t, p, datetime.fromisoformat(at) if at else None)
                       for v, t, p, at in result.get("votes", [])]
        shown.post = str(result.get("post", ""))
        shown.contract = dict(result.get("count", {}))
        shown.pages = [PageRead.from_json(p) for p in result.get("pages", [])]
        shown.notes = [text_from_json(n) for n in result.get("notes", [])]
        shown.issues = [str(i) for i in result.get("issues", [])]
        shown.submitted = [dict(s, reason=text_from_json(s["reason"]) if s.get("reason")
                                else None) for s in result.get("submitted", [])]
        shown.waiting = bool(result.get("waiting"))
        shown.announced = bool(result.get("announced"))
        return shown


class _Cache:
    """The page cache in the database: every server process re-reads conditionally what
    any of them read before."""

    def __init__(self, store: ForumStore) -> None:
        self.store = store

    def get(self, url: str) -> CachedPage | None:
        row = self.store.cached_page(url)
        return None if row is None else CachedPage(row.url, row.body, row.etag,
                                                   row.last_modified, row.fetched_at)

    def put(self, page: CachedPage) -> None:
        self.store.cache_page(CachedRow(page.url, page.body, page.etag, page.last_modified,
                                        page.fetched_at))


def votes_taken(game: Game) -> bool:
    """Whether the current stage's deadline is the day's vote stop: the stage takes the
    day's vote from some player and the day does not go on with another stage after it
    (Changelings: day N closes at 19:30, C2.5 — its tie-break wait N/2 takes no votes;
    Island: votes run through both halves of the day until 21:00, I6.1–I6.2)."""
    state = game.state
    if state.phase.kind != "day" or state.deadline is None:
        return False
    following = game.ruleset.next_phase(state)
    if following.kind == state.phase.kind and following.number == state.phase.number:
        return False  # the same day goes on: its vote stop is later
    return any(command.action in VOTE_ACTIONS
               for name, player in state.players.items() if player.alive
               for command in game.legal_commands(name))


def day_start(events: Sequence[ev.Event], game: Game) -> datetime | None:
    """When the current day began: the start of its first stage (the count's window runs
    from there to the vote stop; Island's day has two halves, I6.1)."""
    phase = game.state.phase
    start = game.state.phase_at
    for event in events:
        if isinstance(event, ev.PhaseStarted) and event.kind == phase.kind and \
                event.number == phase.number and event.stage == 1:
            start = event.at
    return start


def claim_key(game: Game) -> str:
    deadline = game.state.deadline
    assert deadline is not None
    return f"{game.state.phase_label}@{deadline.astimezone(UTC).isoformat()}"


class ForumLinks:
    """The forum threads of the service's games (see the module's docstring)."""

    def __init__(self, service: GameService, limits: Limits | None = None,
                 claim_timeout: timedelta = timedelta(minutes=15)) -> None:
        self.service = service
        self.store = ForumStore(service.engine)
        self.limits = limits or Limits()
        self.claim_timeout = claim_timeout
        self.cache = _Cache(self.store)
        self._claimed: list[int] = []
        self._held: dict[str, datetime] = {}
        self._lock = threading.Lock()
        service.deadline_hooks.append(self)

    @classmethod
    def of(cls, service: GameService, limits: Limits | None = None) -> ForumLinks:
        """The service's forum reader (made and attached on first use: one per service)."""
        for hook in service.deadline_hooks:
            if isinstance(hook, cls):
                return hook
        return cls(service, limits=limits or Limits.from_env())

    # -- the link ------------------------------------------------------------------------
    def link(self, game_id: str, url: str, credentials: Credentials | None = None,
             auto_submit: bool = False, review_minutes: int = 30) -> ForumLink:
        """Link ``game_id`` to the thread at ``url`` (any page of it); replaces a link.
        Raises :class:`LinkError` (and ``UnknownGame``)."""
        self.service.meta(game_id)
        address = url.strip()
        parts = urlsplit(address)
        if parts.scheme not in ("http", "https") or not parts.hostname or len(address) > 2000:
            raise LinkError(N_("{url} is not a web address (http:// or https://)."),
                            url=address[:200])
        if not 0 <= review_minutes <= 24 * 60:
            raise LinkError(N_("The time for the GM's review is 0 to 1440 minutes."))
        credentials = credentials or Credentials()
        self.store.set_link(game_id, address, credentials.to_json(), auto_submit,
                            review_minutes, self.service.clock.now())
        found = self.get(game_id)
        assert found is not None
        return found

    def unlink(self, game_id: str) -> bool:
        return self.store.unlink(game_id)

    def get(self, game_id: str) -> ForumLink | None:
        row = self.store.link(game_id)
        if row is None:
            return None
        return ForumLink(row.game_id, row.url, Credentials.from_json(row.credentials),
                         row.auto_submit, row.review_minutes)

    def counts(self, game_id: str, limit: int = 10) -> list[ForumCount]:
        """The game's counts, newest first."""
        return [ForumCount.of(row) for row in self.store.counts(game_id, limit)]

    # -- a count the GM asks for -----------------------------------------------------------
    def count_now(self, game_id: str, aliases: Mapping[str, Sequence[str]] | None = None
                  ) -> ForumCount:
        """Read and count the linked thread now (nothing is submitted: the GM submits
        what he saw). Raises :class:`LinkError` when the game has no thread."""
        link = self.get(game_id)
        if link is None:
            raise LinkError(N_("This game is not linked to a forum thread."))
        game = self.service.load(game_id)
        now = self.service.clock.now()
        count_id = self.store.start_count(game_id, game.state.phase_label, game.state.deadline,
                                          link.url, now)
        status, result = self._read_and_count(game_id, game, link, count_id, aliases)
        result["waiting"] = False
        self.store.finish(count_id, status, result, self.service.clock.now())
        row = self.store.count(count_id)
        assert row is not None
        return ForumCount.of(row)

    # -- the deadline (DeadlineHook) -------------------------------------------------------
    def hold(self, game_id: str, game: Game, conn: Connection, now: datetime) -> bool:
        """In the transaction that would close the stage: claim this deadline's read, or
        keep the stage open while it runs or while its names wait for the GM."""
        deadline = game.state.deadline
        if deadline is None or deadline > now:
            return False
        link = self.store.link(game_id, conn)
        if link is None or not votes_taken(game):
            return False
        claim = claim_key(game)
        row = self.store.claimed(conn, game_id, claim)
        if row is None:
            count_id = self.store.add_count(conn, game_id, claim, game.state.phase_label,
                                            deadline, link.url, now)
            with self._lock:
                self._claimed.append(count_id)
            return self._holds(game_id, now + HOLD_GLANCE)
        result = dict(row.result or {})
        if row.status == READING:
            if now - row.started_at < self.claim_timeout:  # read right now
                return self._holds(game_id, now + HOLD_GLANCE)
            result = {"error": text_to_json(Text(N_(
                "The read of the thread did not finish (its server process stopped?): the "
                "stage closed without it.")))}
            self.store.finish(row.id, ABANDONED, result, now, conn)
            row = CountRow(row.id, row.game_id, row.claim, row.phase, row.deadline,
                           ABANDONED, row.url, row.started_at, now, result)
        if row.status in (FAILED, ABANDONED):
            if link.auto_submit and not result.get("announced"):
                self._announce(game, now)
                result["announced"] = True
                self.store.finish(row.id, row.status, result, row.finished_at or now, conn)
            return False
        until = deadline + timedelta(minutes=link.review_minutes)
        if result.get("waiting") and now < until:
            return self._holds(game_id, until)
        return False

    def _holds(self, game_id: str, until: datetime) -> bool:
        with self._lock:
            self._held[game_id] = until
        return True

    def holding(self, game_id: str, now: datetime) -> bool:
        """Whether this process saw the game held a moment ago (a read running, or names
        waiting for the GM): a page that loads the game need not try to close its stage
        (the scheduler's pass still asks the database)."""
        with self._lock:
            until = self._held.get(game_id)
            if until is not None and now >= until:
                del self._held[game_id]
                until = None
        return until is not None

    def _announce(self, game: Game, now: datetime) -> None:
        """The game goes on without the forum's votes, and says so in its thread."""
        text = localize(Text(N_(
            "The forum thread could not be read at the vote stop: this stage is resolved "
            "without the votes cast in the forum.")), game.state.locale)
        with contextlib.suppress(Rejected):  # refused: the GM page still tells
            game.execute(Command("say", text=text, at=now))

    def run(self) -> bool:
        """The reads this process claimed: fetch, count, store, submit (outside the tick's
        transaction)."""
        with self._lock:
            claimed, self._claimed = self._claimed, []
        for count_id in claimed:
            row = self.store.count(count_id)
            if row is None or row.status != READING:
                continue  # its claim was rolled back, or another process finished it
            self._deadline_count(row)
        return bool(claimed)

    def _deadline_count(self, row: CountRow) -> None:
        link = self.get(row.game_id)
        game = self.service.load(row.game_id)
        if link is None:
            self.store.finish(row.id, FAILED, {"error": text_to_json(Text(N_(
                "The game was unlinked from its thread before the read.")))},
                self.service.clock.now())
            return
        status, result = self._read_and_count(row.game_id, game, link, row.id, None)
        if status == COUNTED:
            result["waiting"] = bool(result["unresolved"]) or not link.auto_submit
            if link.auto_submit:
                result["submitted"] = self._submit(row, result)
        self.store.finish(row.id, status, result, self.service.clock.now())

    def _submit(self, row: CountRow, result: dict[str, Any]) -> list[dict[str, Any]]:
        """The clear votes into the game, in one transaction, while the stage is still the
        one counted; a voter whose later vote names nobody clearly waits for the GM."""
        game = self.service.load(row.game_id)
        if game.state.phase_label != row.phase or game.state.deadline != row.deadline:
            return []
        votes = [CastVote(v, t, p, datetime.fromisoformat(at) if at else None)
                 for v, t, p, at in result["votes"]]
        held = set(result.get("held", []))
        outcome: list[dict[str, Any]] = [
            {"voter": v.voter, "target": v.target, "post": v.post, "outcome": "held",
             "reason": None} for v in votes if v.voter in held]
        for done in submit_votes(self.service, row.game_id,
                                 [v for v in votes if v.voter not in held]):
            outcome.append({
                "voter": done.vote.voter, "target": done.vote.target, "post": done.vote.post,
                "outcome": "unchanged" if done.unchanged else
                           "refused" if done.refused is not None else "submitted",
                "reason": text_to_json(done.refused) if done.refused is not None else None})
        return outcome

    # -- reading and counting ----------------------------------------------------------
    def _read_and_count(self, game_id: str, game: Game, link: ForumLink, count_id: int,
                        aliases: Mapping[str, Sequence[str]] | None
                        ) -> tuple[str, dict[str, Any]]:
        known = game_count(game, self.service.meta(game_id).locale)
        if known.deadline is not None:
            known = replace(known, since=day_start(self.service.store.events(game_id), game))
        tz = zone(known.timezone)
        try:
            thread = read_thread(link.url, tz, credentials=link.credentials,
                                 limits=self.limits, cache=self.cache,
                                 now=self.service.clock.now)
        except FetchError as error:
            return FAILED, {"error": text_to_json(error.text()), "kind": error.kind}
        try:
            count = count_votes(thread.posts, list(known.players), known.rules,
                                aliases=aliases, since=known.since, deadline=known.deadline,
                                facts=known.facts)
        except PlayerListError as error:
            return FAILED, {"error": text_to_json(error.reason)}
        previous = self.store.last_read(game_id, link.url, count_id)
        notes = list(thread.notes)
        if previous is not None and previous.result:
            before = [PageRead.from_json(p) for p in previous.result.get("pages", [])]
            notes += changes(before, thread.reads, thread.started_at,
                             previous.finished_at or previous.started_at)
        notes += _late_edits(thread, known)
        return COUNTED, _result(count, thread, known, notes)


def _late_edits(thread: ThreadRead, known: GameCount) -> list[Text]:
    """Posts the forum shows as edited after the vote stop (their votes are invalid as
    edited, C3.2; the note says when the forum showed it)."""
    if known.deadline is None:
        return []
    read_at = {post: read.fetched_at for read in thread.reads for post in read.posts}
    return [Text(N_("Post {post} by {author} was edited at {edited}, after the vote stop, "
                    "as the forum showed it at {when}."),
                 {"post": post.id, "author": post.author, "edited": post.edited_at,
                  "when": read_at.get(post.id, thread.finished_at)})
            for post in thread.posts
            if post.edited_at is not None and post.edited_at > known.deadline
            and (known.since is None or post.time >= known.since)]


def _result(count: VoteCount, thread: ThreadRead, known: GameCount,
            notes: list[Text]) -> dict[str, Any]:
    times = {item.post: item.time for item in count.invalid}
    held = sorted({u.author for u in count.unresolved
                   if (vote := count.votes.get(u.author)) is not None
                   and vote.time is not None and (times.get(u.post) or vote.time) >= vote.time})
    voters: dict[str, list[str]] = {}
    for voter, vote in count.votes.items():
        voters.setdefault(vote.target, []).append(voter if vote.post else f"{voter}*")
    tz = zone(known.timezone)
    return {
        "count": count.to_json(),
        "tally": [[t, n, voters.get(t, [])] for t, n in count.tally.items()],
        "not_voting": list(count.not_voting),
        "invalid": [{"post": i.post, "author": i.author, "reason": i.reason.value,
                     "text": i.text, "time": i.time.isoformat() if i.time else None}
                    for i in count.invalid],
        "unresolved": [{"post": u.post, "author": u.author, "text": u.text,
                        "candidates": list(u.candidates)} for u in count.unresolved],
        "votes": [[v.voter, v.target, v.post, v.time.isoformat() if v.time else None]
                  for v in count.votes.values() if v.post is not None],
        "held": held,
        "post": render_bbcode(count, tz, known.locale),
        "since": known.since.isoformat() if known.since else None,
        "deadline": known.deadline.isoformat() if known.deadline else None,
        "software": thread.software,
        "pages": [read.to_json() for read in thread.reads],
        "notes": [text_to_json(n) for n in notes],
        "issues": [str(issue) for page in thread.pages for issue in page.issues],
        "read_from": thread.started_at.isoformat(),
        "read_until": thread.finished_at.isoformat(),
    }

"""The vote count: which vote of each player counts, and why the others do not.

Posts are taken in time order (then post number, then post id, then file and position);
a post seen twice (overlapping saved pages) counts once. For each post with vote marks:

1. quoted marks that name a player are reported ``quoted`` (never counted);
2. the author must be a player (``not_a_player``), the post inside the ``since`` /
   ``deadline`` window (``before_start`` / ``after_deadline``; a post stamped within the
   deadline minute still counts, as forums show minutes), not edited (``edited``), and
   the author neither departed (``departed``) nor voiceless (``voiceless``);
3. each own mark, in reading order, must name exactly one player (``unknown_name`` /
   ``ambiguous_name``, with suggestions, never a guess), that player must be a player in
   the game (``not_a_player``, ``departed``) and not the author's lover (``self_lover``);
   an unvote word withdraws the vote.

The author's last valid mark wins. Under Island rules, every player with a vote right
but no valid vote votes for himself (I6.3).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from nightfall.collector import gc_paused
from nightfall.forum.model import Post
from nightfall.forum.names import Match, NameMatcher, Resolution, name_key
from nightfall.forum.rules import GameFacts, VoteRules
from nightfall.forum.votes import VoteMark, vote_marks


class Reason(StrEnum):
    """Why a vote does not count (the contract's ``invalid[].reason``)."""

    QUOTED = "quoted"
    EDITED = "edited"
    AFTER_DEADLINE = "after_deadline"
    BEFORE_START = "before_start"
    NOT_A_PLAYER = "not_a_player"
    UNKNOWN_NAME = "unknown_name"
    AMBIGUOUS_NAME = "ambiguous_name"
    SELF_LOVER = "self_lover"
    VOICELESS = "voiceless"
    DEPARTED = "departed"


@dataclass(frozen=True, slots=True)
class CastVote:
    """A counted vote."""

    voter: str
    target: str
    post: str | None
    """The post it was cast in; ``None`` for an Island non-voter's vote for himself."""
    time: datetime | None


@dataclass(frozen=True, slots=True)
class InvalidVote:
    """A vote that does not count."""

    post: str
    author: str
    reason: Reason
    text: str = ""
    """What the vote said (the red text or the matched form)."""
    time: datetime | None = None


@dataclass(frozen=True, slots=True)
class Unresolved:
    """A name that matched no player or several: for the GM to decide."""

    post: str
    author: str
    text: str
    candidates: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class VoteCount:
    """The result of a count."""

    rules: VoteRules
    players: tuple[str, ...]
    votes: dict[str, CastVote]
    tally: dict[str, int]
    not_voting: tuple[str, ...]
    invalid: tuple[InvalidVote, ...]
    unresolved: tuple[Unresolved, ...]
    since: datetime | None = None
    deadline: datetime | None = None
    posts_read: int = 0
    facts: GameFacts = field(default_factory=GameFacts)

    def to_json(self) -> dict[str, Any]:
        """The contract's JSON object."""
        return {
            "votes": {voter: vote.target for voter, vote in self.votes.items()},
            "tally": dict(self.tally),
            "not_voting": list(self.not_voting),
            "invalid": [
                {"post": item.post, "author": item.author, "reason": item.reason.value}
                for item in self.invalid
            ],
            "unresolved": [
                {"post": item.post, "author": item.author, "text": item.text,
                 "candidates": list(item.candidates)}
                for item in self.unresolved
            ],
        }


def order_posts(posts: Iterable[Post]) -> list[Post]:
    """Posts in thread order, each post once (the first copy read wins)."""
    unique: dict[str, Post] = {}
    for post in posts:
        unique.setdefault(post.id, post)
    # the tie-breaks (the id's digits, file, position) are worked out only for posts that
    # share a time and number: the others' order never reads them (a tuple compares its
    # first unequal items), and reading an id's digits was a fifth of a count's counting
    firsts = [(p.time, p.number if p.number is not None else -1) for p in unique.values()]
    shared = {first for first, seen in Counter(firsts).items() if seen > 1}
    keyed = [(first, _tie_break(p) if first in shared else _NO_TIE, p)
             for first, p in zip(firsts, unique.values(), strict=True)]
    keyed.sort(key=_sort_key)
    return [p for _, _, p in keyed]


_NO_TIE = (-1, "", 0)


def _tie_break(post: Post) -> tuple[int, str, int]:
    digits = post.id_number
    return (-1 if digits is None else digits, post.file, post.position)


def _sort_key(item: tuple[tuple[datetime, int], tuple[int, str, int], Post]
              ) -> tuple[datetime, int, int, str, int]:
    return (*item[0], *item[1])


def count_votes(
    posts: Iterable[Post],
    players: Sequence[str],
    rules: VoteRules,
    *,
    aliases: Mapping[str, Iterable[str]] | None = None,
    since: datetime | None = None,
    deadline: datetime | None = None,
    facts: GameFacts | None = None,
) -> VoteCount:
    """Count the votes in ``posts`` for ``players`` under ``rules``.

    ``players`` are everyone in the game; departed players in ``facts`` may be listed
    there or not (they are recognised either way). Raises
    :class:`~nightfall.forum.names.PlayerListError` for an inconsistent player list.
    """
    with gc_paused():  # (as a page is read: many objects, no cycles; nightfall.collector)
        return _count_votes(posts, players, rules, aliases, since, deadline,
                            facts or GameFacts())


def _count_votes(posts: Iterable[Post], players: Sequence[str], rules: VoteRules,
                 aliases: Mapping[str, Iterable[str]] | None, since: datetime | None,
                 deadline: datetime | None, facts: GameFacts) -> VoteCount:
    ordered = order_posts(posts)
    everyone = list(players) + [p for p in sorted(facts.departed) if p not in players]
    authors = {post.author for post in ordered}
    matcher = NameMatcher(everyone, aliases, others=authors, min_prefix=rules.min_prefix)
    counter = _Counter(matcher, rules, facts, since, deadline)
    for post in ordered:
        counter.post(post)
    living = [p for p in players if p not in facts.departed]
    entitled = [p for p in living if p not in facts.voiceless]
    final: dict[str, CastVote] = {}
    for player in entitled:
        vote = counter.latest.get(player)
        if vote is not None:
            final[player] = vote
    not_voting = tuple(p for p in entitled if p not in final)
    if rules.non_voters_vote_self:
        for player in not_voting:
            final[player] = CastVote(player, player, None, None)
        final = {p: final[p] for p in entitled if p in final}
    totals = Counter(vote.target for vote in final.values())
    rank = {p: i for i, p in enumerate(everyone)}
    tally = dict(sorted(totals.items(), key=lambda kv: (-kv[1], rank.get(kv[0], len(rank)))))
    return VoteCount(
        rules=rules, players=tuple(players), votes=final, tally=tally, not_voting=not_voting,
        invalid=tuple(counter.invalid), unresolved=tuple(counter.unresolved), since=since,
        deadline=deadline, posts_read=len(ordered), facts=facts,
    )


class _Counter:
    def __init__(self, matcher: NameMatcher, rules: VoteRules, facts: GameFacts,
                 since: datetime | None, deadline: datetime | None) -> None:
        self.matcher = matcher
        self.rules = rules
        self.facts = facts
        self.since = since
        self.deadline_end = (
            deadline.replace(second=0, microsecond=0) + timedelta(minutes=1)
            if deadline is not None else None
        )
        self.unvote = {name_key(word) for word in rules.unvote_words}
        self.latest: dict[str, CastVote | None] = {}
        self.invalid: list[InvalidVote] = []
        self.unresolved: list[Unresolved] = []
        self._reported: set[tuple[str, Reason]] = set()
        self._resolved: dict[str, Resolution] = {}
        """Each vote text's resolution, kept for the count: it depends only on the text
        and this count's matcher, and a thread repeats the same few names."""

    def reject(self, post: Post, reason: Reason, text: str = "") -> None:
        if (post.id, reason) in self._reported:
            return
        self._reported.add((post.id, reason))
        self.invalid.append(InvalidVote(post.id, post.author, reason, text, post.time))

    def post(self, post: Post) -> None:
        marks = vote_marks(post, self.rules)
        if not marks:
            return
        attempts: list[tuple[VoteMark, Resolution]] = []
        for mark in marks:
            resolution = self._resolve(mark)
            if mark.quoted:
                if resolution.resolved:
                    self.reject(post, Reason.QUOTED, mark.text)
                continue
            if mark.strict or resolution.resolved or resolution.match is Match.AMBIGUOUS:
                attempts.append((mark, resolution))
        if not attempts:
            return
        first = attempts[0][0].text
        voter = self.matcher.resolve_author(post.author)
        if voter is None:
            self.reject(post, Reason.NOT_A_PLAYER, first)
            return
        if self.since is not None and post.time < self.since:
            self.reject(post, Reason.BEFORE_START, first)
            return
        if self.deadline_end is not None and post.time >= self.deadline_end:
            self.reject(post, Reason.AFTER_DEADLINE, first)
            return
        if post.edited:
            self.reject(post, Reason.EDITED, first)
            return
        if voter in self.facts.departed:
            self.reject(post, Reason.DEPARTED, first)
            return
        if voter in self.facts.voiceless:
            self.reject(post, Reason.VOICELESS, first)
            return
        for mark, resolution in attempts:
            self._vote(post, voter, mark, resolution)

    def _resolve(self, mark: VoteMark) -> Resolution:
        known = self._resolved.get(mark.text)
        if known is not None:
            return known
        if name_key(mark.text) in self.unvote:
            resolution = Resolution(mark.text, Match.EXACT, "")
        else:
            resolution = self.matcher.resolve(mark.text)
        self._resolved[mark.text] = resolution
        return resolution

    def _vote(self, post: Post, voter: str, mark: VoteMark, resolution: Resolution) -> None:
        if resolution.player == "":
            self.latest[voter] = None
            return
        if resolution.match is Match.NOT_A_PLAYER:
            self.reject(post, Reason.NOT_A_PLAYER, mark.text)
            return
        if resolution.player is None:
            reason = (Reason.AMBIGUOUS_NAME if resolution.match is Match.AMBIGUOUS
                      else Reason.UNKNOWN_NAME)
            self.reject(post, reason, mark.text)
            self.unresolved.append(
                Unresolved(post.id, post.author, resolution.text, resolution.candidates))
            return
        target = resolution.player
        if target in self.facts.departed:
            self.reject(post, Reason.DEPARTED, mark.text)
            return
        if target in self.facts.lovers_of(voter):
            self.reject(post, Reason.SELF_LOVER, mark.text)
            return
        self.latest[voter] = CastVote(voter, target, post.id, post.time)

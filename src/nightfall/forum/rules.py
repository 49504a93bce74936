"""Vote rules: what a vote looks like in a post, and how the count treats non-voters;
plus the game facts a GM may give (departed, voiceless, lovers).

A rule set's vote rules are data of its own. A rule file declares them in its
``forum_votes:`` section (docs/rules-format.md, "Forum votes"): Changelings' (C3: a
player's name in red in the author's own text, the last valid vote before 19:30
Europe/Berlin counts, non-voters have no vote) live in ``rulefile/sets/changelings.yaml``,
and ``service.votecount.vote_rules_for`` builds a :class:`VoteRules` from a file, for a
game and for ``nightfall votecount --ruleset`` alike. This module does not read rule
files; it holds only the rules of the rule set that is still a Python plugin:

- Island of Fear (I6, :data:`ISLAND`): a vote is written in one of the forms the group
  uses, given as regular expressions over the post's own text in canonical BBCode (a
  ``name`` group marks the name): by default a bold name (``[b]Ann[/b]``), ``голос: Ann``
  or ``vote: Ann``; the deadline is 21:00 Europe/Moscow; a player without a valid vote
  votes for himself (I6.3).

A *strict* form declares a vote by itself, so a name it does not resolve is reported
(``unknown_name``). A *lenient* form (bold) is also ordinary emphasis, so text that names
nobody is left alone; an ambiguous name is still reported.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import time


@dataclass(frozen=True, slots=True)
class VotePattern:
    """One written form of a vote: a regex over the own BBCode with a ``name`` group."""

    regex: re.Pattern[str]
    strict: bool = True

    @classmethod
    def compile(cls, pattern: str, *, strict: bool = True) -> VotePattern:
        """Compile ``pattern``; it must have a group named ``name`` (or one group)."""
        regex = re.compile(pattern)
        if "name" not in regex.groupindex and regex.groups != 1:
            raise ValueError(f"vote pattern {pattern!r} needs a group named 'name'")
        return cls(regex, strict)


@dataclass(frozen=True, slots=True)
class VoteRules:
    """How one rule set's votes are written and counted."""

    name: str
    timezone: str
    deadline_time: time
    """The time of day of the vote stop, when a deadline is given as a date only."""
    red_votes: bool
    """Votes are names in red (Changelings, C3.1)."""
    patterns: tuple[VotePattern, ...] = ()
    non_voters_vote_self: bool = False
    unvote_words: tuple[str, ...] = ("unvote",)
    """Texts (in a vote form) that withdraw the author's vote (C3.1)."""
    min_prefix: int = 2
    """The shortest prefix that may name a player."""
    title: str = ""
    """The rule set's name in the count post when ``name`` is no plugin's (a rule file's
    ``title:``); empty: the plugin's translated name."""


BOLD_NAME = VotePattern.compile(
    r"\[b\]\s*(?:\[(?:color|i|u)[^\]]*\]\s*)*(?P<name>[^\[\]\n]{1,60}?)\s*(?:\[/(?:color|i|u)\]\s*)*\[/b\]",
    strict=False,
)
VOTE_COLON = VotePattern.compile(
    r"(?i)(?<![\w])(?:голос|vote)\s*[:：]\s*(?:\[[^\]]*\]\s*)*(?P<name>[^\n\[\],.;!?]{1,60})"
)

ISLAND = VoteRules(
    name="island", timezone="Europe/Moscow", deadline_time=time(21, 0), red_votes=False,
    patterns=(BOLD_NAME, VOTE_COLON), non_voters_vote_self=True,
    unvote_words=("unvote", "снимаю голос"),
)
#: the vote rules of the rule sets that are Python plugins, by id (a rule file's are in
#: its ``forum_votes:`` section)
PLUGIN_RULES: dict[str, VoteRules] = {ISLAND.name: ISLAND}


def with_patterns(rules: VoteRules, patterns: Iterable[str]) -> VoteRules:
    """``rules`` with its written vote forms replaced by ``patterns`` (all strict)."""
    compiled = tuple(VotePattern.compile(p) for p in patterns)
    return replace(rules, patterns=compiled) if compiled else rules


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What the GM knows about the game that makes votes invalid (C3.2).

    ``departed``: players no longer in the game (their votes, and votes for them, are
    ``departed``); ``voiceless``: players whose votes do not count; ``lovers``: pairs whose
    votes for each other are ``self_lover``.
    """

    departed: frozenset[str] = frozenset()
    voiceless: frozenset[str] = frozenset()
    lovers: frozenset[frozenset[str]] = field(default_factory=frozenset)

    def lovers_of(self, player: str) -> frozenset[str]:
        return frozenset(p for pair in self.lovers if player in pair for p in pair) - {player}

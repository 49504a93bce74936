"""The forum vote counter and a game of the service, in one place for ``nightfall
votecount --game/--submit`` and the GM's web page, so both count and submit alike.

- :func:`game_count` reads what a game tells the counter: its rule set, language and
  time zone, its players, who departed and who is voiceless, and the counted window
  (from the current stage's start; until its deadline on a day). A secret lover pair is
  not taken from the game: the count is a public post, and the engine refuses a lover's
  vote for the partner itself when the votes are submitted (C8.2).
- :func:`parse_when` reads a ``since``/``deadline`` the GM typed (a date alone: the given
  time of day), :func:`parse_alias` one ``Ann=Annie,Anni`` entry.
- :func:`submit_votes` feeds the counted votes into the game, each at its post's time, in
  one transaction; the engine judges each again and a refusal is reported, never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, time, tzinfo

from nightfall.engine import Command, Game, Text
from nightfall.engine.ruleset import Ruleset
from nightfall.forum import PLUGIN_RULES, CastVote, GameFacts, VoteRules
from nightfall.forum.dates import parse_forum_time
from nightfall.forum.rules import VotePattern
from nightfall.i18n import known_zone
from nightfall.service.games import GameService

_DATE_ONLY = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})|(\d{1,2})\.(\d{1,2})\.(\d{4})")


@dataclass(frozen=True, slots=True)
class GameCount:
    """What a game tells the vote counter."""

    ruleset: str
    locale: str
    timezone: str
    """The game's time zone: of forum times without one, of ``since``/``deadline`` typed
    by the GM, and of the times in the post."""
    players: tuple[str, ...]
    facts: GameFacts
    since: datetime | None
    """The current stage's start (posts before it are ``before_start``)."""
    deadline: datetime | None
    """The current day's deadline (none at night: the day's votes are over)."""

    vote_rules: VoteRules
    """How the game's votes are written (:func:`vote_rules_for`)."""

    @property
    def rules(self) -> VoteRules:
        return self.vote_rules


def vote_rules_for(ruleset: Ruleset | str) -> VoteRules | None:
    """How the votes of a rule set are written on the forum, or ``None`` when it does not
    say (its games' threads are not counted). A rule file's are its ``forum_votes:``
    section (docs/rules-format.md, "Forum votes"; Changelings' C3 too), checked when the
    file was accepted, and this is the one place that builds them; a plugin's are in
    :data:`~nightfall.forum.rules.PLUGIN_RULES` (Island, I6). ``ruleset`` is a game's rule set
    (``game.ruleset``: an uploaded file too) or a rule set id (a plugin's, or a shipped
    rule file's such as ``werwolf-classic``). The one lookup of the counter's callers (the
    GM's page, ``nightfall votecount``), so none of them knows the rule sets by name."""
    if isinstance(ruleset, str):
        if ruleset in PLUGIN_RULES:
            return PLUGIN_RULES[ruleset]
        from nightfall.rulefile.ruleset import ALIASES, SHIPPED, shipped

        if ruleset not in SHIPPED and ruleset not in ALIASES:
            return None
        ruleset = shipped(ruleset)
    from nightfall.rulefile.ruleset import DataRuleset

    if not isinstance(ruleset, DataRuleset):
        return PLUGIN_RULES.get(ruleset.id)
    if ruleset.file.forum_votes is None:
        return None
    votes = ruleset.file.forum_votes
    hour, _, minute = votes.deadline.partition(":")
    return VoteRules(
        name=ruleset.id, timezone=votes.timezone, deadline_time=time(int(hour), int(minute)),
        red_votes=votes.red,
        patterns=tuple(VotePattern.compile(p.regex, strict=p.strict) for p in votes.patterns),
        non_voters_vote_self=votes.non_voters_vote_self, unvote_words=tuple(votes.unvote),
        min_prefix=votes.min_prefix, title=ruleset.file.title)


def counts_votes(game: Game) -> bool:
    """Whether ``game``'s forum thread can be counted now: it is running and its rule set
    says how its votes are written (:func:`vote_rules_for`)."""
    return game.state.phase.is_play() and vote_rules_for(game.ruleset) is not None


def game_count(game: Game, locale: str) -> GameCount:
    """The counter's view of ``game`` (``locale``: the game's language, from its row);
    raises ``LookupError`` when its rule set does not say how votes are written."""
    state = game.state
    rules = vote_rules_for(game.ruleset)
    if rules is None:
        raise LookupError(state.ruleset)
    zone_name = state.options.get("timezone")
    timezone = zone_name if isinstance(zone_name, str) and known_zone(zone_name) \
        else rules.timezone
    facts = GameFacts(
        departed=frozenset(p.name for p in state.players.values() if not p.alive),
        voiceless=frozenset(p.name for p in state.players.values()
                            if "voiceless" in p.statuses),
    )
    deadline = state.deadline if state.phase.kind == "day" else None
    return GameCount(state.ruleset, locale, timezone, tuple(state.players), facts,
                     state.phase_at, deadline, rules)


def load_game_count(service: GameService, game_id: str) -> GameCount:
    """:func:`game_count` of a stored game (raises ``UnknownGame``)."""
    return game_count(service.load(game_id), service.meta(game_id).locale)


def parse_when(value: str, tz: tzinfo, default_time: time) -> datetime:
    """A moment the GM typed (``2012-12-24 19:30``, ``24.12.2012 19:30``, any forum date
    format), in ``tz`` unless it names a zone; a date alone means ``default_time`` on that
    day. Raises :class:`~nightfall.forum.errors.DateError`."""
    text = value.strip()
    if _DATE_ONLY.fullmatch(text):
        text = f"{text} {default_time:%H:%M}"
    return parse_forum_time(text, tz, day_first=True)


def parse_alias(entry: str) -> tuple[str, list[str]]:
    """``"Ann=Annie,Anni"`` as ``("Ann", ["Annie", "Anni"])``; raises ``ValueError``
    without a ``=`` or a player's name before it."""
    player, equals, spellings = entry.partition("=")
    if not equals or not player.strip():
        raise ValueError(entry)
    return player.strip(), [name.strip() for name in spellings.split(",") if name.strip()]


@dataclass(frozen=True, slots=True)
class SubmittedVote:
    """One counted vote handed to the game: accepted (``refused`` is ``None``) or not;
    ``unchanged`` when it already was the voter's vote in the game (not sent again)."""

    vote: CastVote
    refused: Text | None
    unchanged: bool = False


def submit_votes(service: GameService, game_id: str, votes: Iterable[CastVote]
                 ) -> list[SubmittedVote]:
    """Submit each counted vote as its voter's day vote at its post's time, in post order,
    in one transaction (:meth:`GameService.submit_each`). The day vote is ``elect`` where
    the voter's legal moves offer it (Changelings day 1: the red name elects the leader,
    C5.1), else ``vote``. An Island non-voter's vote for himself (no post) is left out: the
    engine applies that rule (I6.3) itself. A vote that already is the voter's current
    vote in the game is not sent again (counting the same thread twice changes nothing
    and does not repeat the votes in the thread)."""
    cast = sorted((v for v in votes if v.post is not None and v.time is not None),
                  key=lambda v: (v.time, v.voter))
    game = service.load(game_id)
    action = {voter: "elect" if any(c.action == "elect" for c in game.legal_commands(voter))
              else "vote" for voter in {v.voter for v in cast} if voter in game.state.players}
    current = {(s.player, s.action, s.targets) for s in game.state.submissions.values()}
    commands = [Command(action.get(v.voter, "vote"), by=v.voter, target=v.target, at=v.time)
                for v in cast]
    unchanged = [(c.by, c.action, c.all_targets) in current for c in commands]
    outcome = iter(service.submit_each(
        game_id, [c for c, same in zip(commands, unchanged, strict=True) if not same]))
    results: list[SubmittedVote] = []
    for vote, same in zip(cast, unchanged, strict=True):
        refused = None if same else next(outcome)
        results.append(SubmittedVote(vote, None if refused is None else refused.reason, same))
    return results

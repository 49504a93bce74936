"""What a heuristic bot remembers, built only from its player's projections.

The mind reads each new view incrementally (new notices, posts and departures since the
last turn) and keeps beliefs about the other players:

- ``evil_known`` / ``town_known``: certain (own result, own team, a revealed role)
- ``score``: the evidence that a player is *not* of the town faction (the rule set's
  first faction: ponies, peaceful islanders), from claims in the thread, votes, visits
- ``claims``: results other players published in the thread ("claim ROLE T=RESULT ...")

Claims are checked when the named player's role is revealed: a claimer whose result
proved right is trusted, one whose result proved wrong is suspected.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress, count
from operator import is_not
from typing import Any

from nightfall.engine.commands import Command, by_action
from nightfall.sim.bots.base import Bot, RulesInfo

CLAIM = "claim"
#: a score at or beyond which a suspicion counts as justified (a vote may follow it)
JUSTIFIED = 2.0


@dataclass(frozen=True, slots=True)
class Claim:
    claimer: str
    role: str
    target: str
    result: str
    evil: bool | None  # what the result says about the target (None: nothing)
    day: int


def claim_text(role: str, results: Iterable[tuple[str, str]]) -> str:
    """A post that publishes results: ``claim researcher P03=changeling P07=pony``."""
    return " ".join([CLAIM, role, *(f"{target}={result}" for target, result in results)])


def parse_claim(text: str) -> tuple[str, list[tuple[str, str]]] | None:
    words = text.split()
    if len(words) < 3 or words[0] != CLAIM:
        return None
    pairs = [tuple(word.split("=", 1)) for word in words[2:] if "=" in word]
    return words[1], [(a, b) for a, b in pairs]


class Mind:
    def __init__(self, me: str, rules: RulesInfo) -> None:
        self.me = me
        self.rules = rules
        self.town = rules.factions[0]
        self.role: str | None = None
        self.team: set[str] = set()
        self.partner: str | None = None
        self.phase = ""
        self.kind = ""
        self.day = 0
        self.stage = 1
        self.alive: list[str] = []
        self.known_role: dict[str, str] = {}
        self.dead: set[str] = set()
        self.evil_known: set[str] = set()
        self.town_known: set[str] = set()
        self.score: defaultdict[str, float] = defaultdict(float)
        self.claims: list[Claim] = []
        self.claimed_role: dict[str, str] = {}
        self.leader: str | None = None
        self.notices_seen = 0
        self.thread_seen = 0
        self.announcements_seen = 0
        #: what the bot itself published (so it does not repeat a claim)
        self.published: set[str] = set()
        #: suspicion per player, computed once per turn (cleared by new evidence)
        self._suspicion: dict[str, float] | None = None
        #: the roles in play, if the game master announced them
        self.roles_in_play: set[str] | None = None
        #: the entries of the players read on the last turn, in the view's order (see
        #: :meth:`observe`)
        self._players_read: Sequence[Mapping[str, Any]] = ()
        #: the entries read on this turn: those that are not the very objects read at the
        #: same place on the last turn (the others read as they did then)
        self.fresh: list[Mapping[str, Any]] = []
        #: the entries of the players seen leaving, in the order seen (each player once,
        #: as the entry read when he was first seen gone)
        self.departed: list[Mapping[str, Any]] = []

    # -- reading a view -------------------------------------------------------------
    def observe(self, view: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Update from ``view``; returns the notices that are new since the last turn."""
        phase = str(view.get("phase") or "")
        if phase != self.phase:
            # the label is parsed once per stage (a bot reads it on every turn)
            self.phase = phase
            kind, _, rest = phase.partition(" ")
            number, _, stage = rest.partition("/")
            self.kind = kind
            self.day = int(number) if number.isdigit() else 0
            self.stage = int(stage) if stage.isdigit() else 1
        self.leader = view.get("leader")
        me = view.get("me") or {}
        self.role = me.get("role")
        team = set(me.get("team") or ())
        team.discard(self.me)
        self.team = team
        if team:
            self.evil_known -= team
        self.partner = me.get("partner")
        players = view.get("players") or ()
        alive = [entry["name"] for entry in players if entry["alive"]]
        known = self.known_role
        previous = self._players_read
        # only the entries that are not the very objects read at the same place on the
        # last turn (views share the entries of players who look the same to everybody,
        # and keep an unchanged entry as the same object): reading one again changes
        # nothing, since only this loop writes ``dead``, ``departed`` and ``known_role``
        # and it reads an entry's content alone; picked out by C loops (``compress``)
        fresh = list(compress(players, map(is_not, players, previous))) if len(
            previous) == len(players) else list(players)
        self.fresh = fresh
        for entry in fresh:
            name = entry["name"]
            role = entry["role"]
            if role is None:
                if not entry["alive"] and name not in self.dead:
                    self.dead.add(name)
                    self.departed.append(entry)
                continue
            if not entry["alive"] and name not in self.dead:
                self.dead.add(name)
                self.departed.append(entry)
                self.reveal(name, role)
            if name != self.me and known.get(name) != role:
                known[name] = role
                evil = self.is_evil_role(role)
                if name in team or evil is None:
                    continue
                (self.evil_known if evil else self.town_known).add(name)
        self._players_read = players
        self.alive = alive
        self._suspicion = None
        notices = me.get("notices") or ()
        seen = self.notices_seen
        new = list(notices[seen:]) if len(notices) > seen else []
        self.notices_seen = len(notices)
        thread = view.get("thread") or ()
        if len(thread) > self.thread_seen:
            for post in thread[self.thread_seen:]:
                self.read_post(post)
        self.thread_seen = len(thread)
        announcements = view.get("announcements") or ()
        if len(announcements) > self.announcements_seen and self.roles_in_play is None:
            # once the roles in play are known, no announcement changes them
            # (:meth:`read_announcement` reads them from the first that lists them)
            for announcement in announcements[self.announcements_seen:]:
                self.read_announcement(announcement)
        self.announcements_seen = len(announcements)
        return new

    def read_announcement(self, announcement: Mapping[str, Any]) -> None:
        """Public announcements: the roles in play, when the game master lists them."""
        params = (announcement.get("text") or {}).get("params") or {}
        roles = params.get("roles")
        if isinstance(roles, list) and self.roles_in_play is None:
            found = {r.get("id") for r in roles if isinstance(r, dict) and r.get("term") == "role"}
            self.roles_in_play = {r for r in found if isinstance(r, str)} or None

    def is_evil_role(self, role: str | None) -> bool | None:
        faction = self.rules.faction(role)
        return None if faction is None else faction != self.town

    @property
    def informed(self) -> bool:
        """In a team that knows itself (changelings, werewolves)."""
        return bool(self.team) or self.is_evil_role(self.role) is True

    # -- evidence -----------------------------------------------------------------------
    def learn(self, player: str, evil: bool, *, certain: bool = False, weight: float = 3.0
              ) -> None:
        if player == self.me:
            return
        self._suspicion = None
        if certain:
            (self.evil_known if evil else self.town_known).add(player)
            (self.town_known if evil else self.evil_known).discard(player)
        else:
            self.score[player] += weight if evil else -weight

    def read_post(self, post: Mapping[str, Any]) -> None:
        parsed = parse_claim(str(post.get("text") or ""))
        author = str(post.get("player") or "")
        if parsed is None or author == self.me:
            return
        role, results = parsed
        if self.roles_in_play is not None and role not in self.roles_in_play:
            self.learn(author, True, certain=True)  # claims a role that is not in play
            return
        earlier = self.claimed_role.get(author)
        self.claimed_role[author] = role
        rivals = [p for p, r in self.claimed_role.items() if r == role and p != author]
        if rivals and earlier is None and self.unique_role(role):
            for rival in [author, *rivals]:  # two claim a unique role: one of them lies
                self.score[rival] += 1.5
        for target, result in results:
            evil = self.result_is_evil(role, result)
            self.claims.append(Claim(author, role, target, result, evil, self.day))
            if evil is None or target == self.me:
                if evil and target == self.me and not self.is_evil_role(self.role):
                    self.learn(author, True, certain=True)  # he lies about me
                continue
            trust = self.trust(author)
            if trust > 0:
                self.learn(target, evil, weight=3.0 * trust if evil else 2.0 * trust)

    def trust(self, player: str) -> float:
        """How much a claim by ``player`` is believed (0: not at all)."""
        if player in self.evil_known:
            return 0.0
        if player in self.town_known:
            return 1.5
        return max(0.0, 1.0 - max(0.0, self.score[player]) / 4)

    def unique_role(self, role: str) -> bool:
        return role in self.rules.special

    def result_is_evil(self, role: str, result: str) -> bool | None:
        """What a published result says about its target (rule-set specific)."""
        return self.is_evil_role(result)

    def reveal(self, player: str, role: str) -> None:
        """A departed player's role is shown: check the claims made about him."""
        evil = self.is_evil_role(role)
        if evil is None:
            return
        for claim in self.claims:
            if claim.target != player or claim.evil is None or claim.claimer == self.me:
                continue
            if claim.evil == evil:
                self.score[claim.claimer] -= 3.0
            else:
                self.score[claim.claimer] += 4.0

    # -- judgements ---------------------------------------------------------------------
    def suspicion(self, player: str) -> float:
        """Evidence that ``player`` is not of the town (known: ±100)."""
        table = self._suspicion
        if table is None:
            table = self._suspicion = self._suspicions()
        value = table.get(player)
        return self._one(player) if value is None else value

    def suspicions(self) -> dict[str, float]:
        """The suspicion of every living player, worked out once per turn (the table
        :meth:`suspicion` reads; a player not in it: :meth:`_one`). Callers that score
        many commands read it directly instead of asking once per target."""
        table = self._suspicion
        if table is None:
            table = self._suspicion = self._suspicions()
        return table

    def forget_suspicions(self) -> None:
        """Evidence changed: compute the suspicions afresh when next asked."""
        self._suspicion = None

    def _suspicions(self) -> dict[str, float]:
        # :meth:`_one` for each living player, without a call each
        evil, town, me, score = self.evil_known, self.town_known, self.me, self.score.get
        return {player: 100.0 if player in evil else (
            -100.0 if player in town or player == me else score(player, 0.0))
            for player in self.alive}

    def _one(self, player: str) -> float:
        if player in self.evil_known:
            return 100.0
        if player in self.town_known or player == self.me:
            return -100.0
        return self.score.get(player, 0.0)

    def accusers(self) -> list[str]:
        """Living players who published a result calling me or my teammate evil, in the
        order of their claims (the team's answer to them: a false claim)."""
        team = self.team | {self.me}
        return [c.claimer for c in self.claims
                if c.target in team and c.evil and c.claimer in self.alive]

    def justified(self) -> list[str]:
        """Living players suspected enough to vote against, most suspected first."""
        found = [p for p in self.alive if p != self.me and self.suspicion(p) >= JUSTIFIED]
        return sorted(found, key=lambda p: -self.suspicion(p))


def best(rng: random.Random, candidates: Sequence[Command], key: Any) -> Command | None:
    """The candidate with the highest ``key``; ties broken by the bot's own chance (one
    draw per candidate, right after its key, as ``max(candidates, key=lambda c: (key(c),
    rng.random()))`` draws them: the same choice, without a second call per candidate;
    of equal keys and draws the first wins, as with ``max``)."""
    if not candidates:
        return None
    scored = zip(map(key, candidates), iter(rng.random, 2.0), count(0, -1), strict=False)
    return candidates[-max(scored)[2]]


def best_of(rng: random.Random, candidates: Sequence[Command], keys: Sequence[Any]
            ) -> Command | None:
    """:func:`best` with the keys worked out already (``keys[i]`` of ``candidates[i]``):
    the same draws and the same choice, since no key reads the bot's chance."""
    if not candidates:
        return None
    scored = zip(keys, iter(rng.random, 2.0), count(0, -1), strict=False)
    return candidates[-max(scored)[2]]


def _not_naming(options: Sequence[Command], player: str) -> list[Command]:
    """The options that do not name ``player`` (among ``all_targets``: ``targets``, else
    the one ``target``), in order."""
    return [c for c in options if (player not in c.targets if c.targets else c.target != player)]


class HeuristicBase(Bot):
    """A bot with a :class:`Mind`: subclasses per rule set pick the commands."""

    kind = "heuristic"
    mind_class: type[Mind] = Mind

    def __init__(self, name: str, rules: RulesInfo, rng: random.Random) -> None:
        super().__init__(name, rules, rng)
        self.mind = self.mind_class(name, rules)
        #: own results (investigations, checks, visits): target -> result
        self.results: dict[str, str] = {}
        #: how much the evil team wants a player gone, beyond what his claims say
        self.threat: defaultdict[str, float] = defaultdict(float)

    def act(self, view: Mapping[str, Any], legal: Sequence[Command]) -> list[Command]:
        notices = self.mind.observe(view)
        for notice in notices:
            self.on_notice(notice)
        self.after_observe(view)
        self.mind.forget_suspicions()
        return self.decide(view, by_action(legal))

    def on_notice(self, notice: Mapping[str, Any]) -> None:
        """A private notice to this player (investigation results and the like)."""

    def after_observe(self, view: Mapping[str, Any]) -> None:
        """Rule-set specific reading of the view (votes, visits)."""

    def decide(self, view: Mapping[str, Any], legal: dict[str, list[Command]]) -> list[Command]:
        """Generic play: vote for the most suspected player, else wait."""
        votes = legal.get("vote") or []
        choice = self.pick_suspect(votes)
        return [choice] if choice is not None else []

    def judge_vote(self, voter: str, target: str, evil: bool | None) -> None:
        """``voter`` voted out ``target``, whose role is now shown: a vote against my
        teammate marks a threat to the team, a vote against a revealed evil (town) player
        earns trust (suspicion)."""
        if target in self.mind.team:
            self.threat[voter] += 1.5
        elif evil is not None:
            self.mind.score[voter] += -0.75 if evil else 0.75

    def with_accusations(self, player: str, value: float) -> float:
        """``value`` (how much the evil team wants ``player`` gone) raised by 3 for each
        result ``player`` published that calls one of the team evil."""
        mind = self.mind
        for claim in mind.claims:
            if claim.claimer == player and claim.target in mind.team and claim.evil:
                value += 3.0
        return value

    def fresh_results(self) -> dict[str, str]:
        """Own results not yet published."""
        published = self.mind.published
        return {t: r for t, r in self.results.items() if f"{t}={r}" not in published}

    def publish_results(self, role: str) -> list[Command]:
        """A post that publishes all own results as ``role`` (remembered as published)."""
        self.mind.published.update(f"{t}={r}" for t, r in self.results.items())
        return [self.post(claim_text(role, sorted(self.results.items())))]

    # -- helpers ----------------------------------------------------------------------
    def changed(self, choice: Command | None, current: Mapping[str, Any] | None
                ) -> list[Command]:
        """``choice`` unless the same is standing already."""
        if choice is None:
            return []
        if current is not None and current.get("action") == choice.action and list(
                current.get("targets") or ()) == list(choice.all_targets):
            return []
        return [choice]

    def pick_suspect(self, options: Sequence[Command], *, justified_only: bool = False
                     ) -> Command | None:
        """The option whose targets are the most suspected (others than me)."""
        pool, totals = self.scored(options)
        if justified_only:
            pool, totals = self.justified_of(pool, totals)
        return best_of(self.rng, pool, totals)

    def scored(self, options: Sequence[Command]) -> tuple[list[Command], list[float]]:
        """The pool :meth:`pick_suspect` chooses from (the options that do not name me,
        else all) and each one's total suspicion: a caller that picks twice from the same
        options (a justified suspect, else any) works them out once."""
        pool = _not_naming(options, self.mind.me) or list(options)
        return pool, self._totals(pool)

    def justified_of(self, pool: Sequence[Command], totals: Sequence[float]
                     ) -> tuple[list[Command], list[float]]:
        """The commands of ``pool`` (with their ``totals``) of which each player named is a
        justified suspect (a command naming nobody passes; one naming one player passes
        if his suspicion, which is its total, is)."""
        mind = self.mind
        table, one = mind.suspicions(), mind._one
        kept: list[Command] = []
        kept_totals: list[float] = []
        for command, total in zip(pool, totals, strict=True):
            if command.targets:
                for target in command.targets:
                    value = table.get(target)
                    if (one(target) if value is None else value) < JUSTIFIED:
                        break
                else:
                    kept.append(command)
                    kept_totals.append(total)
            elif command.target is None or total >= JUSTIFIED:
                kept.append(command)
                kept_totals.append(total)
        return kept, kept_totals

    def pick_trusted(self, options: Sequence[Command], *, others: bool = True
                     ) -> Command | None:
        mind = self.mind
        pool = (_not_naming(options, mind.me) if others else list(options)) or list(options)
        return best_of(self.rng, pool, [-total for total in self._totals(pool)])

    def _total_suspicion(self, command: Command) -> float:
        """The suspicion of the players ``command`` names, summed (``all_targets``: its
        ``targets``, else its one ``target``)."""
        suspicion = self.mind.suspicion
        if command.targets:
            return sum(suspicion(t) for t in command.targets)
        return suspicion(command.target) if command.target is not None else 0

    def _totals(self, commands: Sequence[Command]) -> list[float]:
        """:meth:`_total_suspicion` of each command, read off the turn's table."""
        mind = self.mind
        table, one = mind.suspicions(), mind._one
        totals: list[float] = []
        for command in commands:
            if command.targets:
                total = 0.0  # as sum() from 0: the same totals (0.0 == 0)
                for target in command.targets:
                    value = table.get(target)
                    total += one(target) if value is None else value
                totals.append(total)
            elif command.target is not None:
                value = table.get(command.target)
                totals.append(one(command.target) if value is None else value)
            else:
                totals.append(0)
        return totals

    def post(self, text: str) -> Command:
        """A post in the public thread (free text: not part of the legal list)."""
        return Command("post", by=self.name, text=text)

"""The heuristic player of any rule file: plays every ability by the file's ``bots:``
hints (docs/rules-format.md, "Hints for the bots"), or by a default when a file gives
none. No playbook knows the file's roles: what the bot knows of them is the file's
public facts (:class:`~nightfall.sim.bots.base.RulesInfo`: factions, the hints).

What it reads: its own and its side's roles in the view, and private notices. A notice
that names one player and a faction (or a role) tells the bot that player's side (a
seer's vision: ``{kind: seen, target: P03, faction: werewolves}``), a notice listing
players among whom the bot is its team (a werewolf pack); a hint's ``learns:`` says what
other notices mean (``{notice: glimpse, player: wolf, faction: werewolves}``). Results
of an investigation are published in the thread as claims (``claim seer P03=werewolves``)
and weighed by the others' minds as the Changelings and Island players weigh theirs.

How it chooses: per hint intent, among the legal commands (``harm``: the most suspected
player outside the bot's side, for an evil bot the biggest threat to its side; ``protect``:
the most trusted, for an evil bot an ally; ``investigate``: the most suspected player it
knows nothing certain of; ``link``/``use``: by chance; ``skip``: never). Ties go by the
bot's own chance, so a game is the same for a seed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from nightfall.engine.commands import Command
from nightfall.sim.bots.base import RulesInfo
from nightfall.sim.bots.mind import JUSTIFIED, HeuristicBase, Mind, best

#: the intents of ``bots: intent:`` (``rulefile/model.py`` ``BotHint``)
INTENTS = ("harm", "protect", "investigate", "link", "use", "skip")
#: whom each intent takes its targets from when the hint says nothing
DEFAULT_PREFER = {"harm": "not_own_faction", "investigate": "not_own_faction",
                  "protect": "others", "link": "others", "use": "others", "skip": "others"}


class GenericMind(Mind):
    """A mind that also reads factions as results and knows its side from the roles it
    sees (a werewolf sees his pack's roles) and from notices that list its team."""

    def __init__(self, me: str, rules: RulesInfo) -> None:
        super().__init__(me, rules)
        #: players known to be on the bot's side (besides the view's ``team``)
        self.allies: set[str] = set()

    def observe(self, view: Mapping[str, Any]) -> list[dict[str, Any]]:
        notices = super().observe(view)
        mine = self.rules.faction(self.role)
        if mine is not None and mine != self.town:  # the village knows no side of its own
            self.allies.update(name for name, role in self.known_role.items()
                               if self.rules.faction(role) == mine)
        self.allies.discard(self.me)
        self.team |= self.allies
        self.evil_known -= self.team
        return notices

    def result_is_evil(self, role: str, result: str) -> bool | None:
        """A published result is a faction (``werewolves``) or a role."""
        if result in self.rules.factions:
            return result != self.town
        return self.is_evil_role(result)


class GenericBot(HeuristicBase):
    """The data-driven heuristic player (the default playbook of a rule file)."""

    mind_class = GenericMind

    def __init__(self, name: str, rules: RulesInfo, rng: random.Random) -> None:
        # the arguments named, not ``*args``: the compiled build passes them on as a tuple
        super().__init__(name, rules, rng)
        self.hints: Mapping[str, Mapping[str, Any]] = rules.hints
        self.learning = {str(item["notice"]): item for hint in rules.hints.values()
                         for item in hint.get("learns") or ()}
        #: how the bot publishes its results: the ``publish`` of the investigation used
        self.publishing = "never"

    @property
    def gmind(self) -> GenericMind:
        mind = self.mind
        assert isinstance(mind, GenericMind)
        return mind

    # -- reading ----------------------------------------------------------------------
    def on_notice(self, notice: Mapping[str, Any]) -> None:
        mind = self.gmind
        learns = self.learning.get(str(notice.get("kind")))
        if learns is not None:
            player = notice.get(str(learns["player"]))
            faction = notice.get(str(learns["faction"]), learns["faction"])
            if isinstance(player, str) and isinstance(faction, str):
                self._found(player, faction)
            return
        players = set(mind.alive) | mind.dead
        named = [v for k, v in notice.items() if k != "kind" and isinstance(v, str)
                 and v in players]
        sides = [v for k, v in notice.items() if k != "kind" and isinstance(v, str) and (
            v in self.rules.factions or self.rules.faction(v) is not None)]
        if len(named) == 1 and len(sides) == 1:
            side = sides[0]
            self._found(str(named[0]), side if side in self.rules.factions
                        else str(self.rules.faction(side)))
        for value in notice.values():  # a list of players with me in it: my team
            if isinstance(value, list) and self.name in value and all(
                    isinstance(v, str) and v in players for v in value):
                mind.allies.update(str(v) for v in value if v != self.name)

    def _found(self, player: str, faction: str) -> None:
        """An own result: ``player`` is of ``faction``."""
        mind = self.gmind
        if player == self.name:
            return
        self.results[player] = faction
        mine = self.rules.faction(mind.role)
        if mine is not None and mine != mind.town and faction == mine:
            mind.allies.add(player)
        mind.learn(player, faction != mind.town, certain=True)

    # -- choosing ---------------------------------------------------------------------
    def decide(self, view: Mapping[str, Any], legal: dict[str, list[Command]]) -> list[Command]:
        mind = self.gmind
        chosen = self._publish()
        #: abilities without a hint and without targets (a pass, a potion): the first of
        #: them is used only when the bot chose nothing else, since a pass sent first
        #: would close the stage before the real choice (an early close) and one sent
        #: after it is refused (nothing is awaited any more)
        waiting: list[Command] = []
        acting = len(chosen)
        for action, options in legal.items():
            hint = self.hints.get(action) or {}
            if not hint and not _targeted(options):
                waiting += options[:1]
                continue
            intent = str(hint.get("intent") or ("harm" if _targeted(options) else "use"))
            if intent == "skip":
                continue
            odds = float(hint.get("odds", 1.0))
            if odds < 1.0 and self.rng.random() >= odds:
                continue
            prefer = str(hint.get("prefer") or DEFAULT_PREFER[intent])
            pool = self._pool(options, prefer)
            if intent == "harm" and hint.get("when") == "justified" and not self.evil:
                pool = [c for c in pool if all(
                    mind.suspicion(t) >= JUSTIFIED for t in c.all_targets)]
            choice = self._with_crowd(view, action, pool, float(hint.get("crowd", 0.0))
                                      ) if intent == "harm" else None
            choice = choice or best(self.rng, pool, self._key(intent))
            if choice is None:
                continue
            if intent == "investigate" and not self.evil:
                self.publishing = str(hint.get("publish") or "found")
            chosen.append(choice)
        return chosen if len(chosen) > acting else chosen + waiting[:1]

    def _with_crowd(self, view: Mapping[str, Any], action: str, pool: Sequence[Command],
                    chance: float) -> Command | None:
        """``crowd:``: without a justified suspect (a village bot) or when the crowd is
        not after an ally (an evil one), join the player with the most votes so far in
        the ability's public slot (two or more) with the hint's chance."""
        if chance <= 0.0 or not pool:
            return None
        if not self.evil and any(self.mind.suspicion(t) >= JUSTIFIED
                                 for c in pool for t in c.all_targets):
            return None
        ballots = (view.get("votes") or {}).get(self.rules.slots.get(action, action)) or {}
        counted = Counter(t for t in ballots.values() if isinstance(t, str))
        if not counted:
            return None
        leader, votes = max(sorted(counted.items()), key=lambda kv: kv[1])
        if votes < 2 or self.rng.random() >= chance:
            return None
        return next((c for c in pool if c.all_targets == (leader,)), None)

    @property
    def evil(self) -> bool:
        return bool(self.mind.is_evil_role(self.mind.role))

    def _publish(self) -> list[Command]:
        """A claim of the own results, by day, when the investigation's ``publish``
        says so (found: once a result shows another side)."""
        mind = self.gmind
        if (self.publishing == "never" or mind.kind != "day" or "post" not in self.rules.abilities
                or self.name not in mind.alive or mind.role is None):
            return []
        fresh = self.fresh_results()
        if not fresh or (self.publishing == "found" and all(
                faction == mind.town for faction in fresh.values())):
            return []
        return self.publish_results(mind.role)

    def _allies(self) -> set[str]:
        mind = self.gmind
        return mind.team | ({self.name} | mind.town_known if not self.evil else {self.name})

    def _pool(self, options: Sequence[Command], prefer: str) -> list[Command]:
        me = self.name
        if prefer == "any":
            return list(options)
        if prefer == "self":
            own = [c for c in options if me in c.all_targets]
            return own or self._pool(options, "others")
        others = [c for c in options if me not in c.all_targets]
        if prefer == "others":
            return others
        allies = self._allies()
        if prefer == "own_faction":
            return [c for c in others if c.all_targets and all(
                t in allies for t in c.all_targets)] or others
        return [c for c in others if not any(t in allies for t in c.all_targets)]

    def _key(self, intent: str) -> Callable[[Command], float]:
        mind = self.gmind
        if intent in ("link", "use"):
            return _nothing
        if self.evil:
            allies = self._allies()

            def danger(player: str) -> float:
                value = self.with_accusations(player, self.threat[player])
                return value + (1.0 if player in mind.claimed_role else 0.0)

            if intent == "protect":
                return lambda c: sum(100.0 if t in allies else -danger(t)
                                     for t in c.all_targets)
            return lambda c: sum(danger(t) for t in c.all_targets)
        suspicion = mind.suspicion
        if intent == "protect":
            return lambda c: -sum(suspicion(t) for t in c.all_targets)
        if intent == "investigate":
            known = mind.evil_known | mind.town_known | set(self.results)
            return lambda c: sum(-100.0 if t in known else suspicion(t)
                                 for t in c.all_targets)
        return lambda c: sum(suspicion(t) for t in c.all_targets)


def _targeted(options: Sequence[Command]) -> bool:
    return any(c.all_targets for c in options)


def _nothing(command: Command) -> float:
    return 0.0

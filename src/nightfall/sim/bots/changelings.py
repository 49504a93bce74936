"""The heuristic Changelings player (rules in docs/rules/changelings.md).

Ponies: the researcher investigates the most suspected unknown player and publishes his
results in the thread once he has found a changeling; the night owl publishes whom he
found at home; everyone weighs those claims by the claimer's credibility, checks them
against revealed roles, and votes only on a justified suspicion (else with the crowd or
by lot); the leader breaks ties against the most suspected; the shield protects a
credible researcher or the leader; the pinkie sense saves valuable ponies and chases a
known changeling; the drama queen keeps a standing chase on her top suspect.

Changelings: they agree on one target (the first to choose, the others follow his
submission), prefer a published researcher, the leader and whoever accuses them, use the
replacement on a dangerous pony, vote with the crowd unless it is after one of them, and
now and then publish a false researcher claim against a pony who accuses them.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from nightfall.engine.commands import Command
from nightfall.sim.bots.base import RulesInfo
from nightfall.sim.bots.mind import JUSTIFIED, HeuristicBase, Mind, best, best_of, claim_text

INVESTIGATORS = frozenset({"researcher", "night_owl"})
#: how much the changelings want a pony of this role gone (known from a scry)
ROLE_THREAT = {"researcher": 6.0, "shield": 3.0, "pinkie_sense": 3.0, "night_owl": 2.0,
               "black_raven": 1.5, "drama_queen": -4.0, "village_idiot": -6.0}


class ChangelingsMind(Mind):
    def result_is_evil(self, role: str, result: str) -> bool | None:
        if role == "night_owl":
            return False if result == "home" else None  # changelings are never at home
        return self.is_evil_role(result)


class ChangelingsBot(HeuristicBase):
    mind_class = ChangelingsMind

    def __init__(self, name: str, rules: RulesInfo, rng: random.Random) -> None:
        # the arguments named, not ``*args``: the compiled build passes them on as a tuple
        super().__init__(name, rules, rng)
        self.ballots: dict[int, dict[str, str]] = defaultdict(dict)  # day -> voter -> target
        self.judged: set[str] = set()
        #: how many players the mind had seen leave (``mind.departed``) when they were
        #: last judged (see :meth:`after_observe`)
        self._dead_judged = 0
        self.pending: str | None = None
        self.fake_claimed = False

    # -- reading ----------------------------------------------------------------------
    def on_notice(self, notice: Mapping[str, Any]) -> None:
        mind, kind = self.mind, notice.get("kind")
        if kind == "investigation":
            target, result = str(notice["target"]), str(notice["result"])
            self.results[target] = result
            evil = mind.is_evil_role(result)
            if evil is not None:
                mind.learn(target, evil, certain=True)
            self.threat[target] += ROLE_THREAT.get(result, 0.0)
        elif kind == "visit":
            target = str(notice["target"])
            self.results[target] = "home" if notice.get("home") else "away"
            if notice.get("home"):
                mind.learn(target, False, certain=True)
            else:
                mind.learn(target, True, weight=0.75)
        elif kind == "pending_abduction":
            self.pending = notice.get("target")
            if self.pending is not None:
                mind.learn(str(self.pending), False, certain=True)
        elif kind == "lovers":
            partner = str(notice["partner"])
            mine = bool(mind.is_evil_role(mind.role))
            mind.learn(partner, mine != bool(notice.get("mixed")), certain=True)
        elif kind == "athlete":
            mind.learn(str(notice["name"]), False, certain=True)
        elif kind == "athlete_replaced":
            mind.learn(str(notice["name"]), True, certain=True)

    def after_observe(self, view: Mapping[str, Any]) -> None:
        mind = self.mind
        if mind.kind == "day":
            ballots = (view.get("votes") or {}).get("vote") or {}
            self.ballots[mind.day].update({v: t for v, t in ballots.items() if t})
        departed = mind.departed
        if len(departed) == self._dead_judged:
            # nobody left since the entries were last read here: a departed player's
            # entry shows how he left from the event that made him leave (C2.4), so
            # nothing new is there to judge
            return
        # only the players who left since (the mind lists them in the order of the view's
        # entries, as they were first seen gone, with the entry read then): the loop
        # over every entry found the same ones, in the same order
        fresh = departed[self._dead_judged:]
        self._dead_judged = len(departed)
        for entry in fresh:
            name, left = entry["name"], entry.get("left")
            if entry.get("alive") or name in self.judged or not left:
                continue
            self.judged.add(name)
            self.judge_voters(name, entry.get("role"), left)

    def judge_voters(self, name: str, role: str | None, left: Mapping[str, Any]) -> None:
        """A banished player's role is shown: his voters earn trust or suspicion."""
        if left.get("cause") != "banished":
            return
        phase = str(left.get("phase") or "")
        day = int(phase.split(" ")[-1]) if phase.split(" ")[-1].isdigit() else self.mind.day
        evil = self.mind.is_evil_role(role)
        for voter, target in self.ballots.get(day, {}).items():
            if target != name or voter == self.mind.me:
                continue
            self.judge_vote(voter, name, evil)

    # -- judgements of the changelings ----------------------------------------------
    def danger(self, player: str) -> float:
        """How much the changelings want ``player`` gone."""
        mind = self.mind
        value = self.threat[player]
        claimed = mind.claimed_role.get(player)
        if claimed in INVESTIGATORS:
            value += 6.0 if claimed == "researcher" else 3.0
        if player == mind.leader:
            value += 2.0
        return self.with_accusations(player, value)

    # -- deciding ---------------------------------------------------------------------
    def decide(self, view: Mapping[str, Any], legal: dict[str, list[Command]]) -> list[Command]:
        me = view.get("me") or {}
        mine = me.get("submissions") or {}
        out: list[Command] = []
        evil = self.mind.informed
        if self.mind.kind == "day" and me.get("alive"):
            out += self.claims(evil)
        for action in ("elect", "vote"):
            if action in legal:
                choice = self.team_vote(view, legal[action]) if evil else self.town_vote(
                    view, legal[action])
                out += self.changed(choice, mine.get(action))
        if "tiebreak" in legal:
            out += self.changed(self.against(legal["tiebreak"], evil), mine.get("tiebreak"))
        if "successor" in legal:
            out += self.changed(self.friend(legal["successor"], evil), mine.get("successor"))
        if "drama_chase" in legal:
            current = mine.get("drama")
            if current is None or not set(current.get("targets") or ()) <= set(self.mind.alive):
                current = None
            out += self.changed(self.against(legal["drama_chase"], False), current)
        if self.mind.kind == "night":
            out += self.night(view, legal, mine, evil)
        return out

    def against(self, options: Sequence[Command], evil: bool) -> Command | None:
        if evil:
            pool = [c for c in options if c.target not in self.mind.team]
            return best(self.rng, pool or list(options), lambda c: self.danger(c.target or ""))
        return self.pick_suspect(options)

    def friend(self, options: Sequence[Command], evil: bool) -> Command | None:
        if evil:
            team = [c for c in options if c.target in self.mind.team]
            if team:
                return best(self.rng, team, lambda c: 0)
            return best(self.rng, options, lambda c: -self.danger(c.target or ""))
        return self.pick_trusted(options)

    def crowd(self, view: Mapping[str, Any], slot: str) -> dict[str, int]:
        counts: dict[str, int] = {}
        for voter, target in ((view.get("votes") or {}).get(slot) or {}).items():
            if target and voter != self.mind.me:
                counts[target] = counts.get(target, 0) + 1
        return counts

    def town_vote(self, view: Mapping[str, Any], options: Sequence[Command]) -> Command | None:
        mind = self.mind
        if options and options[0].action == "elect":
            return self.pick_trusted(options)
        suspects = [c for c in options if c.target != mind.me]
        # what pick_suspect(suspects, justified_only=True), then pick_suspect(suspects)
        # choose from, worked out once
        pool, totals = self.scored(suspects)
        kept, kept_totals = self.justified_of(pool, totals)
        justified = best_of(self.rng, kept, kept_totals)
        if justified is not None:
            return justified
        crowd = self.crowd(view, "vote")
        leading = [c for c in suspects if crowd.get(c.target or "", 0) >= 2
                   and mind.suspicion(c.target or "") > -JUSTIFIED]
        if leading and self.rng.random() < 0.6:
            return best(self.rng, leading, lambda c: crowd.get(c.target or "", 0))
        return best_of(self.rng, pool, totals)

    def team_vote(self, view: Mapping[str, Any], options: Sequence[Command]) -> Command | None:
        mind = self.mind
        ponies = [c for c in options if c.target not in mind.team and c.target != mind.me]
        if options and options[0].action == "elect":
            mates = [c for c in options if c.target in mind.team or c.target == mind.me]
            return best(self.rng, mates or list(options),
                        lambda c: self.crowd(view, "elect").get(c.target or "", 0))
        crowd = self.crowd(view, "vote")
        top = max(crowd.values(), default=0)
        if top >= 2 and self.rng.random() < 0.7:
            leaders = [c for c in ponies if crowd.get(c.target or "", 0) == top]
            if leaders:
                return best(self.rng, leaders, lambda c: self.danger(c.target or ""))
        return best(self.rng, ponies or list(options),
                    lambda c: self.danger(c.target or "") + crowd.get(c.target or "", 0))

    def claims(self, evil: bool) -> list[Command]:
        """Publish own results (ponies) or, now and then, a false claim (changelings)."""
        mind = self.mind
        if evil:
            if self.fake_claimed or mind.day < 2 or any(
                    m in mind.claimed_role for m in mind.team) or (
                    mind.roles_in_play is not None and "researcher" not in mind.roles_in_play):
                return []
            accusers = mind.accusers()
            if accusers and self.rng.random() < 0.5:
                target = accusers[-1]
            elif self.rng.random() < 0.08:
                pool = [p for p in mind.alive if p not in mind.team and p != mind.me]
                target = self.rng.choice(pool) if pool else ""
            else:
                return []
            if not target:
                return []
            self.fake_claimed = True
            return [self.post(claim_text("researcher", [(target, "changeling")]))]
        role = mind.role or ""
        if role not in INVESTIGATORS:
            return []
        fresh = self.fresh_results()
        if not fresh:
            return []
        found_evil = any(mind.is_evil_role(r) for r in fresh.values())
        if role == "researcher" and not found_evil and not (mind.day >= 4 and len(fresh) >= 2):
            return []
        if role == "night_owl" and "home" not in fresh.values():
            return []
        return self.publish_results(role)

    # -- the night --------------------------------------------------------------------
    def night(self, view: Mapping[str, Any], legal: dict[str, list[Command]],
              mine: Mapping[str, Any], evil: bool) -> list[Command]:
        mind = self.mind
        out: list[Command] = []
        if "abduct" in legal or "replace" in legal:
            out += self.changed(self.attack(view, legal), mine.get("kill"))
        if "shield" in legal and "shield" not in mine:
            out += self.changed(self.protect(legal["shield"]), None)
        for action in ("investigate", "visit"):
            if action in legal and action not in mine:
                out += self.changed(self.unknown(legal[action]), None)
        if "scry" in legal and "scry" not in mine:
            unknown = [c for c in legal["scry"] if c.target not in mind.team
                       and c.target not in self.results and c.target != mind.me]
            out += self.changed(best(self.rng, unknown, lambda c: self.danger(c.target or "")),
                                None)
        if "disguise" in legal and not (view.get("me") or {}).get("disguise"):
            in_play = mind.roles_in_play or set()
            options = [c for c in legal["disguise"] if c.choice in in_play
                       and c.choice != "researcher"] or legal["disguise"]
            out.append(self.rng.choice(options))
        if "letter" in legal and "letter" not in mine:
            out += self.changed(self.pick_suspect(legal["letter"]), None)
        if "love" in legal and "love" not in mine:
            pairs = [c for c in legal["love"] if mind.me not in c.all_targets]
            if pairs:
                out.append(self.rng.choice(pairs))
        if "pinkie" not in mine:
            out += self.pinkie(legal)
        if not out and "pass" in legal:
            out.append(legal["pass"][0])
        return out

    def attack(self, view: Mapping[str, Any], legal: dict[str, list[Command]]
               ) -> Command | None:
        """Follow a teammate's choice; else the most dangerous pony."""
        mind = self.mind
        chosen = (view.get("me") or {}).get("team_submissions") or {}
        for player, sub in chosen.items():
            if player == mind.me or sub.get("action") not in ("abduct", "replace"):
                continue
            for command in legal.get(sub["action"], ()):
                if command.target == sub.get("target"):
                    return command
        target = best(self.rng, legal.get("abduct") or legal.get("replace") or [],
                      lambda c: self.danger(c.target or ""))
        if target is None:
            return None
        if "replace" in legal and (self.danger(target.target or "") >= 5 or (
                mind.day >= 3 and self.rng.random() < 0.25)):
            for command in legal["replace"]:
                if command.target == target.target:
                    return command
        return target

    def valuable(self, player: str) -> float:
        """How much a pony wants ``player`` protected."""
        mind = self.mind
        value = -mind.suspicion(player) / 10
        claimed = mind.claimed_role.get(player)
        if claimed in INVESTIGATORS and mind.trust(player) > 0.5:
            value += 5.0 if claimed == "researcher" else 2.0
        if player == mind.leader:
            value += 1.5
        return value

    def protect(self, options: Sequence[Command]) -> Command | None:
        pool = [c for c in options if self.mind.suspicion(c.target or "") < JUSTIFIED]
        return best(self.rng, pool or list(options), lambda c: self.valuable(c.target or ""))

    def unknown(self, options: Sequence[Command]) -> Command | None:
        mind = self.mind
        pool = [c for c in options if c.target != mind.me and c.target not in self.results
                and c.target not in mind.town_known and c.target not in mind.evil_known]
        return best(self.rng, pool or [c for c in options if c.target != mind.me],
                    lambda c: mind.suspicion(c.target or ""))

    def pinkie(self, legal: dict[str, list[Command]]) -> list[Command]:
        mind = self.mind
        if "pinkie_save" in legal and self.pending is not None:
            target = self.pending
            if (target == mind.me or self.valuable(target) >= 1.5
                    or self.rng.random() < 0.35):
                return [legal["pinkie_save"][0]]
        chase = [c for c in legal.get("pinkie_chase", ()) if mind.suspicion(c.target or "") >= 4]
        if chase:
            choice = self.pick_suspect(chase)
            return [choice] if choice is not None else []
        return []

"""The heuristic Island of Fear player (rules in docs/rules/island.md).

Peaceful islanders: the seer checks the most suspected unchecked player and publishes
his results once he found a werewolf; claims are weighed and checked against revealed
roles and the lynch table; votes go to the most suspected player; the nurse heals a
credible seer (herself once); the witch kills only a known werewolf; the maniac silences
the top suspect; the authority takes the top suspect's vote; the shocker and the voodoo
doll are used on a justified suspect; a harmful item is swapped at the bunker.

Werewolves: they eat one victim together (the first to choose, the others follow),
prefer a published seer, vote against the most dangerous islander, and may answer an
accusation with a false seer claim. The hamster kills a published seer first (the seer's
check would kill him), else anyone.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from nightfall.engine.commands import Command
from nightfall.sim.bots.base import RulesInfo
from nightfall.sim.bots.mind import JUSTIFIED, HeuristicBase, Mind, best, best_of, claim_text

HARMFUL_ITEMS = frozenset({"trap", "poison_thorn", "totem", "handcuffs", "bomb"})
MAFIA_ROLES = frozenset({"werewolf", "half_blood"})


class IslandMind(Mind):
    def result_is_evil(self, role: str, result: str) -> bool | None:
        if result == "werewolf":
            return True
        if result == "not_werewolf":
            return False
        return None


class IslandBot(HeuristicBase):
    mind_class = IslandMind

    def __init__(self, name: str, rules: RulesInfo, rng: random.Random) -> None:
        # the arguments named, not ``*args``: the compiled build passes them on as a tuple
        super().__init__(name, rules, rng)
        self.tables_read: set[str] = set()
        self.fake_claimed = False

    # -- reading ----------------------------------------------------------------------
    def on_notice(self, notice: Mapping[str, Any]) -> None:
        if notice.get("kind") == "check":
            target, result = str(notice["target"]), str(notice["result"])
            self.results[target] = result
            if result == "werewolf":
                self.mind.learn(target, True, certain=True)
            elif result == "not_werewolf":
                self.mind.learn(target, False, weight=3.0)  # a half-blood looks the same

    def after_observe(self, view: Mapping[str, Any]) -> None:
        """The lynch table of the last day: voters of a revealed player are judged."""
        mind = self.mind
        table = view.get("lynch_table") or []
        # only the entries new on this turn (``mind.fresh``): an entry read as the same
        # object on the last turn was looked at then, and a lynched player's name is in
        # ``tables_read`` from that turn on
        lynched = [e for e in mind.fresh if not e.get("alive")
                   and (e.get("left") or {}).get("cause") == "lynched"
                   and e["name"] not in self.tables_read]
        for entry in lynched:
            self.tables_read.add(entry["name"])
            evil = mind.is_evil_role(entry.get("role"))
            for vote in table:
                voter = vote.get("owner")
                if vote.get("target") != entry["name"] or not vote.get("cast") or voter == mind.me:
                    continue
                self.judge_vote(str(voter), entry["name"], evil)

    def danger(self, player: str) -> float:
        mind = self.mind
        value = self.threat[player]
        if mind.claimed_role.get(player) == "seer":
            value += 6.0
        role = mind.known_role.get(player)
        if role in ("authority", "witch", "nurse"):
            value += 2.0
        return self.with_accusations(player, value)

    # -- deciding ---------------------------------------------------------------------
    def decide(self, view: Mapping[str, Any], legal: dict[str, list[Command]]) -> list[Command]:
        mind = self.mind
        me = view.get("me") or {}
        mine = me.get("submissions") or {}
        role = mind.role or ""
        evil = role in MAFIA_ROLES or bool(mind.team)
        hamster = role == "hamster"
        out: list[Command] = self.claims(evil)
        myself = mind.me
        # the votes naming one player other than me (``len(c.all_targets) == 1`` without
        # the property's call per command: the list holds ~5 pairs per single)
        singles = [c for c in legal.get("vote", ()) if (
            len(c.targets) == 1 if c.targets else c.target is not None) and c.target != myself]
        if singles:
            out += self.changed(self.hostile(singles, evil), mine.get("vote"))
        if "fear_pick" in legal:
            out += self.changed(self.hostile(legal["fear_pick"], evil), mine.get("fear"))
        if "eat" in legal:
            out += self.changed(self.eat(view, legal["eat"]), mine.get("eat"))
        if "check" in legal:
            pool = [c for c in legal["check"] if c.target not in self.results]
            out += self.changed(self.pick_suspect(pool or legal["check"]), mine.get("check"))
        if "heal" in legal:
            out += self.changed(self.heal(legal["heal"]), mine.get("heal"))
        if "witch_kill" in legal:
            sure = [c for c in legal["witch_kill"] if mind.suspicion(c.target or "") >= 4]
            out += self.changed(self.pick_suspect(sure), mine.get("witch"))
        if "assault" in legal:
            out += self.changed(self.hostile(legal["assault"], evil), mine.get("assault"))
        if "hamster_kill" in legal:
            out += self.changed(best(self.rng, legal["hamster_kill"],
                                     lambda c: self.danger(c.target or "")),
                                mine.get("hamster"))
        if "recharge" in legal and "sleepwalk" not in mine and "mystic" not in mine:
            # I2.6: a recharge is judged only when it resolves; aim at a used item seen
            used = {p["name"] for p in view.get("players") or ()
                    if any(i.get("used") for i in p.get("items") or ())}
            own = [c for c in legal["recharge"]
                   if c.target in (None, mind.me) and mind.me in used]
            trusted = own or [c for c in legal["recharge"] if c.target in used
                              and mind.suspicion(c.target or "") < 0]
            if trusted:
                out.append(self.rng.choice(trusted))
        if "authority" in legal and "authority" not in mine:
            target = self.pick_suspect(legal["authority"], justified_only=True)
            if target is not None and mind.day >= 2:
                out.append(target)
        if "use_item" in legal and mind.stage == 2:
            out += self.items(legal["use_item"], mine, evil, hamster)
        if "bunker_apply" in legal and "bunker" not in mine and any(
                i.get("id") in HARMFUL_ITEMS for i in me.get("items") or ()):
            out.append(legal["bunker_apply"][0])
        if "pick_me_partner" in legal and "pick_me" not in mine:
            choice = self.pick_trusted(legal["pick_me_partner"])
            out += [choice] if choice is not None else []
        return out

    def hostile(self, options: Sequence[Command], evil: bool) -> Command | None:
        """The target of a vote or an attack: the top suspect, or the most dangerous
        islander for the werewolves."""
        mind = self.mind
        if evil:
            side = mind.team | {mind.me}
            pool = [c for c in options if side.isdisjoint(c.all_targets)] or list(options)
            # each player's danger worked out once for this choice (nothing changes it
            # while the bot decides), summed per command in the order of its targets
            dangers: dict[str, float] = {}
            keys = []
            for command in pool:
                total = 0.0  # sum() starts at 0: the same totals (0.0 == 0)
                for target in command.all_targets:
                    value = dangers.get(target)
                    if value is None:
                        value = dangers[target] = self.danger(target)
                    total += value
                keys.append(total)
            return best_of(self.rng, pool, keys)
        return self.pick_suspect(options)

    def eat(self, view: Mapping[str, Any], options: Sequence[Command]) -> Command | None:
        mind = self.mind
        chosen = (view.get("me") or {}).get("team_submissions") or {}
        for player, targets in chosen.items():
            if player == mind.me:
                continue
            for command in options:
                if list(command.all_targets) == list(targets):
                    return command
        return self.hostile(options, True)

    def heal(self, options: Sequence[Command]) -> Command | None:
        mind = self.mind

        def value(command: Command) -> float:
            target = command.target or ""
            worth = -mind.suspicion(target) / 10
            if mind.claimed_role.get(target) == "seer" and mind.trust(target) > 0.5:
                worth += 5.0
            if target == mind.me:
                worth += 1.0
            return worth

        return best(self.rng, options, value)

    def items(self, options: Sequence[Command], mine: Mapping[str, Any], evil: bool,
              hamster: bool) -> list[Command]:
        mind = self.mind
        out: list[Command] = []
        for item in ("shocker", "voodoo_doll", "love_note"):
            if "item:" + item in mine:
                continue
            usable = [c for c in options if c.choice == item]
            if not usable:
                continue
            if evil or hamster:
                pool = [c for c in usable if c.target not in mind.team
                        and self.danger(c.target or "") >= 5]
                choice = best(self.rng, pool, lambda c: self.danger(c.target or ""))
            elif item == "love_note":
                choice = None  # a note would also forbid the sender's vote
            else:
                choice = self.pick_suspect(usable, justified_only=True)
            if choice is not None:
                out.append(choice)
        return out

    def claims(self, evil: bool) -> list[Command]:
        mind = self.mind
        if mind.role is None or mind.role == "hamster":
            return []
        if evil:
            if self.fake_claimed or mind.day < 2 or any(m in mind.claimed_role for m in mind.team):
                return []
            accusers = mind.accusers()
            if not accusers or self.rng.random() >= 0.5:
                return []
            self.fake_claimed = True
            return [self.post(claim_text("seer", [(accusers[-1], "werewolf")]))]
        if mind.role != "seer":
            return []
        fresh = self.fresh_results()
        if not fresh or not ("werewolf" in fresh.values() or (
                mind.day >= 4 and len(fresh) >= 2)):
            return []
        return self.publish_results("seer")


__all__ = ["JUSTIFIED", "IslandBot"]

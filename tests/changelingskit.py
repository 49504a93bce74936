"""What the Changelings tests read of a game by the rules themselves (C1.2, C5.4, C7, C8),
not by the rule set's code: the rule file (``rulefile/sets/changelings.yaml``) is what
they test. The facts are the file's own (``facts:``, engine flags), read by their names."""

from __future__ import annotations

from typing import Any

from nightfall.engine import GameState
from nightfall.forum import VoteRules
from nightfall.rulefile.ruleset import shipped
from nightfall.service.votecount import vote_rules_for

CHANGELINGS = shipped("changelings")
#: C5, C6: the statuses every player sees (the file's ``public: true``)
PUBLIC_STATUSES = frozenset(s for s, spec in CHANGELINGS.file.statuses.items() if spec.public)
#: C8.2: the abilities that never name the actor's lover
AGAINST_LOVER = frozenset({"vote", "abduct", "replace", "tiebreak", "pinkie_chase", "letter",
                           "drama_chase"})


def _vote_rules() -> VoteRules:
    rules = vote_rules_for(CHANGELINGS)
    assert rules is not None, "changelings.yaml has no forum_votes: section"
    return rules


#: C3: how a vote is written in the forum thread and counted, from the file's
#: ``forum_votes:`` (what ``nightfall votecount --ruleset changelings`` counts with)
CHANGELINGS_VOTES = _vote_rules()


def fact(state: GameState, name: str, player: str | None = None) -> Any:
    """The file's fact ``name`` (of ``player`` for a per-player one) in ``state``."""
    spec = CHANGELINGS.file.facts[name]
    return state.flags.get(spec.key + (player or "") if spec.per_player else spec.key)


def is_changeling_side(role: str | None) -> bool:
    """C1.2: changeling, queen and liar all count as changelings."""
    return role is not None and CHANGELINGS.role_factions.get(role) == "changelings"


def partner_of(state: GameState, player: str) -> str | None:
    """C8: the player's lover, once the couple formed."""
    found = fact(state, "partner", player)
    return None if found is None else str(found)


def against_lover(state: GameState, action: str, actor: str, targets: tuple[str, ...]) -> bool:
    """C8.2: whether ``actor``'s ``action`` naming ``targets`` acts against his lover."""
    partner = partner_of(state, actor)
    return action in AGAINST_LOVER and partner is not None and partner in targets


def plan_reason(state: GameState) -> str:
    """Why stage 1 would settle no attack now, or ``ok`` (C7.1–C7.3, C12.1): the team's
    choices (changelings still in the game, passes aside) disagree, name nobody, name a
    team member or a departed player, another changeling's lover, or a shielded one."""
    team = [p for p in state.alive() if is_changeling_side(state.players[p].role)]
    choices = [s for (p, slot), s in state.submissions.items()
               if slot == "kill" and p in team and s.action != "pass"]
    if not choices:
        return "none"
    wanted = {(s.action, s.target) for s in choices}
    if len(wanted) > 1:
        return "disagreement"
    _, target = next(iter(wanted))
    if target is None or not state.is_alive(target) or target in team:
        return "invalid"
    if any(partner_of(state, c) == target for c in team):
        return "lover"
    shields = [s for (p, slot), s in state.submissions.items() if slot == "shield"
               and state.is_alive(p) and state.players[p].role == "shield"]
    return "shield" if any(s.target == target for s in shields) else "ok"

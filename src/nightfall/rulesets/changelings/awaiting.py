"""Who leads (C5) and which inputs a stage still waits for (C2.3).

Apart from ``ruleset.py`` because the command checks need both: ``pass`` answers exactly
what the stage awaits from a player, and tie-breaks and successors are the leader's.
"""

from __future__ import annotations

from nightfall.engine import GameState
from nightfall.engine.phase import DAY, NIGHT
from nightfall.engine.state import FLAGS, PHASE, PLAYERS, SUBMISSIONS, derived
from nightfall.rulesets.changelings import memory
from nightfall.rulesets.changelings.roles import (
    BLACK_RAVEN,
    DRAMA_QUEEN,
    LEADER,
    LIAR,
    LOVE_POTION,
    NIGHT_OWL,
    PINKIE_SENSE,
    QUEEN,
    RESEARCHER,
    SHIELD,
    is_changeling_side,
)

#: C2.3: the stage-2 abilities each role is awaited for.
STAGE_TWO_SLOTS = {
    RESEARCHER: "investigate",
    QUEEN: "scry",
    LIAR: "disguise",
    BLACK_RAVEN: "letter",
    NIGHT_OWL: "visit",
}

#: the keys of this module's memos in ``state.memo``
_LEADER, _WANTED, _AWAITING = "c.leader", "c.wanted", "c.awaiting"


def current_leader(state: GameState) -> str | None:
    """C5: the living player with the leader status (departed leaders keep the mark);
    asked by every player's legal list, so worked out once while no player changes."""
    entry = state.memo.get(_LEADER)  # ``derived`` inlined: asked by every legal list
    if entry is not None and entry[0] == state.stamp[PLAYERS]:
        leader: str | None = entry[1]
        return leader
    leader = derived(state, _LEADER, (PLAYERS,), _current_leader)
    return leader


def _current_leader(state: GameState) -> str | None:
    for player in state.players.values():
        if player.alive and LEADER in player.statuses:
            return player.name
    return None


def awaiting_inputs(state: GameState) -> set[tuple[str, str]] | None:
    """C2.3: the inputs a stage waits for before it may close early (asked after every
    command and by every ``pass`` in a legal list). Worked out in two parts: who is
    awaited for what (the players, the phase and the flags decide it: kept while those
    are unchanged, a whole stage long for most of it) and which of those inputs are
    still missing (re-read after every submission: a few dictionary lookups)."""
    wanted: frozenset[tuple[str, str]] | None = derived(
        state, _WANTED, (PLAYERS, PHASE, FLAGS), _wanted)
    if wanted is None:
        return None
    awaited: frozenset[tuple[str, str]] = derived(
        state, _AWAITING, (PLAYERS, PHASE, SUBMISSIONS, FLAGS), _still_missing)
    return set(awaited)


def all_inputs_in(state: GameState) -> bool:
    """C2.3: whether the stage awaits inputs and has every one of them (it may close
    early): asked after every command, answered from what the stage awaits, without
    building the set of what is missing."""
    wanted = wanted_inputs(state)
    return wanted is not None and state.submissions.keys() >= wanted


def wanted_inputs(state: GameState) -> frozenset[tuple[str, str]] | None:
    """:func:`_wanted`, kept while the players, the phase and the flags are unchanged
    (``derived``, its memo read here first: asked after every command and by every
    ``pass`` in a legal list)."""
    entry = state.memo.get(_WANTED)
    if entry is not None:
        stamp = state.stamp
        if entry[0] == (stamp[PLAYERS], stamp[PHASE], stamp[FLAGS]):
            kept: frozenset[tuple[str, str]] | None = entry[1]
            return kept
    wanted: frozenset[tuple[str, str]] | None = derived(
        state, _WANTED, (PLAYERS, PHASE, FLAGS), _wanted)
    return wanted


def _still_missing(state: GameState) -> frozenset[tuple[str, str]]:
    wanted: frozenset[tuple[str, str]] = derived(state, _WANTED, (PLAYERS, PHASE, FLAGS),
                                                 _wanted)
    submissions = state.submissions
    return frozenset(key for key in wanted if key not in submissions)


def _wanted(state: GameState) -> frozenset[tuple[str, str]] | None:
    """Every input the stage awaits, given or not (``None``: it never closes early)."""
    phase = state.phase
    wanted: set[tuple[str, str]] = set()
    if phase.kind == DAY:
        if phase.stage == 1:
            return None  # C2.3 [R]: the day never closes early (votes may change)
        # C2.3 [R], C5.3: the tie-break wait (day N/2) awaits the leader's tie-break only;
        # a tie-break there must name one of the tied, so any one received is valid
        leader = current_leader(state)
        if leader is not None:
            wanted.add((leader, "tiebreak"))
    elif phase.kind == NIGHT and phase.stage == 1:
        for player in state.players.values():
            if not player.alive:
                continue
            if is_changeling_side(player.role):
                wanted.add((player.name, "kill"))
            elif player.role == SHIELD:
                wanted.add((player.name, "shield"))
    elif phase.kind == NIGHT:
        wanted = _stage_two_awaited(state)
    return frozenset(wanted)


def _stage_two_awaited(state: GameState) -> set[tuple[str, str]]:
    wanted: set[tuple[str, str]] = set()
    attack = memory.attack(state)
    for player in state.players.values():
        if not player.alive:
            continue
        name, role = player.name, player.role or ""
        if role in STAGE_TWO_SLOTS:
            wanted.add((name, STAGE_TWO_SLOTS[role]))
        elif role == LOVE_POTION and state.phase.number == 1:
            wanted.add((name, "love"))
        elif role == PINKIE_SENSE:
            can_save = attack is not None and not state.flags.get(
                memory.pinkie_save_used_key(name))
            if can_save or not state.flags.get(memory.pinkie_chase_used_key(name)):
                wanted.add((name, "pinkie"))
    leaving = list(memory.names(state, memory.DRAMA_DUE))
    if attack is not None and attack["action"] == "abduct":
        leaving.append(attack["target"])
    for queen in leaving:
        # C14: a leaving drama queen owes her chase; any choice she gave counts as given
        # (an input in her slot is no longer awaited, whether or not it still names a
        # player in the game: only a missing one is waited for)
        if state.players[queen].role == DRAMA_QUEEN:
            wanted.add((queen, "drama"))
    return wanted


def is_awaited(state: GameState, player: str) -> bool:
    """Whether the stage awaits an input from ``player`` (``awaited_slots`` is not empty):
    asked by ``pass`` in every legal list, so without building the sets."""
    wanted = wanted_inputs(state)
    if not wanted:
        return False
    submissions = state.submissions
    # a loop, not any(): a generator costs more than the few keys it looks at
    for key in wanted:  # noqa: SIM110
        if key[0] == player and key not in submissions:
            return True
    return False


def awaited_slots(state: GameState, player: str) -> list[str]:
    """The slots the stage awaits from ``player``, sorted (what his ``pass`` answers)."""
    awaited = awaiting_inputs(state) or set()
    return sorted(slot for name, slot in awaited if name == player)

"""The vote and the lynch: I6.3–I6.5 and steps 2–7 of stage 2 (I7).

Every living player's votes are built first (I6.3: a non-voter's votes are on himself),
then each step corrects them in the order of I7 and says why in the trace; step 7 counts
them and lynches. Ballots are the ``vote`` submissions: ``target`` puts all of a voter's
votes on one player, ``targets`` one vote each (used in turn when he has more votes than
names, e.g. the authority's taken vote follows his own, I6.3).
"""

from __future__ import annotations

from collections import Counter
from itertools import cycle, islice

from nightfall.engine import N_, Context, GameState, Step, Term, declare_steps
from nightfall.engine.events import VotesCounted
from nightfall.rulesets.island import effects, memory
from nightfall.rulesets.island.happenings import (
    FEAR,
    MAGNETIC_STORM,
    PALMS_BLOOM,
    RAGE,
    SOLAR_ECLIPSE,
    TWO_VOTES,
)
from nightfall.rulesets.island.items import (
    BOMB,
    HANDCUFFS,
    MEGAPHONE,
    POISON_THORN,
    SHEEP_SKIN,
    TOTEM,
    TRAP,
    WOLF_FANG,
    holds,
    items_work,
)
from nightfall.rulesets.island.roles import AUTHORITY, IMMUNE, LYNCHED, SHOCKED, SILENCED
from nightfall.rulesets.island.seating import neighbours, seating
from nightfall.rulesets.island.work import Vote, work

#: losses that take every vote of a voter, the authority's taken one too (I2.4, I6.3)
WHOLE_LOSSES = frozenset({SILENCED, SHOCKED, PALMS_BLOOM, POISON_THORN})


# -- reading the ballots -------------------------------------------------------------------
def ballot(state: GameState, player: str) -> list[str]:
    """The names ``player`` voted for today (empty: he did not vote)."""
    sub = state.submission(player, "vote")
    return list(sub.targets) if sub is not None else []


def own_vote_count(state: GameState, player: str) -> int:
    """How many votes of his own ``player`` has today: one, two under rage and foggy night
    (I5), one more with a working megaphone (I4; items change no vote under fear)."""
    event = memory.today_event(state)
    count = 2 if event in TWO_VOTES else 1
    # ``items_work`` read from the same event (asked for every vote list)
    if event != FEAR and event != MAGNETIC_STORM and holds(state, player, MEGAPHONE):
        count += 1
    return count


def taken_from(state: GameState, player: str) -> str | None:
    """I2.4: the living player whose vote the authority ``player`` takes today, if any."""
    sub = state.submission(player, "authority")
    if sub is None or state.players[player].role != AUTHORITY:
        return None
    target = sub.target
    return target if target is not None and state.is_alive(target) else None


def vote_count(state: GameState, player: str) -> int:
    """How many votes ``player`` casts today: his own (:func:`own_vote_count`) and, for
    the authority who took one today, that vote too (I2.4 [R]: he disposes of it freely,
    so his ``vote`` may name one player more)."""
    return own_vote_count(state, player) + (1 if taken_from(state, player) else 0)


def spread(targets: list[str], count: int) -> list[str]:
    """``count`` votes over the named targets, in turn."""
    return list(islice(cycle(targets), count)) if targets else []


def voiceless_reason(state: GameState, player: str) -> str | None:
    """Why ``player`` cannot vote at all today, if he knows it already (I2.7, I4)."""
    statuses = state.players[player].statuses
    if SILENCED in statuses:
        return SILENCED
    if SHOCKED in statuses and items_work(state) and memory.today_event(state) != FEAR:
        return SHOCKED
    return None


def forbidden_by_love_note(state: GameState, voter: str, target: str) -> bool:
    """I4 love note: no vote from the recipient for the sender, nor the other way."""
    return target in love_note_partners(state, voter)


def love_note_partners(state: GameState, voter: str) -> set[str]:
    """I4: the players a love note of today forbids ``voter`` to vote for (the other end
    of every note he sent or received)."""
    found: set[str] = set()
    for sender, recipient in memory.love_notes(state):
        if sender == voter:
            found.add(recipient)
        if recipient == voter:
            found.add(sender)
    return found


def violators(state: GameState) -> dict[str, list[str]]:
    """Who broke a speech rule today, with the sources (``detected``, ``gm``): palms bloom
    detections the GM did not overrule, and every violation the GM marked (I4, I5)."""
    found: dict[str, list[str]] = {}
    overruled = set(memory.names(state, memory.OVERRULED))
    for player in memory.mapping(state, memory.DETECTIONS):
        if player not in overruled:
            found.setdefault(player, []).append("detected")
    for player in memory.mapping(state, memory.VIOLATIONS):
        found.setdefault(player, []).append("gm")
    return found


# -- building and correcting -----------------------------------------------------------------
def build_votes(state: GameState) -> list[Vote]:
    """I6.3: every living player's votes, cast or (if he did not vote) on himself."""
    votes: list[Vote] = []
    # the day's event read once (:func:`own_vote_count`, :func:`ballot` inlined: asked for
    # every seat); a ballot's own votes are the first ``count`` of its spread over all his
    # votes (:func:`authority_spread`), so the vote an authority took plays no part here
    event = memory.today_event(state)
    base = 2 if event in TWO_VOTES else 1
    megaphones = event != FEAR and event != MAGNETIC_STORM  # I4, I5 (``items_work``)
    players, submissions = state.players, state.submissions
    for player in seating(state):
        holder = players.get(player)
        if holder is None or not holder.alive:
            continue
        count = base + 1 if megaphones and holds(state, player, MEGAPHONE) else base
        sub = submissions.get((player, "vote"))
        names = list(sub.targets) if sub is not None else []
        targets = spread(names, count) if names else [player] * count
        for index, target in enumerate(targets):
            kind = "own" if index < base else "megaphone"
            vote = Vote(player, target, kind, cast=bool(names), meant=target)
            if not state.is_alive(target):
                vote.lost, vote.target = "gone", player
            votes.append(vote)
    return votes


def authority_spread(state: GameState, player: str) -> list[str]:
    """Where each of ``player``'s votes goes: his names in turn over his own votes and
    then (I2.4) the vote he took, the last of the list."""
    return spread(ballot(state, player), vote_count(state, player))


def lose(ctx: Context, vote: Vote, reason: str) -> bool:
    """Mark a vote lost; it counts for its owner (I6.3), under fear for nobody (I5)."""
    if vote.lost is not None or vote.taken_by is not None:
        return False
    vote.lost = reason
    vote.target = vote.owner
    return True


def lose_all(ctx: Context, owner: str, reason: str, msgid: str) -> None:
    changed = [v for v in work(ctx).votes if v.owner == owner and lose(ctx, v, reason)]
    if changed:
        ctx.trace(msgid, name=owner, count=len(changed))


def step_final_items(ctx: Context) -> None:
    """Stage 2, step 1: the shockers and love notes used since 13:00 take effect."""
    from nightfall.rulesets.island.daytime import activate_day_items

    activate_day_items(ctx)


def step_event_corrections(ctx: Context) -> None:
    """Step 2 (I5): magnetic storm, fear, palms bloom."""
    state = ctx.state
    w = work(ctx)
    w.votes = build_votes(state)
    event = memory.today_event(state)
    if event == MAGNETIC_STORM:
        ctx.trace(N_("Magnetic storm: no item changes a vote today (I5)."))
    if event == FEAR:
        w.fear = True
        ctx.trace(N_("Fear: the vote elects a leader; votes not cast do not stay on the "
                     "non-voter, and items do not change votes (I5, I6.5)."))
    if event == PALMS_BLOOM:
        for player in violators(state):
            if state.is_alive(player):
                lose_all(ctx, player, PALMS_BLOOM, N_("{name} spoke a forbidden word while the "
                         "palms bloom and loses {count} vote(s) (I5)."))


def step_item_corrections(ctx: Context) -> None:
    """Step 3 (I4): shocker, love note, poison thorn, totem, handcuffs, megaphone; and the
    maniac's silence (I2.7), which is no item and works under fear too."""
    state = ctx.state
    w = work(ctx)
    players = state.players
    living = [p for p in seating(state) if (held := players.get(p)) is not None and held.alive]
    for player in living:  # (in the order of the seats: the trace follows it)
        if SILENCED in players[player].statuses:
            lose_all(ctx, player, SILENCED, N_("{name} was silenced by the maniac and loses "
                     "{count} vote(s) (I2.7)."))
    if w.fear or not items_work(state):
        ctx.trace(N_("No item changes a vote today."))
        return
    for player in living:
        if SHOCKED in players[player].statuses and state.is_alive(player):
            lose_all(ctx, player, SHOCKED, N_("{name} is shocked and loses {count} vote(s) "
                     "(I4)."))
    for vote in w.votes if memory.love_notes(state) else ():  # (most days: no note)
        if vote.cast and forbidden_by_love_note(state, vote.owner, vote.target):
            target = vote.target
            if lose(ctx, vote, "love_note"):
                ctx.trace(N_("A love note forbids {name}'s vote for {target}: it is lost "
                             "(I4)."), name=vote.owner, target=target)
    marked = violators(state)
    for player in living:
        if player in marked and state.is_alive(player) and holds(state, player, POISON_THORN):
            lose_all(ctx, player, POISON_THORN, N_("{name} broke the silence of the poison "
                     "thorn and loses {count} vote(s) (I4)."))
    for vote in w.votes:
        owner = vote.owner
        if vote.cast and holds(state, owner, TOTEM):
            target = vote.target
            if target not in _totem_allowed(state, owner) and lose(ctx, vote, TOTEM):
                ctx.trace(N_("{name} holds the totem and voted for {target}, unlike his "
                             "neighbours: the vote is lost (I4)."), name=owner, target=target)
        if vote.cast and holds(state, owner, HANDCUFFS) and vote.target in neighbours(
                state, owner):
            target = vote.target
            if lose(ctx, vote, HANDCUFFS):
                ctx.trace(N_("{name} wears handcuffs and may not vote for his neighbour "
                             "{target}: the vote is lost (I4)."), name=owner, target=target)
    for player in living:  # (nobody leaves in this step: still the living)
        if holds(state, player, MEGAPHONE):
            ctx.trace(N_("{name}'s megaphone gives him one more vote (I4)."), name=player)


def step_authority(ctx: Context) -> None:
    """Step 4 (I2.4 [R]): the authority takes one vote of the named player — the first
    of his own; under rage and foggy night he keeps the second, a megaphone holder the
    megaphone's — and casts it where the last name of his own ``vote`` says (I6.3: also
    when he voted before taking it). From now on the vote is his: the owner's losses no
    longer touch it, the authority's do (:func:`_cast_taken`)."""
    state = ctx.state
    w = work(ctx)
    for sub in state.submissions_in("authority"):
        authority = sub.player
        if not state.is_alive(authority):
            continue
        target = taken_from(state, authority)
        if target is None:
            continue
        vote = next((v for v in w.votes if v.owner == target and v.kind == "own"
                     and v.taken_by is None), None)
        if vote is None:
            continue
        names = ballot(state, authority)
        where = authority_spread(state, authority)[-1] if names else authority
        vote.taken_by, vote.cast, vote.meant = authority, bool(names), where
        vote.lost, vote.target = None, where
        ctx.trace(N_("The authority {name} takes {target}'s vote and casts it for {where} "
                     "(I2.4)."), name=authority, target=target, where=where)
        _cast_taken(ctx, vote)


def _cast_taken(ctx: Context, vote: Vote) -> None:
    """I2.4 [R]: the corrections of step 3 judge the taken vote as the authority's: lost
    (and counted for him, I6.3) if he has lost his own votes (silenced, shocked, palms
    bloom, poison thorn), if its target left the game, or if his love note, totem or
    handcuffs forbid it."""
    state = ctx.state
    w = work(ctx)
    authority = vote.taken_by or ""
    reason = next((v.lost for v in w.votes if v.owner == authority and v.lost in WHOLE_LOSSES),
                  None)
    where = vote.target
    if reason is None and not state.is_alive(where):
        reason = "gone"
    if reason is None and vote.cast and not w.fear and items_work(state):
        if forbidden_by_love_note(state, authority, where):
            reason = "love_note"
        elif holds(state, authority, TOTEM) and where not in _totem_allowed(state, authority):
            reason = TOTEM
        elif holds(state, authority, HANDCUFFS) and where in neighbours(state, authority):
            reason = HANDCUFFS
    if reason is None:
        return
    vote.lost, vote.target = reason, authority
    if reason == "gone":
        ctx.trace(N_("{target} is no longer in the game: the vote {name} took is lost and "
                     "counts for {name} (I2.4, I6.3)."), name=authority, target=where)
        return
    ctx.trace(N_("The vote {name} took for {target} is lost ({reason}) and counts for "
                 "{name} (I2.4, I6.3)."), name=authority, target=where,
              reason=_reason_term(reason))


def _reason_term(reason: str) -> Term:
    if reason in (SILENCED, SHOCKED):
        return Term("status", reason)
    if reason == PALMS_BLOOM:
        return Term("event", reason)
    return Term("item", reason)


def _totem_allowed(state: GameState, owner: str) -> set[str]:
    """I4 totem: where the neighbours' votes go as sent (a non-voter's is on himself)."""
    return {t for n in neighbours(state, owner) for t in (ballot(state, n) or [n])}


def tally(ctx: Context) -> Counter[str]:
    w = work(ctx)
    counted: Counter[str] = Counter()
    for vote in w.votes:
        if w.fear and (vote.lost is not None or not vote.cast):
            continue  # I5 fear: votes do not stay on the non-voter (nor on the authority)
        counted[vote.target] += 1
    return counted


def _protected_out(ctx: Context, tied: list[str], *, level: bool = False) -> list[str]:
    """I6.4: narrow a tie: trap first, then wolf fang; immune players (pick me!) never.
    ``level``: a single candidate who ties with a sheep-skin holder is in a tie too."""
    state = ctx.state
    immune = [p for p in tied if IMMUNE in state.players[p].statuses]
    if immune:
        ctx.trace(N_("{names} cannot be lynched today (pick me!, I5)."), names=tuple(immune))
        tied = [p for p in tied if p not in immune]
    if (len(tied) > 1 or (level and tied)) and items_work(state):
        traps = [p for p in tied if holds(state, p, TRAP)]
        if traps and len(traps) < len(tied):
            ctx.trace(N_("The trap decides the tie: {names} (I4)."), names=tuple(traps))
            tied = traps
        fangs = [p for p in tied if holds(state, p, WOLF_FANG)]
        if fangs:
            ctx.trace(N_("The wolf fang saves {names} from the tie (I4)."), names=tuple(fangs))
            tied = [p for p in tied if p not in fangs]
    return tied


def choose(ctx: Context, counted: Counter[str], excluded: set[str]) -> str | None:
    """The player with the most votes outside ``excluded``; ties narrowed (I6.4) and then
    broken by chance [R]. ``None`` if nobody is left or every tied player is protected."""
    state = ctx.state
    order = [p for p in seating(state) if state.is_alive(p) and p not in excluded
             and counted.get(p, 0) > 0]
    if not order:
        return None
    top = max(counted[p] for p in order)
    tied = [p for p in order if counted[p] == top]
    if len(tied) > 1:
        ctx.trace(N_("Tie with {count} votes: {names} (I6.4)."), count=top, names=tuple(tied))
    tied = _protected_out(ctx, tied)
    if not tied:
        ctx.trace(N_("Every tied player is protected: nobody is lynched for this place "
                      "(I6.4)."))
        excluded.update(p for p in order if counted[p] == top)
        return None
    if len(tied) == 1:
        return tied[0]
    chosen = ctx.draw("lynch_tie", tied)
    ctx.trace(N_("Chance picks {name} among {names} (I6.4)."), name=chosen, names=tuple(tied))
    return chosen


def runner_up_of(ctx: Context, counted: Counter[str], holder: str, excluded: set[str]
                 ) -> str | None:
    """I6.4 [R]: whom a sheep skin hands the lynch to. The candidates are the players with
    most votes after the skin holder (``excluded``: him and the places already filled);
    they are tied if there are several or if they have as many votes as the holder, and a
    tie is narrowed like the first one (pick me!, trap, wolf fang) and then broken by
    chance; if every candidate is protected, nobody dies. Only a player with a vote can be
    a candidate."""
    state = ctx.state
    order = [p for p in seating(state) if state.is_alive(p) and p not in excluded
             and counted.get(p, 0) > 0]
    if not order:
        ctx.trace(N_("Nobody else has a vote: there is no runner-up (I6.4)."))
        return None
    top = max(counted[p] for p in order)
    candidates = [p for p in order if counted[p] == top]
    if len(candidates) > 1 or top == counted.get(holder, 0):
        ctx.trace(N_("Tie for the sheep skin's place with {count} votes: {names} (I6.4)."),
                  count=top, names=tuple(candidates))
        candidates = _protected_out(ctx, candidates, level=top == counted.get(holder, 0))
    else:
        candidates = [p for p in candidates if IMMUNE not in state.players[p].statuses]
    if not candidates:
        ctx.trace(N_("Every candidate is protected: nobody is lynched in the skin holder's "
                     "place (I6.4)."))
        return None
    if len(candidates) == 1:
        return candidates[0]
    chosen = ctx.draw("lynch_tie", candidates)
    ctx.trace(N_("Chance picks {name} among {names} (I6.4)."), name=chosen,
              names=tuple(candidates))
    return chosen


def step_ties_and_skins(ctx: Context) -> None:
    """Step 5 (I4, I6.4): trap and wolf fang narrow ties; a sheep skin passes the lynch to
    the runner-up. Under rage the two places are filled the same way (I5)."""
    state = ctx.state
    w = work(ctx)
    if w.fear:
        ctx.trace(N_("Fear: no item changes the vote; the leader names the lynch."))
        return
    counted = tally(ctx)
    places = 2 if memory.today_event(state) == RAGE else 1
    excluded: set[str] = set()
    for _ in range(places):
        chosen = choose(ctx, counted, excluded)
        while chosen is not None and items_work(state) and holds(
                state, chosen, SHEEP_SKIN, unused=True):
            excluded.add(chosen)
            runner_up = runner_up_of(ctx, counted, chosen, excluded | set(w.lynch))
            if runner_up is None:
                ctx.trace(N_("{name}'s sheep skin saves him; nobody is lynched in his place "
                             "(I4, I6.4)."), name=chosen)
            else:
                ctx.trace(N_("{name}'s sheep skin saves him; the runner-up {target} is "
                             "lynched instead (I4)."), name=chosen, target=runner_up)
            effects.activate(ctx, chosen, SHEEP_SKIN, runner_up)
            chosen = runner_up
            if chosen is not None:
                excluded.add(chosen)
        if chosen is not None:
            w.lynch.append(chosen)
            excluded.add(chosen)
    if w.lynch:
        ctx.trace(N_("To be lynched so far: {names}."), names=tuple(w.lynch))


def step_bomb(ctx: Context) -> None:
    """Step 6 (I4): a bomb holder with at least two votes is lynched instead of the
    leader, whatever the leader has (under rage he takes the first place [R])."""
    state = ctx.state
    w = work(ctx)
    if w.fear or not items_work(state):
        return
    counted = tally(ctx)
    bombs = [p for p in seating(state) if state.is_alive(p) and holds(state, p, BOMB)
             and counted.get(p, 0) >= 2 and IMMUNE not in state.players[p].statuses
             and p not in w.lynch]
    if not bombs:
        return
    top = max(counted[p] for p in bombs)
    tied = [p for p in bombs if counted[p] == top]
    bomb = tied[0] if len(tied) == 1 else ctx.draw("bomb_tie", tied)
    spared = w.lynch[0] if w.lynch else None
    if w.lynch:
        w.lynch[0] = bomb
    else:
        w.lynch.append(bomb)
    ctx.trace(N_("{name} sits on the bomb with {count} votes and is lynched instead of "
                 "{target} (I4)."), name=bomb, count=counted[bomb], target=spared)


def step_lynch(ctx: Context) -> None:
    """Step 7 (I5 rage, I6.4, I6.5): the final tally and the lynch (cause ``lynched``)."""
    state = ctx.state
    w = work(ctx)
    counted = tally(ctx)
    ballots = {}
    cast: dict[str, list[str]] = {}  # one pass over the votes, by whose ballot each is
    for v in w.votes:
        if v.cast:  # I2.4: the taken one is the authority's
            cast.setdefault(v.taken_by if v.taken_by is not None else v.owner,
                            []).append(v.target)
    for player in seating(state):
        mine = cast.get(player)
        if mine:
            ballots[player] = ", ".join(dict.fromkeys(mine))
    ctx.emit(VotesCounted(state.phase_label, "fear" if w.fear else "vote", dict(counted),
                          ballots))
    if w.fear:
        _fear_lynch(ctx, counted)
    _report(ctx)
    if not w.lynch:
        ctx.trace(N_("Nobody is lynched today."))
        ctx.announce(N_("Nobody was lynched today."))
        return
    for name in w.lynch:
        if state.is_alive(name):
            ctx.trace(N_("{name} is lynched (I6.4)."), name=name)
            ctx.leave(name, LYNCHED)


def _fear_lynch(ctx: Context, counted: Counter[str]) -> None:
    """I5 fear, I6.5: the elected leader's pick is lynched; a sheep skin saves it."""
    state = ctx.state
    w = work(ctx)
    order = [p for p in seating(state) if state.is_alive(p) and counted.get(p, 0) > 0]
    if not order:
        ctx.trace(N_("Fear: nobody was elected leader, so nobody is lynched (I6.5)."))
        return
    top = max(counted[p] for p in order)
    tied = [p for p in order if counted[p] == top]
    leader = tied[0] if len(tied) == 1 else ctx.draw("fear_leader", tied)
    w.fear_leader = leader
    ctx.trace(N_("Fear: {name} is elected leader with {count} votes (I6.5)."), name=leader,
              count=top)
    ctx.announce(N_("Fear: {name} was elected leader and decides alone."), name=leader)
    pick = state.submission(leader, "fear")
    target = pick.target if pick is not None else None
    if target is None or not state.is_alive(target):
        ctx.trace(N_("The leader {name} named nobody: nobody is lynched (I6.5)."), name=leader)
        return
    if holds(state, target, SHEEP_SKIN, unused=True):
        ctx.trace(N_("The leader names {target}, whose sheep skin saves him: nobody dies "
                     "(I5)."), target=target)
        effects.activate(ctx, target, SHEEP_SKIN)
        return
    ctx.trace(N_("The leader {name} names {target} (I5)."), name=leader, target=target)
    w.lynch = [target]


def _report(ctx: Context) -> None:
    state = ctx.state
    w = work(ctx)
    report = memory.mapping(state, memory.REPORT)
    report.update({
        "day": state.phase.number,
        "votes": [v.to_data() for v in w.votes],
        "tally": dict(tally(ctx)),
        "lynched": list(w.lynch),
        "fear_leader": w.fear_leader,
        "fear": w.fear,
        "eclipse": memory.today_event(state) == SOLAR_ECLIPSE,
        "spirit": memory.spirit(state) or None,
    })
    ctx.flag(memory.REPORT, report)


VOTE_STEPS: tuple[Step, ...] = declare_steps(
    Step(1, "final_items", "I7.2.1", step_final_items,
         N_("Final item results (shocker, love note)")),
    Step(2, "event_corrections", "I7.2.2", step_event_corrections,
         N_("Vote corrections by the day's event")),
    Step(3, "item_corrections", "I7.2.3", step_item_corrections, N_("Vote corrections by items")),
    Step(4, "authority", "I7.2.4", step_authority, N_("Vote correction by the authority")),
    Step(5, "ties_and_skins", "I7.2.5", step_ties_and_skins, N_("Trap, wolf fang and sheep skin")),
    Step(6, "bomb", "I7.2.6", step_bomb, N_("Bomb")),
    Step(7, "lynch", "I7.2.7", step_lynch, N_("Tally and lynching")),
)

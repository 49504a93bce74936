"""The game master's loop: play one game with bots, to its end.

This module is the only part of the simulator that touches the game. Per stage it asks
the players whose input the stage waits for (``ruleset.awaiting_inputs``; everyone still
in the game when a stage never closes early) in an order shuffled by the game's seed,
gives each bot its player's projection and legal commands, submits what the bot answers
through ``game.execute``, and, unless the stage closed early, lets the deadline pass
(``game.advance()``). No clock, no I/O: commands carry no time.

The cyclic garbage collector is paused while a game is played
(:func:`nightfall.collector.gc_paused`): a game allocates hundreds of thousands of small
objects that live until it ends, and the collector kept traversing them (~10-15% of a
game's time); the few cycles a game leaves (exceptions of rejected commands) are
collected once it is over.

The games are played without resolution traces (``Game(tracing=False)``): no rule reads
them, and a report needs none. `replay_game` plays one game again with tracing on
(same seed, same bots, so the same game) when its trace is wanted.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from nightfall.collector import gc_paused
from nightfall.engine import Command, Game, Rejected, Ruleset
from nightfall.engine.events import PlayerLeft
from nightfall.engine.phase import DAY, NIGHT
from nightfall.engine.text import N_
from nightfall.rulesets import get_ruleset
from nightfall.sim.bots import NO_VIEW, Bot, RulesInfo, make_bot
from nightfall.sim.rulefiles import ruleset_of
from nightfall.sim.seeds import bot_seed
from nightfall.sim.setup import Setup

#: the result of a game stopped after ``max_stages`` stages without a winner
UNFINISHED = "unfinished"
DEFAULT_MAX_STAGES = 400
#: the reason counted for a command a bot made for another player than its own
OTHER_PLAYER = N_("A bot may act only for its own player.")

BotFactory = Callable[[str, str, RulesInfo, random.Random], Bot]
#: called with (game, player, view, legal) right before a bot is given its turn (tests)
TurnHook = Callable[[Game, str, Mapping[str, Any], Sequence[Command]], None]


@dataclass(frozen=True, slots=True)
class GameResult:
    """What the reports need from one game (small and picklable). Per seat, in join
    order: the role dealt, whether the player was still in the game at the end, whether
    he was among the winners."""

    index: int
    seed: int
    winner: str
    roles: tuple[str, ...]
    survived: tuple[bool, ...]
    won: tuple[bool, ...]
    #: (role dealt, cause, phase kind) of every departure, in order
    departures: tuple[tuple[str, str, str], ...]
    #: the number of the day/night the game ended in, and its kind
    length: int
    ended_in: str
    stages: int
    commands: int
    rejected: int
    #: why the rejected commands were refused: (the reason's msgid, how often), most
    #: often first — the report names the reasons, not only their number (issue 18)
    rejections: tuple[tuple[str, int], ...] = ()


@cache
def rules_info(ruleset_id: str) -> RulesInfo:
    return RulesInfo.of(get_ruleset(ruleset_id))


@cache
def _rules_info_of(ruleset: Ruleset) -> RulesInfo:
    """The public facts of a rule set object (a rule file's is found by its hash, not by
    the id inside it: :func:`nightfall.sim.rulefiles.ruleset_of`)."""
    return RulesInfo.of(ruleset)


def player_names(count: int) -> list[str]:
    return [f"P{number:02d}" for number in range(1, count + 1)]


def play_game(
    setup: Setup,
    seed: int,
    bots: Mapping[str, str] | str = "heuristic",
    *,
    index: int = 0,
    max_stages: int = DEFAULT_MAX_STAGES,
    bot_factory: BotFactory = make_bot,
    on_turn: TurnHook | None = None,
    tracing: bool = False,
) -> GameResult:
    """Play one game of ``setup`` with ``seed``; ``bots`` is a bot kind, or a mapping
    ``{faction or "*": kind}`` (see :func:`nightfall.sim.botspec.parse_bots`). Without
    ``tracing`` the game records no resolution traces (see :func:`replay_game`)."""
    with gc_paused():
        return _play(setup, seed, bots, index, max_stages, bot_factory, on_turn, tracing)[1]


def replay_game(
    setup: Setup,
    seed: int,
    bots: Mapping[str, str] | str = "heuristic",
    *,
    index: int = 0,
    max_stages: int = DEFAULT_MAX_STAGES,
    bot_factory: BotFactory = make_bot,
    tracing: bool = True,
) -> Game:
    """Game ``index`` of a run played again, by default with tracing on: the same game
    as :func:`play_game` played (same seed, bots and order; traces are read by no rule
    and by no bot), with every resolution step's explanation in its log."""
    with gc_paused():
        return _play(setup, seed, bots, index, max_stages, bot_factory, None, tracing)[0]


def played_inputs(setup: Setup, seed: int, bots: Mapping[str, str] | str = "heuristic", *,
                  index: int = 0, max_stages: int = DEFAULT_MAX_STAGES) -> list[Command | None]:
    """The inputs of game ``index`` as :func:`play_game` plays it, in order: every command
    the game accepted, and ``None`` for every deadline that passed (``advance``). Played
    into a fresh game, they give the same game without bots, views or legal lists: what
    the engine core and the rule set cost alone (``benchmarks/sim_bench.py``)."""
    inputs: list[Command | None] = []
    with gc_paused():
        _play(setup, seed, bots, index, max_stages, make_bot, None, False, inputs)
    return inputs


def _play(setup: Setup, seed: int, bots: Mapping[str, str] | str, index: int,
          max_stages: int, bot_factory: BotFactory, on_turn: TurnHook | None,
          tracing: bool, inputs: list[Command | None] | None = None
          ) -> tuple[Game, GameResult]:
    ruleset = ruleset_of(setup)
    rules = _rules_info_of(ruleset)
    kinds = {"*": bots} if isinstance(bots, str) else dict(bots)
    game = Game.new(ruleset, seed, setup.options, tracing=tracing)
    names = player_names(setup.players)
    for name in names:
        game.join(name)
    game.deal(setup.roles)
    dealt = [game.state.players[name].role or "" for name in names]
    rng = random.Random(bot_seed(seed, index))
    players: dict[str, Bot] = {}
    for name, role in zip(names, dealt, strict=True):
        kind = kinds.get(rules.faction(role) or "", kinds.get("*", "heuristic"))
        players[name] = bot_factory(kind, name, rules, random.Random(rng.getrandbits(64)))
    game.start()
    stages = commands = rejected = 0
    reasons: Counter[str] = Counter()
    awaiting_inputs = ruleset.awaiting_inputs
    while not game.state.ended and stages < max_stages:
        stages += 1
        state = game.state
        mark = len(state.history)
        awaiting = awaiting_inputs(state)
        if awaiting is None:
            actors = [p.name for p in state.players.values() if p.alive]
        else:
            actors = sorted({player for player, _ in awaiting})
        rng.shuffle(actors)
        for name in actors:
            legal = game.legal_commands(name)
            if not legal:
                continue
            bot = players[name]
            view = game.view(name) if bot.wants_view else NO_VIEW
            if on_turn is not None:
                on_turn(game, name, view, legal)
            for command in bot.act(view, legal):
                if command.by != name:  # a bot speaks for its own player only
                    rejected += 1
                    reasons[OTHER_PLAYER] += 1
                    continue
                try:
                    game.execute(command)
                    commands += 1
                    if inputs is not None:
                        inputs.append(command)
                except Rejected as error:
                    rejected += 1
                    reasons[error.reason.msgid] += 1
                if len(game.state.history) != mark:
                    break
            if len(game.state.history) != mark:
                break
        if not game.state.ended and len(game.state.history) == mark:
            game.advance()
            if inputs is not None:
                inputs.append(None)
    return game, _result(game, index, seed, names, dealt, stages, commands, rejected, reasons)


def _result(game: Game, index: int, seed: int, names: list[str], dealt: list[str],
            stages: int, commands: int, rejected: int,
            reasons: Counter[str] | None = None) -> GameResult:
    state = game.state
    winners = set(state.winners)
    played = [record for record in state.history if record.kind in (DAY, NIGHT)]
    last = played[-1] if played else None
    seat = {name: number for number, name in enumerate(names)}
    departures = tuple(
        (dealt[seat[event.player]], event.cause, event.phase.split(" ")[0])
        for event in game.events
        if isinstance(event, PlayerLeft)
    )
    return GameResult(
        index=index,
        seed=seed,
        winner=(state.winner or "draw") if state.ended else UNFINISHED,
        roles=tuple(dealt),
        survived=tuple(state.players[name].alive for name in names),
        won=tuple(name in winners for name in names),
        departures=departures,
        length=last.number if last is not None else 0,
        ended_in=last.kind if last is not None else "",
        stages=stages,
        commands=commands,
        rejected=rejected,
        rejections=tuple(sorted((reasons or Counter()).items(), key=lambda kv: (-kv[1], kv[0]))),
    )


__all__ = [
    "DEFAULT_MAX_STAGES", "UNFINISHED", "GameResult", "play_game",
    "played_inputs", "player_names", "replay_game",
]

"""``nightfall demo --ruleset island``: a complete seeded game of Island of Fear.

Twelve players get the ``island-12`` preset, a random seating and one random item each;
every day brings a random event. The players follow a simple deterministic script through
the same legal-command list a person gets: the werewolves agree on one victim, the seer
votes for a werewolf he found, the others vote by lot, items are used now and then, and
the thread gets a few posts (some break the palms-bloom rule). The GM answers the spirit.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from nightfall.demo_play import (
    Script,
    found_enemies,
    pick_other,
    play_stages,
    submit_at,
    vote_options,
)
from nightfall.engine import Command, Game
from nightfall.engine.commands import by_action
from nightfall.rulesets import new_game
from nightfall.rulesets.island import memory
from nightfall.rulesets.island.presets import roles_for
from nightfall.rulesets.island.roles import is_mafia

PLAYERS = (
    "Алиса", "Борис", "Вера", "Глеб", "Дарья", "Егор", "Жанна", "Зиновий", "Инна", "Кирилл",
    "Лада", "Мирон",
)
POSTS = (
    "Доброе утро, остров!",
    "Я никому не верю.",
    "Подозрительно тихо сегодня.",
    "Голосую за самого молчаливого.",
    "Нет, это была не я!",
    "Кто-то врёт, и скоро это выяснится.",
)
QUESTIONS = (
    "Есть ли оборотень среди первых трёх по списку?",
    "Жив ли ещё хомяк?",
)
START = datetime(2024, 3, 1, 21, 0, tzinfo=ZoneInfo("Europe/Moscow"))


def setup_island_demo(seed: int, locale: str = "ru") -> Game:
    game = new_game("island", seed, {"random_events": True}, locale)
    for name in PLAYERS:
        game.join(name)
    game.deal(roles_for(len(PLAYERS)))
    game.start(at=START)
    return game


def play_island_demo(seed: int = 2024, locale: str = "ru", max_stages: int = 60) -> Game:
    """Play the demo game to its end (or ``max_stages`` stages)."""
    return play_stages(setup_island_demo(seed, locale), Script(seed), max_stages, _play_stage)


def _play_stage(game: Game, script: Script) -> None:
    state = game.state
    when = (state.phase_at or START) + timedelta(minutes=30)
    for player in list(state.players):
        if game.state.ended or not game.state.is_alive(player):
            continue
        for command in _choices(game, player, script):
            submit_at(game, command, when)
    spirit = memory.spirit(game.state)
    if spirit.get("text") and not spirit.get("answer") and not game.state.ended:
        answer = "yes" if script.counter % 2 else "no"
        game.execute(Command("answer", choice=answer, at=when))


def _choices(game: Game, player: str, script: Script) -> Iterator[Command]:
    state = game.state
    moves = by_action(game.legal_commands(player))
    found = found_enemies(state, player, "check", lambda result: result == "werewolf")
    first_half = state.phase.stage == 1
    if first_half and script.pick_number(4) == 0:
        yield Command("post", by=player, text=POSTS[script.pick_number(len(POSTS))])
    if "eat" in moves:
        agreed = [s.targets for s in state.submissions_in("eat")]
        options = [c for c in moves["eat"] if c.all_targets in agreed] or moves["eat"]
        yield script.pick(options)
    for action in ("check", "heal", "assault", "hamster_kill", "swap_items"):
        if action in moves and first_half:
            yield pick_other(script, player, moves[action])
    if "witch_kill" in moves and first_half and script.pick_number(3) == 0:
        yield script.pick(moves["witch_kill"])
    if "use_item" in moves and script.pick_number(3) == 0:
        yield script.pick(moves["use_item"])
    for action in ("bunker_apply", "exchange_offer", "pick_me_partner", "recharge"):
        if action in moves and first_half:
            yield script.pick(moves[action])
    if "spirit_ask" in moves and first_half and not memory.spirit(state):
        yield Command("spirit_ask", by=player, text=QUESTIONS[script.pick_number(2)])
    if "fear_pick" in moves:
        yield script.pick(moves["fear_pick"])
    if "authority" in moves and state.phase.number >= 2:
        yield script.pick([c for c in moves["authority"]])
    if "vote" in moves and not first_half:
        options = [c for c in moves["vote"] if c.target is not None]
        yield script.pick(vote_options(state, player, options, found, is_mafia))

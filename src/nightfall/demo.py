"""``nightfall demo``: a complete seeded game of the seed's own 15-player setup (C16.3).

Roles are dealt by the seeded RNG and the players follow a simple deterministic script
(changelings agree on one pony, the researcher votes for a changeling he found, the
others vote by lot) through the same legal-command list a person gets on the web page.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from nightfall.engine import Command, Game
from nightfall.engine.rng import draw_index
from nightfall.rulesets import new_game
from nightfall.rulesets.changelings.presets import CANTERLOT_15
from nightfall.rulesets.changelings.roles import is_changeling_side

#: The seed's players and their public descriptions (C16.3).
SEED_PLAYERS = (
    ("appleblack", "übermüdeter Hobbyklempner"),
    ("Asteria", "schüchterne Sternschnuppen-Liebhaberin - ♀"),
    ("Daylight", "netter Magieforscher - ♂ Einhorn"),
    ("Failing_Angel", "liebenswert tollpatschig - ♀ Pegasus"),
    ("Fluttershy87", "ernste Wache"),
    ("Gummynator", "soviet-equestrischer Gardist - ♂ Pegasus"),
    ("Gwyn", "ungeschickter Bäcker - ♂ Einhorn"),
    ("Loyalty", "anarchistischer Nichtstuer - ♂ Pegasus"),
    ("Manic Moon", "Barkeeper - Dämonenpegasus"),
    ("Mochi", "treue Seele - ♂"),
    ("PrimevalRaptor", "dubioser Endzeitprediger - ♂ Pegasus"),
    ("Shadow Mane", "schlechter Trickbetrüger - ♂ Pegasus"),
    ("Thunder Mane", "freundlich und pflichtbewusst - ♂ Erdpony"),
    ("Twonky", "fieser Rentner - ♂ Erdpony"),
    ("VanillaGod", "fanatische Predigerin - ♀ Einhorn"),
)

START = datetime(2012, 12, 1, 20, 0, tzinfo=ZoneInfo("Europe/Berlin"))


class Script:
    """Deterministic choices from the game's seed (not Python's ``random``)."""

    def __init__(self, seed: int) -> None:
        self.seed, self.counter = seed ^ 0x5EED, 0

    def pick(self, options: list[Command]) -> Command:
        return options[self.pick_number(len(options))]

    def pick_number(self, size: int) -> int:
        """A number in ``range(size)``."""
        self.counter += 1
        return draw_index(self.seed, self.counter, size)


def setup_demo_game(seed: int, locale: str = "de") -> Game:
    game = new_game("changelings", seed, {"early_close": True}, locale)
    for name, description in SEED_PLAYERS:
        game.join(name, description)
    game.deal(CANTERLOT_15)
    game.start(at=START)
    return game


def play_demo(seed: int = 2012, locale: str = "de", max_phases: int = 60) -> Game:
    """Play the demo game to its end (or ``max_phases`` stages)."""
    game = setup_demo_game(seed, locale)
    script = Script(seed)
    for _ in range(max_phases):
        if game.state.ended:
            break
        _play_stage(game, script)
        if not game.state.ended and game.state.deadline is not None:
            game.tick(game.state.deadline)
    return game


def _play_stage(game: Game, script: Script) -> None:
    state = game.state
    round_before = (state.phase.round, state.phase.stage)
    when = (state.phase_at or START) + timedelta(minutes=5)
    for player in list(state.players):
        if game.state.ended or (game.state.phase.round, game.state.phase.stage) != round_before:
            return
        for command in _choices(game, player, script):
            try:
                game.execute(Command(command.action, command.by, command.target,
                                     command.targets, command.choice, command.text, at=when))
            except ValueError:
                continue
            if (game.state.phase.round, game.state.phase.stage) != round_before:
                return


def _choices(game: Game, player: str, script: Script) -> Iterator[Command]:
    state = game.state
    legal = game.legal_commands(player)
    by_action: dict[str, list[Command]] = {}
    for command in legal:
        by_action.setdefault(command.action, []).append(command)
    role = state.players[player].role
    team = is_changeling_side(role)
    found = [
        n["target"] for n in state.notices.get(player, [])
        if n.get("kind") == "investigation" and is_changeling_side(n.get("result"))
        and state.is_alive(n["target"])
    ]
    if "abduct" in by_action:
        agreed = [s.target for s in state.submissions_in("kill")]
        options = [c for c in by_action["abduct"] if c.target in agreed] or by_action["abduct"]
        yield script.pick(options)
    for action in ("shield", "investigate", "scry", "letter", "visit", "love"):
        if action in by_action:
            others = [c for c in by_action[action] if player not in c.all_targets]
            yield script.pick(others or by_action[action])
    if "pinkie_save" in by_action:
        yield by_action["pinkie_save"][0]
    standing = state.submission(player, "drama")
    if "drama_chase" in by_action and (standing is None or not state.is_alive(standing.target)):
        yield script.pick(by_action["drama_chase"])
    if "tiebreak" in by_action and state.phase.stage == 2:
        yield script.pick(by_action["tiebreak"])
    if "elect" in by_action:
        yield script.pick(by_action["elect"])
    if "vote" in by_action:
        options = by_action["vote"]
        if found:
            options = [c for c in options if c.target in found] or options
        elif team:
            options = [c for c in options
                       if not is_changeling_side(state.players[c.target or ""].role)] or options
        else:
            options = [c for c in options if c.target != player] or options
        yield script.pick(options)

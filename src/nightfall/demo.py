"""``nightfall demo``: a complete seeded game of the seed's own 15-player setup (C16.3).

Roles are dealt by the seeded RNG and the players follow a simple deterministic script
(changelings agree on one pony, the researcher votes for a changeling he found, the
others vote by lot) through the same legal-command list a person gets on the web page.
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


def canterlot_15() -> tuple[str, ...]:
    """The seed's 15-player roster (C16.3), as the Changelings file's preset says it."""
    from nightfall.rulefile.ruleset import shipped

    return tuple(shipped("changelings").presets()["canterlot-15"].roles)


def is_changeling_side(role: str | None) -> bool:
    """C1.2: changeling, queen and liar all count as changelings (the file's factions)."""
    from nightfall.rulefile.ruleset import shipped

    return role is not None and shipped("changelings").role_factions.get(role) == (
        "changelings")


def setup_demo_game(seed: int, locale: str = "de") -> Game:
    game = new_game("changelings", seed, {"early_close": True}, locale)
    for name, description in SEED_PLAYERS:
        game.join(name, description)
    game.deal(canterlot_15())
    game.start(at=START)
    return game


def play_demo(seed: int = 2012, locale: str = "de", max_phases: int = 60) -> Game:
    """Play the demo game to its end (or ``max_phases`` stages)."""
    return play_stages(setup_demo_game(seed, locale), Script(seed), max_phases, _play_stage)


def _play_stage(game: Game, script: Script) -> None:
    state = game.state
    round_before = (state.phase.round, state.phase.stage)
    when = (state.phase_at or START) + timedelta(minutes=5)
    for player in list(state.players):
        if game.state.ended or (game.state.phase.round, game.state.phase.stage) != round_before:
            return
        for command in _choices(game, player, script):
            submit_at(game, command, when)
            if (game.state.phase.round, game.state.phase.stage) != round_before:
                return


def _choices(game: Game, player: str, script: Script) -> Iterator[Command]:
    state = game.state
    moves = by_action(game.legal_commands(player))
    found = found_enemies(state, player, "investigation", is_changeling_side)
    if "abduct" in moves:
        agreed = [s.target for s in state.submissions_in("kill")]
        options = [c for c in moves["abduct"] if c.target in agreed] or moves["abduct"]
        yield script.pick(options)
    for action in ("shield", "investigate", "scry", "letter", "visit", "love"):
        if action in moves:
            yield pick_other(script, player, moves[action])
    if "pinkie_save" in moves:
        yield moves["pinkie_save"][0]
    standing = state.submission(player, "drama")
    if "drama_chase" in moves and (standing is None or not state.is_alive(standing.target)):
        yield script.pick(moves["drama_chase"])
    if "tiebreak" in moves and state.phase.stage == 2:
        yield script.pick(moves["tiebreak"])
    if "elect" in moves:
        yield script.pick(moves["elect"])
    if "vote" in moves:
        yield script.pick(vote_options(state, player, moves["vote"], found, is_changeling_side))

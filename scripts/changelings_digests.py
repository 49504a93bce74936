"""The frozen proof that the Changelings rule file plays the deleted Python plugin's games
(issue 20): digests of thousands of seeded bot games and a few whole game logs, written
once by the plugin, checked against the rule file ever since.

    PYTHONPATH=src .venv/bin/python scripts/changelings_digests.py --write   # the plugin
    PYTHONPATH=src .venv/bin/python scripts/changelings_digests.py --check   # every game

``--write`` ran at commit f5ef9c5 (the last commit before the plugin's deletion; its tree
still has ``src/nightfall/rulesets/changelings/``), with rule set id ``changelings`` then
naming the plugin, and wrote ``tests/rulefile/frozen/changelings_games.json``, the logs
``tests/rulefile/frozen/log-*.json`` and digests of the status post (C16.1) along those
logs and along a game on the clock (``changelings_posts.json``, written by the plugin's
``status_post.py``). ``--check`` plays the same games with the rule set id
``changelings`` names now (the rule file) and compares them game by game, and the posts;
exit 1 when one differs. tests/rulefile/test_frozen_plugin.py checks a few hundred games
and every post in the normal run.

A game is one of :data:`SETUPS` (the plugin's presets and the small deals, with the
options varied), one bot kind and one seed of the run seed 2026 (``game_seed``), played as
``nightfall simulate`` plays it. Its digest is the SHA-256 of every event but the first
(``GameCreated`` names the rule set and the rule file's hash), each as the store encodes
it; every fourth game also digests, turn by turn, the legal list and the view each bot was
given (the ``--turns`` check of ``benchmarks/sim_same_games.py``). Digests are cut to 16
hex digits (64 bits: a chance collision among these games is not a concern).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nightfall.collector import gc_paused
from nightfall.engine import Command, Game
from nightfall.sim import play
from nightfall.sim.seeds import game_seed
from nightfall.sim.setup import Setup
from nightfall.store.codec import encode

ROOT = Path(__file__).resolve().parents[1]
FROZEN = ROOT / "tests" / "rulefile" / "frozen"
GAMES = FROZEN / "changelings_games.json"
#: the plugin's presets (C16.3 and by player count, C1.2) and small deals of ``roles_for``
CANTERLOT_15 = ("queen", "liar", "changeling", "researcher", "love_potion", "pinkie_sense",
                "drama_queen", "night_owl", *["pony"] * 7)
SETUPS: tuple[tuple[str, int | tuple[str, ...]], ...] = (
    ("canterlot-15", CANTERLOT_15), ("village-8", 8), ("town-12", 12), ("city-20", 20),
    ("small-6", 6), ("small-7", 7), ("mid-10", 10), ("big-30", 30))
#: (first_day_banishment, raven_vote_persists) in turn
OPTIONS = ((False, False), (True, False), (False, True), (True, True))
BOTS = ("random", "heuristic")
GAMES_PER_KEY = 250
#: the whole logs stored: (setup, bots, game index)
LOGS = (("canterlot-15", "heuristic", 0), ("village-8", "random", 1),
        ("small-6", "heuristic", 2), ("city-20", "random", 3))


@dataclass(frozen=True)
class Case:
    """One game of the frozen set."""

    setup: str
    bots: str
    index: int

    @property
    def key(self) -> str:
        return f"{self.setup}/{self.bots}"

    @property
    def turns(self) -> bool:
        return self.index % 4 == 0


def cases(per_key: int = GAMES_PER_KEY) -> Iterator[Case]:
    for name, _ in SETUPS:
        for bots in BOTS:
            for index in range(per_key):
                yield Case(name, bots, index)


def setup_of(case: Case, ruleset_id: str) -> Setup:
    from nightfall.rulesets import get_ruleset

    roles = dict(SETUPS)[case.setup]
    if isinstance(roles, int):
        roles = tuple(get_ruleset(ruleset_id).roles_for(roles))
    first_day, raven = OPTIONS[case.index % len(OPTIONS)]
    return Setup(case.setup, ruleset_id, roles,
                 {"first_day_banishment": first_day, "raven_vote_persists": raven})


def play_case(case: Case, ruleset_id: str) -> tuple[Game, str]:
    """The game of ``case`` played by the rule set ``ruleset_id`` names in this tree, and
    the digest of its turns (``""`` unless ``case.turns``)."""
    seen = hashlib.sha256()

    def on_turn(game: Game, player: str, view: Mapping[str, Any],
                legal: Sequence[Command]) -> None:
        seen.update(f"{player} {legal!r}".encode())
        seen.update(json.dumps(view, sort_keys=True, default=str).encode())

    with gc_paused():
        game, _ = play._play(setup_of(case, ruleset_id), game_seed(2026, case.index),
                             case.bots, case.index, play.DEFAULT_MAX_STAGES, play.make_bot,
                             on_turn if case.turns else None, False)
    return game, seen.hexdigest()[:16] if case.turns else ""


def digest(case: Case, ruleset_id: str) -> str:
    """``<events> <log digest>[ <turns digest>]`` of the game of ``case``."""
    game, turns = play_case(case, ruleset_id)
    log = hashlib.sha256()
    for event in game.events[1:]:
        log.update(json.dumps(encode(event), sort_keys=True, default=str).encode())
    found = f"{len(game.events)} {log.hexdigest()[:16]}"
    return f"{found} {turns}" if turns else found


def log_of(setup: str, bots: str, index: int, ruleset_id: str) -> list[dict[str, Any]]:
    """A whole game's log as the store encodes it (``GameCreated`` first)."""
    game, _ = play_case(Case(setup, bots, index), ruleset_id)
    return [encode(event) for event in game.events]


def log_path(setup: str, bots: str, index: int) -> Path:
    return FROZEN / f"log-{setup}-{bots}-{index}.json"


POSTS = FROZEN / "changelings_posts.json"
#: the status post (C16.1) digested every this many events along the stored logs
POST_EVERY = 9


def _post_writer(ruleset_id: str) -> Callable[[Any, Any], str]:
    """What writes a game's status post: with ``--write`` the plugin's own
    ``status_post.py`` (its tree has it), else the rule set's ``status_post:``."""
    try:  # the plugin's tree (--write ran there)
        from nightfall.rulesets.changelings.status_post import (  # type: ignore[import-not-found]
            status_post,
        )
    except ImportError:
        from nightfall.rulefile.status_post import status_post_of
        from nightfall.rulesets import get_ruleset

        post = status_post_of(get_ruleset(ruleset_id))
        assert post is not None
        return post.render  # type: ignore[no-any-return]
    return status_post  # type: ignore[no-any-return]


def post_digests(ruleset_id: str) -> dict[str, list[str]]:
    """Digests of the status post in every language, every :data:`POST_EVERY` events and
    at the end of each stored log (every other player given a description, for the
    post's hardest line: "Ann: shy baker — Pony, in love"), and at every fifth hour of a
    game on the clock (the deadline line, moved by the GM's extension)."""
    from datetime import datetime, timedelta
    from zoneinfo import ZoneInfo

    from nightfall.engine import events as ev
    from nightfall.i18n import SUPPORTED_LOCALES, gettext_for
    from nightfall.rulesets import get_ruleset
    from nightfall.store.codec import decode

    render = _post_writer(ruleset_id)
    rules = get_ruleset(ruleset_id)
    gettexts = [gettext_for(locale) for locale in SUPPORTED_LOCALES]

    def posts(state: Any) -> str:
        both = "\n".join(render(state, gettext) for gettext in gettexts)
        return hashlib.sha256(both.encode()).hexdigest()[:16]

    found: dict[str, list[str]] = {}
    for setup, bots, index in LOGS:
        stored = json.loads(log_path(setup, bots, index).read_text(encoding="utf-8"))
        events = [decode(name, version, payload) for name, version, payload in stored]
        events = [ev.PlayerJoined(e.player, f"shy baker {i} - ♂" if i % 2 else "")
                  if isinstance(e, ev.PlayerJoined) else e for i, e in enumerate(events)]
        game = Game.from_events(rules, events[:1])
        seen = found[log_path(setup, bots, index).stem] = []
        for number, event in enumerate(events[1:], start=1):
            game._record(event)
            if number % POST_EVERY == 0 or number == len(events) - 1:
                seen.append(posts(game.state))
    berlin = ZoneInfo("Europe/Berlin")
    start = datetime(2012, 12, 20, 20, tzinfo=berlin)
    game = Game.new(rules, 7, {"early_close": False}, "de")
    for name, description, _ in CLOCK_ROSTER:
        game.join(name, description)
    game.assign({name: role for name, _, role in CLOCK_ROSTER})
    game.start(at=start)
    seen = found["clock"] = []
    for hours in range(2, 24 * 8, 5):
        game.tick(start + timedelta(hours=hours))
        if hours == 52 and not game.state.ended:
            game.execute(Command("extend", minutes=90))
        seen.append(posts(game.state))
    return found


#: the game on the clock of :func:`post_digests` (the seed's players, C16.3)
CLOCK_ROSTER = (
    ("Gwyn", "ungeschickter Bäcker - ♂ Einhorn", "pony"),
    ("appleblack", "übermüdeter Hobbyklempner", "researcher"),
    ("Fluttershy87", "ernste Wache", "changeling"),
    ("Asteria", "schüchterne Sternschnuppen-Liebhaberin - ♀", "love_potion"),
    ("Daylight", "netter Magieforscher - ♂ Einhorn", "pony"),
    ("Manic Moon", "Barkeeper - Dämonenpegasus", "liar"),
    ("Mochi", "treue Seele - ♂", "pinkie_sense"),
)


def write(ruleset_id: str) -> None:
    FROZEN.mkdir(parents=True, exist_ok=True)
    found: dict[str, list[str]] = {}
    for case in cases():
        found.setdefault(case.key, []).append(digest(case, ruleset_id))
    GAMES.write_text(json.dumps(found, indent=0) + "\n", encoding="utf-8")
    for setup, bots, index in LOGS:
        events = log_of(setup, bots, index, ruleset_id)
        log_path(setup, bots, index).write_text(
            json.dumps(events, sort_keys=True, default=str, indent=0) + "\n", encoding="utf-8")
    POSTS.write_text(json.dumps(post_digests(ruleset_id), indent=0) + "\n", encoding="utf-8")
    print(f"{sum(map(len, found.values()))} games, {len(LOGS)} logs and their status posts "
          f"written to {FROZEN}")


def check(ruleset_id: str, per_key: int) -> int:
    frozen = json.loads(GAMES.read_text(encoding="utf-8"))
    differ = total = 0
    for case in cases(per_key):
        total += 1
        if digest(case, ruleset_id) != frozen[case.key][case.index]:
            differ += 1
            print(f"differs: {case}")
    print(f"{total - differ}/{total} games identical to the plugin's (log; every fourth "
          "also every turn's legal list and view)")
    frozen_posts = json.loads(POSTS.read_text(encoding="utf-8"))
    posts = post_digests(ruleset_id)
    same = sum(a == b for key in frozen_posts for a, b in zip(
        frozen_posts[key], posts.get(key, []), strict=False))
    total_posts = sum(map(len, frozen_posts.values()))
    print(f"{same}/{total_posts} status posts identical to the plugin's (de, en, ru)")
    return 1 if differ or same != total_posts else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="record the games (the plugin)")
    mode.add_argument("--check", action="store_true", help="play them again and compare")
    parser.add_argument("--ruleset", default="changelings")
    parser.add_argument("--per-key", type=int, default=GAMES_PER_KEY,
                        help="games per setup and bot kind to check")
    args = parser.parse_args()
    if args.write:
        write(args.ruleset)
    else:
        sys.exit(check(args.ruleset, args.per_key))


if __name__ == "__main__":
    main()

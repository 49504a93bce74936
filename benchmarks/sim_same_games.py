"""Same games before and after a speed change: plays a fixed set of seeds per setup and
bot kind and writes, per game, its result and a digest of its whole event log (every
event as the store encodes it), so two builds or two versions of the sources can be
compared game by game.

    PYTHONPATH=<old src> .venv/bin/python benchmarks/sim_same_games.py --out old.json
    PYTHONPATH=src .venv/bin/python benchmarks/sim_same_games.py --out new.json
    .venv/bin/python benchmarks/sim_same_games.py --compare old.json new.json

The games are played by ``nightfall.sim.play`` as ``nightfall simulate`` plays them (no
traces); the log is taken from the same call that gives the result. ``--turns`` adds, per
game, a digest of every turn's legal list and of the view the bot was given (the
heuristic bots read one; the random bots none), so a change to the listing or the
projections is compared turn by turn too.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from nightfall.collector import gc_paused
from nightfall.engine import Command, Game
from nightfall.sim import play
from nightfall.sim.seeds import game_seed
from nightfall.sim.setup import preset_setup
from nightfall.store.codec import encode

SETUPS = [("changelings", "canterlot-15"), ("changelings", "village-8"),
          ("island", "island-12"), ("island", "cove-7")]
BOTS = ["random", "heuristic"]


def digest(game: Game) -> str:
    log = hashlib.sha256()
    for event in game.events:
        log.update(json.dumps(encode(event), sort_keys=True, default=str).encode())
    return log.hexdigest()


def run(seeds: int, turns: bool = False) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for ruleset, preset in SETUPS:
        setup = preset_setup(ruleset, preset)
        for bots in BOTS:
            games = []
            for index in range(seeds):
                seed = game_seed(2026, index)
                seen = hashlib.sha256()

                def on_turn(game: Game, player: str, view: Mapping[str, Any],
                            legal: Sequence[Command], seen: Any = seen) -> None:
                    seen.update(f"{player} {legal!r}".encode())
                    seen.update(json.dumps(view, sort_keys=True, default=str).encode())

                with gc_paused():
                    game, result = play._play(setup, seed, bots, index,
                                              play.DEFAULT_MAX_STAGES, play.make_bot,
                                              on_turn if turns else None, False)
                games.append(f"{result!r} {len(game.events)} {digest(game)}"
                             + (f" {seen.hexdigest()}" if turns else ""))
            found[f"{ruleset}/{preset}/{bots}"] = games
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=40)
    parser.add_argument("--out")
    parser.add_argument("--compare", nargs=2)
    parser.add_argument("--turns", action="store_true",
                        help="also every turn's legal list and the bot's view")
    args = parser.parse_args()
    if args.compare:
        old, new = (json.load(open(path)) for path in args.compare)  # noqa: SIM115
        differ = 0
        first = next(iter(old.values()), [""])
        turns = ", every turn" if first and len(first[0].split()[-1]) == 64 and len(
            first[0].split()) > 1 and len(first[0].split()[-2]) == 64 else ""
        for key in old:
            same = sum(a == b for a, b in zip(old[key], new.get(key, []), strict=False))
            print(f"{key:<34} {same}/{len(old[key])} games identical (result and log{turns})")
            differ += len(old[key]) - same
        sys.exit(1 if differ else 0)
    found = run(args.seeds, args.turns)
    with open(args.out, "w") as file:
        json.dump(found, file, indent=0)
    print(f"{sum(map(len, found.values()))} games written to {args.out}")


if __name__ == "__main__":
    main()

"""Same games before and after a speed change: plays a fixed set of seeds per setup and
bot kind and writes, per game, its result and a digest of its whole event log (every
event as the store encodes it), so two builds or two versions of the sources can be
compared game by game.

    PYTHONPATH=<old src> .venv/bin/python benchmarks/sim_same_games.py --out old.json
    PYTHONPATH=src .venv/bin/python benchmarks/sim_same_games.py --out new.json
    .venv/bin/python benchmarks/sim_same_games.py --compare old.json new.json

The games are played by ``nightfall.sim.play`` as ``nightfall simulate`` plays them (no
traces); the log is taken from the same call that gives the result.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys

from nightfall.engine import Game
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


def run(seeds: int) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for ruleset, preset in SETUPS:
        setup = preset_setup(ruleset, preset)
        for bots in BOTS:
            games = []
            for index in range(seeds):
                seed = game_seed(2026, index)
                with play.gc_paused():
                    game, result = play._play(setup, seed, bots, index,
                                              play.DEFAULT_MAX_STAGES, play.make_bot, None,
                                              False)
                games.append(f"{result!r} {len(game.events)} {digest(game)}")
            found[f"{ruleset}/{preset}/{bots}"] = games
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=40)
    parser.add_argument("--out")
    parser.add_argument("--compare", nargs=2)
    args = parser.parse_args()
    if args.compare:
        old, new = (json.load(open(path)) for path in args.compare)  # noqa: SIM115
        differ = 0
        for key in old:
            same = sum(a == b for a, b in zip(old[key], new.get(key, []), strict=False))
            print(f"{key:<34} {same}/{len(old[key])} games identical (result and log)")
            differ += len(old[key]) - same
        sys.exit(1 if differ else 0)
    found = run(args.seeds)
    with open(args.out, "w") as file:
        json.dump(found, file, indent=0)
    print(f"{sum(map(len, found.values()))} games written to {args.out}")


if __name__ == "__main__":
    main()

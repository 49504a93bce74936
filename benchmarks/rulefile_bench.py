"""Benchmark: Changelings from its rule file (``changelings-data``) against the Python
plugin, on the same seeds in the same run, interleaved game by game (so that other load
on the machine falls on both alike), CPU time of this process (on a shared machine the
wall time counts the waits for a core too). Issue 20's target: the data rule set within
1.5× of the plugin's time.

    .venv/bin/python benchmarks/rulefile_bench.py [--games 200] [--bots random|heuristic]
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import replace
from typing import Any

from nightfall.rulesets import get_ruleset
from nightfall.sim.bots import RulesInfo, make_bot
from nightfall.sim.play import play_game
from nightfall.sim.setup import Setup


def _factory(kind: str, name: str, rules: RulesInfo, rng: Any) -> Any:
    # the heuristic playbook is chosen by the rule set's id: both play Changelings
    return make_bot(kind, name, replace(rules, ruleset="changelings"), rng)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--bots", default="random")
    args = parser.parse_args()
    python = get_ruleset("changelings")
    get_ruleset("changelings-data")  # compiled once, outside the timing
    roles = tuple(python.presets()["canterlot-15"].roles)
    spent = {"changelings": 0.0, "changelings-data": 0.0}
    for seed in range(args.games):
        for ruleset in spent:
            start = time.process_time()
            play_game(Setup("bench", ruleset, roles), seed, args.bots, bot_factory=_factory)
            spent[ruleset] += time.process_time() - start
    ratio = spent["changelings-data"] / spent["changelings"]
    print(f"{args.games} games of canterlot-15, {args.bots} bots: python plugin "
          f"{spent['changelings']:.2f}s, rule file {spent['changelings-data']:.2f}s, "
          f"ratio {ratio:.2f}× (target 1.5×); load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

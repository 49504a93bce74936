"""Benchmark: Changelings from its rule file (``changelings-data``) against the Python
plugin, on the same seeds in the same run, interleaved game by game (so that other load
on the machine falls on both alike), CPU time of this process (on a shared machine the
wall time counts the waits for a core too). Issue 20's target: the data rule set within
1.5× of the plugin's time.

    .venv/bin/python benchmarks/rulefile_bench.py [--games 200] [--bots random|heuristic]
    .venv/bin/python benchmarks/rulefile_bench.py --entry-points   # where the time goes

``--entry-points`` also sums the CPU time of each entry point of the rule-set interface
(legal lists, resolutions, the early close, the win check, ...) for both rule sets, the
outermost call only (a departure inside a resolution counts for the resolution too);
interpreted build only.
"""

from __future__ import annotations

import argparse
import os
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from nightfall.rulesets import get_ruleset
from nightfall.sim.bots import RulesInfo, make_bot
from nightfall.sim.build import running_compiled
from nightfall.sim.play import play_game
from nightfall.sim.setup import Setup

#: the rule-set methods the engine calls, with what the table calls them
ENTRY_POINTS = {
    "legal_commands": "legal lists", "resolve": "resolutions",
    "all_inputs_in": "early close after each command", "handle": "handling commands",
    "winner": "the win check", "on_phase_start": "stage starts",
    "on_departure": "departures", "next_phase": "the next stage",
}


def _factory(kind: str, name: str, rules: RulesInfo, rng: Any) -> Any:
    # the heuristic playbook is chosen by the rule set's id: both play Changelings
    return make_bot(kind, name, replace(rules, ruleset="changelings"), rng)


def _timed(method: Callable[..., Any], spent: dict[str, float], calls: dict[str, int],
           key: str) -> Callable[..., Any]:
    """``method`` summing its CPU time and calls into ``spent``/``calls`` (outermost
    calls only)."""
    depth = [0]

    def run(*args: Any) -> Any:
        if depth[0]:
            return method(*args)
        depth[0] += 1
        began = time.process_time()
        try:
            return method(*args)
        finally:
            spent[key] += time.process_time() - began
            calls[key] += 1
            depth[0] -= 1

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--entry-points", action="store_true",
                        help="also the CPU time of each entry point of both rule sets")
    args = parser.parse_args()
    if args.entry_points and running_compiled():
        parser.error("--entry-points needs the interpreted build: compiled code calls the "
                     "rule set's methods directly, past a wrapper")
    python = get_ruleset("changelings")
    data = get_ruleset("changelings-data")  # compiled once, outside the timing
    roles = tuple(python.presets()["canterlot-15"].roles)
    by_entry: dict[str, float] = defaultdict(float)
    calls: dict[str, int] = defaultdict(int)
    if args.entry_points:
        for rules in (python, data):
            for name in ENTRY_POINTS:
                # an instance attribute in front of the class's method (both builds)
                setattr(rules, name, _timed(getattr(rules, name), by_entry, calls,
                                            f"{rules.id} {name}"))
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
    if args.entry_points:
        print(f"{'entry point (calls)':44s} {'plugin':>8s} {'rule file':>10s} {'×':>6s}")
        for name, title in ENTRY_POINTS.items():
            plugin, rule_file = by_entry[f"changelings {name}"], by_entry[
                f"changelings-data {name}"]
            label = f"{title} ({calls[f'changelings {name}']:,})"
            times = f"{rule_file / plugin:6.2f}" if plugin else ""
            print(f"{label:44s} {plugin:7.3f}s {rule_file:9.3f}s {times}")


if __name__ == "__main__":
    main()

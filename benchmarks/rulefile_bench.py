"""Benchmark: Changelings from its rule file against the deleted Python plugin, on the
same seeds in the same run, game by game in turn (so that other load on the machine
falls on all alike), CPU time of each player's process. The plugin comes from git
history (``benchmarks/plugin_ref.py``: the last commit that has it), so three figures are
printed: the plugin at that commit, the rule file at that commit and the rule file of
this checkout, with the ratios. Issue 20's target: the rule file within 1.5× of the
plugin's time.

    .venv/bin/python benchmarks/rulefile_bench.py [--games 200] [--bots random|heuristic]
    .venv/bin/python benchmarks/rulefile_bench.py --against 498688a   # + data@498688a

``--against COMMIT`` (repeatable) adds the rule file at a later commit (after the
plugin's deletion: rule set ``changelings``) as one more worker, so that a change to the
interpreter is timed in turns with the sources it started from.
"""

from __future__ import annotations

import argparse
import os

from plugin_ref import Contenders


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--against", action="append", default=[],
                        help="a commit whose rule file is timed too (data@COMMIT)")
    args = parser.parse_args()
    with Contenders(tuple(args.against)) as run:
        run.warm("canterlot-15", args.bots)
        for seed in range(args.games):
            run.count("canterlot-15", seed, args.bots)
        ref = run.ref
        spent = {name: run.spent[name] for name in run.workers}  # the workers' order
    plugin = spent["plugin@ref"]
    print(f"{args.games} games of canterlot-15, {args.bots} bots, CPU seconds "
          f"(ref {ref[:10]}, the last commit with the plugin); the median of the ratios "
          f"game by game (the same seed) moves less with other guests' bursts:")
    for name, seconds in spent.items():
        print(f"  {name:<15} {seconds:7.2f}s  {seconds / plugin:5.2f}× the plugin  "
              f"(median per game {run.median(name):5.2f}×)")
    print(f"data@HEAD ÷ data@ref {spent['data@HEAD'] / spent['data@ref']:.2f}×; "
          f"target: within 1.5× of the plugin; load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

"""Instructions per simulated game, counted by valgrind's callgrind: a figure that does
not move with the load of a shared machine (issue 19's rounds 4-9 in docs/balance.md).

    .venv/bin/python benchmarks/sim_callgrind.py                 # the four rows
    .venv/bin/python benchmarks/sim_callgrind.py --rows changelings/random
    .venv/bin/python benchmarks/sim_callgrind.py --compiled       # build/compiled first
    .venv/bin/python benchmarks/sim_callgrind.py --keep DIR       # keep the callgrind files
    .venv/bin/python benchmarks/sim_callgrind.py --gc-off         # the collector off

Each row runs this file twice under ``valgrind --tool=callgrind`` with
``PYTHONHASHSEED=0``: once playing a warm-up game and then N games (seeds
``game_seed(2000, i)``, as ``nightfall simulate`` plays them: ``play_game``), once
playing the warm-up game only; the difference divided by N is the figure (imports, the
warm-up and the interpreter's start cancel out). ``--keep`` leaves the files of the
first run for ``callgrind_annotate`` (per-function costs: the profile to read first).
The ``PYTHONPATH`` of the calling shell is passed on, so the same command measures any
copy of the sources.

The Changelings rows play its rule file. Issue 20's rows ``…@ref`` play the same games as
``changelings/random`` from the sources of the last commit that has the deleted Python
plugin (``benchmarks/plugin_ref.py``): the plugin, and the rule file as it was then
(``changelings-data``), so each run prints plugin@ref, data@ref and data@HEAD (the
``changelings/random`` row) and the ratios.

``play_game`` pauses the cyclic collector while a game is played, but between the games
it runs: the objects a game adds to the engine's caches make it collect the whole
process now and then (~1.5 M instructions a game, ~4%), and when it does moves with any
change to the number of objects, a new module included. ``--gc-off`` keeps it off for
the whole run, so that two versions of the sources compare by their own work alone.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: (rule set, preset, bot kind, games, sources: this checkout's or the plugin commit's)
ROWS = {
    "changelings/random": ("changelings", "canterlot-15", "random", 20, "head"),
    "island/random": ("island", "island-12", "random", 10, "head"),
    "changelings/heuristic": ("changelings", "canterlot-15", "heuristic", 10, "head"),
    "island/heuristic": ("island", "island-12", "heuristic", 6, "head"),
    # issue 20: the first row's games by the deleted plugin and by the rule file then
    "plugin@ref/random": ("changelings", "canterlot-15", "random", 20, "ref"),
    "data@ref/random": ("changelings-data", "canterlot-15", "random", 20, "ref"),
}


def inner(ruleset: str, preset: str, bots: str, games: int, gc_off: bool) -> None:
    """What runs under valgrind: a warm-up game, then ``games`` games."""
    if gc_off:
        gc.disable()
    from nightfall.sim.play import play_game
    from nightfall.sim.seeds import game_seed
    from nightfall.sim.setup import preset_setup

    setup = preset_setup(ruleset, preset)
    play_game(setup, game_seed(2000, 10**6), bots, index=10**6)
    for index in range(games):
        play_game(setup, game_seed(2000, index), bots, index=index)


def count(row: str, games: int, env: dict[str, str], out: Path, gc_off: bool) -> int:
    """Instructions of one valgrind run of this file (``games`` games of ``row``)."""
    ruleset, preset, bots, _, _ = ROWS[row]
    subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
         sys.executable, __file__, "--inner", ruleset, preset, bots, str(games),
         *(["--gc-off"] if gc_off else [])],
        env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    match = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
    if match is None:
        raise SystemExit(f"no total in {out}")
    return int(match.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", default=",".join(ROWS), help="comma-separated rows")
    parser.add_argument("--games", type=int, help="games per row (default: round 7's)")
    parser.add_argument("--compiled", action="store_true",
                        help="put build/compiled first on the path")
    parser.add_argument("--keep", help="a folder to keep the callgrind files in")
    parser.add_argument("--gc-off", action="store_true",
                        help="keep the cyclic collector off for the whole run")
    parser.add_argument("--inner", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inner:
        ruleset, preset, bots, games = args.inner
        inner(ruleset, preset, bots, int(games), args.gc_off)
        return
    path = [os.environ.get("PYTHONPATH", "")]
    if args.compiled:
        path.insert(0, str(ROOT / "build" / "compiled"))
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=os.pathsep.join(filter(None, path)))
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="callgrind-"))
    folder.mkdir(parents=True, exist_ok=True)
    ref_env: dict[str, str] | None = None
    per_game: dict[str, float] = {}
    for row in [r.strip() for r in args.rows.split(",") if r.strip()]:
        games = args.games or ROWS[row][3]
        name = row.replace("/", "-").replace("@", "-")
        row_env = env
        if ROWS[row][4] == "ref":
            if ref_env is None:
                from plugin_ref import plugin_ref, tree_at

                ref = plugin_ref()
                ref_env = dict(env, PYTHONPATH=str(tree_at(ref)))
                print(f"(rows @ref: the sources of {ref[:10]}, the last commit with the "
                      "plugin)", flush=True)
            row_env = ref_env
        full = count(row, games, row_env, folder / f"{name}.out", args.gc_off)
        base = count(row, 0, row_env, folder / f"{name}-base.out", args.gc_off)
        per_game[row] = (full - base) / games / 1e6
        print(f"{row:<24} {games:>3} games  {per_game[row]:8.2f} M instructions "
              f"per game", flush=True)
    plugin = per_game.get("plugin@ref/random")
    if plugin:
        for row in ("data@ref/random", "changelings/random"):
            if row in per_game:
                label = "data@HEAD" if row == "changelings/random" else "data@ref"
                print(f"{label} ÷ plugin@ref: {per_game[row] / plugin:.3f}×")


if __name__ == "__main__":
    main()

"""Benchmark: full simulated games per second per core, for the seed's 15-player
Changelings setup (``canterlot-15``, C16.3) and, when the Island rule set is there, a
12-player Island of Fear setup (``island-12``), with random bots and with the heuristic
bots (the default a GM runs), next to a minimal random-play werewolf loop run in the
same process as the floor. The figure to watch is the ratio floor ÷ setup, measured in
the same run (robust to other load on the machine); issue 19's targets are printed
next to it: random bots within 50× of the floor interpreted and 25× compiled, heuristic
bots within 100×. The Changelings rows play its rule file (the Python plugin was deleted
in issue 20); the row "Changelings data vs plugin" plays the same seeds with the plugin
and the rule file at the last commit that has the plugin, and with the rule file of this
checkout, in turn (``benchmarks/plugin_ref.py``), and prints the three rates and the
ratios of their times (issue 20's target: within 1.5×).

    .venv/bin/python benchmarks/sim_bench.py [--seconds 10] [--bots random,heuristic]
    .venv/bin/python benchmarks/sim_bench.py --profile      # where the time goes
    .venv/bin/python benchmarks/sim_bench.py --compiled     # after scripts/build_compiled.sh

Every game is played by ``nightfall.sim.play.play_game`` exactly as ``nightfall simulate``
plays it: full rules, the event log (without resolution traces, as the simulator keeps
it), the projection for bots that read it and the legal command list for every turn.
The "engine only" row replays the same games' accepted commands and deadlines into a
fresh game (no projections, no legal lists, no bots): the speed the engine core and rule
set allow at best for this play, for every bot kind; it says whether it is above the
games' target by itself (then no work on the lists, views or bots can meet the target:
only the engine core and the rule set can). The "log fold only" row rebuilds the state
from the same finished games' event logs and does nothing else: the bound that the log
itself puts on any engine that keeps it (random bots only). ``--profile`` runs
cProfile over a few games per setup and bot kind and prints where the time goes (engine
core, rule set, simulator; per entry point; the events built, per class: the code of
every dataclass-generated method is given its class's name first, since cProfile would
file all of them under one ``<string>:__init__``). ``--compiled`` runs the same against
the mypyc build of ``scripts/build_compiled.sh`` (``build/compiled``; refused when its
sources differ from ``src``); the first line says which build ran.
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import os
import pstats
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from nightfall.collector import gc_paused
from nightfall.engine import Command, Game
from nightfall.engine.events import Event
from nightfall.engine.state import GameState, apply
from nightfall.rulesets import RULESET_IDS, get_ruleset
from nightfall.sim.build import compiled_problem
from nightfall.sim.play import play_game, played_inputs, player_names
from nightfall.sim.seeds import game_seed
from nightfall.sim.setup import Setup, preset_setup


# -- the floor: a minimal random-play werewolf game ---------------------------------------
def werewolf_floor_game(rng: random.Random, players: int = 15, wolves: int = 3) -> str:
    """One complete game of the simplest werewolf: each night the wolves kill a random
    villager, each day every living player votes for a random other living player and
    the plurality (ties by lot) is lynched. Returns the winning side."""
    alive = list(range(players))
    wolf = set(rng.sample(alive, wolves))
    while True:
        villagers = [p for p in alive if p not in wolf]
        alive.remove(rng.choice(villagers))  # night
        living_wolves = sum(1 for p in alive if p in wolf)
        if living_wolves >= len(alive) - living_wolves:
            return "wolves"
        votes: dict[int, int] = {}
        for voter in alive:  # day
            target = rng.choice(alive)
            while target == voter:
                target = rng.choice(alive)
            votes[target] = votes.get(target, 0) + 1
        top = max(votes.values())
        alive.remove(rng.choice([p for p, n in votes.items() if n == top]))
        living_wolves = sum(1 for p in alive if p in wolf)
        if living_wolves == 0:
            return "village"
        if living_wolves >= len(alive) - living_wolves:
            return "wolves"


def rate(play: Callable[[int], object], seconds: float) -> tuple[float, int]:
    """Games per CPU second of this process (one core) of ``play(index)``, over about
    ``seconds`` of CPU time after one warm-up game. CPU time, not wall time, so that
    other load on the machine does not count against the figure."""
    play(10**6)
    count, began = 0, time.process_time()
    while True:
        play(count)
        count += 1
        elapsed = time.process_time() - began
        if elapsed >= seconds:
            return count / elapsed, count


# -- the engine alone: the same games' commands, without projections and legal lists ----
def record(setup: Setup, seed: int, bots: str) -> list[Command | None]:
    """The game's accepted commands and deadlines (``None``), as ``play_game`` plays it."""
    return played_inputs(setup, seed, bots)


def replay(setup: Setup, seed: int, log: list[Command | None]) -> Game:
    """The engine's share: set up, deal, then the recorded commands and deadlines only
    (with the collector paused, as ``play_game`` does)."""
    with gc_paused():
        game = Game.new(get_ruleset(setup.ruleset), seed, setup.options, tracing=False)
        for name in player_names(setup.players):
            game.join(name)
        game.deal(setup.roles)
        game.start()
        for command in log:
            if command is None:
                game.advance()
            else:
                game.execute(command)
    assert game.state.ended
    return game


def fold(events: list[Event]) -> GameState:
    """The state rebuilt from a finished game's log, event by event, and nothing else:
    no rules, no checks, no events built. Whatever the rules cost, a game that keeps this
    log costs at least this much (plus building the events), which bounds the games per
    second of any engine with this log from above."""
    with gc_paused():
        state = GameState()
        for event in events:
            apply(state, event)
    return state


def setups() -> list[Setup]:
    found = [preset_setup("changelings", "canterlot-15")]
    if "island" in RULESET_IDS:
        found.append(preset_setup("island", "island-12"))
    return found


def name_generated_code() -> int:
    """Give the code of every dataclass-generated method of ``nightfall``'s classes
    (``__init__``, ``__eq__``, ``__repr__``, ``__hash__``) its class's name and module
    file: the generated code is compiled from a string, so cProfile keys every
    ``__init__`` of every event and record as ``<string>:__init__`` and the event
    classes' constructors cannot be told apart. Interpreted build only (the compiled
    classes' methods are not Python code). Returns how many were renamed."""
    renamed = 0
    for module in [m for name, m in sys.modules.items() if name.startswith("nightfall")]:
        for cls in [c for c in vars(module).values()
                    if isinstance(c, type) and dataclasses.is_dataclass(c)
                    and c.__module__ == module.__name__]:
            for method in ("__init__", "__eq__", "__repr__", "__hash__"):
                function = cls.__dict__.get(method)
                code = getattr(function, "__code__", None)
                if code is None or not code.co_filename.startswith("<"):
                    continue
                qualname = f"{cls.__name__}.{method}"
                function.__code__ = code.replace(  # type: ignore[union-attr]
                    co_name=qualname, co_qualname=qualname,
                    co_filename=getattr(module, "__file__", None) or code.co_filename)
                renamed += 1
    return renamed


def profile(setup: Setup, bots: str, games: int) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    for index in range(games):
        play_game(setup, game_seed(99, index), bots, index=index)
    profiler.disable()
    stats = pstats.Stats(profiler)
    raw: dict[tuple[str, int, str], tuple[int, int, float, float, dict[object, object]]]
    raw = stats.stats  # type: ignore[attr-defined]
    total = sum(entry[3] for (_, _, name), entry in raw.items() if name == "play_game")
    groups: dict[str, float] = {}
    built: dict[str, tuple[int, float]] = {}
    for (filename, _, name), entry in raw.items():
        path = filename.replace(os.sep, "/")
        if path.endswith("/nightfall/engine/events.py") and name.endswith(".__init__"):
            group = "events built (engine/events.py, the dataclasses' __init__)"
            built[name.split(".")[0]] = (entry[1], entry[2])
        elif "/nightfall/engine/" in path:
            group = "engine core (nightfall/engine)"
        elif "/nightfall/rulesets/" in path:
            group = "rule set (nightfall/rulesets/" + path.split("/nightfall/rulesets/")[1].split(
                "/")[0] + ")"
        elif "/nightfall/sim/bots/" in path:
            group = "bots (nightfall/sim/bots)"
        elif "/nightfall/sim/" in path:
            group = "simulator loop (nightfall/sim)"
        else:
            group = "Python and libraries"
        groups[group] = groups.get(group, 0.0) + entry[2]
    print(f"\nprofile of {games} {setup.name} games ({bots} bots), own time by part "
          "(share of play_game's time):")
    for group, seconds in sorted(groups.items(), key=lambda item: -item[1]):
        print(f"  {100 * seconds / total:5.1f}%  {group}")
    entry_points = {
        "Game.legal_commands": ("engine/game.py", "legal_commands"),
        "Game.view (projection)": ("engine/game.py", "view"),
        "Game.execute": ("engine/game.py", "execute"),
        "Game.advance": ("engine/game.py", "advance"),
        "awaiting_inputs": ("", "awaiting_inputs"),
        "bots' act()": ("sim/bots", "act"),
    }
    print("  cumulative time per entry point:")
    for label, (where, function) in entry_points.items():
        cumulative = sum(entry[3] for (filename, _, name), entry in raw.items()
                         if name == function and where in filename.replace(os.sep, "/"))
        print(f"  {100 * cumulative / total:5.1f}%  {label}")
    if built:
        print("  events built per game, by class (constructor's own time):")
        for name, (calls, seconds) in sorted(built.items(), key=lambda item: -item[1][1])[:8]:
            print(f"  {100 * seconds / total:5.1f}%  {name:<20} {calls / games:7.1f} per game")
    print("  top functions by own time:")
    stats.sort_stats("tottime").print_stats(14)


ROOT = Path(__file__).resolve().parent.parent
COMPILED = ROOT / "build" / "compiled"


def run_compiled() -> None:
    """Run this benchmark again in a new process, with the compiled build first on the
    path (it must be imported before anything of ``nightfall``)."""
    problem = compiled_problem(ROOT)
    if problem is not None:
        sys.exit(problem)
    argv = [a for a in sys.argv if a != "--compiled"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(COMPILED), *filter(None, [os.environ.get("PYTHONPATH")])]))
    os.execve(sys.executable, [sys.executable, *argv], env)


def data_vs_plugin(seconds: float) -> None:
    """Issue 20's row: Changelings from its rule file against the deleted Python plugin,
    taken from git history (``benchmarks/plugin_ref.py``), the same seeds, game by game in
    turn (so that other load on the machine falls on all alike), CPU time of each
    player's process: the plugin and the rule file at the last commit with the plugin,
    and the rule file of this checkout; target: the rule file within 1.5× of the
    plugin's time."""
    from plugin_ref import Contenders

    with Contenders() as run:
        run.warm("canterlot-15", "random")
        games = 0
        while sum(run.spent.values()) < 3 * seconds:
            run.count("canterlot-15", game_seed(3, games), "random")
            games += 1
        ref = run.ref
        spent = {name: run.spent[name] for name in run.workers}  # the workers' order
    plugin = spent["plugin@ref"]
    # the median of the same-seed ratios moves less with another guest's burst than the
    # totals do (both printed; the verdict stays on the totals)
    rates = ", ".join(f"{name} {games / took:.1f} games/s ({took / plugin:.2f}×, median "
                      f"per game {run.median(name):.2f}×)"
                      for name, took in spent.items())
    ratio = spent["data@HEAD"] / plugin
    print(f"Changelings data vs plugin (random, ref {ref[:10]}): {games} games each, "
          f"{rates}; data@HEAD ÷ data@ref {spent['data@HEAD'] / spent['data@ref']:.2f}× "
          f"(target 1.5× {'met' if ratio <= 1.5 else 'missed'})")


#: issue 19's targets, floor ÷ setup: (random bots interpreted, compiled), heuristic bots
TARGETS = {"random": (50, 25), "heuristic": (100, 100)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="measuring time per row (default 10)")
    parser.add_argument("--bots", default="random,heuristic",
                        help="bot kinds, comma-separated (default random,heuristic)")
    parser.add_argument("--profile", action="store_true", help="profile a few games each")
    parser.add_argument("--profile-games", type=int, default=40)
    parser.add_argument("--compiled", action="store_true",
                        help="use the mypyc build of scripts/build_compiled.sh")
    args = parser.parse_args()
    if args.compiled:
        run_compiled()
    engine = Path(sys.modules[Game.__module__].__file__ or "")
    compiled = engine.suffix == ".so"
    print(f"build: {'compiled (mypyc)' if compiled else 'interpreted'} "
          f"({engine.parent.parent}); load average before: "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    kinds = [kind.strip() for kind in args.bots.split(",") if kind.strip()]
    floor_rng = random.Random(7)
    floor, floor_games = rate(lambda _: werewolf_floor_game(floor_rng), args.seconds)
    print(f"{'setup':<38} {'games':>7} {'games/s/core':>13} {'floor ÷ setup':>14} "
          f"{'target':>7}")
    print(f"{'floor: minimal werewolf (15 players)':<38} {floor_games:>7} {floor:>13.1f} "
          f"{'1×':>14}")

    def row(label: str, speed: float, count: int, target: int | None = None,
            bound: int | None = None) -> None:
        """A row; ``target``: the row's own target; ``bound``: the target of the whole
        games this row is a part of (an engine-only row above it means no list, view or
        bot work, however cheap, can bring the whole game under it)."""
        ratio = floor / speed
        verdict = "" if target is None else f"{target:>6}× {'met' if ratio <= target else 'missed'}"
        if bound is not None:
            verdict = f"{'above' if ratio > bound else 'under'} the games' {bound}× by itself"
        print(f"{label:<38} {count:>7} {speed:>13.1f} {ratio:>13.0f}× {verdict}")

    for kind in kinds:
        for setup in setups():

            def play(index: int, setup: Setup = setup, kind: str = kind) -> object:
                return play_game(setup, game_seed(1, index), kind, index=index)

            speed, count = rate(play, args.seconds)
            target = TARGETS.get(kind, (None, None))[1 if compiled else 0]
            row(f"{setup.ruleset} {setup.name} ({kind})", speed, count, target)
            logs = [record(setup, game_seed(1, index), kind) for index in range(50)]

            def engine_only(index: int, setup: Setup = setup,
                            logs: list[list[Command | None]] = logs) -> object:
                return replay(setup, game_seed(1, index % 50), logs[index % 50])

            speed, count = rate(engine_only, args.seconds)
            row("  same games, engine only", speed, count, bound=target)
            if kind != "random":
                continue
            finished = [list(replay(setup, game_seed(1, index), logs[index]).events)
                        for index in range(50)]

            def fold_only(index: int, finished: list[list[Event]] = finished) -> object:
                return fold(finished[index % 50])

            speed, count = rate(fold_only, args.seconds)
            row("  same games, log fold only", speed, count)
    if "random" in kinds:
        data_vs_plugin(args.seconds)
    floor_again, _ = rate(lambda _: werewolf_floor_game(floor_rng), args.seconds)
    print(f"floor again at the end: {floor_again:.1f} games/s "
          f"({100 * (floor_again / floor - 1):+.0f}%: how much the load moved meanwhile)")
    if args.profile:
        if not compiled:
            print(f"\n({name_generated_code()} dataclass-generated methods named by class)")
        for kind in kinds:
            for setup in setups():
                profile(setup, kind, args.profile_games)


if __name__ == "__main__":
    main()

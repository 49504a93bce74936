"""The deleted Python Changelings plugin, from git history, for the benchmarks that compare
the Changelings rule file with it "in the same run" (issue 20).

The plugin lived in ``src/nightfall/rulesets/changelings/`` until its deletion; the last
commit that has it is the parent of the last commit that touched that folder. Its tree
(``git archive <ref> src``) is unpacked once into a temporary folder and run in worker
processes with ``PYTHONPATH`` on it: one plays the plugin (rule set ``changelings`` at
that commit), one the rule file at that commit (``changelings-data`` then), and one the
rule file of this checkout (``changelings``), so each figure is printed as plugin@ref,
data@ref and data@HEAD. The workers take turns game by game (one plays while the others
wait), so other load on the machine falls on all three alike; each reports the CPU time
of its own games. Each contender has a worker per hash seed of :data:`LAYOUTS`, and a
game is played by every contender in the same layout.

    from plugin_ref import Contenders
    with Contenders() as run:
        run.warm("canterlot-15", "random")   # a game in every worker, not counted
        seconds = run.play("canterlot-15", seed, "random")   # {name: CPU seconds}
        run.count("canterlot-15", seed, "random")   # adds to run.spent, run.median(name)
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType

ROOT = Path(__file__).resolve().parent.parent
PLUGIN_PATH = "src/nightfall/rulesets/changelings"


def plugin_ref() -> str:
    """The last commit that has the plugin (the parent of its deletion)."""
    deleted = subprocess.run(["git", "-C", str(ROOT), "rev-list", "-1", "HEAD", "--",
                              PLUGIN_PATH], capture_output=True, text=True, check=True)
    commit = deleted.stdout.strip()
    if not commit:
        raise SystemExit(f"no commit of this checkout ever had {PLUGIN_PATH}")
    if (ROOT / PLUGIN_PATH).exists():
        return "HEAD"  # not deleted yet: this checkout has it
    found = subprocess.run(["git", "-C", str(ROOT), "rev-parse", f"{commit}^"],
                           capture_output=True, text=True, check=True)
    return found.stdout.strip()


def tree_at(ref: str) -> Path:
    """The ``src`` of commit ``ref`` unpacked (once per commit, kept in the temp folder)."""
    folder = Path(tempfile.gettempdir()) / f"nightfall-src-{ref[:12]}"
    if not (folder / "src" / "nightfall").is_dir():
        folder.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "src"],
                                 capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder / "src"


#: (name, which tree, rule set id in that tree)
CONTENDERS = (("plugin@ref", "ref", "changelings"), ("data@ref", "ref", "changelings-data"),
              ("data@HEAD", "head", "changelings"))


#: the hash seeds the workers of each contender run with (``PYTHONHASHSEED``): the seed
#: moves a process's dict and set layouts, and a contender's time with them by several
#: percent (one seed read data@HEAD 1.42×, others up to 1.48×: docs/performance.md,
#: round 7), so every contender plays on the same few layouts, game by game in turn
LAYOUTS = (0, 1, 2, 3)


class Contenders:
    """Worker processes for three contenders, started on entry: one per contender and
    hash seed of :data:`LAYOUTS` (game ``seed`` is played by every contender's worker of
    layout ``seed % len(LAYOUTS)``); ``against``: one more contender per commit named,
    the rule file at that commit (``data@<commit>``, from its own ``git archive`` copy),
    so that a change to the interpreter is timed in turns with the sources it started
    from (the instruction counts of ``sim_callgrind.py`` and the time do not move alike:
    docs/performance.md, round 6)."""

    def __init__(self, against: tuple[str, ...] = ()) -> None:
        self.ref = plugin_ref()
        self.against = against
        #: per contender, its workers by layout
        self.workers: dict[str, list[subprocess.Popen[str]]] = {}
        #: CPU seconds per contender, summed over the games played (not the warm-up)
        self.spent: dict[str, float] = {}
        #: per contender, its time ÷ the plugin's, game by game (the same seed)
        self.ratios: dict[str, list[float]] = {}

    def __enter__(self) -> Contenders:
        ref_src = tree_at(self.ref)
        contenders = [(name, ref_src if tree == "ref" else ROOT / "src", ruleset)
                      for name, tree, ruleset in CONTENDERS]
        for commit in self.against:
            full = subprocess.run(["git", "-C", str(ROOT), "rev-parse", commit],
                                  capture_output=True, text=True, check=True).stdout.strip()
            name = f"data@{commit}"
            if any(name == known for known, _, _ in contenders):
                raise SystemExit(f"{name} is named twice (name the commit otherwise)")
            contenders.insert(-1, (name, tree_at(full), "changelings"))
        for name, src, ruleset in contenders:
            self.workers[name] = [subprocess.Popen(
                [sys.executable, __file__, "--worker", ruleset],
                env=dict(os.environ, PYTHONPATH=str(src), PYTHONHASHSEED=str(layout)),
                text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
                for layout in LAYOUTS]
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        for workers in self.workers.values():
            for worker in workers:
                if worker.stdin is not None:
                    worker.stdin.close()
                worker.wait(timeout=60)

    def warm(self, preset: str, bots: str) -> None:
        """A game in every worker, not counted (each compiled its rule set at start)."""
        for layout in range(len(LAYOUTS)):
            self.play(preset, 10**6 * len(LAYOUTS) + layout, bots)

    def play(self, preset: str, seed: int, bots: str) -> dict[str, float]:
        """One game each, in turn, in an order shuffled by the seed: the CPU seconds each
        spent (in a fixed order the same contender always ran right after the same
        other, and its place moved its figure by several percent: round 6)."""
        spent = {}
        layout = seed % len(LAYOUTS)
        order = [(name, workers[layout]) for name, workers in self.workers.items()]
        random.Random(seed).shuffle(order)
        for name, worker in order:
            assert worker.stdin is not None and worker.stdout is not None
            worker.stdin.write(json.dumps([preset, seed, bots]) + "\n")
            worker.stdin.flush()
            spent[name] = float(worker.stdout.readline())
        return spent

    def count(self, preset: str, seed: int, bots: str) -> None:
        """:meth:`play` one game each and add it to :attr:`spent` and :attr:`ratios`."""
        played = self.play(preset, seed, bots)
        for name, seconds in played.items():
            self.spent[name] = self.spent.get(name, 0.0) + seconds
            self.ratios.setdefault(name, []).append(seconds / played["plugin@ref"])

    def median(self, name: str) -> float:
        """The median of ``name``'s same-seed ratios to the plugin: a burst from another
        guest of the machine inflates one worker's total, the median moves less."""
        return statistics.median(self.ratios[name])


def _worker(ruleset: str) -> None:
    """One contender: reads ``[preset, seed, bots]`` lines, plays each game (the bots play
    the Changelings playbook, chosen by the rule set's id), prints its CPU seconds."""
    from dataclasses import replace

    from nightfall.rulesets import get_ruleset
    from nightfall.sim.bots import make_bot
    from nightfall.sim.play import play_game
    from nightfall.sim.setup import Setup

    def factory(kind: str, name: str, rules: object, rng: object) -> object:
        return make_bot(kind, name, replace(rules, ruleset="changelings"), rng)  # type: ignore[type-var]

    rules = get_ruleset(ruleset)  # compiled once, outside the timing
    for line in sys.stdin:
        preset, seed, bots = json.loads(line)
        setup = Setup(preset, ruleset, tuple(rules.presets()[preset].roles))
        began = time.process_time()
        play_game(setup, seed, bots, bot_factory=factory)
        print(time.process_time() - began, flush=True)


if __name__ == "__main__" and sys.argv[1:2] == ["--worker"]:
    _worker(sys.argv[2])

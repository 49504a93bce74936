"""Play many games, in parallel processes or on a Dask cluster, with a progress bar.

Game ``i`` of a run is played with the seed ``game_seed(master, i)`` whatever process
plays it, and chunks report counts only (:class:`~nightfall.sim.tally.Tally`), which add
up to the same totals in any order: a run is the same for any ``jobs`` and any backend
(:mod:`nightfall.sim.backends`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from nightfall.sim.backends import Backend, LocalBackend
from nightfall.sim.play import DEFAULT_MAX_STAGES, play_game
from nightfall.sim.seeds import game_seed
from nightfall.sim.setup import Setup
from nightfall.sim.tally import Tally

#: games per task sent to a worker (small enough for a smooth progress bar)
MAX_CHUNK = 25


@dataclass
class SetupRun:
    """The outcome of one setup's games."""

    setup: Setup
    tally: Tally
    bots: dict[str, str]
    seed: int
    #: seconds of CPU time the workers spent playing (sum over processes)
    cpu_seconds: float = 0.0
    extra: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class _Task:
    setup_index: int
    setup: Setup
    bots: tuple[tuple[str, str], ...]
    master: int
    start: int
    stop: int
    max_stages: int


def _play_chunk(task: _Task) -> tuple[int, int, Tally, float]:
    began = time.process_time()
    tally = Tally()
    bots = dict(task.bots)
    for index in range(task.start, task.stop):
        tally.add(play_game(task.setup, game_seed(task.master, index), bots, index=index,
                            max_stages=task.max_stages))
    return task.setup_index, task.stop - task.start, tally, time.process_time() - began


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else (os.cpu_count() or 1))


def run_setups(
    setups: Sequence[Setup],
    games: int,
    bots: Mapping[str, str],
    seed: int,
    jobs: int = 1,
    *,
    max_stages: int = DEFAULT_MAX_STAGES,
    progress: bool = False,
    console: Console | None = None,
    on_chunk: Callable[[int], None] | None = None,
    backend: Backend | None = None,
) -> list[SetupRun]:
    """Play ``games`` games of each setup on ``backend`` (an open one, e.g. a
    :class:`~nightfall.sim.backends.DaskBackend`), by default ``jobs`` worker processes
    here (1: this process)."""
    if games < 1:
        raise ValueError("play at least one game")
    backend = backend or LocalBackend(jobs)
    jobs = backend.workers
    chunk = max(1, min(MAX_CHUNK, games // (jobs * 8) or 1))
    frozen_bots = tuple(sorted(bots.items()))
    tasks = [
        _Task(number, setup, frozen_bots, seed, start, min(games, start + chunk), max_stages)
        for number, setup in enumerate(setups)
        for start in range(0, games, chunk)
    ]
    runs = [SetupRun(setup, Tally(), dict(bots), seed) for setup in setups]
    total = games * len(setups)
    bar = _progress(console) if progress else None

    task_id: TaskID | None = None

    def collect(result: tuple[int, int, Tally, float]) -> None:
        number, played, tally, cpu = result
        runs[number].tally.merge(tally)
        runs[number].cpu_seconds += cpu
        if bar is not None and task_id is not None:
            bar.advance(task_id, played)
        if on_chunk is not None:
            on_chunk(played)

    began = time.perf_counter()
    with bar or _nothing():
        task_id = bar.add_task("games", total=total) if bar is not None else None
        with closing(backend.imap_unordered(_play_chunk, tasks)) as results:
            for result in results:
                collect(result)
    wall = time.perf_counter() - began
    for run in runs:
        run.extra["wall_seconds"] = wall / len(runs)
        run.extra["jobs"] = jobs
    return runs


def run_setup(setup: Setup, games: int, bots: Mapping[str, str], seed: int, jobs: int = 1,
              *, max_stages: int = DEFAULT_MAX_STAGES, progress: bool = False) -> SetupRun:
    return run_setups([setup], games, bots, seed, jobs, max_stages=max_stages,
                      progress=progress)[0]


def _progress(console: Console | None) -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        _RateColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console or Console(stderr=True),
        transient=False,
    )


class _RateColumn(ProgressColumn):
    """Games per second so far."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:7.1f} games/s" if speed else "      … games/s")


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *args: object) -> None:
        return None

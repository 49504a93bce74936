"""Where the chunks of a run are played: this process, a local process pool, or a Dask
cluster.

A backend does one thing: apply a function to every chunk and hand back the results as
they complete, in any order. The runner merges the chunks' tallies, which add up to the
same totals in any order, and game ``i`` is played with ``game_seed(seed, i)`` whoever
plays it, so every backend gives the same report for a seed.

Why Dask (``dask.distributed``) for clusters rather than Ray: it is pure Python from PyPI
(a few MB, no platform binaries), a ``LocalCluster`` starts in about a second on a 2-core
machine (so a test can start a real one), and the same client code talks to a real
scheduler (``tcp://host:8786``) started with ``dask scheduler`` / ``dask worker``. Ray
brings a large native core (platform wheels of tens of MB) and its local cluster (raylet,
GCS, dashboard) is heavy for the 2-core CI machine; nothing here needs its actors or
object store.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TypeVar

from nightfall.engine.text import N_
from nightfall.sim.errors import SimError

if TYPE_CHECKING:
    from distributed import Client, LocalCluster

T = TypeVar("T")
R = TypeVar("R")

#: the names accepted by ``nightfall simulate --backend``
BACKENDS = ("local", "dask")


class BackendError(SimError, RuntimeError):
    """A backend that cannot run (scheduler unreachable, workers with other code);
    ``reason`` says why in any language."""


class Backend(ABC):
    """Plays chunks somewhere. A context manager: a backend that starts processes or a
    cluster stops them on exit; it may serve several runs in between."""

    name: str = ""

    @property
    @abstractmethod
    def workers(self) -> int:
        """How many chunks run at the same time (sizes the chunks, shown in reports)."""

    @abstractmethod
    def imap_unordered(self, function: Callable[[T], R], items: Sequence[T]
                       ) -> Generator[R, None, None]:
        """``function(item)`` for every item, yielded as each completes. Closing the
        iterator early (an error, Ctrl-C) drops the chunks not yet started."""

    @abstractmethod
    def open(self) -> None:
        """Acquire what the backend needs (a cluster, a connection)."""

    @abstractmethod
    def close(self) -> None:
        """Release it again (may be called more than once)."""

    def __enter__(self) -> Self:
        self.open()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()


class LocalBackend(Backend):
    """``jobs`` worker processes on this machine (a fresh pool per run, forked where the
    platform can, or started by ``start_method``: ``spawn``, ``forkserver``); one job
    plays in this process, in order. A worker inherits nothing it needs: a rule file
    travels with its setups (:mod:`nightfall.sim.rulefiles`)."""

    name = "local"

    def __init__(self, jobs: int = 1, start_method: str | None = None) -> None:
        self.jobs = max(1, jobs)
        if start_method is not None and (
                start_method not in multiprocessing.get_all_start_methods()):
            raise ValueError(f"no start method {start_method!r} here")
        self.start_method = start_method

    @property
    def workers(self) -> int:
        return self.jobs

    def open(self) -> None:
        """Nothing to acquire: each run makes its own pool (as before the backends)."""

    def close(self) -> None:
        """Nothing to release."""

    def imap_unordered(self, function: Callable[[T], R], items: Sequence[T]
                       ) -> Generator[R, None, None]:
        if self.jobs == 1:
            for item in items:
                yield function(item)
            return
        context = multiprocessing.get_context(self.start_method or (
            "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"))
        with ProcessPoolExecutor(max_workers=self.jobs, mp_context=context) as pool:
            futures: list[Future[R]] = [pool.submit(function, item) for item in items]
            try:
                for future in as_completed(futures):
                    yield future.result()
            except BaseException:  # Ctrl-C, a failing game, or the caller stopped reading
                pool.shutdown(wait=False, cancel_futures=True)
                raise


class DaskBackend(Backend):
    """A Dask cluster: the scheduler at ``address``, or (without one) a ``LocalCluster``
    of ``workers`` single-threaded worker processes started here and stopped on exit.

    The workers must run the same Nightfall code as this process (otherwise the games, and
    the report, could differ): :meth:`open` compares a fingerprint of the package's source
    on every worker with the local one and refuses to run on a mismatch.
    """

    name = "dask"

    def __init__(self, address: str | None = None, workers: int = 1, *,
                 connect_timeout: float = 10.0) -> None:
        self.address = address
        self._requested = max(1, workers)
        self.connect_timeout = connect_timeout
        self._client: Client | None = None
        self._cluster: LocalCluster | None = None
        self._workers = self._requested

    @property
    def workers(self) -> int:
        return self._workers

    @property
    def client(self) -> Client:
        if self._client is None:
            raise BackendError(N_("the Dask backend is not open (use it in a with block)"))
        return self._client

    def open(self) -> None:
        import logging

        from distributed import Client, LocalCluster

        if self._client is not None:  # already open (the with block of an opened backend)
            return
        try:
            if self.address is None:
                # one thread per worker: games are pure Python, threads would share the GIL;
                # the scheduler's HTTP server on a free local port, not a taken :8787
                self._cluster = LocalCluster(
                    n_workers=self._requested, threads_per_worker=1, processes=True,
                    host="127.0.0.1", dashboard_address="127.0.0.1:0",
                    silence_logs=logging.ERROR)
                self._client = Client(self._cluster, timeout=self.connect_timeout)
            else:
                self._client = Client(self.address, timeout=self.connect_timeout)
        except (OSError, TimeoutError, ValueError) as error:
            self.close()
            if self.address is None:
                raise BackendError(N_("cannot start a local Dask cluster: {error}"),
                                   error=str(error)) from error
            raise BackendError(N_("cannot reach the Dask scheduler at {address}: {error}"),
                               address=self.address, error=str(error)) from error
        try:
            self._check_workers()
        except BaseException:
            self.close()
            raise

    def _check_workers(self) -> None:
        client = self.client
        if self.address is not None:
            client.wait_for_workers(1, timeout=self.connect_timeout)
        info = client.scheduler_info(n_workers=-1)
        threads = sum(int(worker.get("nthreads", 1)) for worker in info["workers"].values())
        self._workers = max(1, threads)
        mine = code_fingerprint()
        try:
            theirs: dict[str, str] = client.run(code_fingerprint)
        except ImportError as error:
            raise BackendError(N_("the Dask workers cannot import Nightfall ({error}); "
                                  "install the same version on every worker"),
                               error=str(error)) from error
        differing = sorted(worker for worker, print_ in theirs.items() if print_ != mine)
        if differing:
            raise BackendError(
                N_("these Dask workers run other Nightfall code than this machine (results "
                   "would differ): {workers}; install the same version there"),
                workers=", ".join(differing))

    def close(self) -> None:
        client, cluster = self._client, self._cluster
        self._client = self._cluster = None
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()

    def imap_unordered(self, function: Callable[[T], R], items: Sequence[T]
                       ) -> Generator[R, None, None]:
        from distributed import as_completed as dask_completed

        client = self.client
        # pure=False: never reuse a result held by a long-lived scheduler
        futures = client.map(function, list(items), pure=False)
        try:
            for future in dask_completed(futures):
                result: R = future.result()
                yield result
        except BaseException:
            client.cancel(futures)
            raise


def make_backend(name: str, jobs: int, cluster: str | None = None) -> Backend:
    """The backend called ``name`` (``local`` or ``dask``), not yet opened."""
    if name == "local":
        if cluster is not None:
            raise BackendError(N_("--cluster needs --backend dask"))
        return LocalBackend(jobs)
    if name == "dask":
        return DaskBackend(cluster, jobs)
    raise BackendError(N_("unknown backend {backend} (choose one of {choices})"),
                       backend=repr(name), choices=", ".join(BACKENDS))


def code_fingerprint() -> str:
    """A hash of the Nightfall package's Python source (run on each Dask worker too)."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(os.fsencode(path.relative_to(root).as_posix()))
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def describe(backend: Backend) -> dict[str, Any]:
    """The backend for a report's timing section."""
    data: dict[str, Any] = {"backend": backend.name, "workers": backend.workers}
    if isinstance(backend, DaskBackend):
        data["cluster"] = backend.address or "local cluster"
    return data

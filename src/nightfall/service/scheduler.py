"""The deadline scheduler: a background thread that ticks games whose deadline passed.

On start it catches up at once (deadlines that passed while the service was down are
resolved in order, each stage starting at the previous deadline); then it looks every
``interval`` seconds. Correctness never depends on it: a player command after a deadline
is rejected whether or not the stage was closed yet.

Every server process runs its own scheduler, on purpose: ``GameService.tick_due`` claims
each due game in the database (``SELECT … FOR UPDATE SKIP LOCKED`` on PostgreSQL) inside
the transaction that resolves it, so a deadline fires exactly once however many
processes run, and a game whose resolving process died is picked up by the next tick of
any other. No process-local timer decides anything.
"""

from __future__ import annotations

import logging
import threading

from nightfall.service.games import GameService

log = logging.getLogger(__name__)


class Scheduler:
    def __init__(self, service: GameService, interval: float = 5.0) -> None:
        self.service, self.interval = service, interval
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def run_once(self) -> dict[str, int]:
        return self.service.tick_due()

    def start(self) -> None:
        """Start the thread; its first tick (the catch-up) runs at once, in the thread,
        so a long catch-up does not hold up the server's start."""
        self._thread = threading.Thread(target=self._loop, name="nightfall-scheduler",
                                        daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while True:
            try:
                self.run_once()
            except Exception:  # keep ticking the other games; the error is logged
                log.exception("scheduler tick failed")
            if self._stop.wait(self.interval):
                return

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

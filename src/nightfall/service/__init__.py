"""The game service: the engine behind a database and a clock.

Every operation is one transaction (load, run the engine, append the events); the
scheduler ticks games whose deadline has passed, catching up after downtime in order.
"""

from nightfall.service.clock import Clock, FixedClock, SystemClock
from nightfall.service.games import CreatedGame, GameIdTaken, GameService, RulesRefused
from nightfall.service.scheduler import Scheduler

__all__ = ["Clock", "CreatedGame", "FixedClock", "GameIdTaken", "GameService", "RulesRefused",
           "Scheduler", "SystemClock"]

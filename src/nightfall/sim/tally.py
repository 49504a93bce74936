"""Counting games: a :class:`Tally` holds only sums and counters, so tallies of chunks of
games played in different processes merge into the same totals in any order."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from nightfall.sim.play import GameResult


@dataclass
class Tally:
    games: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    #: the number of the day/night a game ended in
    length: Counter[int] = field(default_factory=Counter)
    ended_in: Counter[str] = field(default_factory=Counter)
    stages: int = 0
    commands: int = 0
    rejected: int = 0
    #: per role dealt: seats, seats still in the game at the end, seats among the winners
    role_players: Counter[str] = field(default_factory=Counter)
    role_survived: Counter[str] = field(default_factory=Counter)
    role_won: Counter[str] = field(default_factory=Counter)
    #: departures by cause, by "cause|role dealt", by "cause|day" or "cause|night"
    causes: Counter[str] = field(default_factory=Counter)
    cause_role: Counter[str] = field(default_factory=Counter)
    cause_phase: Counter[str] = field(default_factory=Counter)
    #: the cause of each game's first departure
    first_departure: Counter[str] = field(default_factory=Counter)
    #: why bot commands were rejected: the reason's msgid -> count
    rejections: Counter[str] = field(default_factory=Counter)

    def add(self, result: GameResult) -> None:
        self.games += 1
        self.wins[result.winner] += 1
        self.length[result.length] += 1
        self.ended_in[result.ended_in] += 1
        self.stages += result.stages
        self.commands += result.commands
        self.rejected += result.rejected
        for role, survived, won in zip(result.roles, result.survived, result.won, strict=True):
            self.role_players[role] += 1
            self.role_survived[role] += survived
            self.role_won[role] += won
        for role, cause, phase in result.departures:
            self.causes[cause] += 1
            self.cause_role[f"{cause}|{role}"] += 1
            self.cause_phase[f"{cause}|{phase}"] += 1
        if result.departures:
            self.first_departure[result.departures[0][1]] += 1
        self.rejections.update(dict(result.rejections))

    def merge(self, other: Tally) -> None:
        self.games += other.games
        self.stages += other.stages
        self.commands += other.commands
        self.rejected += other.rejected
        for name in _COUNTERS:
            getattr(self, name).update(getattr(other, name))

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "games": self.games, "stages": self.stages, "commands": self.commands,
            "rejected": self.rejected,
        }
        for name in _COUNTERS:
            counter: Counter[Any] = getattr(self, name)
            data[name] = {str(key): counter[key] for key in sorted(counter, key=_sort_key)}
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Tally:
        tally = cls(games=data["games"], stages=data["stages"], commands=data["commands"],
                    rejected=data["rejected"])
        for name in _COUNTERS:
            values = data.get(name, {})
            keys = (int(k) if name == "length" else k for k in values)
            getattr(tally, name).update(dict(zip(keys, values.values(), strict=True)))
        return tally


_COUNTERS = ("wins", "length", "ended_in", "role_players", "role_survived", "role_won",
             "causes", "cause_role", "cause_phase", "first_departure", "rejections")


def _sort_key(key: Any) -> tuple[int, Any]:
    return (0, key) if isinstance(key, int) else (1, str(key))

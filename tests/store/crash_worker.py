"""A writer process for the crash tests: plays a fixed script of commands against the
store, printing ``done N`` after each committed command, until it is killed."""

from __future__ import annotations

import sys
from datetime import datetime
from zoneinfo import ZoneInfo

from nightfall.engine import Command
from nightfall.service import FixedClock, GameService

START = datetime(2012, 12, 1, 20, 0, tzinfo=ZoneInfo("Europe/Berlin"))
PLAYERS = [f"P{i:02d}" for i in range(12)]
ROLES = {name: ("changeling" if i < 3 else "researcher" if i == 3 else "pony")
         for i, name in enumerate(PLAYERS)}


def script() -> list[Command]:
    """Elect, then rounds of: night kill, stage close, votes, day close."""
    commands = [Command("elect", by=p, target="P05") for p in PLAYERS]
    commands.append(Command("advance"))
    victims = ["P06", "P07", "P08", "P09"]
    for night, victim in enumerate(victims):
        commands.append(Command("abduct", by="P00", target=victim))
        commands += [Command("advance"), Command("investigate", by="P03",
                                                 target=f"P0{night}"), Command("advance")]
        commands += [Command("vote", by=p, target="P10") for p in PLAYERS[:3]]
        commands.append(Command("advance"))
    return commands


def run(service: GameService, game_id: str, commands: list[Command], first: int) -> None:
    for index in range(first, len(commands)):
        command = commands[index]
        try:
            if command.action == "advance":
                service.gm(game_id, "advance")
            else:
                service.submit(game_id, command)
        except ValueError:
            pass  # a command the script's game state rejects is simply skipped
        print(f"done {index}", flush=True)


def main() -> None:
    url, game_id, first = sys.argv[1], sys.argv[2], int(sys.argv[3])
    service = GameService(url=url, clock=FixedClock(START))
    run(service, game_id, script(), first)


if __name__ == "__main__":
    main()

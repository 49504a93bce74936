"""The ready demo game of ``./run``: the seed's 15 players of Changelings (C16.3), dealt
and started in the event store, with every private link.

``./run`` on the same database reuses the demo game it dealt before while that game is
still running (issue 18: each run dealt one more next to the old one). Links are kept
only as hashes, so the reused game gets new links — printed again, the old ones stop
working — and the text says so; ``nightfall serve --new-demo`` deals a fresh one."""

from __future__ import annotations

from dataclasses import dataclass

from nightfall.demo import SEED_PLAYERS, canterlot_15
from nightfall.service import GameService

#: how the demo game is known again in the database
DEMO_TITLE = "Changelings — Canterlot (Demo)"


@dataclass(frozen=True)
class DemoGame:
    game_id: str
    gm_token: str
    tokens: dict[str, str]
    #: an earlier run's game, with new links
    reused: bool = False


def create_demo(service: GameService, seed: int = 2012, locale: str = "de") -> DemoGame:
    created = service.create("changelings", seed, {"early_close": True}, locale,
                             title=DEMO_TITLE)
    tokens = {name: service.signup(created.id, name, description)
              for name, description in SEED_PLAYERS}
    service.deal(created.id, roles=canterlot_15())
    service.start(created.id)
    return DemoGame(created.id, created.gm_token, tokens)


def running_demo(service: GameService) -> str | None:
    """The newest demo game of this database that is still running, if any."""
    games = [g for g in service.store.list_games() if g.title == DEMO_TITLE and not g.ended]
    return games[-1].id if games else None


def ensure_demo(service: GameService, fresh: bool = False) -> DemoGame:
    """The running demo game with new links, or (none, or ``fresh``) a new one."""
    game_id = None if fresh else running_demo(service)
    if game_id is None:
        return create_demo(service)
    players = list(service.load(game_id).state.players)
    store = service.store
    return DemoGame(game_id, store.issue_token(game_id, None),
                    {name: store.issue_token(game_id, name) for name in players}, reused=True)


def links_text(demo: DemoGame, base_url: str) -> str:
    width = max(len(name) for name in demo.tokens)
    lines = [f"Demo game {demo.game_id} (Changelings, {len(demo.tokens)} players, started)"]
    if demo.reused:
        lines += ["This is the demo game an earlier run dealt (still running), with new links:",
                  "the old links no longer work. `nightfall serve --demo --new-demo` deals a "
                  "fresh one."]
    lines += ["",
             f"Game master:  {base_url}/gm/{demo.gm_token}",
             f"Thread:       {base_url}/g/{demo.game_id}",
             "",
             "Players (each link is that player's login; keep them apart):"]
    lines += [f"  {name.ljust(width)}  {base_url}/p/{token}" for name, token in demo.tokens.items()]
    return "\n".join(lines)

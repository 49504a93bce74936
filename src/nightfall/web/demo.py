"""The ready demo game of ``./run``: the seed's 15 players of Changelings (C16.3), dealt
and started in the event store, with every private link."""

from __future__ import annotations

from dataclasses import dataclass

from nightfall.demo import SEED_PLAYERS
from nightfall.rulesets.changelings.presets import CANTERLOT_15
from nightfall.service import GameService


@dataclass(frozen=True)
class DemoGame:
    game_id: str
    gm_token: str
    tokens: dict[str, str]


def create_demo(service: GameService, seed: int = 2012, locale: str = "de") -> DemoGame:
    created = service.create("changelings", seed, {"early_close": True}, locale,
                             title="Changelings — Canterlot (Demo)")
    tokens = {name: service.signup(created.id, name, description)
              for name, description in SEED_PLAYERS}
    service.deal(created.id, roles=CANTERLOT_15)
    service.start(created.id)
    return DemoGame(created.id, created.gm_token, tokens)


def links_text(demo: DemoGame, base_url: str) -> str:
    width = max(len(name) for name in demo.tokens)
    lines = [f"Demo game {demo.game_id} (Changelings, {len(demo.tokens)} players, started)",
             "",
             f"Game master:  {base_url}/gm/{demo.gm_token}",
             f"Thread:       {base_url}/g/{demo.game_id}",
             "",
             "Players (each link is that player's login; keep them apart):"]
    lines += [f"  {name.ljust(width)}  {base_url}/p/{token}" for name, token in demo.tokens.items()]
    return "\n".join(lines)

"""Typed form of a scenario file (validated by pydantic; unknown keys are errors)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

#: Every command the format knows for the built-in rule sets. A rule set rejects the ones
#: it lacks; a rule file's rule set adds the abilities it declares (loader.py).
COMMANDS = frozenset({
    "vote", "unvote", "advance",
    "elect", "tiebreak", "successor", "abduct", "replace", "shield", "investigate", "scry",
    "disguise", "letter", "love", "visit", "pinkie_save", "pinkie_chase", "drama_chase",
    "pass",
    "check", "heal", "authority", "witch_kill", "witch_cancel", "swap_items", "recharge",
    "assault", "eat", "hamster_kill", "use_item", "bunker_apply", "exchange_offer",
    "fear_pick", "pick_me_partner", "spirit_ask", "spirit_nominate", "post",
})
GM_DIRECTIVES = frozenset({"event", "answer", "refuse", "modkill", "violation", "extend",
                           "skip", "shorten", "say", "tell", "admit"})


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PlayerSpec(Strict):
    name: str = Field(min_length=1)
    role: str
    statuses: list[str] = []
    items: list[str] = []
    description: str = ""


class CommandStep(Strict):
    do: str
    by: str | None = None
    target: str | None = None
    targets: list[str] | None = None
    choice: str | None = None
    text: str | None = None
    expect_error: bool = False
    note: str | None = None


class GmStep(Strict):
    gm: str
    target: str | None = None
    event: str | None = None
    choice: str | None = None
    answer: str | bool | None = None
    minutes: int | None = Field(default=None, gt=0)
    text: str | None = None
    expect_error: bool = False
    note: str | None = None


class ExpectBlock(Strict):
    phase: str | None = None
    alive: list[str] | None = None
    left: dict[str, str] | None = None
    winner: str | None = None
    roles: dict[str, str] | None = None
    statuses: dict[str, list[str]] | None = None
    leader: str | None = None
    items: dict[str, list[str]] | None = None
    votes: dict[str, int] | None = None
    notices: dict[str, list[dict[str, Any]]] | None = None
    posts: list[dict[str, Any]] | None = None
    announced: list[str] | None = None
    not_announced: list[str] | None = None


class ExpectStep(Strict):
    expect: ExpectBlock
    note: str | None = None


class Scenario(Strict):
    #: ``changelings``, ``island`` or the id of a shipped rule file (``werwolf-classic``;
    #: docs/rules-format.md); the loader checks it
    ruleset: str = Field(min_length=1, max_length=64)
    #: SplitMix64 takes 64 bits (engine/rng.py); a longer number is no other game
    seed: int = Field(default=0, ge=0, lt=2**64)
    locale: str = "en"
    options: dict[str, Any] = {}
    players: list[PlayerSpec] = Field(min_length=1)
    steps: list[dict[str, Any]] = []
    title: str | None = None
    rule: str | list[str] | None = None
    description: str | None = None

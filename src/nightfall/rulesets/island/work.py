"""The working memory of one resolution: what a step hands to the later steps.

It lives in ``ctx.scratch`` for the length of one transaction and is never stored; every
lasting effect is an event. The votes carry every correction so that the newspaper's lynch
table can show why each vote went where it went (I3.2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from nightfall.engine import Context

_KEY = "island.work"


@dataclass(init=False)
class Vote:
    """One vote: whose it is, where it goes now, and what happened to it."""

    owner: str
    target: str
    kind: str = "own"  # "own" or "megaphone"
    cast: bool = True  # False: a non-voter's vote, on himself (I6.3)
    lost: str | None = None  # why it was lost (then it counts for the owner, I6.3)
    taken_by: str | None = None  # I2.4: the authority casts it
    meant: str | None = None  # where it was cast, before a loss moved it (the newspaper)

    # own __init__, compiled by mypyc (tests/test_record_inits.py)
    def __init__(self, owner: str, target: str, kind: str = "own", cast: bool = True,
                 lost: str | None = None, taken_by: str | None = None,
                 meant: str | None = None) -> None:
        self.owner = owner
        self.target = target
        self.kind = kind
        self.cast = cast
        self.lost = lost
        self.taken_by = taken_by
        self.meant = meant

    def to_data(self) -> dict[str, Any]:
        return {"owner": self.owner, "target": self.target, "kind": self.kind,
                "cast": self.cast, "lost": self.lost, "taken_by": self.taken_by,
                "meant": self.meant}


@dataclass
class Work:
    votes: list[Vote] = field(default_factory=list)
    fear: bool = False
    lynch: list[str] = field(default_factory=list)
    fear_leader: str | None = None
    # the night (steps 8–20)
    blocked: dict[str, str] = field(default_factory=dict)  # actor -> fog / voodoo
    fog_wolves: list[str] | None = None
    cancelled: bool = False
    attacks: list[str] = field(default_factory=list)
    checks: list[tuple[str, str]] = field(default_factory=list)
    assaults: list[str] = field(default_factory=list)
    pending: list[tuple[str, str]] = field(default_factory=list)  # (player, cause)
    silences: list[str] = field(default_factory=list)


def work(ctx: Context) -> Work:
    found = ctx.scratch.get(_KEY)
    if not isinstance(found, Work):
        found = Work()
        ctx.scratch[_KEY] = found
    return found

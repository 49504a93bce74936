"""``--bots``: which bot plays which faction (``heuristic``, ``changelings=random,heuristic``).

Apart from :mod:`nightfall.sim.bots` because a wrong spec is a user's error with a
message in his language (:class:`~nightfall.sim.errors.SimError`), and the bots'
package may import nothing of the engine but the command type
(tests/sim/test_sim_bots.py).
"""

from __future__ import annotations

from nightfall.engine.text import N_
from nightfall.sim.bots import BOT_KINDS
from nightfall.sim.errors import SimError


class BotSpecError(SimError, ValueError):
    """A ``--bots`` spec names no kind or an unknown one (a ``ValueError`` too)."""


def parse_bots(spec: str) -> dict[str, str]:
    """``heuristic``, or per faction with a default: ``changelings=random,heuristic``.

    Returns ``{faction or "*": kind}``."""
    known = ", ".join(BOT_KINDS)
    result: dict[str, str] = {}
    for part in (p.strip() for p in spec.split(",") if p.strip()):
        faction, _, kind = part.rpartition("=")
        if kind not in BOT_KINDS:
            raise BotSpecError(N_("unknown bot {kind} (known: {known})"), kind=repr(kind),
                               known=known)
        result[faction.strip() or "*"] = kind
    if not result:
        raise BotSpecError(N_("name a bot kind: {known}"), known=known)
    result.setdefault("*", "heuristic")
    return result

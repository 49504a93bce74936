"""What closing a stage now would leave the players (issue 18): the GM who closes a day
early at 21:52 starts a night whose first stage still ends at 22:00 (C2.3) — eight
minutes. Before he closes (or shortens the stage to its end) the web page and the
command line tell him the next stage and its deadline and ask him to confirm.

The outlook is worked out on a copy of the game in memory, as the dashboard's preview
is; nothing is stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from nightfall.engine import Game, Rejected
from nightfall.engine.text import N_, Term, Text

#: a next stage shorter than this is called out as short
SHORT = timedelta(hours=1)


@dataclass(frozen=True)
class Outlook:
    """The stage that closing now would end, and what would follow it."""

    phase: str
    now: datetime
    #: the label of the stage that would begin (``None``: the game would end)
    next_phase: str | None
    #: its deadline (``None``: it would have none)
    deadline: datetime | None

    @property
    def left(self) -> timedelta | None:
        return None if self.deadline is None else self.deadline - self.now

    @property
    def short(self) -> bool:
        left = self.left
        return left is not None and left < SHORT

    def text(self) -> Text:
        """The warning, as a text the reader's language renders."""
        phase = Term("phase", self.phase)
        if self.next_phase is None:
            return Text(N_("Closing {phase} now ends the game."), {"phase": phase})
        params: dict[str, object] = {"phase": phase, "next": Term("phase", self.next_phase),
                                     "deadline": self.deadline}
        left = self.left
        if left is None:
            return Text(N_("Closing {phase} now starts {next}, which has no deadline."), params)
        minutes = max(0, int(left.total_seconds() // 60))
        if minutes < 120:
            return Text(N_("Closing {phase} now starts {next}, whose deadline is {deadline}: "
                           "{minutes} minutes from now."), {**params, "minutes": minutes})
        return Text(N_("Closing {phase} now starts {next}, whose deadline is {deadline}: "
                       "{hours} h {minutes} min from now."),
                    {**params, "hours": minutes // 60, "minutes": minutes % 60})


def after_close(game: Game, now: datetime) -> Outlook | None:
    """What closing the current stage at ``now`` would begin; ``None`` if it cannot be
    closed (not in play, over)."""
    if not game.state.phase.is_play():
        return None
    copy = game.copy()
    try:
        copy.advance(now)
    except Rejected:
        return None
    ended = copy.state.ended
    return Outlook(game.state.phase_label, now, None if ended else copy.state.phase_label,
                   None if ended else copy.state.deadline)


def shortening_ends_stage(game: Game, now: datetime, minutes: int) -> bool:
    """Whether shortening the current deadline by ``minutes`` ends the stage now (C2.6:
    a deadline moved to or past the present closes the stage at the next tick)."""
    deadline = game.state.deadline
    return (game.state.phase.is_play() and deadline is not None
            and deadline - timedelta(minutes=minutes) <= now)

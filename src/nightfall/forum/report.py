"""The vote count as a BBCode post ready to paste into the thread, and as JSON."""

from __future__ import annotations

import json
from datetime import datetime, tzinfo

from nightfall.forum.count import Reason, VoteCount

REASONS: dict[Reason, str] = {
    Reason.QUOTED: "quoted, not the author's own vote",
    Reason.EDITED: "post edited",
    Reason.AFTER_DEADLINE: "after the deadline",
    Reason.BEFORE_START: "before the voting started",
    Reason.NOT_A_PLAYER: "not a player",
    Reason.UNKNOWN_NAME: "unknown name",
    Reason.AMBIGUOUS_NAME: "ambiguous name",
    Reason.SELF_LOVER: "vote for the lover",
    Reason.VOICELESS: "voiceless",
    Reason.DEPARTED: "departed player",
}


def _when(moment: datetime | None, tz: tzinfo) -> str:
    return moment.astimezone(tz).strftime("%d.%m.%Y %H:%M") if moment is not None else ""


def render_bbcode(count: VoteCount, tz: tzinfo) -> str:
    """The count as a BBCode post; times shown in ``tz``."""
    lines: list[str] = []
    title = f"[b]Vote count[/b] — {count.rules.name.capitalize()}"
    window = []
    if count.since is not None:
        window.append(f"from {_when(count.since, tz)}")
    if count.deadline is not None:
        window.append(f"until {_when(count.deadline, tz)}")
    if window:
        title += ", votes " + " ".join(window) + f" ({tz})"
    lines += [title, ""]
    by_target: dict[str, list[str]] = {}
    for voter, vote in count.votes.items():
        label = voter if vote.post is not None else f"{voter}*"
        by_target.setdefault(vote.target, []).append(label)
    if count.tally:
        for target, number in count.tally.items():
            lines.append(f"[b]{target}[/b] ({number}): {', '.join(by_target.get(target, []))}")
    else:
        lines.append("No valid votes.")
    if any(vote.post is None for vote in count.votes.values()):
        lines.append("* no valid vote: counts as a vote for himself")
    lines.append("")
    lines.append(f"[b]Not voting[/b] ({len(count.not_voting)}): "
                 + (", ".join(count.not_voting) or "—"))
    if count.invalid:
        lines += ["", f"[b]Invalid votes[/b] ({len(count.invalid)})"]
        for item in count.invalid:
            said = f' "{item.text}"' if item.text else ""
            lines.append(f"{item.author}{said} (post {item.post}, {_when(item.time, tz)}): "
                         f"{REASONS[item.reason]}")
    if count.unresolved:
        lines += ["", "[b]Names to check[/b]"]
        for entry in count.unresolved:
            hint = (" — did you mean " + " or ".join(entry.candidates) + "?"
                    if entry.candidates else " — no similar player name")
            lines.append(f'{entry.author} (post {entry.post}): "{entry.text}"{hint}')
    return "\n".join(lines) + "\n"


def render_json(count: VoteCount) -> str:
    """The count as the contract's JSON object (one line)."""
    return json.dumps(count.to_json(), ensure_ascii=False)
